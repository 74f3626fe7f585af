package blokus

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/blokus"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as every bot of these tests (internal/testbot),
// so that matches run between real processes through the session layer:
// the house bots as testbot.HouseName(name), the faulty bots (see
// runFaultyBot) by their mode.
func TestMain(m *testing.M) {
	testbot.HouseBots(HouseBots())
	for _, mode := range []string{modeIllegal, modePass, modeGarbage, modeSlow, modeCrash, modeLinger, modePonder, modeTwice} {
		testbot.Register(mode, func([]string) int { return runFaultyBot(mode) })
	}
	testbot.Main(m)
}

// Faulty bot modes: each plays legally (first legal placement) until its
// first gen_move, then misbehaves.
const (
	modeIllegal = "illegal" // places a stone off the board
	modePass    = "pass"    // passes although it can place a stone
	modeGarbage = "garbage" // answers with a line that is no response
	modeSlow    = "slow"    // starts a grandchild, then thinks far past its move limit
	modeCrash   = "crash"   // exits with status 3
	modeLinger  = "linger"  // the slow bot's grandchild: sleeps
	// modePonder takes 500 ms over the opponent's play and 500 ms over
	// its gen_move, legally for two moves; its third is garbage.
	modePonder = "ponder"
	// modeTwice answers the play of its own first move twice, the second
	// in a write of its own: its answers are out of step from then on.
	modeTwice = "twice"
)

func runFaultyBot(mode string) int {
	if mode == modeLinger {
		// Tell the test who to look for, then outlive everyone.
		_ = os.WriteFile(filepath.Join(os.Getenv("BLOKUS_TEST_DIR"), "linger.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(time.Hour)
		return 0
	}
	t := core.NewTable()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 4096), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	me, moves := "", 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if mode == modePonder {
			switch {
			case f[0] == "set_player" && len(f) > 1:
				me = f[1]
			case f[0] == "play" && len(f) > 1 && f[1] != me, f[0] == "gen_move":
				time.Sleep(500 * time.Millisecond)
			}
			if f[0] == "gen_move" {
				if moves++; moves >= 3 {
					fmt.Fprint(out, "I am done\n\n")
					out.Flush()
					continue
				}
			}
		}
		if f[0] == "gen_move" && mode != modePonder && mode != modeTwice {
			switch mode {
			case modeIllegal:
				fmt.Fprint(out, "= 0,0 0,-1\n\n")
			case modePass:
				fmt.Fprint(out, "= pass\n\n")
			case modeGarbage:
				fmt.Fprint(out, "I would rather not\n\n")
			case modeSlow:
				cmd := testbot.Command(modeLinger)
				if err := cmd.Start(); err != nil {
					return 4
				}
				time.Sleep(time.Minute)
			case modeCrash:
				out.Flush()
				return 3
			}
			out.Flush()
			continue
		}
		if mode == modeTwice && f[0] == "set_player" && len(f) > 1 {
			me = f[1]
		}
		answer, err := t.Handle(f, firstLegal)
		switch {
		case err != nil:
			fmt.Fprintf(out, "? %v\n\n", err)
		case answer == "":
			fmt.Fprint(out, "=\n\n")
		default:
			fmt.Fprintf(out, "= %s\n\n", answer)
		}
		out.Flush()
		if mode == modeTwice && f[0] == "play" && len(f) > 1 && f[1] == me && moves == 0 {
			moves++
			fmt.Fprint(out, "=\n\n")
			out.Flush()
		}
		if f[0] == "quit" {
			return 0
		}
	}
	return 0
}

type nopRecorder struct{}

func (nopRecorder) Sent(int, string)     {}
func (nopRecorder) Received(int, string) {}
func (nopRecorder) Event(string, any)    {}

