package bricks

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
	core "github.com/arbiter-contests/arbiter/drivers/house/bricks"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as every bot of these tests (internal/testbot),
// so that duels run between real processes through the real session
// layer: the house bots as testbot.HouseName(name), and bots that
// misbehave as their mode says (see runTestBot), by their mode.
func TestMain(m *testing.M) {
	testbot.HouseBots(HouseBots())
	for _, mode := range []string{modeFirst, modeNotOK, modeMoveOK, modeEager, modeLateOK, modeMuteOK, modeGarbage, modeDiagonal,
		modeTaken, modeSlow, modeMute, modeDie, modeHog, modeStubborn, modeLinger, modeBoot, modeSigned, modeChatty, modeTwice} {
		testbot.Register(mode, func([]string) int { return runTestBot(mode) })
	}
	testbot.Main(m)
}

// Test bot modes: each plays the first legal move, except for its fault.
const (
	modeFirst    = "first"    // plays the first legal move, answers "ok\r" and pads moves with spaces and \r
	modeSigned   = "signed"   // plays the first legal move, written "+AxBB_CxD" (a sign, a leading zero)
	modeNotOK    = "notok"    // answers the board with "READY"                  (P)
	modeMoveOK   = "moveok"   // answers the board with its first move, not OK    (P)
	modeEager    = "eager"    // answers the board with OK and its first move in one write (P)
	modeLateOK   = "lateok"   // answers OK after slowSleep                       (K)
	modeBoot     = "boot"     // starts slowly: reads nothing for 1.5 s, then plays first
	modeMuteOK   = "muteok"   // never answers the board                          (D)
	modeGarbage  = "garbage"  // answers its first move with "e2e4"               (P)
	modeDiagonal = "diagonal" // answers its first move with a diagonal pair      (M)
	modeTaken    = "taken"    // answers its first move with a filled cell        (M)
	modeSlow     = "slow"     // answers its first move after slowSleep           (T)
	modeMute     = "mute"     // never answers its first move                     (D)
	modeDie      = "die"      // exits with status 3 when asked its first move    (D)
	modeHog      = "hog"      // allocates memory without end at its first move   (D, verdict memory)
	modeStubborn = "stubborn" // plays, but ignores STOP and SIGTERM and leaves a setsid grandchild
	modeLinger   = "linger"   // the stubborn bot's grandchild
	modeChatty   = "chatty"   // plays, then writes a line of debug output after each move (P in a duel going on)
	modeTwice    = "twice"    // plays, writing each move twice in one write (P in a duel going on)
)

// slowSleep is over the tests' move and start-up limits (1s) and under
// their silence limit (4s).
const slowSleep = 2 * time.Second

func runTestBot(mode string) int {
	switch mode {
	case modeLinger:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
		return 0
	case modeBoot:
		time.Sleep(1500 * time.Millisecond)
	case modeStubborn:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		cmd := testbot.Command(modeLinger)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 1
		}
		f, err := os.OpenFile(os.Getenv("ARBITER_TEST_PIDFILE"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return 1
		}
		fmt.Fprintln(f, cmd.Process.Pid)
		f.Close()
	}
	in := bufio.NewScanner(os.Stdin)
	say := func(s string) { fmt.Fprint(os.Stdout, s+"\n") }
	forever := func() int {
		for in.Scan() {
		}
		time.Sleep(time.Hour)
		return 0
	}
	var b *Board
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "STOP" {
			if mode == modeStubborn {
				return forever()
			}
			return 0
		}
		if b == nil {
			var err error
			if b, err = core.ParseMessage(line); err != nil {
				return 1
			}
			switch mode {
			case modeNotOK:
				say("READY")
			case modeMoveOK:
				say(b.Moves()[0].String())
			case modeLateOK:
				time.Sleep(slowSleep)
				say("OK")
			case modeMuteOK:
				return forever()
			case modeFirst:
				say("ok\r")
			case modeEager:
				// Its move before it is asked: before START, or
				// before the other player's move.
				m := b.Moves()[0]
				b.Place(m)
				say("OK\n" + m.String())
			default:
				say("OK")
			}
			continue
		}
		if line != "START" {
			m, _ := ParseMove(line)
			b.Place(m)
		}
		switch mode {
		case modeGarbage:
			say("e2e4")
			return forever()
		case modeDiagonal:
			say("0x0_1x1")
			return forever()
		case modeTaken:
			say("2x2_2x1") // (2, 2) is filled on the tests' board
			return forever()
		case modeSlow:
			time.Sleep(slowSleep)
		case modeMute:
			return forever()
		case modeDie:
			os.Exit(3)
		case modeHog:
			var hoard [][]byte
			for {
				chunk := make([]byte, 8<<20)
				for i := range chunk {
					chunk[i] = 1
				}
				hoard = append(hoard, chunk)
			}
		}
		m := b.Moves()[0]
		b.Place(m)
		switch mode {
		case modeFirst:
			say("  " + m.String() + " \r")
		case modeSigned:
			say(fmt.Sprintf("+%dx%02d_%dx%d", m[0].X, m[0].Y, m[1].X, m[1].Y))
		case modeChatty:
			say(m.String())
			time.Sleep(50 * time.Millisecond)
			say("thinking done")
		case modeTwice:
			say(m.String() + "\n" + m.String())
		default:
			say(m.String())
		}
	}
	return 0
}

