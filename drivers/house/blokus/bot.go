package blokus

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// strategy is what tells house bots apart; everything else about a bot is
// the game it keeps.
type strategy interface {
	// choose picks one of moves, all legal for t.me; it is called only
	// when there is at least one.
	choose(t *table, moves []Placement) Placement
}

// table is what a bot knows of the game from the commands it was sent:
// the bot side of the protocol, shared by every house bot.
type table struct {
	rows, cols int
	me         int // 0 for player 1, 1 for player 2
	stones     []Stone
	blocked    []Cell
	pos        *Position // nil until the settings are complete and valid
	moves      []Placement
	timeLeft   int64 // ms, -1 when never told
}

// serve speaks the bot side of the protocol (house.Serve) until quit or the
// end of in.
func serve(in io.Reader, out io.Writer, s strategy) error {
	t := newTable()
	return house.Serve(in, out, func(f []string) (string, error) { return t.handle(f, s) })
}

func newTable() *table { return &table{rows: 20, cols: 20, timeLeft: -1} }

// Table is the bot side of the protocol for a player written outside this
// package (the referee's tests script some on it): what a bot knows of the
// game from the commands it was sent.
type Table struct{ t *table }

// NewTable is a table before any command.
func NewTable() Table { return Table{newTable()} }

// Handle runs one command, answering gen_move with the placement choose
// picks from the legal ones, as the house bots do with their strategies.
func (t Table) Handle(fields []string, choose func(moves []Placement) Placement) (string, error) {
	return t.t.handle(fields, chooser(choose))
}

// chooser is a strategy that looks at the legal moves only.
type chooser func(moves []Placement) Placement

func (c chooser) choose(_ *table, moves []Placement) Placement { return c(moves) }

var errNoGame = errors.New("the board and the stones are not set")

// handle runs one command and returns the text of its answer.
func (t *table) handle(f []string, s strategy) (string, error) {
	args := f[1:]
	switch f[0] {
	case "quit":
		return "", nil
	case "set_board":
		return "", t.setBoard(args)
	case "set_player":
		return "", t.setPlayer(args)
	case "set_stones":
		return "", t.setStones(args)
	case "set_blocked":
		return "", t.setBlocked(args)
	case "time_left":
		return "", t.setTimeLeft(args)
	case "play":
		return "", t.play(args)
	case "gen_move":
		return t.genMove(s)
	}
	return "", fmt.Errorf("unknown command %s", f[0])
}

// setBoard runs set_board rows cols.
func (t *table) setBoard(args []string) error {
	if len(args) != 2 {
		return errors.New("set_board takes rows and cols")
	}
	r, er := strconv.Atoi(args[0])
	c, ec := strconv.Atoi(args[1])
	if er != nil || ec != nil {
		return fmt.Errorf("set_board: %q %q are not numbers", args[0], args[1])
	}
	t.rows, t.cols = r, c
	return t.reset()
}

// setPlayer runs set_player 1 or 2: which player this bot is.
func (t *table) setPlayer(args []string) error {
	if len(args) != 1 || (args[0] != "1" && args[0] != "2") {
		return errors.New("set_player takes 1 or 2")
	}
	t.me = int(args[0][0] - '1')
	return nil
}

// setStones runs set_stones count stones...
func (t *table) setStones(args []string) error {
	if len(args) == 0 {
		return errors.New("set_stones takes a count and the stones")
	}
	k, err := strconv.Atoi(args[0])
	if err != nil || k != len(args)-1 {
		return fmt.Errorf("set_stones: %q does not count the %d stones given", args[0], len(args)-1)
	}
	t.stones = t.stones[:0]
	for i, a := range args[1:] {
		cells, err := ParseStone(a)
		if err != nil {
			return fmt.Errorf("set_stones: stone %d: %v", i+1, err)
		}
		t.stones = append(t.stones, Stone{Name: strconv.Itoa(i + 1), Cells: Normalise(cells)})
	}
	return t.reset()
}

// setBlocked runs set_blocked count cells...
func (t *table) setBlocked(args []string) error {
	if len(args) == 0 {
		return errors.New("set_blocked takes a count and the cells")
	}
	k, err := strconv.Atoi(args[0])
	if err != nil || k != len(args)-1 {
		return fmt.Errorf("set_blocked: %q does not count the %d cells given", args[0], len(args)-1)
	}
	t.blocked = nil
	if k > 0 {
		if t.blocked, err = ParseCells(strings.Join(args[1:], " ")); err != nil {
			return fmt.Errorf("set_blocked: %v", err)
		}
	}
	return t.reset()
}

// setTimeLeft runs time_left ms.
func (t *table) setTimeLeft(args []string) error {
	if len(args) != 1 {
		return errors.New("time_left takes milliseconds")
	}
	ms, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		return fmt.Errorf("time_left: %q is not a number", args[0])
	}
	t.timeLeft = ms
	return nil
}

// play runs play player cells (or pass), a move by either player, this
// bot too.
func (t *table) play(args []string) error {
	if t.pos == nil {
		return errNoGame
	}
	if len(args) < 2 || (args[0] != "1" && args[0] != "2") {
		return errors.New("play takes a player (1 or 2) and cells or pass")
	}
	pl := int(args[0][0] - '1')
	if len(args) == 2 && args[1] == "pass" {
		return nil
	}
	cells, err := ParseCells(strings.Join(args[1:], " "))
	if err != nil {
		return fmt.Errorf("play: %v", err)
	}
	m, problem := t.pos.Check(pl, cells)
	if problem != "" {
		return fmt.Errorf("play: player %d %s", pl+1, problem)
	}
	t.pos.Apply(pl, m)
	return nil
}

// genMove answers gen_move with s's choice among the legal moves, or pass
// when there is none.
func (t *table) genMove(s strategy) (string, error) {
	if t.pos == nil {
		return "", errNoGame
	}
	t.moves = t.pos.LegalMoves(t.me, t.moves)
	if len(t.moves) == 0 {
		return "pass", nil
	}
	return FormatCells(t.pos.r.Cells(s.choose(t, t.moves))), nil
}

// reset starts a new game once the board and the stones are known.
func (t *table) reset() error {
	t.pos = nil
	if len(t.stones) == 0 {
		return nil
	}
	r, err := NewRules(t.rows, t.cols, t.blocked, t.stones)
	if err != nil {
		return err
	}
	t.pos = NewPosition(r)
	return nil
}

// seedFrom makes a bot's generator from its environment, so that a re-run
// of a match replays it exactly, while the two seats of a match differ.
func seedFrom(env func(string) string) *rand.Rand {
	return rand.New(rand.NewPCG(house.EnvUint(env, "ARBITER_SEED"), 0x626c6f6b7573^house.EnvUint(env, "ARBITER_SEAT")))
}