// processMatch makes a match between the test binary as bots: a name is
// a house bot, "fault:<mode>" a faulty bot. Every bot carries run, a token
// that finds it and its children in /proc afterwards.
func processMatch(tb testing.TB, seed uint64, clock drivers.Clock, run string, rec drivers.Recorder, bots ...string) *drivers.Match {
	dir := tb.TempDir()
	m := &drivers.Match{ID: "test", Seed: seed, Record: rec, Clock: clock, Dir: dir}
	for i, b := range bots {
		seat := drivers.Seat{
			Bot: b, Dir: dir,
			Env: []string{"ARBITER_SEED=" + strconv.FormatUint(seed, 10), "ARBITER_SEAT=" + strconv.Itoa(i),
				"BLOKUS_TEST_RUN=" + run, "BLOKUS_TEST_DIR=" + dir},
			Stderr: filepath.Join(dir, strconv.Itoa(i)+".stderr"),
		}
		if mode, ok := strings.CutPrefix(b, "fault:"); ok {
			seat.Command = testbot.Argv(tb, mode)
		} else {
			seat.Command = testbot.Argv(tb, testbot.HouseName(b))
		}
		m.Seats = append(m.Seats, seat)
	}
	return m
}

func token(t *testing.T) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TestGameWithProcesses plays classic Blokus between the house bots run
// as processes through the session layer: the driver's normal path.
func TestGameWithProcesses(t *testing.T) {
	g := &Game{settings: classicSettings(t), clock: drivers.Clock{Move: drivers.Duration(10 * time.Second)}}
	run := token(t)
	rec := &events{}
	out, err := g.Play(context.Background(), processMatch(t, 3, g.clock, run, rec, "greedy", "random"))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Errorf("seat %d: fault %s: %s", i, s.Fault, s.Detail)
		}
	}
	if e := rec.of("end"); len(e) != 1 || e[0].(EndEvent).Reason == "fault" {
		t.Errorf("end events %v", e)
	}
	if n := len(rec.of("move")); n < 10 {
		t.Errorf("only %d moves in a classic game", n)
	}
	proctest.AssertNoEnv(t, "BLOKUS_TEST_RUN="+run)
}

// TestFaultsWithProcesses runs each kind of fault with a real misbehaving
// bot process against a house bot, and checks the outcome and that no
// process of the match is left.
func TestFaultsWithProcesses(t *testing.T) {
	tests := []struct {
		mode, kind string
		seat       int
		detail     string // regexp
	}{
		{modeIllegal, drivers.FaultIllegal, 0, `^placed cell 0,-1, which is outside the 20 × 20 board on turn 1 \(its move 1\)$`},
		{modePass, drivers.FaultIllegal, 1, `^passed, but could place stone .* on turn 2 \(its move 1\)$`},
		{modeGarbage, drivers.FaultProtocol, 0, `^answered "I would rather not" to "gen_move": a response must start with '=' or '\?' \(write debug output to stderr\), answering gen_move on turn 1 \(its move 1\)$`},
		// Written behind the play and time_left, which it answered.
		{modeSlow, drivers.FaultTime, 1, `, answering gen_move on turn 2 \(its move 1\); nothing arrived after its answer to the command before it, written with it: it may not have finished this one in time; `},
		{modeTwice, drivers.FaultProtocol, 0, `^answered gen_move with "", which is neither cells row,col nor pass on turn 3 \(its move 2\); but it has written more answers than it was sent commands`},
		{modeCrash, drivers.FaultCrash, 0, `exited with status 3.*, answering gen_move on turn 1 \(its move 1\)$`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			clock := drivers.Clock{Move: drivers.Duration(10 * time.Second)}
			if tt.mode == modeSlow {
				clock.Move = drivers.Duration(time.Second)
			}
			g := &Game{settings: classicSettings(t), clock: clock}
			bots := []string{"greedy", "greedy"}
			bots[tt.seat] = "fault:" + tt.mode
			run := token(t)
			rec := &events{}
			start := time.Now()
			m := processMatch(t, 9, clock, run, rec, bots...)
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the match took %v", took)
			}
			got := out.Seats[tt.seat]
			if got.Fault != tt.kind || !regexp.MustCompile(tt.detail).MatchString(got.Detail) {
				t.Errorf("faulty seat: fault %q detail %q, want %q matching %s", got.Fault, got.Detail, tt.kind, tt.detail)
			}
			if other := out.Seats[1-tt.seat]; other.Fault != "" || other.Place != 1 || got.Place != 2 {
				t.Errorf("other seat %+v, faulty place %v: the other bot must win without a fault", other, got.Place)
			}
			proctest.AssertNoEnv(t, "BLOKUS_TEST_RUN="+run)
			if tt.mode == modeSlow {
				// The grandchild was there, and is gone.
				b, err := os.ReadFile(filepath.Join(m.Dir, "linger.pid"))
				if err != nil {
					t.Fatalf("the slow bot's grandchild never started: %v", err)
				}
				if _, err := os.Stat("/proc/" + string(b)); err == nil {
					t.Errorf("the slow bot's grandchild %s is still running", b)
				}
			}
		})
	}
}