type nopRecorder struct{}

func (nopRecorder) Sent(int, string)     {}
func (nopRecorder) Received(int, string) {}
func (nopRecorder) Event(string, any)    {}

// testLimits are long enough that a bot that means to answer in time
// always does, and short enough that the time faults come quickly.
var testLimits = Limits{
	Startup: drivers.Duration(time.Second),
	Move:    drivers.Duration(time.Second),
	Silence: drivers.Duration(4 * time.Second),
}

func testGame(n int, filled []board.Cell, l Limits) *Game {
	return &Game{settings: Settings{Size: n, Filled: filled, Board: board.Spec{Rows: n, Cols: n, Filled: filled}, Limits: l}}
}

// player says how to run one seat of a test duel: a house bot ("random",
// "keeper"), a test bot mode, or a missing program ("missing").
type player struct{ kind, nick string }

// testRun is what every process of one test carries in its environment,
// so that a leftover can be found.
type testRun struct {
	id      string
	pidFile string
}

func newRun(t *testing.T) *testRun {
	return &testRun{
		id:      fmt.Sprintf("%d-%s-%d", os.Getpid(), t.Name(), time.Now().UnixNano()),
		pidFile: filepath.Join(t.TempDir(), "grandchildren.pid"),
	}
}

// match builds a duel between two players in dir.
func (r *testRun) match(t testing.TB, id string, seed uint64, dir string, ps ...player) *drivers.Match {
	m := &drivers.Match{ID: id, Seed: seed, Dir: dir, Record: nopRecorder{}}
	for i, p := range ps {
		seat := drivers.Seat{
			Bot: p.kind, Nick: p.nick, Dir: dir,
			Stderr: filepath.Join(dir, fmt.Sprintf("seat%d.stderr", i)),
			Env: []string{
				"ARBITER_SEED=" + strconv.FormatUint(seed, 10), "ARBITER_SEAT=" + strconv.Itoa(i),
				"ARBITER_TEST_RUN=" + r.id, "ARBITER_TEST_PIDFILE=" + r.pidFile,
			},
		}
		switch p.kind {
		case "random", "keeper":
			seat.Command = testbot.Argv(t, testbot.HouseName(p.kind))
		case "missing":
			// Its folder as a plan names it, which the original's
			// message shows.
			seat.Command, seat.PlanDir = []string{"no-such-bricks-program"}, "players/missing"
		default:
			seat.Command = testbot.Argv(t, p.kind)
		}
		m.Seats = append(m.Seats, seat)
	}
	return m
}

// assertNoProcessLeft checks that no process of the run is alive, that
// we have no zombie child, and that the stubborn bot's grandchildren are
// gone.
func (r *testRun) assertNoProcessLeft(t *testing.T) {
	t.Helper()
	proctest.AssertGone(t, "ARBITER_TEST_RUN="+r.id)
	proctest.AssertPidFileGone(t, r.pidFile)
}

// duelResult is a finished test duel.
type duelResult struct {
	out     *drivers.Outcome
	end     End
	replay  string
	elapsed time.Duration
}

