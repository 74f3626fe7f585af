package blokus

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// Driver is the Blokus game driver.
type Driver struct{}

var _ drivers.Driver = Driver{}

func (Driver) Name() string { return "blokus" }

func (Driver) HouseBots() []drivers.HouseBot { return HouseBots() }

var gameSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{board.Block, StonesBlock, drivers.ClockBlock},
}

// Game is a decoded blokus game block.
type Game struct {
	settings Settings
	clock    drivers.Clock
}

var (
	_ drivers.Decoded = (*Game)(nil)
	_ drivers.Game    = (*Game)(nil)
)

// DefaultClock is the course's: 2 s for all the messages of a turn (its
// update() and move() together), after a start-up allowance of 5 s for
// the interpreter (the course's runner started its players before the
// clock; the seed does not say how long it waited, so 5 s is arbiter's
// choice). A clock block replaces it whole.
var DefaultClock = drivers.Clock{Turn: drivers.Duration(2 * time.Second), Startup: drivers.Duration(5 * time.Second)}

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(gameSchema)
	g := &Game{clock: DefaultClock}
	first := map[string]*hcl.Block{}
	var boardBlock *hcl.Block
	var stoneRanges []hcl.Range
	boardOK := false
	clockOK := true
	for _, b := range content.Blocks {
		if f, dup := first[b.Type]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate " + b.Type + " block",
				Detail:  fmt.Sprintf("A blokus game has one %s block; the first is at %s. Merge the two.", b.Type, f.DefRange),
				Subject: b.DefRange.Ptr()})
			continue
		}
		first[b.Type] = b
		switch b.Type {
		case board.Block.Type:
			spec, d := board.Decode(b, ctx, board.Most{Side: MaxSide, Game: "Blokus", Rule: fmt.Sprintf("a Blokus board has at most %d of each", MaxSide)})
			diags = append(diags, d...)
			g.settings.Board, boardBlock, boardOK = spec, b, !d.HasErrors()
		case StonesBlock.Type:
			stones, ranges, d := DecodeStones(b, ctx)
			diags = append(diags, d...)
			g.settings.Stones, stoneRanges = stones, ranges
		case drivers.ClockBlock.Type:
			c, d := drivers.DecodeSessionClock(b, ctx)
			diags = append(diags, d...)
			g.clock, clockOK = c, !d.HasErrors()
		}
	}
	for _, need := range []struct{ block, example string }{
		{"board", "board { size = 20 }"},
		{"stones", `stones { file = "stones/classic.txt" } or stone "I3" { cells = [[0, 0], [1, 0], [2, 0]] } blocks inside stones { }`},
	} {
		if first[need.block] == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing " + need.block + " block",
				Detail: "A blokus game needs a " + need.block + " block, like " + need.example + ".", Subject: body.MissingItemRange().Ptr()})
		}
	}
	if boardOK {
		d := checkBoard(g.settings.Board, boardBlock)
		diags = append(diags, d...)
		rows, cols := g.settings.Board.Rows, g.settings.Board.Cols
		if rows <= MaxSide && cols <= MaxSide {
			for i, st := range g.settings.Stones {
				if w, h := Size(st.Cells); !(w <= cols && h <= rows) && !(h <= cols && w <= rows) {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Stone does not fit the board",
						Detail:  fmt.Sprintf("Stone %s is %d × %d cells and does not fit on the %d × %d board in any rotation. Enlarge the board or change the stone.", st.Name, w, h, rows, cols),
						Subject: stoneRanges[i].Ptr()})
				}
			}
		}
	}
	if !diags.HasErrors() {
		// Whatever the checks above missed, the rules refuse; say so
		// rather than fail in a match.
		if _, err := g.settings.Rules(0); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid game",
				Detail: drivers.Sentence(err.Error()), Subject: body.MissingItemRange().Ptr()})
		} else {
			diags = append(diags, checkStarts(g.settings, boardBlock)...)
		}
	}
	// A clock in error is reported as such, not as no clock.
	if clockOK && g.clock.Total == 0 && g.clock.Move == 0 && g.clock.Turn == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "No clock",
			Detail:  `The clock block sets no time limit, so a bot that never answers stalls its match forever. Add turn = "2s" (the course's limit for a turn), move = "2s" or total = "2m", or leave the clock block out for the course's clock.`,
			Subject: body.MissingItemRange().Ptr()})
	}
	return g, diags
}

// checkBoard adds what Blokus needs of a board to what every board needs:
// a side fits a row mask, the start corners stay free, and a random draw
// leaves them free too.
func checkBoard(s board.Spec, b *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i, st := range []board.Cell{{X: 0, Y: s.Rows - 1}, {X: s.Cols - 1, Y: 0}} {
		for _, c := range s.Filled {
			if c == st {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Start cell filled",
					Detail:  fmt.Sprintf("Player %d starts on the cell [%d, %d] (column, row), which the board fills. The start cells, bottom left and top right, must stay free.", i+1, st.X, st.Y),
					Subject: board.AttrRange(b, "filled", "map")})
			}
		}
	}
	if free := s.Rows*s.Cols - len(s.Filled) - 2; s.Random > 0 && s.Random > free {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many random cells",
			Detail:  fmt.Sprintf("random is %d, but the board has only %d free cells besides the two start cells, which a draw never fills. Lower random.", s.Random, free),
			Subject: board.AttrRange(b, "random")})
	}
	return diags
}