// TestTurnClock: clock.Turn spans the opponent's play and the bot's
// gen_move, as the course's 2 s covered update() and move() together.
// The ponder bot spends 1 s a turn, 500 ms an answer: a 1.5 s turn lets it
// make its two legal moves (each turn counted afresh) until its garbage
// third; a 800 ms turn is over on its first turn with the opponent's play
// in it, though no answer reaches the 10 s move limit.
func TestTurnClock(t *testing.T) {
	for _, tt := range []struct {
		turn   time.Duration
		kind   string
		detail string // regexp
	}{
		{1500 * time.Millisecond, drivers.FaultProtocol, `answering gen_move on turn 6 \(its move 3\)$`},
		{800 * time.Millisecond, drivers.FaultTime, `^no answer within the [0-9.]+m?s left of its turn of 800ms, answering gen_move on turn 2 \(its move 1\); nothing arrived after its answer to the command before it`},
	} {
		t.Run(tt.turn.String(), func(t *testing.T) {
			t.Parallel()
			clock := drivers.Clock{Move: drivers.Duration(10 * time.Second), Turn: drivers.Duration(tt.turn)}
			g := &Game{settings: classicSettings(t), clock: clock}
			run := token(t)
			out, err := g.Play(context.Background(), processMatch(t, 9, clock, run, nopRecorder{}, "greedy", "fault:"+modePonder))
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Seats[1]; got.Fault != tt.kind || !regexp.MustCompile(tt.detail).MatchString(got.Detail) {
				t.Errorf("ponder: fault %q detail %q, want %q matching %s", got.Fault, got.Detail, tt.kind, tt.detail)
			}
			proctest.AssertNoEnv(t, "BLOKUS_TEST_RUN="+run)
		})
	}
}

// TestStartFault: a bot that cannot start loses with a start fault.
func TestStartFault(t *testing.T) {
	g := &Game{settings: classicSettings(t)}
	m := processMatch(t, 1, drivers.Clock{}, token(t), nopRecorder{}, "greedy", "greedy")
	m.Seats[1].Command = []string{filepath.Join(t.TempDir(), "no-such-bot")}
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Seats[1].Fault != drivers.FaultStart || out.Seats[1].Place != 2 || out.Seats[0].Place != 1 {
		t.Errorf("outcome %+v", out.Seats)
	}
}

// BenchmarkGameProcesses is one whole classic game between greedy and
// random as real processes, start to reaping; compare with
// BenchmarkRefereeGame, the same game in process.
func BenchmarkGameProcesses(b *testing.B) {
	g := &Game{settings: classicSettings(b), clock: drivers.Clock{Move: drivers.Duration(time.Minute)}}
	m := processMatch(b, 7, g.clock, "bench", nopRecorder{}, "greedy", "random")
	for b.Loop() {
		if _, err := g.Play(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefereeGame is the same game with the bots in process.
func BenchmarkRefereeGame(b *testing.B) {
	s := classicSettings(b)
	for b.Loop() {
		playHouse(b, s, 7, "greedy", "random")
	}
}
