package auction

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Driver is the Auction game driver.
type Driver struct{}

var _ drivers.Driver = Driver{}

func (Driver) Name() string { return "auction" }

func (Driver) HouseBots() []drivers.HouseBot { return HouseBots() }

var gameSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "idle_rounds"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "board", LabelNames: []string{"name"}},
		{Type: "files"},
		{Type: "submission"},
		drivers.ClockBlock,
	},
}

var boardSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "cols", Required: true},
		{Name: "rows", Required: true},
		{Name: "capital", Required: true},
	},
}

var filesSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "bytes"}, {Name: "prefixes"}, {Name: "breach"}},
}

// MaxSide caps a board's columns and rows (the contest promised at most 25).
const MaxSide = 1000

// Game is a decoded auction game block.
type Game struct {
	settings Settings
	clock    drivers.Clock
	// prefixed are the bots files { prefixes } names, where it names
	// them (a decoded game's only: a plan records no ranges).
	prefixed []drivers.BotName
}

var (
	_ drivers.Decoded     = (*Game)(nil)
	_ drivers.Game        = (*Game)(nil)
	_ drivers.Variants    = (*Game)(nil)
	_ drivers.BotNamer    = (*Game)(nil)
	_ drivers.BotNameUser = (*Game)(nil)
	_ drivers.Elsewhere   = (*Game)(nil)
)

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(gameSchema)
	g := &Game{settings: DefaultSettings()}
	if a, ok := content.Attributes["idle_rounds"]; ok {
		diags = append(diags, intAttr(a, ctx, 1, math.MaxInt32, &g.settings.IdleRounds,
			"idle_rounds is how many rounds in a row without a sale end the game: a whole number from 1, like 10.")...)
	}
	boards := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "board":
			name := b.Labels[0]
			if first, dup := boards[name]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate board",
					Detail:  fmt.Sprintf("The board %q is already declared at %s; give every board its own name.", name, first),
					Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			boards[name] = b.DefRange
			board, d := decodeBoard(b, ctx)
			diags = append(diags, d...)
			g.settings.Boards = append(g.settings.Boards, board)
		case "files":
			diags = append(diags, decodeFiles(b, ctx, g)...)
		case "submission":
			diags = append(diags, decodeSubmission(b, ctx, &g.settings.Submission)...)
		case "clock":
			diags = append(diags, decodeClock(b, ctx, g)...)
		}
	}
	if len(boards) == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No board",
			Detail:  `An auction game needs at least one board, like board "small" { cols = 5 rows = 5 capital = 40 }.`,
			Subject: body.MissingItemRange().Ptr()})
	}
	if g.clock.Move == 0 && g.clock.Total == 0 {
		// The contest's limit: a bot is run per move and must never hang a match.
		g.clock.Move = drivers.Duration(DefaultMove)
	}
	return g, diags
}

func decodeBoard(b *hcl.Block, ctx *hcl.EvalContext) (Board, hcl.Diagnostics) {
	board := Board{Name: b.Labels[0]}
	content, diags := b.Body.Content(boardSchema)
	if a, ok := content.Attributes["cols"]; ok {
		diags = append(diags, intAttr(a, ctx, 1, MaxSide, &board.Cols, fmt.Sprintf("cols is the board's width: a whole number from 1 to %d.", MaxSide))...)
	}
	if a, ok := content.Attributes["rows"]; ok {
		diags = append(diags, intAttr(a, ctx, 1, MaxSide, &board.Rows, fmt.Sprintf("rows is the board's height: a whole number from 1 to %d.", MaxSide))...)
	}
	if a, ok := content.Attributes["capital"]; ok {
		diags = append(diags, intAttr(a, ctx, 0, math.MaxInt32, &board.Capital, "capital is every player's starting money: a whole number from 0, like 40.")...)
	}
	return board, diags
}

func decodeFiles(b *hcl.Block, ctx *hcl.EvalContext, g *Game) hcl.Diagnostics {
	f := &g.settings.Files
	content, diags := b.Body.Content(filesSchema)
	if a, ok := content.Attributes["count"]; ok {
		diags = append(diags, intAttr(a, ctx, 0, 1_000_000, &f.Count, "count is how many files of its own a bot may keep: a whole number from 0, like 10.")...)
	}
	if a, ok := content.Attributes["bytes"]; ok {
		v, d := a.Expr.Value(ctx)
		diags = append(diags, d...)
		if !d.HasErrors() {
			n, err := drivers.ParseSize(v)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid size",
					Detail:  fmt.Sprintf("bytes is how much a bot's own files may hold together: a number of bytes or a size like \"10MB\" or \"512KiB\": %v.", err),
					Subject: a.Expr.Range().Ptr()})
			}
			f.Bytes = n
		}
	}
	if a, ok := content.Attributes["prefixes"]; ok {
		var m map[string]string
		d := gohcl.DecodeExpression(a.Expr, ctx, &m)
		diags = append(diags, d...)
		values := itemValues(a, ctx)
		for _, bot := range slices.Sorted(maps.Keys(m)) {
			if why := prefixProblem(m[bot]); why != "" {
				rng, ok := values[bot]
				if !ok {
					rng = a.Expr.Range()
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid file prefix",
					Detail:  fmt.Sprintf("The prefix %q of bot %q %s: choose another, like \"tym42\".", m[bot], bot, why),
					Subject: rng.Ptr()})
			}
		}
		f.Prefixes = m
		g.prefixed = prefixedBots(a, ctx, m)
	}
	if a, ok := content.Attributes["breach"]; ok {
		diags = append(diags, decodeBreach(a, ctx, BreachDefault,
			"a breach of the file rules brings: disqualification from the tournament, or a bid of 0 in its round", &f.Breach)...)
	}
	return diags
}

