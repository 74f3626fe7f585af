package auction

import (
	"fmt"
	"math"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Fibot's penalties (../shared/seeds/auction-fibot4.txt, section 2.2), as
// arbiter reads them; docs/games/auction.md says why these numbers.
const (
	// DefaultOverrun is how far past the move limit an answer may come
	// and still be used: the seed tolerates a "slight" overrun of 1 s.
	DefaultOverrun = 500 * time.Millisecond
	// DefaultOverruns is how many late answers a bot is tolerated over a
	// tournament ("occasionally"); the next one disqualifies it
	// ("regularly").
	DefaultOverruns = 5
	// Disqualify is the breach setting under which a breach of the file
	// or submission rules disqualifies the bot from the tournament.
	Disqualify = "disqualify"
	// BreachDefault is the file rules' other breach setting: the round's
	// bid counts as 0 and the bot plays on.
	BreachDefault = "default"
	// BreachRefuse is the submission rules' other breach setting: the
	// run stops before the first match, naming the bot.
	BreachRefuse = "refuse"
	// Unlimited is the overruns setting under which late answers never
	// disqualify.
	Unlimited = "unlimited"
)

// The attributes of Auction's clock block: the common total and move, the
// start-up allowance, and Fibot's tolerated overruns.
var clockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "total"}, {Name: "move"}, {Name: "startup"}, {Name: "overrun"}, {Name: "overruns"}},
}

// decodeClock decodes clock { total move startup overrun overruns } into
// the game's clock and settings.
func decodeClock(b *hcl.Block, ctx *hcl.EvalContext, g *Game) hcl.Diagnostics {
	content, diags := b.Body.Content(clockSchema)
	for _, f := range []struct {
		name string
		dst  *drivers.Duration
		doc  string
	}{
		{"total", &g.clock.Total, "each bot's budget for the whole match"},
		{"move", &g.clock.Move, "the most a single answer may take, the bot's start included"},
		{"startup", &g.clock.Startup, "the allowance for a bot's start, added to the move limit of its first run in a match"},
	} {
		if a, ok := content.Attributes[f.name]; ok {
			decode := drivers.DecodeDuration
			if f.name == "startup" {
				decode = drivers.DecodeAllowance // added to move: no floor
			}
			d, dd := decode(a, ctx, f.doc)
			diags = append(diags, dd...)
			*f.dst = d
		}
	}
	if a, ok := content.Attributes["overrun"]; ok {
		diags = append(diags, decodeOverrun(a, ctx, &g.settings.Overrun)...)
	}
	if a, ok := content.Attributes["overruns"]; ok {
		diags = append(diags, decodeOverruns(a, ctx, &g.settings.Overruns)...)
	}
	return diags
}

// decodeOverrun decodes overrun = "500ms": a duration from 0.
func decodeOverrun(a *hcl.Attribute, ctx *hcl.EvalContext, dst *drivers.Duration) hcl.Diagnostics {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return diags
	}
	var d time.Duration
	var err error
	if v.Type().FriendlyName() != "string" || v.IsNull() {
		err = fmt.Errorf("not a string")
	} else if d, err = time.ParseDuration(v.AsString()); err == nil && d < 0 {
		err = fmt.Errorf("negative")
	}
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid overrun",
			Detail: "overrun is how far past the move limit an answer may come and still be used (counted as an overrun): " +
				`a duration from "0s" (no overrun tolerated), like "500ms".`,
			Subject: a.Expr.Range().Ptr()}}
	}
	*dst = drivers.Duration(d)
	return nil
}

// decodeOverruns decodes overruns = 5 or "unlimited".
func decodeOverruns(a *hcl.Attribute, ctx *hcl.EvalContext, dst **int) hcl.Diagnostics {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return diags
	}
	bad := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid overruns",
		Detail: "overruns is how many late answers a bot is tolerated over the whole tournament (the next one disqualifies it): " +
			`a whole number from 0, like 5, or "unlimited".`,
		Subject: a.Expr.Range().Ptr()}}
	if v.IsNull() || !v.IsKnown() {
		return bad
	}
	switch v.Type().FriendlyName() {
	case "string":
		if v.AsString() != Unlimited {
			return bad
		}
		*dst = nil
		return nil
	case "number":
		bf := v.AsBigFloat()
		if !bf.IsInt() || bf.Sign() < 0 {
			return bad
		}
		n, acc := bf.Int64()
		if acc != 0 || n > math.MaxInt32 {
			return bad
		}
		k := int(n)
		*dst = &k
		return nil
	}
	return bad
}

// decodeBreach decodes breach = "disqualify" or other, the block's other
// setting.
func decodeBreach(a *hcl.Attribute, ctx *hcl.EvalContext, other, doc string, dst *string) hcl.Diagnostics {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type().FriendlyName() != "string" || (v.AsString() != Disqualify && v.AsString() != other) {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid breach",
			Detail:  fmt.Sprintf("breach is what %s: %q (Fibot's rule, the default) or %q.", doc, Disqualify, other),
			Subject: a.Expr.Range().Ptr()}}
	}
	*dst = v.AsString()
	return nil
}

var _ drivers.Disqualifier = (*Game)(nil)

// DisqualifyRules are the game's: overruns tolerated per bot, and
// whether a breach of the file rules disqualifies.
func (g *Game) DisqualifyRules() drivers.DisqualifyRules {
	r := drivers.DisqualifyRules{Overruns: -1, Breaches: g.settings.Files.Breach == Disqualify,
		Submission: g.settings.Submission.Breach == Disqualify}
	if g.settings.Overruns != nil {
		r.Overruns = *g.settings.Overruns
	}
	return r
}
