package config

import (
	"fmt"
	"math"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/tournament"
)

// Stop is a tournament's `stop` block: rules that end a run before the
// plan is exhausted. Any rule that triggers stops the run.
type Stop struct {
	// SPRT stops a head-to-head or one-candidate gauntlet when the
	// sequential probability ratio test decides.
	SPRT *SPRT
	// MaxMatches stops after that many matches, in plan order (0: no limit).
	MaxMatches int
	// IntervalWidth stops when every bot's 95% rating interval is narrower
	// than this many Elo (0: not used).
	IntervalWidth float64

	DeclRange hcl.Range
}

// SPRT are the hypotheses and error rates of a sequential probability
// ratio test: H0 is "the candidate is Elo0 stronger", H1 "Elo1 stronger".
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	// Model is what Elo0 and Elo1 measure: "normalized" (default),
	// "logistic" or "bayesian", as in fastchess.
	Model string

	DeclRange hcl.Range
}

// SPRTModels are the Elo models of an SPRT's bounds, first is the default.
var SPRTModels = tournament.SPRTModels

// optionBlocks decode the blocks that hold a format's options (see
// tournament.Format.Options), by block type.
var optionBlocks = map[string]func(l *loader, t *Tournament, b *hcl.Block) hcl.Diagnostics{
	"gauntlet": (*loader).decodeGauntlet,
	"groups":   (*loader).decodeGroups,
	"swiss": func(_ *loader, _ *Tournament, b *hcl.Block) hcl.Diagnostics {
		_, d := b.Body.Content(swissSchema)
		return d
	},
}

var (
	gauntletSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "candidates", Required: true}}}
	groupsSchema   = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "random_rounds"}}}
	swissSchema    = &hcl.BodySchema{}
	stopSchema     = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "max_matches"}, {Name: "interval_width"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "sprt"}},
	}
	sprtSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "elo0", Required: true}, {Name: "elo1", Required: true}, {Name: "alpha"}, {Name: "beta"}, {Name: "model"},
	}}
)

// decodeFormatBlocks decodes the format option blocks and the stop block
// of t, whose attributes are already decoded, and checks that the format,
// the seat design and the field fit together.
func (l *loader) decodeFormatBlocks(t *Tournament, blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*hcl.Block{}
	own, missing := t.Format.Options()
	for _, b := range blocks {
		if b.Type == "limits" {
			continue // decoded by limitsOf
		}
		if first, ok := seen[b.Type]; ok {
			diags = append(diags, errDiag("Duplicate "+b.Type+" block",
				fmt.Sprintf("A tournament takes one %s block; the first is at %s. Merge them.", b.Type, first.DefRange.String()), b.DefRange.Ptr()))
			continue
		}
		seen[b.Type] = b
		decode, ok := optionBlocks[b.Type]
		if !ok {
			continue
		}
		if b.Type != own {
			f := formatOf(b.Type)
			diags = append(diags, errDiag("Options of another format",
				fmt.Sprintf("The %s block holds options of format %q, but this tournament's format is %q. Set format = %q or remove the block.", b.Type, f, t.Format, f),
				b.DefRange.Ptr()))
			continue
		}
		diags = append(diags, decode(l, t, b)...)
	}
	// After the gauntlet block, whose candidates the SPRT rule checks.
	if b := seen["stop"]; b != nil {
		diags = append(diags, l.decodeStop(t, b)...)
	}
	if missing != nil && seen[own] == nil {
		diags = append(diags, t.problem(*missing))
	}
	if t.Players > 0 { // else players is missing or invalid, reported already
		if p := t.Seats.Check(t.Players); p != nil {
			diags = append(diags, t.problem(*p))
		}
	}
	var bots []string
	for _, b := range t.Bots {
		bots = append(bots, b.Name)
	}
	for _, p := range t.Format.Check(&tournament.Setup{Bots: bots, Fill: len(t.Fill), Players: t.Players, Rounds: t.Rounds, RandomRounds: t.RandomRounds}) {
		diags = append(diags, t.problem(p))
	}
	return diags
}

