package planowanie

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as the bots (internal/testbot): the house bots
// as testbot.HouseName(name), the faulty bots of the conformance suite by
// their mode, so games here run real processes.
func TestMain(m *testing.M) {
	testbot.HouseBots(HouseBots())
	testbot.Main(m)
}

type nopRecorder struct{}

func (nopRecorder) Sent(int, string)     {}
func (nopRecorder) Received(int, string) {}
func (nopRecorder) Event(string, any)    {}

func processMatch(tb testing.TB, seed uint64, bots ...string) *drivers.Match {
	dir := tb.TempDir()
	m := &drivers.Match{ID: "bench", Seed: seed, Record: nopRecorder{},
		Clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
	for i, b := range bots {
		m.Seats = append(m.Seats, drivers.Seat{
			Bot: b, Command: testbot.Argv(tb, testbot.HouseName(b)), Dir: dir,
			Env:    []string{"ARBITER_SEED=" + strconv.FormatUint(seed, 10), "ARBITER_SEAT=" + strconv.Itoa(i)},
			Stderr: filepath.Join(dir, strconv.Itoa(i)+".stderr"),
		})
	}
	return m
}

// TestGameWithProcesses plays the ITPW game between four house bots run
// as processes through the session layer: the driver's normal path.
func TestGameWithProcesses(t *testing.T) {
	g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
	out, err := g.Play(context.Background(), processMatch(t, 1, "greedy", "random", "greedy", "random"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Errorf("seat %d: fault %s: %s", i, s.Fault, s.Detail)
		}
		total += s.Score
	}
	// 91 tricks are taken in a 13-deal game; bonuses come on top.
	if total < 91 {
		t.Errorf("scores %v sum to %v, less than the 91 tricks of the game", out.Seats, total)
	}
}

// BenchmarkGameProcesses is one whole ITPW game (13 deals) between four
// house bots as real processes, start to reaping; compare with
// BenchmarkRefereeGame, the same game in process.
func BenchmarkGameProcesses(b *testing.B) { benchGame(b, drivers.Limits{}) }

// BenchmarkGameProcessesLimited is BenchmarkGameProcesses with every bot
// under the limits of the issue that asked for them, enforced however
// this machine can (see arbiter doctor): the cost of the sandbox in a
// whole game.
func BenchmarkGameProcessesLimited(b *testing.B) {
	no := false
	benchGame(b, drivers.Limits{Memory: 400 << 20, CPU: "match", Processes: 16, Network: &no, Files: 10e6})
}

// BenchmarkGameProcessesSandbox is BenchmarkGameProcesses with every bot
// as without a limits block: in the default sandbox, under the game's
// default limits.
func BenchmarkGameProcessesSandbox(b *testing.B) {
	lim := Driver{}.DefaultLimits()
	lim.Sandbox = &drivers.Sandbox{}
	benchGame(b, lim)
}

func benchGame(b *testing.B, lim drivers.Limits) {
	g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(time.Hour)}}
	m := processMatch(b, 7, "greedy", "random", "greedy", "random")
	for i := range m.Seats {
		m.Seats[i].Limits = lim
		if lim.Sandbox != nil { // a folder the sandbox's uid may enter
			for d := m.Seats[i].Dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
				os.Chmod(d, 0o755)
			}
		}
	}
	count := &countTrips{}
	m.Record = count
	cpu := proctest.StartCPU()
	for b.Loop() {
		if _, err := g.Play(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
	proctest.ReportCPU(b, cpu)
	// rtts/op times BenchmarkRawPipe is the game's floor on pipes, besides
	// the starts: the round trips on its critical path, a broadcast to
	// every bot at once counting as one.
	b.ReportMetric(float64(count.sends.Load())/float64(b.N), "sends/op")
	b.ReportMetric(float64(count.rtts.Load())/float64(b.N), "rtts/op")
}

// countTrips is a recorder that counts the lines sent to bots, and the
// round trips on the critical path: the times the transcript turns from
// lines sent to lines received. The referee waits for answers at each such
// turn and at no other, since the commands of a broadcast are all
// recorded before any of its answers (gtp.Match.TellAll); quit, which
// goes to every bot at once and whose answers are read together
// (gtp.Match.Quit), is one.
type countTrips struct {
	nopRecorder
	sends, rtts atomic.Int64
	sending     atomic.Bool
}

func (c *countTrips) Sent(int, string) {
	c.sends.Add(1)
	c.sending.Store(true)
}

func (c *countTrips) Received(int, string) {
	if c.sending.Swap(false) {
		c.rtts.Add(1)
	}
}

// BenchmarkGameBarePipes plays BenchmarkGameProcesses's game again on bare
// pipes: the same four house bots, started with os/exec, get the very
// commands the referee sent, grouped as it sent them (the commands of a
// broadcast all written before any answer is read, a seat's lines of a
// step in one write), and their answers are
// read one bot after another, with no clock, transcript or session layer.
// bare-ns/op times that replay, from the first command to the bots'
// exit, starts aside: the floor of the game on this machine's pipes and
// scheduler, as opposed to BenchmarkRawPipe's single bot.
func BenchmarkGameBarePipes(b *testing.B) {
	m, steps := recordedGame(b)
	var bare time.Duration
	cpu := proctest.StartCPU()
	for b.Loop() {
		bare += replayBare(b, m, steps)
	}
	proctest.ReportCPU(b, cpu)
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
}

// recordedGame plays BenchmarkGameProcesses's game once and returns its
// match and the lines it sent, grouped into steps (stepRecorder), for a
// replay.
func recordedGame(b *testing.B) (*drivers.Match, [][]sent) {
	g := &Game{settings: Tournament(), clock: drivers.Clock{Total: drivers.Duration(time.Hour)}}
	m := processMatch(b, 7, "greedy", "random", "greedy", "random")
	rec := &stepRecorder{}
	m.Record = rec
	if _, err := g.Play(context.Background(), m); err != nil {
		b.Fatal(err)
	}
	return m, rec.steps
}

// sent is one line written to a seat.
type sent struct {
	seat int
	line string
}

// stepRecorder groups the lines a match sends into steps: the lines
// written before the referee next waits for an answer.
type stepRecorder struct {
	nopRecorder
	steps    [][]sent
	received bool
}

func (r *stepRecorder) Sent(seat int, line string) {
	if len(r.steps) == 0 || r.received {
		r.steps = append(r.steps, nil)
		r.received = false
	}
	r.steps[len(r.steps)-1] = append(r.steps[len(r.steps)-1], sent{seat, line})
}

func (r *stepRecorder) Received(int, string) { r.received = true }

// BenchmarkGameBareEcho replays BenchmarkGameProcesses's commands as
// BenchmarkGameBarePipes does, grouped the same way, to four bots that do
// nothing but answer each line "=" (the "echo-raw" bot: raw read and write
// system calls, no allocation, no buffering, nothing of Go's runtime on
// its path). What it takes is what this machine's pipes and scheduler
// cost the game's broadcasts, whatever the referee and the bots: the floor
// beneath any referee of the game's pattern of round trips, to set beside
// the floor (the round trips times one ping-pong of two
// processes). bare-ns/op times the replay, starts aside.
func BenchmarkGameBareEcho(b *testing.B) {
	m, steps := recordedGame(b)
	echo := *m
	echo.Seats = slices.Clone(m.Seats)
	for i := range echo.Seats {
		echo.Seats[i].Command = testbot.Argv(b, "echo-raw")
	}
	var bare time.Duration
	cpu := proctest.StartCPU()
	for b.Loop() {
		bare += replayRaw(b, &echo, steps)
	}
	proctest.ReportCPU(b, cpu)
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/op")
}

// replayRaw is replayBare with this side, too, on raw blocking system
// calls: a seat's lines of a step in one write, then each answer read
// until its blank line, with no buffering layer, poller or goroutine.
func replayRaw(b *testing.B, m *drivers.Match, steps [][]sent) time.Duration {
	type bot struct {
		cmd     *exec.Cmd
		in, out int
		got     []byte // read and not yet taken
	}
	bots := make([]bot, len(m.Seats))
	for i, seat := range m.Seats {
		var in, out [2]int
		if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
			b.Fatal(err)
		}
		if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(seat.Command[0], seat.Command[1:]...)
		cmd.Dir, cmd.Env = seat.Dir, append(os.Environ(), seat.Env...)
		cmd.Stdin, cmd.Stdout = os.NewFile(uintptr(in[0]), "in"), os.NewFile(uintptr(out[1]), "out")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		syscall.Close(in[0])
		syscall.Close(out[1])
		bots[i] = bot{cmd: cmd, in: in[1], out: out[0]}
	}
	buf := make([]byte, 64<<10)
	start := time.Now()
	text := make([][]byte, len(bots))
	for _, step := range steps {
		for _, s := range step {
			text[s.seat] = append(append(text[s.seat], s.line...), '\n')
		}
		for i, t := range text {
			if len(t) > 0 {
				rawWrite(b, bots[i].in, t)
				text[i] = t[:0]
			}
		}
		for _, s := range step {
			bt := &bots[s.seat]
			for {
				if j := bytes.Index(bt.got, []byte("\n\n")); j >= 0 {
					bt.got = bt.got[j+2:]
					break
				}
				n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(bt.out), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
				if errno != 0 || n == 0 {
					b.Fatalf("seat %d after %q: %v", s.seat, s.line, errno)
				}
				bt.got = append(bt.got, buf[:n]...)
			}
		}
	}
	for _, bt := range bots {
		syscall.Close(bt.in)
		if err := bt.cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		syscall.Close(bt.out)
	}
	return time.Since(start)
}

