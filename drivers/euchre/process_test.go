package euchre

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as the bots of these tests (internal/testbot):
//
//	testbot.HouseName(NAME)     a house bot, as `arbiter bot euchre/NAME`
//	"bad" MODE PHASE            the rules bot, except that in PHASE it
//	                            misbehaves as MODE says
func TestMain(m *testing.M) {
	testbot.HouseBots(HouseBots())
	testbot.Register("bad", func(args []string) int {
		if len(args) != 2 {
			fmt.Fprintln(os.Stderr, "usage: bad MODE PHASE")
			return 2
		}
		badBot(args[0], Phase(args[1]))
		return 0
	})
	testbot.Main(m)
}

func badBot(mode string, phase Phase) {
	in, _ := io.ReadAll(os.Stdin)
	lines := strings.Split(string(in), "\n")
	if len(lines) < 4 || Phase(lines[3]) != phase {
		if err := houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	switch mode {
	case "crash":
		fmt.Fprintln(os.Stderr, "crashing on purpose")
		os.Exit(3)
	case "signal":
		// Go's handler may take the signal on another thread than this
		// one, which kill leaves at once: waiting here, rather than
		// going on to os.Exit(0), leaves the end to the handler (exit
		// status 2 after its trace), or else to the move's clock.
		syscall.Kill(os.Getpid(), syscall.SIGSEGV)
		time.Sleep(time.Minute)
	case "hang":
		// A child in its group and a grandchild that escapes it: both
		// must be gone when the decision is over.
		exec.Command("sleep", "600").Start()
		esc := exec.Command("sleep", "600")
		esc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		esc.Start()
		time.Sleep(10 * time.Minute)
	case "garbage":
		fmt.Println("\x00\x01 zz ♠ not an answer")
		os.Stdout.Write(bytes.Repeat([]byte("garbage "), 100000))
	case "empty":
		os.Exit(0)
	case "blank":
		fmt.Println("   ")
	case "memory":
		// Two files, one of them over the limit.
		os.WriteFile("a", bytes.Repeat([]byte("x"), 5000), 0o644)
		os.WriteFile("b", []byte("x"), 0o644)
		houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv)
	case "bigmemory": // 400 MiB in one file, a MiB at a time
		proctest.WriteMiBs("big", 400)
		houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv)
	case "manymemory": // 80 files of 5 MiB
		for i := range 80 {
			proctest.WriteMiBs(fmt.Sprintf("m%d", i), 5)
		}
		houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv)
	case "answercrash", "answersignal", "answerlinger", "answerchatty":
		answerThen(mode, phase)
	case "escape":
		// A valid answer, leaving a process behind that escaped the group.
		esc := exec.Command("sleep", "600")
		esc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		esc.Start()
		houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv)
	}
	os.Exit(0)
}

// testMove is the move clock of the matches of these tests: every
// decision is a start of the test binary, which a loaded host (a load of
// 45 on two cores) delayed past 3 s in one decision of a house bot or of
// the rules bot the faulty ones are, turning its answer into a time
// default the test did not expect (3 matches of 20 in one run of
// TestConformance).
const testMove = 10 * time.Second

// hangMove is the clock of the cases whose bot hangs, shorter, as the
// match waits it out at each of their decisions (ten in a hand's
// tricks), but not 3 s: at that load a hang case had 8 time defaults
// beside the hang bot's own.
const hangMove = 5 * time.Second

