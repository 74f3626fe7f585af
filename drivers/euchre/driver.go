package euchre

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Driver is the Euchre game driver.
type Driver struct{}

var _ drivers.Driver = Driver{}

func (Driver) Name() string { return "euchre" }

func (Driver) HouseBots() []drivers.HouseBot { return HouseBots() }

// DefaultMove is the per-decision limit when the game has no clock, the
// challenge's own having had none.
const DefaultMove = drivers.Duration(time.Second)

var gameSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "target"}, {Name: "first_dealer"}, {Name: "max_hands"}, {Name: "memory"}, {Name: "memory_bytes"},
	},
	Blocks: []hcl.BlockHeaderSchema{drivers.ClockBlock},
}

// Game is a decoded euchre game block.
type Game struct {
	settings Settings
	clock    drivers.Clock
}

var (
	_ drivers.Decoded     = (*Game)(nil)
	_ drivers.Game        = (*Game)(nil)
	_ drivers.Carrier     = (*Game)(nil)
	_ drivers.DealCarrier = (*Game)(nil)
	_ drivers.Elsewhere   = (*Game)(nil)
)

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(gameSchema)
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: DefaultMove}}
	for _, f := range []struct {
		name     string
		min, max int64
		doc      string
		set      func(int64)
	}{
		{"target", 1, MaxTarget, "the game points that win a game", func(v int64) { g.settings.Target = int(v) }},
		{"first_dealer", 0, 3, "the position (0 to 3) that deals the first hand", func(v int64) { g.settings.FirstDealer = int(v) }},
		{"max_hands", 1, MaxHands, "the hands after which an unfinished game ends, the higher score winning", func(v int64) { g.settings.MaxHands = int(v) }},
		{"memory_bytes", 0, MaxMemory, "the most bytes a bot may keep in its one memory file", func(v int64) { g.settings.Memory = v }},
		{"memory", 0, MaxMemory, "the most bytes a bot may keep in its one memory file", func(v int64) { g.settings.Memory = v }},
	} {
		a, ok := content.Attributes[f.name]
		if !ok || f.name == "memory" && isString(a, ctx) {
			continue
		}
		v, d := wholeNumber(a, ctx, f.min, f.max, f.doc)
		diags = append(diags, d...)
		if !d.HasErrors() {
			f.set(v)
		}
	}
	diags = append(diags, decodeMemory(content.Attributes, ctx, &g.settings)...)
	for _, b := range content.Blocks {
		c, d := drivers.DecodeProcessClock(b, ctx)
		diags = append(diags, d...)
		if c.Total != 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No total clock in Euchre",
				Detail:  `Euchre bots are started afresh for every decision, so only the limit of one decision applies: write clock { move = "1s" } without total.`,
				Subject: totalRange(b)})
		}
		if c.Move != 0 {
			g.clock.Move = c.Move
		}
		g.clock.Startup = c.Startup
	}
	return g, diags
}

// totalRange is the range of the total of the clock block b, or the
// block's own.
func totalRange(b *hcl.Block) *hcl.Range {
	attrs, _ := b.Body.JustAttributes()
	if a, ok := attrs["total"]; ok {
		return a.Expr.Range().Ptr()
	}
	return b.DefRange.Ptr()
}

// wholeNumber decodes attribute a, a whole number from lo to hi; doc says
// what it is. Anything else (1.5, a string, a number past int64) is
// told in the setting's terms, its range included, not in HCL's (a whole
// number between -9223372036854775808 and 9223372036854775807).
func wholeNumber(a *hcl.Attribute, ctx *hcl.EvalContext, lo, hi int64, doc string) (int64, hcl.Diagnostics) {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return 0, diags
	}
	bad := func(summary, not string) (int64, hcl.Diagnostics) {
		return 0, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary,
			Detail:  fmt.Sprintf("%s (%s) must be a whole number from %d to %d, not %s.", a.Name, doc, lo, hi, not),
			Subject: a.Expr.Range().Ptr()}}
	}
	if !v.IsKnown() || v.IsNull() {
		return bad("Not a whole number", "null")
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil {
		if v.Type() == cty.String {
			return bad("Not a whole number", strconv.Quote(v.AsString()))
		}
		return bad("Not a whole number", "a "+v.Type().FriendlyName())
	}
	bf := n.AsBigFloat()
	if !bf.IsInt() {
		return bad("Not a whole number", bf.Text('g', -1))
	}
	i, acc := bf.Int64()
	if acc != big.Exact || i < lo || i > hi {
		return bad("Value out of range", bf.Text('f', 0))
	}
	return i, nil
}

// isString says whether attribute a is a string.
func isString(a *hcl.Attribute, ctx *hcl.EvalContext) bool {
	v, d := a.Expr.Value(ctx)
	return !d.HasErrors() && v.Type() == cty.String
}

