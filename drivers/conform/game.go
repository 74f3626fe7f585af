package conform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// HousePlayer is a house bot of a GTP-like game as a referee's player,
// run in this process over pipes: the opponents of a case's full game.
// Close ends it.
type HousePlayer struct {
	in  *io.PipeWriter
	out *bufio.Reader
}

// NewHousePlayer starts hb sitting in seat of a match whose deal seed is
// seed; it gets the bot's seed of that seat (drivers.BotSeed), as in a run.
func NewHousePlayer(hb drivers.HouseBot, seed uint64, seat int) *HousePlayer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	env := func(k string) string {
		switch k {
		case "ARBITER_SEED":
			return strconv.FormatUint(drivers.BotSeed(seed, seat), 10)
		case "ARBITER_SEAT":
			return strconv.Itoa(seat)
		}
		return ""
	}
	go func() {
		err := hb.Run(inR, outW, env)
		_, _ = io.Copy(io.Discard, inR)
		outW.CloseWithError(fmt.Errorf("house bot %s ended: %v", hb.Name, err))
	}()
	return &HousePlayer{in: inW, out: bufio.NewReader(outR)}
}

// Ask implements gtp.Player.
func (p *HousePlayer) Ask(cmd string) (bool, string, error) {
	if _, err := io.WriteString(p.in, cmd+"\n"); err != nil {
		return false, "", err
	}
	var lines []string
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			return false, "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if lines == nil && line == "" {
			continue
		}
		if line == "" {
			break
		}
		lines = append(lines, line)
	}
	return strings.HasPrefix(lines[0], "="), strings.TrimSpace(strings.Join(lines, "\n")[1:]), nil
}

// Left implements gtp.Player: house bots have no clock.
func (p *HousePlayer) Left() (time.Duration, bool) { return 0, false }

// Close ends the house bot.
func (p *HousePlayer) Close() { p.in.Close() }

// FullGame plays one real match with the game's referee: the bot under
// test in seat, under clock (StartClock), house bots everywhere else. play
// runs the referee over the players; the case fails with the referee's
// own verdict when the bot's seat faults.
func FullGame(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, clock drivers.Clock, rec drivers.Recorder,
	seats, seat int, seed uint64, house drivers.HouseBot,
	play func(players []gtp.Player, rec drivers.Recorder) *drivers.Outcome) error {
	s, err := StartClock(ctx, bot, opt, clock, rec)
	if err != nil {
		return err
	}
	defer s.Close()
	players := make([]gtp.Player, seats)
	tested := &gamePlayer{SessionPlayer: gtp.SessionPlayer{S: s.S}}
	for i := range players {
		if i == seat {
			players[i] = tested
			continue
		}
		hp := NewHousePlayer(house, seed, i)
		defer hp.Close()
		players[i] = hp
	}
	out := play(players, rec)
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, r := range out.Seats {
		if r.Fault == "" {
			continue
		}
		if i != seat {
			return fmt.Errorf("the house bot in seat %d faulted (%s: %s): the case is wrong, not the bot", i, r.Fault, r.Detail)
		}
		// The referee's note that nothing arrived points to check, which
		// this is: check's own hint says more. Of a command written behind
		// others whose answers came, it is the read hint (tested.hint,
		// which names the line answered before it): the note's other
		// cause, an answer not flushed, is no more likely than there.
		detail, hint := r.Detail, tested.hint
		if d, ok := strings.CutSuffix(detail, drivers.NothingArrivedNote); ok && hint == "" {
			detail, hint = d, "nothing arrived; "+flushHint
		}
		if d, ok := strings.CutSuffix(detail, drivers.QueuedNote); ok {
			detail = d
			if hint == "" {
				hint = drivers.QueuedArrived + "; " + flushHint
			}
		}
		if d, ok := strings.CutSuffix(detail, drivers.WaitingNote); ok {
			detail, hint = d, "nothing arrived; "+drivers.WaitingCause
		}
		if d, ok := strings.CutSuffix(detail, drivers.TakenNote); ok {
			detail, hint = d, "nothing arrived; it "+drivers.TakenSlow
		}
		if d, ok := strings.CutSuffix(detail, drivers.ComputedNote); ok {
			detail, hint = d, "nothing arrived; "+computedHint
		}
		if hint != "" {
			return Failf("%s (%s fault); %s", detail, r.Fault, hint)
		}
		return Failf("%s (%s fault)", detail, r.Fault)
	}
	return s.Ends("quit")
}

// gamePlayer is the bot under test as a full game's player: the
// referee's gtp.SessionPlayer, which also keeps the hint a scripted case
// would give (writeHint) when the referee's write of several commands
// (a play with time_left and gen_move, as a match writes them: see
// gtp.Match.TellAllBefore) ends the game with no answer to one after the
// first: the bot answered the first and lost the rest of the write.
type gamePlayer struct {
	gtp.SessionPlayer
	// hint is writeHint for the last write, when its answers ended with
	// silence; "" otherwise.
	hint string
}

// AskAll implements gtp.Pipeliner.
func (p *gamePlayer) AskAll(cmds ...string) []gtp.Answer {
	answers := p.SessionPlayer.AskAll(cmds...)
	p.hint = ""
	if k := len(answers) - 1; k >= 0 && silent(answers[k].Err) {
		p.hint = writeHint(cmds, answers, k)
	}
	return answers
}