func playDuel(t *testing.T, g *Game, r *testRun, ps ...player) duelResult {
	t.Helper()
	dir := t.TempDir()
	m := r.match(t, "test", 7, dir, ps...)
	start := time.Now()
	out, err := g.Play(context.Background(), m)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Play: %v", err)
	}
	res := duelResult{out: out, elapsed: elapsed}
	replay, err := os.ReadFile(filepath.Join(dir, ReplayFile))
	if err != nil {
		t.Fatal(err)
	}
	res.replay = string(replay)
	endJSON, err := os.ReadFile(filepath.Join(dir, EndFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := jsonUnmarshal(endJSON, &res.end); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestFaultCodes is the acceptance test of the fault codes: each
// misbehaviour, in either seat, ends the duel with its code, the other
// player winning, the replay's last move line as the original writes it,
// and no process left behind.
func TestFaultCodes(t *testing.T) {
	cells := []board.Cell{{X: 2, Y: 2}}
	tests := []struct {
		name string
		mode string
		code string
		kind string
		last string // the replay's last move text
		// err says whether the original writes the duel to err.txt.
		err bool
	}{
		{"board_answered_with_anything_but_OK_is_P", modeNotOK, "P", drivers.FaultProtocol, "READY", false},
		{"board_answered_with_a_move_is_P", modeMoveOK, "P", drivers.FaultProtocol, "0x0_1x0", false},
		{"OK_after_the_startup_limit_is_K", modeLateOK, "K", drivers.FaultTime, "NOOKRESPONSE", false},
		// A silent player's replay line is the original's DeadlockProtector's.
		{"no_OK_within_the_silence_limit_is_D", modeMuteOK, "D", drivers.FaultTime, "DEADLOCKNORESPONSE", true},
		// The move was in its output before START (or the other
		// player's move) was written: it answers nothing.
		{"move_written_before_it_was_asked_is_P", modeEager, "P", drivers.FaultProtocol, "0x0_1x0", false},
		{"unparseable_move_is_P", modeGarbage, "P", drivers.FaultProtocol, "e2e4", false},
		{"diagonal_pair_is_M", modeDiagonal, "M", drivers.FaultIllegal, "0x0_1x1", false},
		{"filled_cell_is_M", modeTaken, "M", drivers.FaultIllegal, "2x2_2x1", false},
		{"move_after_the_move_limit_is_T", modeSlow, "T", drivers.FaultTime, "NORESPONSE", false},
		{"no_move_within_the_silence_limit_is_D", modeMute, "D", drivers.FaultTime, "DEADLOCKNORESPONSE", true},
		// The original read end-of-file until its DeadlockProtector fired.
		{"process_that_exits_is_D_at_once", modeDie, "D", drivers.FaultCrash, "DEADLOCKNORESPONSE", true},
		// The original's err.txt has no line for a program that cannot start.
		{"program_that_cannot_start_is_S", "missing", "S", drivers.FaultStart, "null", false},
	}
	for _, tt := range tests {
		for bad := range 2 {
			t.Run(fmt.Sprintf("%s/seat%d", tt.name, bad), func(t *testing.T) {
				t.Parallel()
				r := newRun(t)
				ps := []player{{"random", "GOOD ONE"}, {"random", "GOOD ONE"}}
				ps[bad] = player{tt.mode, "BAD ONE"}
				res := playDuel(t, testGame(5, cells, testLimits), r, ps...)
				r.assertNoProcessLeft(t)

				if res.end.Code != tt.code || res.end.Winner != 1-bad {
					t.Errorf("code %s, winner seat %d; want %s and %d\nreplay:\n%s", res.end.Code, res.end.Winner, tt.code, 1-bad, res.replay)
				}
				s, o := res.out.Seats[bad], res.out.Seats[1-bad]
				if s.Fault != tt.kind || s.Score != 0 || o.Fault != "" || o.Score != 1 {
					t.Errorf("seats %+v; want the bad one with fault %q and 0, the other 1", res.out.Seats, tt.kind)
				}
				if !strings.Contains(s.Detail, "(code "+tt.code+")") {
					t.Errorf("detail %q does not keep the code %s", s.Detail, tt.code)
				}
				if (tt.mode == modeGarbage || tt.mode == modeNotOK) && !strings.Contains(s.Detail, "(write debug output to stderr)") {
					t.Errorf("detail %q of a line that is no move does not say where debug output goes", s.Detail)
				}
				// A move for OK is a bot that took the board for a move
				// to answer: told so, not to write debug output to stderr.
				if tt.mode == modeMoveOK && (!strings.Contains(s.Detail, "that is a move, but the board message") || strings.Contains(s.Detail, "debug")) {
					t.Errorf("detail %q of a move answered to the board does not say that the board is answered OK, or says where debug output goes", s.Detail)
				}
				if tt.mode == modeEager && !strings.Contains(s.Detail, "before it was sent") {
					t.Errorf("detail %q of a move written before it was asked does not say so", s.Detail)
				}
				lines := strings.Split(strings.TrimSuffix(res.replay, "\n"), "\n")
				n := len(lines)
				if n < 6 || lines[n-4] != tt.last+" :BAD ONE" || lines[n-3] != "---" || lines[n-2] != "GOOD ONE" {
					t.Errorf("replay ends wrongly, want last move %q :BAD ONE, ---, GOOD ONE:\n%s", tt.last, res.replay)
				}
				if (res.end.Error != "") != tt.err {
					t.Errorf("err.txt line %q; want one: %v", res.end.Error, tt.err)
				}
				if tt.mode == modeDie && res.elapsed > time.Duration(testLimits.Silence) {
					t.Errorf("a dead bot was detected after %v, not at once (silence limit %v)", res.elapsed, time.Duration(testLimits.Silence))
				}
			})
		}
	}
}

// TestLimitVerdict runs a bot that goes over its memory limit: it loses
// with the original's code D, and the fault names the limit that killed
// it, not a plain crash.
func TestLimitVerdict(t *testing.T) {
	if e := proc.Machine().Enforcements(); !enforced(e, drivers.LimitMemory) {
		t.Skip("memory limits are not enforced on this machine (see arbiter doctor)")
	}
	r := newRun(t)
	dir := t.TempDir()
	m := r.match(t, "test", 7, dir, player{modeHog, "HOG"}, player{"random", "GOOD ONE"})
	m.Seats[0].Limits = drivers.Limits{Memory: 64 << 20}
	out, err := testGame(5, nil, testLimits).Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	r.assertNoProcessLeft(t)
	if s := out.Seats[0]; s.Fault != drivers.FaultMemory || !strings.Contains(s.Detail, "(code D)") || out.Seats[1].Score != 1 {
		t.Errorf("seats %+v; want the hog to lose with a memory fault and code D", out.Seats)
	}
}

func enforced(es []proc.Enforcement, limit string) bool {
	for _, e := range es {
		if e.Limit == limit {
			return e.Enforced
		}
	}
	return false
}

// TestNormalEnds plays whole duels to their normal end.
func TestNormalEnds(t *testing.T) {
	t.Run("padded_answers_and_lower_case_ok_are_accepted", func(t *testing.T) {
		r := newRun(t)
		res := playDuel(t, testGame(3, nil, testLimits), r, player{modeFirst, "P1"}, player{modeFirst, "P2"})
		r.assertNoProcessLeft(t)
		// Both take the first legal move in reading order, horizontal
		// first; then only (2, 2) is free and P2 made the last move.
		want := "3#P1#P2#| :size :P1_nick :P2_nick\n3\n0x0_1x0 :P1\n2x0_2x1 :P2\n0x1_1x1 :P1\n0x2_1x2 :P2\n---\nP2\nPlayer P2 won normally!\n"
		if res.replay != want {
			t.Errorf("replay:\n%s\nwant:\n%s", res.replay, want)
		}
		if res.end.Code != "N" || res.out.Seats[1].Score != 1 || res.out.Seats[0].Fault != "" {
			t.Errorf("end %+v, seats %+v", res.end, res.out.Seats)
		}
	})
	t.Run("starting_board_without_a_move_loses_for_the_first_player_normally", func(t *testing.T) {
		r := newRun(t)
		checker := []board.Cell{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: 2, Y: 1}, {X: 1, Y: 2}}
		res := playDuel(t, testGame(3, checker, testLimits), r, player{modeFirst, "P1"}, player{modeFirst, "P2"})
		r.assertNoProcessLeft(t)
		want := "3#P1#P2#| :size :P1_nick :P2_nick\n3_1x0_0x1_2x1_1x2\n---\nP2\nPlayer P2 won normally!\n"
		if res.replay != want {
			t.Errorf("replay:\n%s\nwant:\n%s", res.replay, want)
		}
		if res.end.Code != "N" || res.end.Winner != 1 || res.out.Seats[0].Fault != "" {
			t.Errorf("end %+v, seats %+v; want a normal win of seat 1", res.end, res.out.Seats)
		}
	})
	t.Run("stubborn_bot_is_stopped_and_its_grandchild_killed", func(t *testing.T) {
		r := newRun(t)
		res := playDuel(t, testGame(5, nil, testLimits), r, player{modeStubborn, "S1"}, player{"random", "R"})
		r.assertNoProcessLeft(t)
		if res.end.Code != "N" {
			t.Errorf("end %+v", res.end)
		}
		if b, _ := os.ReadFile(r.pidFile); len(strings.Fields(string(b))) != 1 {
			t.Errorf("pid file lists %q, want one grandchild", b)
		}
	})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// BenchmarkDuelProcesses is one whole 5×5 duel between the house bots
// keeper and random as real processes, start to reaping.
func BenchmarkDuelProcesses(b *testing.B) {
	g := testGame(5, []board.Cell{{X: 3, Y: 1}}, DefaultLimits)
	r := &testRun{id: "bench", pidFile: filepath.Join(b.TempDir(), "pids")}
	m := r.match(b, "bench", 1, b.TempDir(), player{"keeper", "K"}, player{"random", "R"})
	for b.Loop() {
		if _, err := g.Play(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWakeUpDelay: the original waited a set time after starting a player
// before it sent the board, so a slow start (a JVM's) did not count
// against the 1 s OK clock. A player that takes 1.5 s to start answers OK
// late without the delay, and in time after a 2 s one.
func TestWakeUpDelay(t *testing.T) {
	cells := []board.Cell{{X: 2, Y: 2}}
	for _, tt := range []struct {
		delay time.Duration
		code  string
	}{{0, "K"}, {2 * time.Second, "N"}} {
		t.Run(tt.delay.String(), func(t *testing.T) {
			t.Parallel()
			limits := testLimits
			limits.Delay = drivers.Duration(tt.delay)
			r := newRun(t)
			res := playDuel(t, testGame(5, cells, limits), r, player{modeBoot, "SLOW START"}, player{"random", "RANDOM"})
			r.assertNoProcessLeft(t)
			if res.end.Code != tt.code {
				t.Errorf("a 1.5 s start after a %v delay ends with %s (%s), want %s", tt.delay, res.end.Code, res.end.Message, tt.code)
			}
		})
	}
}

// moveLog keeps a duel's received lines and move events.
type moveLog struct {
	nopRecorder
	recv  []string
	moves []MoveEvent
}

func (l *moveLog) Received(seat int, line string) {
	if seat == 0 {
		l.recv = append(l.recv, line)
	}
}

func (l *moveLog) Event(kind string, data any) {
	if m, ok := data.(MoveEvent); ok && kind == "move" && m.Seat == 0 {
		l.moves = append(l.moves, m)
	}
}

// TestMoveEventIsNormalised: a move event holds the domino as the
// referee forwards it (docs/events.md), AxB_CxD in plain decimal; the
// line as the player wrote it is its recv.
func TestMoveEventIsNormalised(t *testing.T) {
	r := newRun(t)
	dir := t.TempDir()
	m := r.match(t, "test", 7, dir, player{kind: modeSigned, nick: "S"}, player{kind: "keeper", nick: "K"})
	rec := &moveLog{}
	m.Record = rec
	if _, err := testGame(5, nil, testLimits).Play(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if len(rec.moves) == 0 || len(rec.recv) < len(rec.moves)+1 {
		t.Fatalf("moves %v, lines received %q", rec.moves, rec.recv)
	}
	for i, mv := range rec.moves {
		raw := rec.recv[i+1] // after OK
		want, _ := ParseMove(raw)
		if !strings.HasPrefix(raw, "+") || mv.Move != want.String() || mv.Move == raw {
			t.Errorf("move %d: event %q for the line %q, want %q", i+1, mv.Move, raw, want)
		}
	}
	r.assertNoProcessLeft(t)
}

// sentLog keeps the lines a duel's transcript says were sent, by seat.
type sentLog struct {
	nopRecorder
	mu   sync.Mutex
	sent [2][]string
}

func (l *sentLog) Sent(seat int, line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent[seat] = append(l.sent[seat], line)
}

// TestNoStopToAnEndedPlayer: STOP goes to a player still running at the
// end (docs/events.md), not to one whose process the duel found ended
// (code D, "output ended (exited with status 3)"), in either seat.
func TestNoStopToAnEndedPlayer(t *testing.T) {
	for dead := range 2 {
		t.Run(fmt.Sprintf("seat%d", dead), func(t *testing.T) {
			r := newRun(t)
			ps := []player{{"random", "ALIVE"}, {"random", "ALIVE"}}
			ps[dead] = player{modeDie, "DEAD"}
			m := r.match(t, "test", 7, t.TempDir(), ps...)
			rec := &sentLog{}
			m.Record = rec
			out, err := testGame(5, nil, testLimits).Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			r.assertNoProcessLeft(t)
			if s := out.Seats[dead]; s.Fault != drivers.FaultCrash || !strings.Contains(s.Detail, "exited with status 3") {
				t.Fatalf("seat %d: %+v, want a crash that says how it exited", dead, s)
			}
			if got := rec.sent[dead]; slices.Contains(got, "STOP") {
				t.Errorf("the ended player was sent %q, STOP included", got)
			}
			if got := rec.sent[1-dead]; len(got) == 0 || got[len(got)-1] != "STOP" {
				t.Errorf("the running player was sent %q, want STOP last", got)
			}
		})
	}
}
