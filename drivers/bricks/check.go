package bricks

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	core "github.com/arbiter-contests/arbiter/drivers/house/bricks"
)

// CheckCases is the conformance suite of Bricks bots (../shared/games/
// bricks.md): the board message and OK, START, a reply, a board with one
// domino left, the move limit, STOP, and whole duels against the house
// bot keeper from both seats.
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "ok", Doc: "answers OK to an empty board, then exits after STOP", Run: checkOK},
		{Name: "start", Doc: "answers START on a board with filled cells with a legal domino", Run: checkStart},
		{Name: "reply", Doc: "as second player, answers the opponent's move with a legal domino", Run: checkReply},
		{Name: "one-move", Doc: "on a board where one domino fits, plays it (a position with one legal move)", Run: checkOneMove},
		{Name: "clock", Doc: "answers a move within the move limit (clock { move }: the original's 0.5 s unless the configuration sets another)", Run: checkMoveTime},
		{Name: "game-first", Doc: "plays a whole duel on 7×7 against the house bot keeper, starting", Run: checkGame(0)},
		{Name: "game-second", Doc: "plays a whole duel on 9×9 with filled cells against the house bot keeper, second", Run: checkGame(1)},
	}
}

// open starts the bot and gives it the board of n with filled cells.
func open(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, n int, filled []Cell) (*conform.Session, *Board, error) {
	s, err := conform.Start(ctx, bot, opt, rec)
	if err != nil {
		return nil, nil, err
	}
	answer, err := s.Line(Message(n, filled))
	if err == nil && !strings.EqualFold(answer, "OK") {
		err = conform.Failf("answered %q to the board message instead of OK", answer)
	}
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, NewBoard(n, filled), nil
}

// moveOn sends line and checks that the answer is a legal move on b,
// which it then plays.
func moveOn(s *conform.Session, b *Board, line string) (Move, time.Duration, error) {
	start := time.Now()
	answer, err := s.Line(line)
	took := time.Since(start)
	if err != nil {
		return Move{}, took, err
	}
	mv, ok := ParseMove(answer)
	if !ok {
		return mv, took, conform.Failf("answered %q to %q, which is not a move like 1x2_2x2 (column x row, cells joined by _)", answer, line)
	}
	if problem := b.Check(mv); problem != "" {
		return mv, took, conform.Failf("played %s: %s", mv, problem)
	}
	b.Place(mv)
	return mv, took, nil
}

func stop(s *conform.Session) error {
	if err := s.Send("STOP"); err != nil {
		return err
	}
	return s.Ends("STOP")
}

func checkOK(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, _, err := open(ctx, bot, opt, rec, 7, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	return stop(s)
}

func checkStart(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, b, err := open(ctx, bot, opt, rec, 5, []Cell{{X: 0, Y: 0}, {X: 2, Y: 1}, {X: 4, Y: 4}, {X: 1, Y: 3}})
	if err != nil {
		return err
	}
	defer s.Close()
	_, _, err = moveOn(s, b, "START")
	return err
}

func checkReply(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, b, err := open(ctx, bot, opt, rec, 5, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	first := Move{{X: 2, Y: 2}, {X: 2, Y: 3}}
	b.Place(first)
	if _, _, err := moveOn(s, b, first.String()); err != nil {
		return err
	}
	return stop(s)
}

func checkOneMove(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	// A 3×3 board with everything filled but 1x2 and 2x2.
	var filled []Cell
	for y := range 3 {
		for x := range 3 {
			if y != 2 || x == 0 {
				filled = append(filled, Cell{X: x, Y: y})
			}
		}
	}
	s, b, err := open(ctx, bot, opt, rec, 3, filled)
	if err != nil {
		return err
	}
	defer s.Close()
	_, _, err = moveOn(s, b, "START")
	return err
}

func checkMoveTime(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, b, err := open(ctx, bot, opt, rec, 11, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	_, took, err := moveOn(s, b, "START")
	// The game checked for (arbiter check -bot: its configuration's) has
	// its own move limit; a bot given by its command, the original's.
	move := time.Duration(DefaultLimits.Move)
	if g, ok := opt.Game.(*Game); ok {
		move = time.Duration(g.settings.Limits.Move)
	}
	if err == nil && took > move {
		err = conform.Failf("answered START in %s, over the move limit of %s (fault T in a tournament)", took.Round(time.Millisecond), move)
	}
	return err
}

// checkGame plays a whole duel with the bot in seat (0 starts) against
// keeper, judged by the rules; STOP ends it.
func checkGame(seat int) func(context.Context, drivers.Seat, drivers.CheckOptions, drivers.Recorder) error {
	return func(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
		n, filled := 7, []Cell(nil)
		if seat == 1 {
			n, filled = 9, []Cell{{X: 4, Y: 4}, {X: 0, Y: 8}, {X: 7, Y: 1}, {X: 3, Y: 6}, {X: 6, Y: 5}}
		}
		s, b, err := open(ctx, bot, opt, rec, n, filled)
		if err != nil {
			return err
		}
		defer s.Close()
		house := core.NewKeeper(rand.New(rand.NewPCG(7, uint64(seat))))
		line, turn := "START", seat
		for moves := 1; b.HasMove(); moves++ {
			if turn == 1 {
				mv := house.Choose(b)
				b.Place(mv)
				line = mv.String()
			} else {
				mv, _, err := moveOn(s, b, line)
				if err != nil {
					return fmt.Errorf("%w (move %d of the duel)", err, moves)
				}
				rec.Event("note", "bot played "+mv.String())
			}
			turn = 1 - turn
		}
		return stop(s)
	}
}
