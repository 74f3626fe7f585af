package blokus

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// CheckCases is the conformance suite of Blokus bots (../shared/games/
// blokus.md): the set-up commands, the first move of either player, a
// position with one legal placement, a forced pass, and whole games
// against the house bot greedy, one of them under the game's clock.
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "setup", Doc: "answers set_board, set_player and set_stones, refuses an unknown command with '?', answers each command once (not its arguments too), and exits after quit", Run: checkSetup},
		{Name: "first-move", Doc: "as player 1, covers its start cell (bottom-left) with its first stone", Run: checkFirst(1)},
		{Name: "second-first", Doc: "as player 2, after player 1's move, covers its start cell (top-right)", Run: checkFirst(2)},
		{Name: "one-move", Doc: "on a 2 × 3 board where one placement is legal, plays it", Run: checkOneMove},
		{Name: "blocked", Doc: "after set_blocked, places its first stone around the filled cells (here only a domino lying flat fits)", Run: checkBlocked},
		{Name: "pass", Doc: "answers pass when no stone can be placed (its start cell is taken)", Run: checkPass},
		{Name: "game-first", Doc: "plays a whole 8 × 8 game of 9 stones against the house bot greedy, as player 1", Run: checkGame(0)},
		{Name: "game-second", Doc: "plays a whole 8 × 8 game of 9 stones against the house bot greedy, as player 2", Run: checkGame(1)},
		{Name: "clock", Doc: "plays a whole game as game-first does within the game's clock (the course's 2 s a turn after a 5 s start shared by the set-up, unless the configuration sets another)", Run: checkClock},
	}
}

// checkStones is the stone set of the whole-game cases: the monomino to
// the tetrominoes.
func checkStones() []Stone {
	arts := []string{"#", "##", "###", "##\n#.", "####", "###\n#..", "###\n.#.", "##.\n.##", "##\n##"}
	out := make([]Stone, len(arts))
	for i, a := range arts {
		cells, err := ParseArt(a)
		if err != nil {
			panic(err)
		}
		out[i] = Stone{Name: strconv.Itoa(i + 1), Cells: Normalise(cells)}
	}
	return out
}

func stoneArgs(stones []Stone) string {
	parts := []string{"set_stones", strconv.Itoa(len(stones))}
	for _, s := range stones {
		parts = append(parts, FormatStone(s.Cells))
	}
	return strings.Join(parts, " ")
}

// checkBegin starts the bot on a rows × cols board with stones as player
// me (1 or 2) and returns the position the referee keeps and the set-up's
// commands, which it has not written: the referee writes them in one
// write, with player 1's time_left and gen_move when me is 1 (checkGen).
func checkBegin(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, rows, cols, me int, stones []Stone) (*conform.Session, *Position, []string, error) {
	r, err := NewRules(rows, cols, nil, stones)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := conform.StartClock(ctx, bot, opt, setupClock(opt), rec)
	if err != nil {
		return nil, nil, nil, err
	}
	setup := []string{fmt.Sprintf("set_board %d %d", rows, cols), "set_player " + strconv.Itoa(me), stoneArgs(stones)}
	return s, NewPosition(r), setup, nil
}

// checkPlay applies a placement of player pl (0-based) and returns the
// play that tells the bot, which the referee writes with the next
// player's time_left and gen_move (checkGen).
func checkPlay(p *Position, pl int, cells []Cell) (string, error) {
	m, problem := p.Check(pl, cells)
	if problem != "" {
		return "", fmt.Errorf("the case is wrong: %s", problem)
	}
	p.Apply(pl, m)
	return fmt.Sprintf("play %d %s", pl+1, FormatCells(cells)), nil
}

// checkGen asks the bot (player pl) for a move and judges it, as a case's
// last question: before (the set-up, or the play before the bot's turn),
// time_left and gen_move go in one write, as the referee writes them; then
// quit (conform.Session.QuitOnce), which fails a bot that wrote anything
// after its move, as a match's next command would take it for its answer.
func checkGen(s *conform.Session, p *Position, pl int, before ...string) (pass bool, err error) {
	text, err := s.TellGen(append(before, "time_left 60000", "gen_move")...)
	if err != nil {
		return false, err
	}
	pass, err = judgeMove(p, pl, text)
	if err != nil {
		return pass, err
	}
	return pass, s.QuitOnce()
}

// judgeMove judges the bot's answer text to gen_move as player pl.
func judgeMove(p *Position, pl int, text string) (pass bool, err error) {
	if strings.EqualFold(text, "pass") {
		if alt, ok := p.FirstMove(pl); ok {
			return true, conform.Failf("passed, but could place a stone on %s", FormatCells(p.Rules().Cells(alt)))
		}
		return true, nil
	}
	cells, perr := ParseCells(text)
	if perr != nil {
		return false, conform.Failf("answered gen_move with %q, which is neither cells row,col separated by spaces nor pass", text)
	}
	if _, problem := p.Check(pl, cells); problem != "" {
		return false, conform.Failf("%s", problem)
	}
	return false, nil
}

// playAfter writes player 2's set-up in one write, as the referee writes
// it when player 1 is the one to move, and returns player 1's move of
// cells (checkPlay), to be written with player 2's time_left and gen_move.
func playAfter(s *conform.Session, p *Position, setup []string, cells []Cell) ([]string, error) {
	if err := s.Script(setup...); err != nil {
		return nil, err
	}
	play, err := checkPlay(p, 0, cells)
	return []string{play}, err
}