// rawWrite writes all of p to fd with raw system calls.
func rawWrite(b *testing.B, fd int, p []byte) {
	for len(p) > 0 {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			b.Fatal(errno)
		}
		p = p[n:]
	}
}

func init() { testbot.Register("echo-raw", func([]string) int { return echoRaw() }) }

// echoRaw answers "=" and a blank line to every line of its input, until
// its end, with raw system calls: a read that waits is out of the Go
// runtime's sight (no monitor hands its thread's processor away, nothing
// is woken to take it back), as a bot in C would be. Nothing allocates, so
// no collection ever needs to stop it.
func echoRaw() int {
	var in [64 << 10]byte
	var out [8 << 10]byte
	for {
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, 0, uintptr(unsafe.Pointer(&in[0])), uintptr(len(in)))
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || n == 0 {
			return 0
		}
		k := 0
		for _, c := range in[:n] {
			if c == '\n' && k+3 <= len(out) {
				out[k], out[k+1], out[k+2] = '=', '\n', '\n'
				k += 3
			}
		}
		for w := 0; w < k; {
			m, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, 1, uintptr(unsafe.Pointer(&out[w])), uintptr(k-w))
			if errno == syscall.EINTR {
				continue
			}
			if errno != 0 {
				return 1
			}
			w += int(m)
		}
	}
}