// processMatch is a match between two bot commands as the engine makes it,
// with a marker in the bots' environment to find their processes by.
func processMatch(tb testing.TB, seed uint64, cmds ...[]string) (*drivers.Match, string) {
	dir := tb.TempDir()
	var tok [8]byte
	rand.Read(tok[:])
	marker := "EUCHRE_TEST_MARK=" + hex.EncodeToString(tok[:])
	m := &drivers.Match{ID: "test", Seed: seed, Record: nopRecorder{}, Dir: filepath.Join(dir, "match"),
		Clock: drivers.Clock{Move: drivers.Duration(testMove)}}
	if err := os.MkdirAll(m.Dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for i, c := range cmds {
		m.Seats = append(m.Seats, drivers.Seat{
			Bot: c[len(c)-1], Command: c, Dir: dir,
			Env:    []string{"ARBITER_SEED=" + strconv.FormatUint(seed, 10), "ARBITER_SEAT=" + strconv.Itoa(i), marker},
			Stderr: filepath.Join(m.Dir, fmt.Sprintf("seat%d.stderr", i)),
		})
	}
	return m, marker
}

// memoryDir is the memory folder of position p of match m, which g
// played between two seats.
func memoryDir(tb testing.TB, m *drivers.Match, g *Game, p int) string {
	pos, err := positions(m, TeamSeats, g.settings.perBot())
	if err != nil {
		tb.Fatal(err)
	}
	return pos[p].memory
}

// house is the command of house bot name.
func house(tb testing.TB, name string) []string { return testbot.Argv(tb, testbot.HouseName(name)) }

// bad is the command of the rules bot that misbehaves as mode says in phase.
func bad(tb testing.TB, mode string, phase Phase) []string {
	return testbot.Argv(tb, "bad", mode, string(phase))
}

// TestFaultyBots: a bot that crashes, hangs, prints garbage or nothing, or
// breaks the memory rule gets the default and a recorded fault, the game
// goes on to its end, and no process is left behind.
func TestFaultyBots(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		phase  Phase
		reason string // in the default event's reason
		hands  int
	}{
		{"crash", Ordering, "crash: exited with status 3", 2},
		{"crash", Turn, "crash", 1},
		{"signal", Alone, "crash", 1},
		{"hang", Ordering, "time: no answer within its move limit of 5s", 1},
		{"garbage", Turn, "not a card", 1},
		{"garbage", Ordering, "ordering round", 1},
		{"empty", Alone, "protocol: exited without printing anything", 1},
		{"blank", Ordering, "printed no answer", 1},
		{"memory", Ordering, "broke the memory rule", 1},
		{"crash", Trick, "crash", 1},
		{"hang", Trick, "time", 1},
	} {
		t.Run(tc.mode+"-"+string(tc.phase), func(t *testing.T) {
			g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
			g.settings.MaxHands = tc.hands
			// Seat 1 (positions 1 and 3) misbehaves in one phase; seed 31
			// brings every phase round in the first hand.
			m, marker := processMatch(t, 31, house(t, "rules"), bad(t, tc.mode, tc.phase))
			if tc.mode == "hang" {
				m.Clock.Move = drivers.Duration(hangMove)
			}
			rec := &events{}
			m.Record = rec
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			proctest.AssertNoEnv(t, marker)
			var faults []DefaultEvent
			for _, e := range rec.of("default") {
				d := e.(DefaultEvent)
				if d.Seat != 1 || d.Phase != tc.phase {
					t.Errorf("unexpected default %+v", d)
					continue
				}
				faults = append(faults, d)
				if !strings.Contains(d.Reason, tc.reason) {
					t.Errorf("reason %q does not say %q", d.Reason, tc.reason)
				}
			}
			if len(faults) == 0 {
				t.Fatalf("no default recorded for %s in phase %s (did the phase come up? %d hands)", tc.mode, tc.phase, len(rec.of("deal")))
			}
			if out.Seats[1].Defaults != len(faults) || out.Seats[0].Defaults != 0 {
				t.Errorf("defaults %d/%d, want 0/%d", out.Seats[0].Defaults, out.Seats[1].Defaults, len(faults))
			}
			if len(rec.of("end")) != 1 || out.Seats[0].Fault != "" || out.Seats[1].Fault != "" {
				t.Errorf("the match did not end normally: %+v", out)
			}
			if out.Seats[0].AllDefaults || out.Seats[1].AllDefaults {
				t.Errorf("all_defaults %v/%v, want false/false: seat 1 answered the other phases itself", out.Seats[0].AllDefaults, out.Seats[1].AllDefaults)
			}
			if tc.mode == "memory" {
				for _, p := range []int{1, 3} {
					ents, _ := os.ReadDir(memoryDir(t, m, g, p))
					if len(ents) > 1 {
						t.Errorf("position %d keeps %d files", p, len(ents))
					}
				}
			}
		})
	}
}