func checkSetup(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, _, setup, err := checkBegin(ctx, bot, opt, rec, 10, 10, 1, checkStones())
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Script(setup...); err != nil {
		return err
	}
	ok, text, err := s.Ask("frobnicate 1 2")
	if err != nil {
		return err
	}
	if ok {
		return conform.Failf("answered %q to the unknown command \"frobnicate 1 2\": answer '?' to a command you do not know", strings.TrimSpace("= "+text))
	}
	return s.QuitOnce()
}

func checkFirst(me int) func(context.Context, drivers.Seat, drivers.CheckOptions, drivers.Recorder) error {
	return func(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
		s, p, before, err := checkBegin(ctx, bot, opt, rec, 7, 9, me, checkStones())
		if err != nil {
			return err
		}
		defer s.Close()
		if me == 2 {
			if before, err = playAfter(s, p, before, []Cell{{Row: 6, Col: 0}, {Row: 5, Col: 0}, {Row: 5, Col: 1}}); err != nil {
				return err
			}
		}
		_, err = checkGen(s, p, me-1, before...)
		return err
	}
}

func checkOneMove(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, p, setup, err := checkBegin(ctx, bot, opt, rec, 2, 3, 1, []Stone{{Name: "1", Cells: []Point{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 0}}}})
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = checkGen(s, p, 0, setup...)
	return err
}

func checkBlocked(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	// One domino, given upright; the cell above the start is filled, so
	// only the domino lying flat fits.
	stones := []Stone{{Name: "1", Cells: []Point{{X: 0, Y: 0}, {X: 0, Y: 1}}}}
	blocked := []Cell{{Row: 3, Col: 0}}
	r, err := NewRules(5, 5, blocked, stones)
	if err != nil {
		return err
	}
	s, err := conform.StartClock(ctx, bot, opt, setupClock(opt), rec)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = checkGen(s, NewPosition(r), 0, "set_board 5 5", "set_player 1", stoneArgs(stones),
		fmt.Sprintf("set_blocked %d %s", len(blocked), FormatCells(blocked)))
	return err
}

func checkPass(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	v5 := Stone{Name: "1", Cells: Normalise([]Point{{X: 0, Y: 0}, {X: 0, Y: 1}, {X: 0, Y: 2}, {X: 1, Y: 0}, {X: 2, Y: 0}})}
	s, p, setup, err := checkBegin(ctx, bot, opt, rec, 3, 3, 2, []Stone{v5, {Name: "2", Cells: []Point{{X: 0, Y: 0}}}})
	if err != nil {
		return err
	}
	defer s.Close()
	play, err := playAfter(s, p, setup, []Cell{{Row: 2, Col: 0}, {Row: 1, Col: 0}, {Row: 0, Col: 0}, {Row: 0, Col: 1}, {Row: 0, Col: 2}})
	if err != nil {
		return err
	}
	pass, err := checkGen(s, p, 1, play...)
	if err == nil && !pass {
		err = conform.Failf("placed a stone where none fits")
	}
	return err
}

func checkGame(seat int) func(context.Context, drivers.Seat, drivers.CheckOptions, drivers.Recorder) error {
	return func(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
		return playGame(ctx, bot, opt, setupClock(opt), rec, seat)
	}
}

// checkClock plays game-first's game under the game's clock: the
// referee's time faults are the case's failures.
func checkClock(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	return playGame(ctx, bot, opt, caseClock(opt), rec, 0)
}

// playGame plays a whole 8 × 8 game of the check's stones with the bot
// in seat under clock, against greedy.
func playGame(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, clock drivers.Clock, rec drivers.Recorder, seat int) error {
	st := Settings{Board: board.Spec{Rows: 8, Cols: 8}, Stones: checkStones()}
	greedy := HouseBots()[0]
	return conform.FullGame(ctx, bot, opt, clock, rec, 2, seat, 5, greedy, func(p []gtp.Player, rec drivers.Recorder) *drivers.Outcome {
		return Referee(ctx, st, 5, p, rec)
	})
}

// caseClock is the clock the clock case holds the bot to: that of the
// game it is checked for (arbiter check -bot: its configuration's), or
// else the course's, DefaultClock, which a game block without a clock
// block gives a tournament.
func caseClock(opt drivers.CheckOptions) drivers.Clock {
	if opt.Game != nil {
		return opt.Clock
	}
	return DefaultClock
}

// setupClock is the clock of the other cases: each answer within -move
// (CheckOptions.Move), and the set-up sharing the game's start-up
// allowance as in a tournament, so that a slow start (a course player
// built on set_stones) fails no case that the tournament would let play.
func setupClock(opt drivers.CheckOptions) drivers.Clock {
	return drivers.Clock{Startup: caseClock(opt).Startup}
}

// CheckClock says which case judges time, for check's output.
func (Driver) CheckClock(opt drivers.CheckOptions) string {
	whose := opt.Whose("the course's, a tournament's without a clock block")
	c := caseClock(opt)
	return fmt.Sprintf("the clock case judges a whole game by the game's clock, %s (%v; the set-up shares the startup allowance, then play, time_left and gen_move share a turn); the other cases wait up to %v (-move) for each answer, the set-up sharing the startup allowance too",
		whose, c, time.Duration(opt.Move))
}