// prefixedBots are the bots of prefixes m, each with the range of its key
// in attribute a when a is written as an object ({ w = "tym07" }), else
// with a's.
func prefixedBots(a *hcl.Attribute, ctx *hcl.EvalContext, m map[string]string) []drivers.BotName {
	keys := map[string]hcl.Range{}
	if obj, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			if k, d := item.KeyExpr.Value(ctx); !d.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
				keys[k.AsString()] = item.KeyExpr.Range()
			}
		}
	}
	var out []drivers.BotName
	for bot := range m {
		rng, ok := keys[bot]
		if !ok {
			rng = a.Expr.Range()
		}
		out = append(out, drivers.BotName{Name: bot, Setting: "files { prefixes }", Range: rng})
	}
	slices.SortFunc(out, func(x, y drivers.BotName) int {
		return cmp.Or(cmp.Compare(x.Range.Start.Byte, y.Range.Start.Byte), cmp.Compare(x.Name, y.Name))
	})
	return out
}

// itemValues are the ranges of the values of attribute a, when it is
// written as an object ({ w = "tym07" }), by key.
func itemValues(a *hcl.Attribute, ctx *hcl.EvalContext) map[string]hcl.Range {
	values := map[string]hcl.Range{}
	if obj, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			if k, d := item.KeyExpr.Value(ctx); !d.HasErrors() && k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
				values[k.AsString()] = item.ValueExpr.Range()
			}
		}
	}
	return values
}

// BotNames are the bots that files { prefixes } names.
func (g *Game) BotNames() []drivers.BotName { return g.prefixed }

// BotNameProblem says what keeps the name of bot, which files { prefixes
// } gives no prefix, from serving as its prefix (drivers.BotNameUser):
// the rule of prefixProblem, as for a prefix given.
func (g *Game) BotNameProblem(bot string) string {
	if _, ok := g.settings.Files.Prefixes[bot]; ok {
		return "" // checked where it is given
	}
	why := prefixProblem(bot)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("Bot %q has no prefix in files { prefixes }, so its file names start with its name, %q, which %s: "+
		"give it a prefix of its own, like files { prefixes = { %s = \"tym42\" } }.", bot, bot, why, bot)
}

// prefixProblem says what keeps p from starting a bot's file names in the
// game folder, in words that follow "The prefix p ...", or "": it must be
// a file name, not a path, and not that of the referee's own files state
// and log, which a file the bot names with its prefix alone would be.
// Any other name serves (letters, digits, dashes, dots, ...).
func prefixProblem(p string) string {
	switch {
	case p == "":
		return "is empty, so any file name would start with it"
	case p == "." || p == "..":
		return "names a folder, not the start of a file name"
	case strings.Contains(p, "/"):
		return "holds a slash, which would make its file names paths, not names in the game folder"
	case strings.Contains(p, "\x00"):
		return "holds a NUL byte, which no file name can"
	case p == "state" || p == "log":
		return fmt.Sprintf("is the name of the referee's own file %s in the game folder, which the bot may not touch", p)
	}
	return ""
}