// replayBare starts m's bots bare and replays steps to them, returning
// the time from the first command to their exit.
func replayBare(b *testing.B, m *drivers.Match, steps [][]sent) time.Duration {
	type bot struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Reader
	}
	bots := make([]bot, len(m.Seats))
	for i, seat := range m.Seats {
		cmd := exec.Command(seat.Command[0], seat.Command[1:]...)
		cmd.Dir, cmd.Env = seat.Dir, append(os.Environ(), seat.Env...)
		in, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		bots[i] = bot{cmd, in, bufio.NewReader(out)}
	}
	start := time.Now()
	text := make([]string, len(bots))
	for _, step := range steps {
		// A seat's lines of a step go in one write, as the referee's do
		// (time_left with the decision).
		for _, s := range step {
			text[s.seat] += s.line + "\n"
		}
		for i, t := range text {
			if t == "" {
				continue
			}
			if _, err := io.WriteString(bots[i].in, t); err != nil {
				b.Fatal(err)
			}
			text[i] = ""
		}
		for _, s := range step {
			for blank := false; !blank; {
				l, err := bots[s.seat].out.ReadString('\n')
				if err != nil {
					b.Fatalf("seat %d after %q: %v", s.seat, s.line, err)
				}
				blank = l == "\n"
			}
		}
	}
	for _, bt := range bots {
		bt.in.Close()
		if err := bt.cmd.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// faultyMatch is a match of shortGame's clock between the faulty bot
// mode in seat bad and greedy house bots.
func faultyMatch(t *testing.T, mode string, bad int, rec drivers.Recorder) *drivers.Match {
	m := processMatch(t, 1, "greedy", "greedy", "greedy", "greedy")
	m.Seats[bad].Bot, m.Seats[bad].Command = mode, testbot.Argv(t, mode)
	m.Record = rec
	return m
}

// TestAnswersOutOfStep: a bot that answered gen_declare twice (the rules
// audit's, its second answer in a write of its own) has every later
// answer taken for the command before it, and is faulted where one of
// them is found wrong: an empty answer to gen_move. The fault says what
// went wrong, its answers being out of step, as the real card it wrote
// for gen_move comes after the answer faulted: at once, or after the
// twiceslow bot's 300 ms of thought, every time.
func TestAnswersOutOfStep(t *testing.T) {
	for _, mode := range []string{modeTwice, modeTwiceSlow} {
		for _, bad := range []int{0, 3} {
			t.Run(fmt.Sprintf("%s/seat%d", mode, bad), func(t *testing.T) {
				g := &Game{settings: shortGame(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
				out, err := g.Play(context.Background(), faultyMatch(t, mode, bad, nopRecorder{}))
				if err != nil {
					t.Fatal(err)
				}
				s := out.Seats[bad]
				if s.Fault != drivers.FaultIllegal || !strings.Contains(s.Detail, "in deal 2") ||
					!strings.Contains(s.Detail, "it has written more answers than it was sent commands") ||
					!strings.Contains(s.Detail, "out of step since an earlier command") {
					t.Errorf("seat %d: fault %q, detail %q; want illegal in deal 2, saying its answers are out of step", bad, s.Fault, s.Detail)
				}
			})
		}
	}
}

// TestGenMoveAnsweredTwice: a bot that answered gen_move twice in one
// write, "= ZZ" then its card, after every earlier command had exactly
// one answer, is faulted for ZZ, gen_move's own first answer: the fault
// says it answered gen_move twice, not that its answers were out of step
// since an earlier command.
func TestGenMoveAnsweredTwice(t *testing.T) {
	for _, bad := range []int{0, 3} {
		t.Run(fmt.Sprintf("seat%d", bad), func(t *testing.T) {
			g := &Game{settings: shortGame(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
			out, err := g.Play(context.Background(), faultyMatch(t, modeTwiceMove, bad, nopRecorder{}))
			if err != nil {
				t.Fatal(err)
			}
			s := out.Seats[bad]
			if s.Fault != drivers.FaultIllegal || !strings.Contains(s.Detail, "played ZZ,") || !strings.Contains(s.Detail, "in deal 2") ||
				!strings.Contains(s.Detail, "it answered gen_move twice") || strings.Contains(s.Detail, "out of step") {
				t.Errorf("seat %d: fault %q, detail %q; want illegal ZZ in deal 2, saying it answered gen_move twice", bad, s.Fault, s.Detail)
			}
		})
	}
}

// TestRightFaultSaysNothingOutOfStep: a bot faulted for a wrong answer
// that wrote nothing after it gets no note of answers out of step.
func TestRightFaultSaysNothingOutOfStep(t *testing.T) {
	g := &Game{settings: longGame(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
	out, err := g.Play(context.Background(), faultyMatch(t, modeWrongSuit, 1, nopRecorder{}))
	if err != nil {
		t.Fatal(err)
	}
	if s := out.Seats[1]; s.Fault != drivers.FaultIllegal || strings.Contains(s.Detail, "out of step") {
		t.Errorf("fault %q, detail %q; want illegal, without a note of answers out of step", s.Fault, s.Detail)
	}
}

// TestQuitRefusedIsAWarning: a bot that answers quit with "?" has it
// logged as a warning (docs/protocols/planowanie.md), as every other
// informational command's refusal, and the match stands.
func TestQuitRefusedIsAWarning(t *testing.T) {
	g := &Game{settings: shortGame(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
	rec := &events{}
	out, err := g.Play(context.Background(), faultyMatch(t, modeNoQuit, 2, rec))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Fatalf("seat %d: fault %s: %s", i, s.Fault, s.Detail)
		}
	}
	want := gtp.WarningEvent{Seat: 2, Command: "quit", Answer: "not now"}
	if w := rec.of("warning"); len(w) != 1 || w[0] != want {
		t.Errorf("warnings %v, want %v", w, want)
	}
}

// TestSlowQuitAnswerRecorded: a bot that takes 150 ms to answer quit,
// well within the grace it has to end, has its answer recorded in every
// match, and the transcript's lines come in the same order each time
// but for the milliseconds of time_left (the answers to quit seat by
// seat): a match replays the same.
func TestSlowQuitAnswerRecorded(t *testing.T) {
	var first []string
	for run := range 3 {
		g := &Game{settings: shortGame(), clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}
		rec := &transcriptLines{}
		m := faultyMatch(t, modeSlowQuit, 1, rec)
		m.Seats[3].Bot, m.Seats[3].Command = modeSlowQuit, m.Seats[1].Command
		if _, err := g.Play(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		quit := slices.Index(rec.lines, "0 > quit")
		if quit < 0 || !slices.Contains(rec.lines[quit:], "1 < = ") || !slices.Contains(rec.lines[quit:], "3 < = ") {
			t.Fatalf("run %d: no answer to quit recorded for seats 1 and 3 after quit: %q", run, rec.lines[max(quit, 0):])
		}
		if run == 0 {
			first = rec.lines
		} else if k := diffAt(rec.lines, first); k >= 0 {
			t.Errorf("run %d: the transcript's line %d differs from run 0's: %q, want %q",
				run, k, rec.lines[k:min(k+1, len(rec.lines))], first[k:min(k+1, len(first))])
		}
	}
}

// transcriptLines keeps the lines sent and received, "SEAT > LINE" and
// "SEAT < LINE", in the order recorded.
type transcriptLines struct {
	nopRecorder
	mu    sync.Mutex
	lines []string
}

func (r *transcriptLines) Sent(seat int, line string) {
	if strings.HasPrefix(line, "time_left ") {
		line = "time_left MS" // a timing
	}
	r.add(fmt.Sprintf("%d > %s", seat, line))
}

func (r *transcriptLines) Received(seat int, line string) { r.add(fmt.Sprintf("%d < %s", seat, line)) }

func (r *transcriptLines) add(l string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, l)
}

// diffAt is the first index at which a and b differ, -1 if they are the
// same.
func diffAt(a, b []string) int {
	for k := range max(len(a), len(b)) {
		if k >= len(a) || k >= len(b) || a[k] != b[k] {
			return k
		}
	}
	return -1
}

// sentLines keeps the lines sent to the bots.
type sentLines struct {
	nopRecorder
	mu    sync.Mutex
	lines []string
}

func (r *sentLines) Sent(_ int, line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, line)
}

// TestTimeLeftIsTheTightestLimit: time_left says what the bot may take
// over its decision, the tightest limit of its clock (docs/rules.md,
// docs/protocols/planowanie.md): a move cap under the remaining budget,
// the budget otherwise.
func TestTimeLeftIsTheTightestLimit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		clock drivers.Clock
		ok    func(ms int) bool
	}{
		{"move_cap_under_the_budget", drivers.Clock{Total: drivers.Duration(time.Minute), Move: drivers.Duration(800 * time.Millisecond)},
			func(ms int) bool { return ms == 800 }},
		{"budget_alone", drivers.Clock{Total: drivers.Duration(time.Minute)},
			func(ms int) bool { return ms > 50_000 && ms <= 60_000 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &Game{settings: shortGame(), clock: tt.clock}
			rec := &sentLines{}
			m := processMatch(t, 1, "greedy", "random", "greedy", "random")
			m.Clock, m.Record = tt.clock, rec
			if _, err := g.Play(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range rec.lines {
				if v, ok := strings.CutPrefix(l, "time_left "); ok {
					n++
					if ms, err := strconv.Atoi(v); err != nil || !tt.ok(ms) {
						t.Errorf("sent %q", l)
					}
				}
			}
			if n == 0 {
				t.Error("no time_left was sent")
			}
		})
	}
}
