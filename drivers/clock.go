package drivers

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// ClockBlock is the schema of the `clock { total = "5m" }` (move, turn,
// startup: one attribute a line when more than one) block that drivers with a per-bot game clock put in their game body.
var ClockBlock = hcl.BlockHeaderSchema{Type: "clock"}

var clockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "total"}, {Name: "move"}},
}

var processClockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "total"}, {Name: "move"}, {Name: "startup"}},
}

var sessionClockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "total"}, {Name: "move"}, {Name: "turn"}, {Name: "startup"}},
}

// DecodeClock decodes a clock block of total and move.
func DecodeClock(b *hcl.Block, ctx *hcl.EvalContext) (Clock, hcl.Diagnostics) {
	return decodeClock(b, ctx, clockSchema)
}

// DecodeProcessClock decodes the clock block of a game that starts a
// bot afresh for every decision: total and move, and also startup, added
// to the move limit of each bot's first run in a match (its cold start).
func DecodeProcessClock(b *hcl.Block, ctx *hcl.EvalContext) (Clock, hcl.Diagnostics) {
	return decodeClock(b, ctx, processClockSchema)
}

// DecodeSessionClock decodes the clock block of a game whose bots run for
// the whole match and answer several messages a turn (the GTP-like
// games): total and move, and also turn and startup.
func DecodeSessionClock(b *hcl.Block, ctx *hcl.EvalContext) (Clock, hcl.Diagnostics) {
	return decodeClock(b, ctx, sessionClockSchema)
}

func decodeClock(b *hcl.Block, ctx *hcl.EvalContext, schema *hcl.BodySchema) (Clock, hcl.Diagnostics) {
	var c Clock
	content, diags := b.Body.Content(schema)
	for _, f := range []struct {
		name string
		dst  *Duration
		doc  string
	}{
		{"total", &c.Total, "each bot's budget for the whole match"},
		{"move", &c.Move, "the most a single answer may take"},
		{"turn", &c.Turn, "the most all the messages of one turn may take together"},
		{"startup", &c.Startup, "the allowance for a bot's start"},
	} {
		if a, ok := content.Attributes[f.name]; ok {
			decode := DecodeDuration
			if f.name == "startup" {
				decode = DecodeAllowance
			}
			d, dd := decode(a, ctx, f.doc)
			diags = append(diags, dd...)
			*f.dst = d
		}
	}
	return c, diags
}

// DecodeDuration decodes an attribute holding a duration string like
// "5m" or "500ms", a limit on an answer: positive and at least
// MinDuration. doc says what the duration is for, in error messages.
func DecodeDuration(a *hcl.Attribute, ctx *hcl.EvalContext, doc string) (Duration, hcl.Diagnostics) {
	return decodeDuration(a, ctx, doc, answerLimit)
}

// DecodeAllowance is DecodeDuration for an allowance added to a limit
// (a clock's startup), which cannot fault a bot: positive, with no floor.
func DecodeAllowance(a *hcl.Attribute, ctx *hcl.EvalContext, doc string) (Duration, hcl.Diagnostics) {
	return decodeDuration(a, ctx, doc, allowance)
}

// DecodeWait is DecodeDuration for a wait that may be none, "0s" (a
// delay rather than a limit, with no floor).
func DecodeWait(a *hcl.Attribute, ctx *hcl.EvalContext, doc string) (Duration, hcl.Diagnostics) {
	return decodeDuration(a, ctx, doc, wait)
}

// durationKind is what a decoded duration is for, which says what it
// may be.
type durationKind int

const (
	answerLimit durationKind = iota // positive, at least MinDuration
	allowance                       // positive
	wait                            // 0 or more
)

// MinDuration is the shortest clock limit, 1 ms. A bot's answer
// crosses two pipes and a scheduler's wake-up: under a millisecond no bot
// can answer, even a compiled one that does nothing, so such a limit
// faults every seat on its first message. It is refused where it is
// written, not found out match by match.
const MinDuration = time.Millisecond

// MinDurationWhy says why a limit is at least MinDuration, in messages.
const MinDurationWhy = "a bot's answer crosses two pipes and a wake-up, which take longer, so every bot would fault on its first message"

// maxDuration is the longest duration Go's time package holds, about
// 292 years.
const maxDuration = time.Duration(math.MaxInt64)

func decodeDuration(a *hcl.Attribute, ctx *hcl.EvalContext, doc string, kind durationKind) (Duration, hcl.Diagnostics) {
	zero := kind == wait
	var s string
	if diags := gohcl.DecodeExpression(a.Expr, ctx, &s); diags.HasErrors() {
		return 0, diags
	}
	d, err := time.ParseDuration(s)
	var detail string
	switch {
	case err != nil && tooLong(s):
		detail = fmt.Sprintf("%s (%s) is %q, longer than the longest duration, %v (about 292 years).", a.Name, doc, s, maxDuration)
	case err != nil || d < 0 || (d == 0 && !zero):
		want := "a positive duration like \"5m\", \"90s\" or \"500ms\""
		if zero {
			want = "a duration like \"1.5s\" or \"500ms\", or \"0s\" for none"
		}
		detail = fmt.Sprintf("%s (%s) must be %s, not %q.", a.Name, doc, want, s)
	case kind == answerLimit && d < MinDuration:
		detail = fmt.Sprintf("%s (%s) is %v, but the shortest limit is %v: %s.", a.Name, doc, d, MinDuration, MinDurationWhy)
	default:
		return Duration(d), nil
	}
	return 0, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid duration",
		Detail:   detail,
		Subject:  a.Expr.Range().Ptr(),
	}}
}

// tooLong reports whether s is a duration that time.ParseDuration
// refuses only for its size: s with its number made small parses.
func tooLong(s string) bool {
	digits := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if digits <= 0 {
		return false
	}
	_, err := time.ParseDuration("1" + s[digits:])
	return err == nil && !strings.HasPrefix(s, "-")
}