// Validate says what is wrong with settings a plan recorded, or nil: what
// DecodeGame refuses in a game block, so that a saved plan edited by hand
// is refused before it runs.
func (s Settings) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if len(s.Boards) == 0 {
		bad("no board")
	}
	names := map[string]bool{}
	for _, b := range s.Boards {
		if names[b.Name] || b.Name == "" {
			bad("board %q: every board has a name of its own", b.Name)
		}
		names[b.Name] = true
		if b.Cols < 1 || b.Cols > MaxSide || b.Rows < 1 || b.Rows > MaxSide {
			bad("board %q is %d by %d, but cols and rows are whole numbers from 1 to %d", b.Name, b.Cols, b.Rows, MaxSide)
		}
		if b.Capital < 0 {
			bad("board %q: capital is %d, below 0", b.Name, b.Capital)
		}
	}
	if s.IdleRounds < 1 {
		bad("idle_rounds is %d, but at least 1", s.IdleRounds)
	}
	if s.Files.Count < 0 || s.Files.Count > 1_000_000 || s.Files.Bytes < 0 {
		bad("files: count %d and bytes %d, but both are from 0 (count at most 1000000)", s.Files.Count, s.Files.Bytes)
	}
	for _, bot := range slices.Sorted(maps.Keys(s.Files.Prefixes)) {
		if why := prefixProblem(s.Files.Prefixes[bot]); why != "" {
			bad("files.prefixes: the prefix %q of bot %q %s", s.Files.Prefixes[bot], bot, why)
		}
	}
	if s.Files.Breach != "" && s.Files.Breach != Disqualify && s.Files.Breach != BreachDefault {
		bad("files.breach is %q, not %q or %q", s.Files.Breach, Disqualify, BreachDefault)
	}
	if s.Submission.Files < 0 || s.Submission.Files > 1_000_000 || s.Submission.Bytes < 0 {
		bad("submission: files %d and bytes %d, but both are from 0 (files at most 1000000)", s.Submission.Files, s.Submission.Bytes)
	}
	if s.Submission.Breach != "" && s.Submission.Breach != Disqualify && s.Submission.Breach != BreachRefuse {
		bad("submission.breach is %q, not %q or %q", s.Submission.Breach, Disqualify, BreachRefuse)
	}
	if s.Overrun < 0 || s.Overruns != nil && *s.Overruns < 0 {
		bad("clock: overrun and overruns are from 0")
	}
	return errors.Join(errs...)
}

func ptr[T any](v T) *T { return &v }

func intAttr(a *hcl.Attribute, ctx *hcl.EvalContext, lo, hi int, dst *int, doc string) hcl.Diagnostics {
	var n int
	diags := gohcl.DecodeExpression(a.Expr, ctx, &n)
	if diags.HasErrors() || n < lo || n > hi {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + a.Name, Detail: doc, Subject: a.Expr.Range().Ptr()}}
	}
	*dst = n
	return nil
}

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	g := &Game{}
	if err := drivers.DecodeSettings(raw, &g.settings); err != nil {
		return nil, fmt.Errorf("auction settings: %w", err)
	}
	if err := g.settings.Validate(); err != nil {
		return nil, fmt.Errorf("auction settings: %w", err)
	}
	return g, nil
}

// RunsIn is where a bot runs: its seat's folder of the match, not its dir
// (drivers.Elsewhere).
func (g *Game) RunsIn() string {
	return "its seat's folder of the match (matches/<id>/seats/<letter>/)"
}

// Settings is what the plan records.
func (g *Game) Settings() any { return g.settings }

func (g *Game) Clock() drivers.Clock { return g.clock }

// Variants are the boards, in the order declared: round r plays board
// (r-1) mod len(boards).
func (g *Game) Variants() []string {
	names := make([]string, len(g.settings.Boards))
	for i, b := range g.settings.Boards {
		names[i] = b.Name
	}
	return names
}

func (g *Game) Seats(n int) error {
	if n >= 2 && n <= MaxPlayers {
		return nil
	}
	return fmt.Errorf("Auction is played by 2 to %d players (one letter each), not %d", MaxPlayers, n)
}

func (g *Game) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	if g.Seats(n) == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Game cannot be played with these seats",
		Detail:  fmt.Sprintf("Auction is played by 2 to %d players (one letter each), but the tournament asks for %d.", MaxPlayers, n),
		Subject: subject.Ptr()}}
}

// board is the board a match plays: its variant, or the first board.
func (g *Game) board(variant string) (Board, error) {
	if variant == "" {
		return g.settings.Boards[0], nil
	}
	for _, b := range g.settings.Boards {
		if b.Name == variant {
			return b, nil
		}
	}
	return Board{}, fmt.Errorf("the game has no board %q", variant)
}

// Play referees one match between real bot processes, run once per round
// each, all at the same time.
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	b, err := g.board(m.Variant)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", m.ID, err)
	}
	return play(ctx, m, g.settings, b, NewPosition(b, len(m.Seats), m.Seed))
}

// DefaultLimits are the limits of a bot without a limits block, the
// contest's: 100 MB of memory (as MiB), no network, no starting of other
// programs (threads are allowed, up to 16 tasks), CPU time within the
// answer's time.
func (Driver) DefaultLimits() drivers.Limits {
	no := false
	return drivers.Limits{Memory: 100 << 20, CPU: "match", Processes: 16, Network: &no, Children: &no}
}

// DefaultLimits are the driver's (see Driver.DefaultLimits).
func (g *Game) DefaultLimits() drivers.Limits { return Driver{}.DefaultLimits() }
