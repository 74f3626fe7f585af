package bricks

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Driver is the Bricks game driver.
type Driver struct{}

var _ drivers.Driver = Driver{}

func (Driver) Name() string { return "bricks" }

func (Driver) HouseBots() []drivers.HouseBot { return HouseBots() }

// Limits are the referee's clocks, as in the original.
type Limits struct {
	// Startup is how long a bot may take to answer OK to the board.
	Startup drivers.Duration `json:"startup"`
	// Move is how long a bot may take to answer with a move.
	Move drivers.Duration `json:"move"`
	// Silence is how long the referee waits for any answer at all.
	Silence drivers.Duration `json:"silence"`
	// Delay is how long the referee waits after starting a player before
	// it sends the board, the original's wake-up time: a JVM's or an
	// interpreter's start does not count against Startup.
	Delay drivers.Duration `json:"delay,omitempty"`
}

// DefaultLimits are the original referee's: 1 s, 0.5 s, 5 s, after the
// 1.5 s wake-up delay its tournament test used.
var DefaultLimits = Limits{
	Delay:   drivers.Duration(1500 * time.Millisecond),
	Startup: drivers.Duration(time.Second),
	Move:    drivers.Duration(500 * time.Millisecond),
	Silence: drivers.Duration(5 * time.Second),
}

// Settings is a game as the plan records it.
type Settings struct {
	// Size is the side of the square board.
	Size int `json:"size"`
	// Filled are the cells filled before every duel of the tournament, in
	// reading order: the board block's fixed cells and its random ones,
	// drawn once from the board's seed.
	Filled []board.Cell `json:"filled"`
	// Board is the board block as written.
	Board  board.Spec `json:"board"`
	Limits Limits     `json:"limits"`
}

// DefaultBoardSeed is the seed of the random cells when the board block
// gives none: every duel of a tournament plays on the same board.
const DefaultBoardSeed = 1

// Validate checks settings read back from a plan.
func (s Settings) Validate() error {
	if s.Size < MinSize || s.Size > MaxSize || s.Size%2 == 0 {
		return fmt.Errorf("board size %d: Bricks is played on an odd size from %d to %d", s.Size, MinSize, MaxSize)
	}
	if err := s.Board.Validate(); err != nil {
		return err
	}
	seen := map[board.Cell]bool{}
	for _, c := range s.Filled {
		if c.X < 0 || c.Y < 0 || c.X >= s.Size || c.Y >= s.Size || seen[c] {
			return fmt.Errorf("filled cell %s is off the board or listed twice", c)
		}
		seen[c] = true
	}
	l := s.Limits
	if l.Startup <= 0 || l.Move <= 0 || l.Delay < 0 || l.Silence < l.Move || l.Silence < l.Startup {
		return fmt.Errorf("limits %+v: all must be positive and silence at least move and startup", l)
	}
	for _, d := range []struct {
		name string
		v    drivers.Duration
	}{{"startup", l.Startup}, {"move", l.Move}, {"silence", l.Silence}} {
		if d.v < drivers.Duration(drivers.MinDuration) {
			return fmt.Errorf("limits: %s is %v, but the shortest limit is %v: %s", d.name, time.Duration(d.v), drivers.MinDuration, drivers.MinDurationWhy)
		}
	}
	return nil
}

// Game is a decoded bricks game block.
type Game struct {
	settings Settings
	report   reportCache
}

var (
	_ drivers.Decoded   = (*Game)(nil)
	_ drivers.Game      = (*Game)(nil)
	_ drivers.Reporter  = (*Game)(nil)
	_ drivers.Ordered   = (*Game)(nil)
	_ drivers.Nicknamer = (*Game)(nil)
)

var gameSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{board.Block, {Type: "clock"}},
}

var clockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "startup"}, {Name: "move"}, {Name: "silence"}, {Name: "delay"}},
}

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(gameSchema)
	g := &Game{settings: Settings{Limits: DefaultLimits}}
	var boards, clocks []*hcl.Block
	for _, b := range content.Blocks {
		if b.Type == "board" {
			boards = append(boards, b)
		} else {
			clocks = append(clocks, b)
		}
	}
	switch len(boards) {
	case 0:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing board",
			Detail:  "A bricks game needs a board block, like board { size = 5 }.",
			Subject: body.MissingItemRange().Ptr()})
	default:
		for _, b := range boards[1:] {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate board",
				Detail:  fmt.Sprintf("The game already has a board at %s; a game is played on one board.", boards[0].DefRange),
				Subject: b.DefRange.Ptr()})
		}
		diags = append(diags, g.decodeBoard(boards[0], ctx)...)
	}
	for i, b := range clocks {
		if i > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate clock",
				Detail: fmt.Sprintf("The game already has a clock at %s; merge them into one.", clocks[0].DefRange), Subject: b.DefRange.Ptr()})
			continue
		}
		diags = append(diags, g.decodeClock(b, ctx)...)
	}
	return g, diags
}

// oddSize is Bricks's rule for the board's size, in words.
var oddSize = fmt.Sprintf("Bricks is played on an odd size from %d to %d", MinSize, MaxSize)