// formatOf is the format whose options block is named block.
func formatOf(block string) tournament.Format {
	for _, f := range tournament.Formats {
		if b, _ := f.Options(); b == block {
			return f
		}
	}
	panic("config: no format has options block " + block)
}

// problem is p as a diagnostic at the attribute it concerns, or at the
// tournament block.
func (t *Tournament) problem(p tournament.Problem) *hcl.Diagnostic {
	subject := rangePtr(t.Ranges[p.Attr])
	if p.Attr == "" || subject == nil {
		subject = t.DeclRange.Ptr()
	}
	if t.short[p.Attr] {
		return followOn(subject)
	}
	return errDiag(p.Summary, p.Detail, subject)
}

func (l *loader) decodeGauntlet(t *Tournament, b *hcl.Block) hcl.Diagnostics {
	content, diags := b.Body.Content(gauntletSchema)
	a, ok := content.Attributes["candidates"]
	if !ok {
		return diags
	}
	t.Ranges["candidates"] = a.Expr.Range()
	v, d := l.value(a.Expr, scopeTournament)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	cands, d := l.botList(map[string]cty.Value{"candidates": v}, "candidates", t.Ranges)
	diags = append(diags, d...)
	rng := rangePtr(t.Ranges["candidates"])
	inField := map[string]bool{}
	for _, bot := range t.Bots {
		inField[bot.Name] = true
	}
	seen := map[string]bool{}
	for _, c := range cands {
		switch {
		case !inField[c.Name]:
			diags = append(diags, errDiag("Candidate not in the field",
				fmt.Sprintf("bot.%s is a candidate but not in bots. List it in bots too.", c.Name), rng))
		case seen[c.Name]:
			diags = append(diags, errDiag("Bot listed twice",
				fmt.Sprintf("bot.%s is listed twice in candidates.", c.Name), rng))
		}
		seen[c.Name] = true
	}
	switch {
	case len(cands) == 0 && !d.HasErrors():
		diags = append(diags, errDiag("Gauntlet without candidates",
			"candidates is empty: list the bots to test against the rest of the field, like [bot.x].", rng))
	case len(cands) > 0 && len(seen) >= len(t.Bots):
		diags = append(diags, errDiag("Gauntlet without opponents",
			"Every bot of the field is a candidate, so none is left to play against. Keep some bots out of candidates.", rng))
	}
	t.Candidates = cands
	return diags
}

func (l *loader) decodeGroups(t *Tournament, b *hcl.Block) hcl.Diagnostics {
	content, diags := b.Body.Content(groupsSchema)
	vals := l.attrValues(content.Attributes, t.Ranges, &diags)
	diags = append(diags, intAttr(vals, "random_rounds", t.Ranges, 1, math.MaxInt32, &t.RandomRounds)...)
	return diags
}

func (l *loader) decodeStop(t *Tournament, b *hcl.Block) hcl.Diagnostics {
	s := &Stop{DeclRange: b.DefRange}
	content, diags := b.Body.Content(stopSchema)
	vals := l.attrValues(content.Attributes, t.Ranges, &diags)
	diags = append(diags, intAttr(vals, "max_matches", t.Ranges, 1, math.MaxInt32, &s.MaxMatches)...)
	diags = append(diags, floatAttr(vals, "interval_width", t.Ranges, 0, math.Inf(1), &s.IntervalWidth)...)
	for i, sb := range content.Blocks {
		if i > 0 {
			diags = append(diags, errDiag("Duplicate sprt block",
				fmt.Sprintf("A stop block takes one sprt block; the first is at %s.", content.Blocks[0].DefRange.String()), sb.DefRange.Ptr()))
			continue
		}
		sp, d := l.decodeSPRT(t, sb)
		diags = append(diags, d...)
		s.SPRT = sp
	}
	if s.SPRT == nil && s.MaxMatches == 0 && s.IntervalWidth == 0 && !diags.HasErrors() {
		diags = append(diags, errDiag("Empty stop block",
			"A stop block needs a rule: an sprt block, max_matches or interval_width.", b.DefRange.Ptr()))
	}
	if s.SPRT != nil {
		// Only a gauntlet has candidates.
		headToHead := len(t.Candidates) == 1 || len(t.Bots) == 2
		if !headToHead && len(t.Bots) > 0 {
			diags = append(diags, errDiag("SPRT needs one candidate",
				"An SPRT compares one bot against its opponents: use format \"gauntlet\" with one candidate, or a field of two bots.", s.SPRT.DeclRange.Ptr()))
		}
		// Paired matches are tested as pairs (pentanomial), for which
		// fastchess has no bayesian model.
		if s.SPRT.Model == "bayesian" && t.Seats.PairsGames(t.Players, t.Deal) {
			diags = append(diags, errDiag("Bayesian SPRT on paired matches",
				"Swapped seats on a shared deal are tested as pairs (pentanomial), which the bayesian model cannot do. Use model = \"normalized\" or \"logistic\", or deal = \"per-match\".", s.SPRT.DeclRange.Ptr()))
		}
	}
	t.Stop = s
	return diags
}