// decodeMemory reads memory = "per-bot" or "per-position" into s. A
// number there is the size limit (memory_bytes), as it was before the
// scope could be chosen; both are one too many.
func decodeMemory(attrs hcl.Attributes, ctx *hcl.EvalContext, s *Settings) hcl.Diagnostics {
	a, ok := attrs["memory"]
	if !ok {
		return nil
	}
	if !isString(a, ctx) {
		if b, ok := attrs["memory_bytes"]; ok {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Memory size given twice",
				Detail:  `memory = <number> is the old spelling of memory_bytes: keep memory_bytes, and write memory = "per-bot" or "per-position" for whose the memory file is.`,
				Subject: b.NameRange.Ptr()}}
		}
		return nil
	}
	var scope string
	if d := gohcl.DecodeExpression(a.Expr, ctx, &scope); d.HasErrors() {
		return d
	}
	if scope != PerBot && scope != PerPosition {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown memory scope",
			Detail: fmt.Sprintf(`memory is %q, but it is "per-bot" (one memory file for each bot, kept across its matches, as the challenge did) `+
				`or "per-position" (a fresh file for each position of each match); the size limit is memory_bytes.`, scope),
			Subject: a.Expr.Range().Ptr()}}
	}
	// Per-position is recorded as before the scope could be chosen, so
	// that a run begun then resumes with memory = "per-position".
	s.MemoryScope = scope
	if scope == PerPosition {
		s.MemoryScope, s.DealsApart = "", false
	}
	return nil
}

// CarriesState is true when every bot keeps one memory file across its
// matches (memory = "per-bot"): the engine then plays a bot's matches in
// plan order and hands each the folder its previous one left.
func (g *Game) CarriesState() bool { return g.settings.perBot() }

// KeepsDealsApart is true when a bot's matches on the same deals all
// start from the memory it had before the first of them
// (Settings.DealsApart, drivers.DealCarrier): otherwise a bot that wrote
// its hands in one seating would know its opponents' in the next.
func (g *Game) KeepsDealsApart() bool { return g.settings.perBot() && g.settings.DealsApart }

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	// The clock is in every match of the plan; the game's own is only a
	// fallback for a match without one.
	g := &Game{clock: drivers.Clock{Move: DefaultMove}}
	if err := drivers.DecodeSettings(raw, &g.settings); err != nil {
		return nil, fmt.Errorf("euchre settings: %w", err)
	}
	if err := g.settings.Validate(); err != nil {
		return nil, fmt.Errorf("euchre settings: %w", err)
	}
	return g, nil
}

// RunsIn is where a bot runs: its memory folder, not its dir
// (drivers.Elsewhere).
func (g *Game) RunsIn() string { return "its memory folder (ARBITER_MEMORY_DIR)" }

func (g *Game) Settings() any { return g.settings }

// EarlierRules names the rules of a plan saved before an answer followed
// by a crash was a crash, before a memory file arbiter cannot read broke
// the memory rule, or before a bot's metadata did (drivers.Earlier).
func (g *Game) EarlierRules() []string {
	var rules []string
	if !g.settings.CrashAfterAnswer {
		rules = append(rules, "The plan was made by an earlier arbiter, so a bot that printed a legal answer and then exited with a failing status, or died by a signal arbiter did not send, has its answer used, as it began; a plan made now takes that as a crash (crash_after_answer, docs/games/euchre.md).")
	}
	if !g.settings.MemoryReadable {
		rules = append(rules, "The plan was made by an earlier arbiter, so a memory file its bot took the permissions away from (where arbiter is not root) is kept, as it began, although the bot's next match cannot start from a copy of it; a plan made now takes that as breaking the memory rule (memory_readable, docs/games/euchre.md).")
	}
	if !g.settings.MemoryMetadata {
		rules = append(rules, "The plan was made by an earlier arbiter, so extended attributes and ACLs a bot gives its memory folder or its file (user.*, named users: kilobytes more to read back at its next decision) are left, as are the modes and times it sets them, as it began; a plan made now takes attributes and ACLs as breaking the memory rule and sets the modes back (the folder's 0755, the file's 0644) and the times to the epoch after every run (memory_metadata, docs/games/euchre.md).")
	}
	return rules
}

func (g *Game) Clock() drivers.Clock { return g.clock }

// Seats accepts two seats, each a team whose bot plays both of its
// positions, or four, a bot a position with partners drawn from the seed.
func (g *Game) Seats(n int) error {
	if n == 2 || n == 4 {
		return nil
	}
	return fmt.Errorf("a Euchre match is between two bots (each plays both positions of its team) or four (partnered at random), not %d", n)
}

func (g *Game) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	if g.Seats(n) == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Euchre is played by two or four bots",
		Detail: fmt.Sprintf("A Euchre match is between two bots, each playing both positions of its team with a copy of itself, "+
			"or four bots partnered at random, but the tournament asks for %d players: set players = 2 or 4.", n),
		Subject: subject.Ptr()}}
}

// DefaultLimits are the limits of a bot without a limits block: the
// original's rules state none, so those of drivers.UnstatedLimits.
func (Driver) DefaultLimits() drivers.Limits { return drivers.UnstatedLimits() }

// DefaultLimits are the driver's (see Driver.DefaultLimits).
func (g *Game) DefaultLimits() drivers.Limits { return Driver{}.DefaultLimits() }