// checkStarts refuses a board on which the game cannot start
// (startProblems), at the board's filled cells or its size.
func checkStarts(s Settings, b *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range startProblems(s) {
		subject := board.AttrRange(b, "filled", "map")
		if p.drawn {
			subject = board.AttrRange(b, "random")
		}
		if p.coincide {
			subject = board.AttrRange(b, "size", "rows", "cols", "map")
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: p.summary,
			Detail: drivers.Sentence(p.detail), Subject: subject})
	}
	return diags
}

// startProblem is a reason the game cannot start on a board; drawn says
// that the board's seeded random cells, not its fixed ones, wall in the
// start.
type startProblem struct {
	summary, detail string
	coincide, drawn bool
}

// startProblems are the reasons the game of s cannot start: the two start
// cells one cell (a 1 × 1 board), or a player who can lay no stone of the
// set on its start cell between the board's filled cells (a domino
// walling in a corner), who would pass on every turn. With board.seed
// set, the random cells are the same in every match and are judged with
// the fixed ones; without it they are drawn per match from its seed and
// only take cells away, so a board that passes with its fixed cells may
// still be walled in by a draw, and one that fails fails in every match.
func startProblems(s Settings) []startProblem {
	if s.Board.Rows == 1 && s.Board.Cols == 1 {
		return []startProblem{{summary: "Start cells coincide",
			detail: "on a 1 × 1 board both players start on the one cell [0, 0] (bottom left and top right are the same); a Blokus board needs at least 2 cells, like rows = 1 and cols = 2", coincide: true}}
	}
	var out []startProblem
	for pl, walled := range walledStarts(s, fixedCells(s.Board)) {
		drawn := false
		if !walled && s.Board.Seed != nil && s.Board.Random > 0 {
			walled, drawn = walledStarts(s, s.Filled(0))[pl], true
		}
		if !walled {
			continue
		}
		st := [2]Cell{{Row: s.Board.Rows - 1, Col: 0}, {Row: 0, Col: s.Board.Cols - 1}}[pl]
		cells := "the board's filled cells"
		if drawn {
			cells = fmt.Sprintf("the board's filled cells and the %d random ones that seed = %d draws for every match", s.Board.Random, *s.Board.Seed)
		}
		out = append(out, startProblem{summary: "No legal first move on this board", drawn: drawn,
			detail: fmt.Sprintf("player %d starts on the cell [%d, %d] (column, row), but no stone of the set fits there between %s: the player could only pass, and every match would be decided before it began; free the cells next to the start, or add a stone that fits",
				pl+1, st.Col, st.Row, cells)})
	}
	return out
}

// walledStarts says for each player whether it can lay no stone of s's
// set on its start cell on the board with filled cells.
func walledStarts(s Settings, filled []Cell) [2]bool {
	r, err := NewRules(s.Board.Rows, s.Board.Cols, filled, s.Stones)
	if err != nil {
		return [2]bool{} // the rules' own check reports it
	}
	pos := NewPosition(r)
	return [2]bool{!pos.HasMove(0), !pos.HasMove(1)}
}

// fixedCells are the cells s fills in every match, in the rules' terms.
func fixedCells(s board.Spec) []Cell {
	out := make([]Cell, 0, len(s.Filled))
	for _, c := range s.Filled {
		out = append(out, Cell{Row: c.Y, Col: c.X})
	}
	return out
}

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	g := &Game{}
	if err := drivers.DecodeSettings(raw, &g.settings); err != nil {
		return nil, fmt.Errorf("blokus settings: %w", err)
	}
	if err := g.settings.Validate(); err != nil {
		return nil, fmt.Errorf("blokus settings: %w", err)
	}
	return g, nil
}

func (g *Game) Settings() any { return g.settings }

func (g *Game) Clock() drivers.Clock { return g.clock }

func (g *Game) Seats(n int) error {
	if n == 2 {
		return nil
	}
	return fmt.Errorf("Blokus is played by two players, not %d", n)
}

func (g *Game) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	if g.Seats(n) == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Blokus is for two players",
		Detail:  fmt.Sprintf("The tournament asks for %d players, but Blokus is played by two. Set players = 2.", n),
		Subject: subject.Ptr()}}
}

// Play referees one match between real bot processes.
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	if len(m.Seats) != 2 {
		return nil, fmt.Errorf("blokus match %s has %d seats, want 2", m.ID, len(m.Seats))
	}
	sessions, out, err := gtp.Start(ctx, m)
	defer sessions.Kill() // every session ends however Play ends
	if err != nil {
		return nil, err
	}
	if out != nil {
		// A bot that does not start loses; two that do not share 1.5.
		gtp.PlaceFaulty(out.Seats)
		return out, nil
	}
	players := make([]Player, 2)
	for i, s := range sessions {
		players[i] = gtp.SessionPlayer{S: s, Move: time.Duration(m.Clock.Move)}
	}
	out = Referee(ctx, g.settings, m.Seed, players, m.Record)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sessions.Finish(out)
	return out, nil
}

// DefaultLimits are the limits of a bot without a limits block: the
// original's rules state none, so those of drivers.UnstatedLimits.
func (Driver) DefaultLimits() drivers.Limits { return drivers.UnstatedLimits() }

// DefaultLimits are the driver's (see Driver.DefaultLimits).
func (g *Game) DefaultLimits() drivers.Limits { return Driver{}.DefaultLimits() }