func (l *loader) decodeSPRT(t *Tournament, b *hcl.Block) (*SPRT, hcl.Diagnostics) {
	s := &SPRT{Alpha: 0.05, Beta: 0.05, Model: SPRTModels[0], DeclRange: b.DefRange}
	content, diags := b.Body.Content(sprtSchema)
	ranges := map[string]hcl.Range{}
	vals := l.attrValues(content.Attributes, ranges, &diags)
	// The numbers are read here; what they may be is the rule a saved
	// plan is checked by too (tournament.CheckSPRT).
	inf := math.Inf(1)
	bad := map[string]bool{}
	for _, f := range []struct {
		attr string
		dst  *float64
	}{{"elo0", &s.Elo0}, {"elo1", &s.Elo1}, {"alpha", &s.Alpha}, {"beta", &s.Beta}} {
		d := floatAttr(vals, f.attr, ranges, -inf, inf, f.dst)
		diags = append(diags, d...)
		bad[f.attr] = d.HasErrors()
	}
	diags = append(diags, choiceAttr(vals, "model", ranges, SPRTModels, &s.Model)...)
	_, has0 := vals["elo0"]
	_, has1 := vals["elo1"]
	for _, p := range tournament.CheckSPRT(s.Elo0, s.Elo1, s.Alpha, s.Beta, s.Model) {
		if bad[p.Attr] || p.Attr == "model" || p.Attr == "elo1" && (!has0 || !has1 || bad["elo0"]) {
			continue // reported already, or missing
		}
		r := ranges[p.Attr]
		diags = append(diags, errDiag(p.Summary, p.Detail, &r))
	}
	return s, diags
}

// attrValues evaluates attributes in the tournament scope, recording their
// ranges; diagnostics are appended to diags.
func (l *loader) attrValues(attrs hcl.Attributes, ranges map[string]hcl.Range, diags *hcl.Diagnostics) map[string]cty.Value {
	vals := map[string]cty.Value{}
	for name, a := range attrs {
		ranges[name] = a.Expr.Range()
		v, d := l.value(a.Expr, scopeTournament)
		*diags = append(*diags, d...)
		if !d.HasErrors() {
			vals[name] = v
		}
	}
	return vals
}

// floatAttr decodes a number in the open interval (min, max); infinite
// bounds leave that side open.
func floatAttr(vals map[string]cty.Value, attr string, ranges map[string]hcl.Range, min, max float64, dst *float64) hcl.Diagnostics {
	v, ok := vals[attr]
	if !ok {
		return nil
	}
	var f float64
	if err := gocty.FromCtyValue(toNumber(v), &f); err != nil || !(f > min && f < max) || math.IsNaN(f) {
		var want string
		switch {
		case math.IsInf(min, -1) && math.IsInf(max, 1):
			want = "a number"
		case math.IsInf(max, 1):
			want = fmt.Sprintf("a number above %g", min)
		default:
			want = fmt.Sprintf("a number between %g and %g (exclusive)", min, max)
		}
		return hcl.Diagnostics{errDiag("Invalid "+attr, fmt.Sprintf("%s must be %s, not %s.", attr, want, describe(v)), rangePtr(ranges[attr]))}
	}
	*dst = f
	return nil
}
