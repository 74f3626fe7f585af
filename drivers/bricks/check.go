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
// domino left, the start-up and move limits, STOP, and whole duels
// against the house bot keeper from both seats. The two clock cases time
// the bot as a duel does (answerWithin), by the checked game's limits
// (caseLimits); the others wait up to -move for any answer.
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "ok", Doc: "answers OK to an empty board, then exits after STOP", Run: checkOK},
		{Name: "ok-clock", Doc: "answers OK within the start-up limit, the board sent after the wake-up delay (clock { startup, delay }: the original's 1 s after 1.5 s unless the configuration sets others)", Run: checkOKTime},
		{Name: "start", Doc: "answers START on a board with filled cells with a legal domino, then the other player's move", Run: checkStart},
		{Name: "reply", Doc: "as second player, answers the opponent's move with a legal domino, then its next move", Run: checkReply},
		{Name: "one-move", Doc: "on a board where one domino fits, plays it (a position with one legal move)", Run: checkOneMove},
		{Name: "clock", Doc: "answers START with a move within the move limit (clock { move }: the original's 0.5 s unless the configuration sets another), then the other player's move", Run: checkMoveTime},
		{Name: "game-first", Doc: "plays a whole duel on 7×7 against the house bot keeper, starting", Run: checkGame(0)},
		{Name: "game-second", Doc: "plays a whole duel on 9×9 with filled cells against the house bot keeper, second", Run: checkGame(1)},
	}
}

// caseLimits are the limits the clock cases hold the bot to: those of the
// game it is checked for (arbiter check -bot: its configuration's), or
// else the original's, DefaultLimits, which a game block without a clock
// block gives a tournament.
func caseLimits(opt drivers.CheckOptions) Limits {
	if g, ok := opt.Game.(*Game); ok {
		return g.settings.Limits
	}
	return DefaultLimits
}

// CheckClock says which cases judge time, for check's output.
func (Driver) CheckClock(opt drivers.CheckOptions) string {
	whose := opt.Whose("the original's, a tournament's without a clock block")
	l := caseLimits(opt)
	return fmt.Sprintf("ok-clock and clock judge the limits, %s: OK within %v of the board, sent %v after the start (else code K), a move within %v (else T); the other cases wait up to %v (-move) for each answer",
		whose, time.Duration(l.Startup), time.Duration(l.Delay), time.Duration(l.Move), time.Duration(opt.Move))
}

// open starts the bot and gives it the board of n with filled cells.
func open(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, n int, filled []Cell) (*conform.Session, *Board, error) {
	return openWithin(ctx, bot, opt, rec, n, filled, nil)
}

// openWithin is open that, given limits, sends the board as a duel does:
// after the wake-up delay, wanting OK within the start-up limit.
func openWithin(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, n int, filled []Cell, l *Limits) (*conform.Session, *Board, error) {
	s, err := conform.Start(ctx, bot, opt, rec)
	if err != nil {
		return nil, nil, err
	}
	var answer string
	if l == nil {
		answer, err = s.Line(Message(n, filled))
	} else {
		select {
		case <-time.After(time.Duration(l.Delay)):
		case <-ctx.Done():
			s.Close()
			return nil, nil, ctx.Err()
		}
		answer, err = lineWithin(s, Message(n, filled), "the board", time.Duration(l.Startup), "start-up", "K")
	}
	if err == nil && !strings.EqualFold(answer, "OK") {
		err = notOK(answer)
	}
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, NewBoard(n, filled), nil
}

// notOK is the failure of answer, given to the board message instead of
// OK, told as a duel tells it (notOKDetail).
func notOK(answer string) error {
	return conform.Failf("%s", notOKDetail(answer, "the board message"))
}

// lineWithin sends line (what it is, for a failure) and reads the answer
// as a duel does (answerWithin): one after limit fails the case, naming
// the limit and the code a duel gives it.
func lineWithin(s *conform.Session, line, what string, limit time.Duration, name, code string) (string, error) {
	start := time.Now()
	answer, late, err := answerWithin(s.S, line, limit)
	if err != nil {
		return "", s.Explain(err, line)
	}
	if late {
		return "", conform.Failf("answered %s in %s, over the %s limit of %s (fault %s in a tournament)",
			what, time.Since(start).Round(time.Millisecond), name, limit, code)
	}
	return answer, nil
}

// moveOn sends line and checks that the answer is a legal move on b,
// which it then plays.
func moveOn(s *conform.Session, b *Board, line string) (Move, error) {
	return moveWithin(s, b, line, 0)
}

// moveWithin is moveOn that, given a move limit, also wants the answer
// within it, as a duel does.
func moveWithin(s *conform.Session, b *Board, line string, limit time.Duration) (Move, error) {
	var answer string
	var err error
	if limit > 0 {
		answer, err = lineWithin(s, line, line, limit, "move", "T")
	} else {
		answer, err = s.Line(line)
	}
	if err != nil {
		return Move{}, err
	}
	if _, early := s.S.EarlyAnswer(); early {
		return Move{}, conform.Failf("%s", earlyMove(line, answer))
	}
	mv, ok := ParseMove(answer)
	if !ok {
		return mv, conform.Failf("answered %q to %q, which is not a move like 1x2_2x2 (column x row, cells joined by _; write debug output to stderr)", answer, line)
	}
	if problem := b.Check(mv); problem != "" {
		return mv, conform.Failf("played %s: %s", mv, problem)
	}
	b.Place(mv)
	return mv, nil
}

// goOn ends a case after the bot's move on b as a duel goes on from
// there: the other player's move (the first that fits), whose answer
// must be a move the bot wrote after it was sent (what the bot wrote
// after its last answer, a line of debug output or its move again, would
// be taken for it), then STOP. When no domino fits after the bot's move
// the duel is over: STOP alone, and nothing after the move is judged, as
// a duel does not judge it.
func goOn(s *conform.Session, b *Board) error {
	if b.HasMove() {
		mv := b.Moves()[0]
		b.Place(mv)
		if !b.HasMove() {
			return stop(s) // the other player's move ends the duel: the bot is not sent it
		}
		if _, err := moveOn(s, b, mv.String()); err != nil {
			return fmt.Errorf("%w (the other player's move after the bot's, as a duel goes on)", err)
		}
	}
	return stop(s)
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
	if _, err := moveOn(s, b, "START"); err != nil {
		return err
	}
	return goOn(s, b)
}

func checkReply(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, b, err := open(ctx, bot, opt, rec, 5, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	first := Move{{X: 2, Y: 2}, {X: 2, Y: 3}}
	b.Place(first)
	if _, err := moveOn(s, b, first.String()); err != nil {
		return err
	}
	return goOn(s, b)
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
	if _, err := moveOn(s, b, "START"); err != nil {
		return err
	}
	return goOn(s, b)
}

// checkOKTime sends the board as a duel does, after the wake-up delay,
// and wants OK within the start-up limit (caseLimits).
func checkOKTime(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	l := caseLimits(opt)
	s, _, err := openWithin(ctx, bot, opt, rec, 7, nil, &l)
	if err != nil {
		return err
	}
	defer s.Close()
	return stop(s)
}

// checkMoveTime wants a move on an empty board within the move limit
// (caseLimits), timed as a duel times it.
func checkMoveTime(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, b, err := open(ctx, bot, opt, rec, 11, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := moveWithin(s, b, "START", time.Duration(caseLimits(opt).Move)); err != nil {
		return err
	}
	return goOn(s, b)
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
				mv, err := moveOn(s, b, line)
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