func (g *Game) decodeBoard(b *hcl.Block, ctx *hcl.EvalContext) hcl.Diagnostics {
	spec, diags := board.Decode(b, ctx, board.Most{Side: MaxSize, Game: "Bricks", Rule: oddSize})
	if diags.HasErrors() {
		return diags
	}
	n := spec.Rows
	switch {
	case spec.Rows != spec.Cols:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Board not square",
			Detail:  fmt.Sprintf("The board is %d rows by %d columns; Bricks is played on a square board: use size = N.", spec.Rows, spec.Cols),
			Subject: board.AttrRange(b, "rows", "cols", "map")})
	case n < MinSize || n > MaxSize || n%2 == 0:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid board size",
			Detail:  fmt.Sprintf("The board is %d×%d; %s, like 5, 7 or 9.", n, n, oddSize),
			Subject: board.AttrRange(b, "size", "rows", "map")})
	}
	if diags.HasErrors() {
		return diags
	}
	seed := uint64(DefaultBoardSeed)
	if spec.Seed != nil {
		seed = *spec.Seed
	}
	g.settings.Size = n
	g.settings.Board = spec
	g.settings.Filled = spec.Cells(seed)
	if problem := noFirstMove(n, g.settings.Filled); problem != "" {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No legal first move on this board",
			Detail:  drivers.Sentence(problem) + " Fill fewer cells (filled, map or random) if that is not what you meant.",
			Subject: board.AttrRange(b, "random", "filled", "map")})
	}
	return diags
}

// noFirstMove says why no domino fits on the n×n board with filled
// cells, so that the first player loses every duel normally, without a
// move (docs/protocols/bricks.md); "" when one fits. The random cells
// are drawn when the configuration is read (from the board's seed), so
// the board every duel plays is known. It is a warning, not an error:
// the protocol plays such a board to its documented end.
func noFirstMove(n int, filled []board.Cell) string {
	if NewBoard(n, filled).HasMove() {
		return ""
	}
	return fmt.Sprintf("of the board's %d cells %d are filled, and no two free cells are side by side, so no domino fits: the first player loses every duel normally, without a move", n*n, len(filled))
}

func (g *Game) decodeClock(b *hcl.Block, ctx *hcl.EvalContext) hcl.Diagnostics {
	content, diags := b.Body.Content(clockSchema)
	l := &g.settings.Limits
	for _, f := range []struct {
		name string
		dst  *drivers.Duration
		doc  string
		// none says that "0s" is allowed: the original's Tournament
		// waited no wake-up time unless told to.
		none bool
	}{
		{"startup", &l.Startup, "how long a bot may take to answer OK to the board", false},
		{"move", &l.Move, "how long a bot may take to answer with a move", false},
		{"silence", &l.Silence, "how long the referee waits for any answer at all", false},
		{"delay", &l.Delay, "how long the referee waits after starting a player before it sends the board", true},
	} {
		if a, ok := content.Attributes[f.name]; ok {
			decode := drivers.DecodeDuration
			if f.none {
				decode = drivers.DecodeWait
			}
			d, dd := decode(a, ctx, f.doc)
			diags = append(diags, dd...)
			if !dd.HasErrors() {
				*f.dst = d
			}
		}
	}
	if !diags.HasErrors() && (l.Silence < l.Move || l.Silence < l.Startup) {
		subject := b.DefRange
		if a, ok := content.Attributes["silence"]; ok {
			subject = a.Expr.Range()
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Silence shorter than a limit",
			Detail: fmt.Sprintf("silence (%v) must be at least move (%v) and startup (%v): it is how long the referee waits for a late answer before calling the bot silent.",
				time.Duration(l.Silence), time.Duration(l.Move), time.Duration(l.Startup)),
			Subject: subject.Ptr()})
	}
	return diags
}

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	g := &Game{}
	if err := drivers.DecodeSettings(raw, &g.settings); err != nil {
		return nil, fmt.Errorf("bricks settings: %w", err)
	}
	if err := g.settings.Validate(); err != nil {
		return nil, fmt.Errorf("bricks settings: %w", err)
	}
	return g, nil
}

func (g *Game) Settings() any { return g.settings }

// Clock is the silence limit: the longest the referee ever waits for an
// answer. The move and start-up limits are the game's own (Settings.Limits).
func (g *Game) Clock() drivers.Clock { return drivers.Clock{Move: g.settings.Limits.Silence} }

var _ drivers.ClockTeller = (*Game)(nil)

// ClockMeaning says that the plan's move clock is the silence limit, and
// what the move limit is.
func (g *Game) ClockMeaning() string {
	return fmt.Sprintf("Bricks's silence limit; its move limit is %s, limits.move", time.Duration(g.settings.Limits.Move))
}

func (g *Game) Seats(n int) error {
	if n == 2 {
		return nil
	}
	return fmt.Errorf("a Bricks duel has 2 players, not %d", n)
}

func (g *Game) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	if g.Seats(n) == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Bricks is a two-player game",
		Detail: fmt.Sprintf("players is %d; a Bricks duel has 2 players: set players = 2.", n), Subject: subject.Ptr()}}
}

// DefaultLimits are the limits of a bot without a limits block: the
// original's rules state none, so those of drivers.UnstatedLimits.
func (Driver) DefaultLimits() drivers.Limits { return drivers.UnstatedLimits() }

// DefaultLimits are the driver's (see Driver.DefaultLimits).
func (g *Game) DefaultLimits() drivers.Limits { return Driver{}.DefaultLimits() }

// NickFiles names the files that name players by nick: the original's
// (drivers.Nicknamer).
func (g *Game) NickFiles() string {
	return "the original's result files (score.txt, duels.txt)"
}

// DefaultOrder is the original's order of the duels: its tournament runs
// through each first player's opponents in turn (management.Executioner),
// so a tournament of Bricks is ordered by seat unless it says otherwise.
func (g *Game) DefaultOrder() string { return tournament.BySeat.String() }