// TestEveryAnswerDefaulted: a bot that fails every decision, in every
// phase, is marked as having played nothing of its own (all_defaults),
// its opponent not.
func TestEveryAnswerDefaulted(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 1
	m, marker := processMatch(t, 31, house(t, "rules"), []string{"/bin/sh", "-c", "exit 3", "crasher"})
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	proctest.AssertNoEnv(t, marker)
	if out.Seats[1].Defaults == 0 || !out.Seats[1].AllDefaults || out.Seats[0].AllDefaults {
		t.Errorf("seats %+v: want seat 1 with every answer defaulted (all_defaults), seat 0 not", out.Seats)
	}
	// It started every time: the spec's defaults, not a start fault.
	if out.Seats[0].Fault != "" || out.Seats[1].Fault != "" {
		t.Errorf("seats %+v: a bot that starts and fails is played on defaults, without a fault", out.Seats)
	}
}

// TestNeverStarted: a bot whose program does not exist never runs; it
// does not play on defaults (and beat the random bot with them) but
// loses the match with a start fault, its opponent winning.
func TestNeverStarted(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 2
	missing := filepath.Join(t.TempDir(), "nope.sh")
	// Seed 1: on the defaults (pass, the first legal card) it would win
	// the game on the cards.
	m, marker := processMatch(t, 1, house(t, "random"), []string{missing})
	rec := &events{}
	m.Record = rec
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	proctest.AssertNoEnv(t, marker)
	bad := out.Seats[1]
	if bad.Fault != drivers.FaultStart || !strings.Contains(bad.Detail, "could not be started in any of its") || bad.Score != 0 {
		t.Errorf("seat 1, whose program is missing: %+v; want a start fault, no score", bad)
	}
	if bad.Defaults == 0 || bad.Defaults != len(rec.of("default")) {
		t.Errorf("seat 1 has %d defaults, the transcript %d: every run is still recorded", bad.Defaults, len(rec.of("default")))
	}
	if good := out.Seats[0]; good.Fault != "" || good.Score != 1 {
		t.Errorf("seat 0, the random bot: %+v; want the win, no fault", good)
	}
	if len(rec.of("end")) != 1 {
		t.Errorf("%d end events: the game is played to its end all the same", len(rec.of("end")))
	}
}

// TestNoProcessLeftBehind: a bot that answers but leaves a process that
// escaped its group behind has it killed after every decision.
func TestNoProcessLeftBehind(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 1
	m, marker := processMatch(t, 5, bad(t, "escape", Turn), house(t, "random"))
	rec := &events{}
	m.Record = rec
	if _, err := g.Play(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if len(rec.of("default")) != 0 {
		t.Errorf("defaults %v for valid answers", rec.of("default"))
	}
	proctest.AssertNoEnv(t, marker)
}

// TestRelativeMatchDir: with a results directory given relative to the
// arbiter's working directory, the bots (which run in their memory
// folders) still find their memory: no defaults, memory files kept.
func TestRelativeMatchDir(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 2
	m, marker := processMatch(t, 3, house(t, "random"), house(t, "rules"))
	t.Chdir(filepath.Dir(m.Dir))
	m.Dir = filepath.Base(m.Dir)
	rec := &events{}
	m.Record = rec
	if _, err := g.Play(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if ds := rec.of("default"); len(ds) != 0 {
		t.Errorf("defaults %+v", ds)
	}
	for p := range 4 {
		if _, err := os.Stat(filepath.Join(memoryDir(t, m, g, p), MemoryFile)); err != nil {
			t.Errorf("position %d kept no memory: %v", p, err)
		}
	}
	proctest.AssertNoEnv(t, marker)
}
