package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// The test binary doubles as the bots: TestMain runs a bot when
// PROC_TEST_BOT names one, so every bot here is a real process.
func TestMain(m *testing.M) {
	if mode := os.Getenv("PROC_TEST_BOT"); mode != "" {
		runBot(mode)
		os.Exit(0)
	}
	code := m.Run()
	if botBin.dir != "" {
		os.RemoveAll(botBin.dir)
	}
	os.Exit(code)
}

// raceBuild says this test binary is built with -race (race_test.go).
var raceBuild bool

// botBin is the bots' program under -race (see botBinary).
var botBin struct {
	once      sync.Once
	dir, path string
	err       error
}

// botBinary is the program the tests run as their bots: this test binary,
// re-run in a bot mode. Under -race it is a copy of this package's tests
// built once without -race instead: the race detector's shadow memory
// multiplies a Go program's memory, and a normal Go bot would go over the
// memory limits the hostile cases set for it. PROC_TEST_BOTBIN names the
// copy for a test binary that cannot build one (run as another user).
func botBinary(t testing.TB) string {
	if p := os.Getenv("PROC_TEST_BOTBIN"); p != "" {
		return p
	}
	if !raceBuild {
		return os.Args[0]
	}
	botBin.once.Do(func() {
		if botBin.dir, botBin.err = os.MkdirTemp("", "proc-bots-"); botBin.err != nil {
			return
		}
		botBin.path = filepath.Join(botBin.dir, "proc.test")
		out, err := exec.Command("go", "test", "-c", "-race=false", "-o", botBin.path, ".").CombinedOutput()
		if err != nil {
			botBin.err = fmt.Errorf("building the bots without -race: %v\n%s", err, out)
		}
	})
	if botBin.err != nil {
		t.Fatal(botBin.err)
	}
	return botBin.path
}

func runBot(mode string) {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	reply := func(s string) { fmt.Fprintf(out, "= %s\n\n", s); out.Flush() }
	switch mode {
	case "swap": // swaps the folder bot in $SWAP_HOME for a link to $SWAP_TO, back and forth, until $SWAP_STOP exists
		swapFolder(os.Getenv("SWAP_HOME"), os.Getenv("SWAP_TO"), os.Getenv("SWAP_STOP"))
	case "echo": // answers every command with its own text
		for in.Scan() {
			if in.Text() == "quit" {
				reply("")
				return
			}
			reply(in.Text())
		}
	case "slow50": // answers every command after 50 ms, and how long it held it
		for in.Scan() {
			if in.Text() == "quit" {
				reply("")
				return
			}
			t := monotonic()
			time.Sleep(50 * time.Millisecond)
			reply(in.Text() + " " + strconv.FormatInt(monotonic()-t, 10))
		}
	case "silent": // reads but never answers
		for in.Scan() {
		}
		time.Sleep(time.Hour)
	case "crash": // answers once, then dies
		in.Scan()
		reply("ok")
		in.Scan()
		os.Exit(3)
	case "flood": // one endless line
		in.Scan()
		b := []byte(strings.Repeat("x", 4096))
		for {
			if _, err := os.Stdout.Write(b); err != nil {
				return
			}
		}
	case "oneline": // answers a line, never the empty line that ends a GTP answer
		in.Scan()
		fmt.Fprint(out, "= 1\n")
		out.Flush()
		time.Sleep(time.Hour)
	case "partial":
		in.Scan()
		fmt.Fprint(out, "= 1")
		out.Flush()
		time.Sleep(time.Hour)
	case "partialexit": // a partial line, then exits 3
		in.Scan()
		fmt.Fprint(out, "= 1")
		out.Flush()
		os.Exit(3)
	case "stubborn": // ignores SIGTERM and quit, leaves a setsid grandchild
		signal.Ignore(syscall.SIGTERM)
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "PROC_TEST_BOT=linger")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		fmt.Fprintf(os.Stderr, "grandchild %d\n", cmd.Process.Pid)
		for in.Scan() {
			reply("ignored")
		}
		time.Sleep(time.Hour)
	case "linger":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
	case "stderr":
		fmt.Fprintln(os.Stderr, "to stderr")
		for in.Scan() {
			reply("ok")
		}
	case "noisy": // 100 KB to stderr before each answer: more than a pipe holds
		for in.Scan() {
			os.Stderr.WriteString(strings.Repeat("n", 100<<10) + "\n")
			if in.Text() == "quit" {
				reply("")
				return
			}
			reply(in.Text())
		}
	default:
		if !offMoveBot(mode, in, reply) && !inputBot(mode, in, reply) {
			hostileBot(mode, in, reply)
		}
	}
}

func botSpec(t testing.TB, mode string, clock drivers.Clock) Spec {
	return Spec{
		Bot:    mode,
		Argv:   []string{botBinary(t)},
		Dir:    t.TempDir(),
		Env:    []string{"PROC_TEST_BOT=" + mode},
		Stderr: filepath.Join(t.TempDir(), "stderr.txt"),
		Clock:  clock,
		Grace:  100 * time.Millisecond,
	}
}

func start(t testing.TB, spec Spec) *Session {
	t.Helper()
	s, err := Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startedReading starts the bot of spec and waits until it waits in a
// read of its input, so that a clock shorter than a fresh start at load
// (TestFaults' 200 ms, TestFaultSilent's 100 ms) is the answer's alone:
// with an 800 ms start, as at a load of 40, such a bot had not
// written the part of its answer the test looks for when its clock ran
// out.
func startedReading(t *testing.T, spec Spec) *Session {
	t.Helper()
	s := start(t, spec)
	for end := time.Now().Add(time.Minute); s.input() != drivers.InputWaiting; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			s.Kill()
			t.Fatalf("the bot %s never waited in a read of its input", spec.Bot)
		}
	}
	return s
}

// assertGone checks that no process carries the session's token and that
// we have no zombie children left.
func assertGone(t *testing.T, s *Session) {
	t.Helper()
	proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
}

func faultKind(err error) string {
	var f *Fault
	if errors.As(err, &f) {
		return f.Kind
	}
	return "not a fault: " + fmt.Sprint(err)
}

// TestExchangeCharges: a request's answer is read within the clock, which
// is charged the time it took, and the transcript sees both lines.
func TestExchangeCharges(t *testing.T) {
	var sent, got []string
	spec := botSpec(t, "echo", drivers.Clock{Total: drivers.Duration(time.Minute)})
	spec.OnSend = func(l string) { sent = append(sent, l) }
	spec.OnRecv = func(l string, _ time.Time) { got = append(got, l) }
	s := start(t, spec)
	text, err := ask(s, "play 0 AS")
	if err != nil || text != "play 0 AS" {
		t.Fatalf("ask = %q %v, want %q nil", text, err, "play 0 AS")
	}
	if left, limited := s.Left(); !limited || left >= time.Minute || left <= 0 {
		t.Errorf("clock after one answer = %v (limited %v), want less than a minute", left, limited)
	}
	s.Close("quit")
	assertGone(t, s)
	if strings.Join(sent, "|") != "play 0 AS|quit" || got[0] != "= play 0 AS" {
		t.Errorf("transcript sent %q received %q", sent, got)
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		mode   string
		clock  drivers.Clock
		asks   int
		want   string
		detail string
	}{
		{"silent", drivers.Clock{Total: drivers.Duration(200 * time.Millisecond)}, 1, drivers.FaultTime, "no answer within its clock of 200ms"},
		{"silent", drivers.Clock{Move: drivers.Duration(100 * time.Millisecond)}, 1, drivers.FaultTime, "no answer within its move limit of 100ms"},
		{"partial", drivers.Clock{Total: drivers.Duration(200 * time.Millisecond)}, 1, drivers.FaultTime, "only \"= 1\" arrived, without its line's end"},
		{"crash", drivers.Clock{}, 2, drivers.FaultCrash, "exited with status 3"},
		{"flood", drivers.Clock{}, 1, drivers.FaultOutput, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.want, func(t *testing.T) {
			s := startedReading(t, botSpec(t, tt.mode, tt.clock))
			var err error
			for i := 0; i < tt.asks && err == nil; i++ {
				_, err = ask(s, "gen_move")
			}
			s.Kill()
			if got := faultKind(err); got != tt.want {
				t.Fatalf("fault = %s (%v), want %s", got, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.detail) {
				t.Errorf("fault detail %q does not say %q", err, tt.detail)
			}
			assertGone(t, s)
		})
	}
}

// A time fault says that nothing arrived (Fault.Silent) only when not a
// byte was read after the command's write: of a bot that wrote a line of
// its answer, or part of one, it cannot be said.
func TestFaultSilent(t *testing.T) {
	for _, tt := range []struct {
		mode   string
		silent bool
	}{{"silent", true}, {"oneline", false}, {"partial", false}} {
		t.Run(tt.mode, func(t *testing.T) {
			s := startedReading(t, botSpec(t, tt.mode, drivers.Clock{Move: drivers.Duration(100 * time.Millisecond)}))
			_, err := ask(s, "gen_move")
			s.Kill()
			if faultKind(err) != drivers.FaultTime || drivers.NothingArrived(err) != tt.silent {
				t.Errorf("fault %v: nothing arrived %v, want a time fault and %v", err, drivers.NothingArrived(err), tt.silent)
			}
			assertGone(t, s)
		})
	}
}

func TestStartFailure(t *testing.T) {
	_, err := Start(context.Background(), Spec{Bot: "nope", Argv: []string{"/nonexistent/bot"}})
	if got := faultKind(err); got != drivers.FaultStart {
		t.Fatalf("fault = %s, want start", got)
	}
}

func TestCloseKillsEscapedGrandchild(t *testing.T) {
	s := start(t, botSpec(t, "stubborn", drivers.Clock{}))
	if _, err := ask(s, "hello"); err != nil {
		t.Fatal(err)
	}
	s.Close("quit") // ignored: the bot is killed after the grace period
	assertGone(t, s)
	b, _ := os.ReadFile(s.spec.Stderr)
	if !strings.HasPrefix(string(b), "grandchild ") {
		t.Fatalf("stderr %q: the bot did not report its grandchild", b)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimPrefix(first, "grandchild "))
	if err != nil {
		t.Fatalf("stderr %q: %v", b, err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("setsid grandchild %d is still alive", pid)
	}
}

func TestStderrGoesToFile(t *testing.T) {
	spec := botSpec(t, "stderr", drivers.Clock{})
	s := start(t, spec)
	if _, err := ask(s, "x"); err != nil {
		t.Fatal(err)
	}
	s.Close("quit")
	if b, _ := os.ReadFile(spec.Stderr); string(b) != "to stderr\n" {
		t.Errorf("stderr file = %q", b)
	}
}

// TestStderrLostIsNoFault: a stderr file that cannot be written (here
// /dev/full, as a full disk) is the arbiter's failure: the bot goes on
// writing to stderr unharmed (it would die of SIGPIPE, a Go program
// writing to fd 2, had the pipe been closed), and the context's handler
// hears of it once, naming the bot and the file.
func TestStderrLostIsNoFault(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	f.Close()
	spec := botSpec(t, "noisy", drivers.Clock{})
	spec.Stderr = "/dev/full"
	var mu sync.Mutex
	var lost []error
	ctx := StderrFailures(context.Background(), func(err error) {
		mu.Lock()
		defer mu.Unlock()
		lost = append(lost, err)
	})
	s, err := Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		cmd := fmt.Sprint("move ", i)
		if got, err := ask(s, cmd); err != nil || got != cmd {
			t.Fatalf("answer %d: %q, %v (a bot harmed by its stderr)", i, got, err)
		}
	}
	s.Close("quit")
	mu.Lock()
	defer mu.Unlock()
	if len(lost) != 1 || !strings.Contains(lost[0].Error(), "/dev/full") || !strings.Contains(lost[0].Error(), "bot noisy") {
		t.Errorf("lost stderr told as %v, want once, naming the bot and /dev/full", lost)
	}
}

// TestStderrLostIsSaidWithoutHandler: check and console have no run to
// stop; a stderr file they cannot write is said, not passed over.
func TestStderrLostIsSaidWithoutHandler(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	f.Close()
	var said proctest.Buffer
	defer func(w io.Writer) { stderrLostNotices = w }(stderrLostNotices)
	stderrLostNotices = &said
	spec := botSpec(t, "noisy", drivers.Clock{})
	spec.Stderr = "/dev/full"
	s, err := Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ask(s, "move 0"); err != nil || got != "move 0" {
		t.Fatalf("answer: %q, %v (a bot harmed by its stderr)", got, err)
	}
	s.Close("quit")
	if got := said.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "stderr of bot noisy in /dev/full") {
		t.Errorf("said %q, want one line naming the bot and /dev/full", got)
	}
}

func TestCancelIsNotAFault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, botSpec(t, "silent", drivers.Clock{}))
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = ask(s, "gen_move")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	s.Close("quit")
	assertGone(t, s)
}

// BenchmarkExchange measures one request/response through the session layer
// against the echo bot; BenchmarkRawPipe is the same round trip on bare
// pipes, the baseline the overhead is judged against.
func BenchmarkExchange(b *testing.B) {
	s := start(b, botSpec(b, "echo", drivers.Clock{Total: drivers.Duration(time.Hour)}))
	defer s.Close("quit")
	for b.Loop() {
		if _, err := ask(s, "play 1 AS"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExchangeLimited is BenchmarkExchange with the bot under memory
// and process limits (its cgroup counters are read, and watched while it
// thinks): the cost of the limits per exchange.
func BenchmarkExchangeLimited(b *testing.B) {
	spec := botSpec(b, "echo", drivers.Clock{Total: drivers.Duration(time.Hour)})
	spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
	s := start(b, spec)
	defer s.Close("quit")
	for b.Loop() {
		if _, err := ask(s, "play 1 AS"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCharged50ms is a bot that answers after exactly 50 ms, in the
// default sandbox (or under memory and process limits where the machine
// has none): over-µs/answer is the mean of what its clock is charged
// beyond those 50 ms, the bot's own reading and writing included.
func BenchmarkCharged50ms(b *testing.B) {
	spec := botSpec(b, "slow50", drivers.Clock{Total: drivers.Duration(time.Hour)})
	spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
	if Machine().Sandbox {
		spec.Limits = defaultLimits()
	}
	s := start(b, spec)
	defer s.Close("quit")
	var over, late time.Duration
	for b.Loop() {
		before := s.Used()
		answer, err := ask(s, "play 1 AS")
		if err != nil {
			b.Fatal(err)
		}
		f := strings.Fields(answer)
		held, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil {
			b.Fatalf("answer %q: %v", answer, err)
		}
		over += s.Used() - before - 50*time.Millisecond
		late += time.Duration(held) - 50*time.Millisecond
	}
	// over-µs/answer is what the clock charged beyond the 50 ms the bot
	// meant to take; late-µs/answer is how far the bot's own sleep overran
	// them (the machine's load: its clock, from reading the command to
	// writing the answer); beyond-µs/answer, their difference, is what the
	// clock charged beyond the time the bot really held the command: the
	// pipes, both sides' wake-ups and arbiter.
	n := float64(b.N)
	b.ReportMetric(float64(over.Microseconds())/n, "over-µs/answer")
	b.ReportMetric(float64(late.Microseconds())/n, "late-µs/answer")
	b.ReportMetric(float64((over-late).Microseconds())/n, "beyond-µs/answer")
}

func BenchmarkRawPipe(b *testing.B) {
	cmd := exec.Command(botBinary(b))
	cmd.Env = append(os.Environ(), "PROC_TEST_BOT=echo")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	out := bufio.NewReader(outPipe)
	for b.Loop() {
		fmt.Fprintln(in, "play 1 AS")
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				b.Fatal(err)
			}
			if l == "\n" {
				break
			}
		}
	}
	in.Close()
	cmd.Wait()
}

// BenchmarkWatchRead is one read of a bot's cgroup counters, what the
// watch does every watchEvery while a bot under memory and process limits
// thinks.
func BenchmarkWatchRead(b *testing.B) {
	spec := botSpec(b, "echo", drivers.Clock{})
	spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
	s := start(b, spec)
	defer s.Close("quit")
	if s.watch == nil {
		b.Skip("no cgroup counters to watch here")
	}
	for b.Loop() {
		if f := s.box.counters(); f != nil {
			b.Fatal(f)
		}
	}
}

// BenchmarkWatchArm is what the watch adds to an exchange with a bot that
// answers within watchEvery: arming and disarming it.
func BenchmarkWatchArm(b *testing.B) {
	spec := botSpec(b, "echo", drivers.Clock{})
	spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
	s := start(b, spec)
	defer s.Close("quit")
	if s.watch == nil {
		b.Skip("no cgroup counters to watch here")
	}
	for b.Loop() {
		s.watch.arm()
		s.watch.disarm()
	}
}

// TestSessionCrashReadsOnlyItsOwnStderr: a session bot's crash is
// explained by what it wrote to stderr since its last answer, not by what
// it wrote moves before: a bot whose subprocess was refused once, which
// it got over, and that later fails for another reason, is a crash; one
// that fails right after the refusal is told the rule (processes).
func TestSessionCrashReadsOnlyItsOwnStderr(t *testing.T) {
	if e := Machine().Enforcement(drivers.LimitChildren); !e.Enforced {
		t.Skipf("children is not enforced here: %s", e.How)
	}
	const answer = "read cmd\nprintf '= ok\\n\\n'\n"
	const refused = "echo './bot.sh: 2: Cannot fork' >&2\n"
	cases := []struct{ name, script, want string }{
		{"refused, answered, then failing for another reason",
			"#!/bin/sh\nread cmd\n" + refused + "printf '= ok\\n\\n'\n" + answer + "read cmd\necho 'no such move' >&2\nexit 3\n", drivers.FaultCrash},
		{"failing of the refusal",
			"#!/bin/sh\n" + answer + answer + "read cmd\n" + refused + "exit 2\n", drivers.FaultProcesses},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			no := false
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte(c.script), 0o755); err != nil {
				t.Fatal(err)
			}
			stderr := filepath.Join(dir, "stderr")
			s := start(t, Spec{Bot: "sh", Argv: []string{"./bot.sh"}, Dir: dir, Stderr: stderr,
				Grace: 100 * time.Millisecond, Limits: drivers.Limits{Children: &no}})
			defer s.Kill()
			if _, err := ask(s, "one"); err != nil {
				t.Fatal(err)
			}
			// The first case's refusal is in the file before the second
			// answer, whose line marks where this move's stderr begins.
			for i := 0; c.want == drivers.FaultCrash && i < 1000; i++ {
				if b, _ := os.ReadFile(stderr); strings.Contains(string(b), "Cannot fork") {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			if _, err := ask(s, "two"); err != nil {
				t.Fatal(err)
			}
			_, err := ask(s, "three")
			if got := faultKind(err); got != c.want {
				t.Fatalf("fault %s (%v), want %s", got, err, c.want)
			}
		})
	}
}

// TestSessionCrashReadsStderrWrittenAfterItsAnswer: a bot that answers,
// then writes that its fork was refused and exits, is told the rule
// (processes) however late the refusal reaches the stderr file: here it
// is in the file before the answer is read, which is when the mark was
// once taken, and which then hid it.
func TestSessionCrashReadsStderrWrittenAfterItsAnswer(t *testing.T) {
	if e := Machine().Enforcement(drivers.LimitChildren); !e.Enforced {
		t.Skipf("children is not enforced here: %s", e.How)
	}
	no := false
	dir := t.TempDir()
	script := "#!/bin/sh\nread cmd\nprintf '= ok\\n\\n'\nread cmd\nprintf '= ok\\n\\n'\n" +
		"echo './bot.sh: 5: Cannot fork' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	stderr := filepath.Join(dir, "stderr")
	s := start(t, Spec{Bot: "sh", Argv: []string{"./bot.sh"}, Dir: dir, Stderr: stderr,
		Grace: 100 * time.Millisecond, Limits: drivers.Limits{Children: &no}})
	defer s.Kill()
	if _, err := ask(s, "one"); err != nil {
		t.Fatal(err)
	}
	s.Send("two")
	for i := 0; i < 1000; i++ {
		if b, _ := os.ReadFile(stderr); strings.Contains(string(b), "Cannot fork") {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := receive(s); err != nil {
		t.Fatal(err)
	}
	_, err := ask(s, "three")
	if got := faultKind(err); got != drivers.FaultProcesses {
		t.Fatalf("fault %s (%v), want %s", got, err, drivers.FaultProcesses)
	}
}

// TestWriteAfterDeadline: a command whose deadline has passed is not
// written, even one the pipe would take at once (Session.put's direct
// write): the write is the time fault, and the bot (cat) never sees the
// command, so no answer to it can wait in the pipe and be taken for one
// in time by a read whose first look comes late.
func TestWriteAfterDeadline(t *testing.T) {
	s, err := Start(context.Background(), Spec{Bot: "cat", Argv: []string{"cat"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Kill()
	err = s.Write("late", time.Now().Add(-time.Second))
	var f *Fault
	if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !strings.HasPrefix(f.Detail, "did not read its input in time") {
		t.Fatalf("a write past its deadline: %v, want the time fault %q", err, "did not read its input in time")
	}
	if err := s.Write("next", time.Now().Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadLine(time.Now().Add(10 * time.Second))
	if err != nil || got != "next" {
		t.Errorf("the bot's first line: %q (%v), want %q: the late command reached it", got, err, "next")
	}
}

// TestWriteBeyondThePipe: a command longer than the pipe holds is written
// in part at once and the rest under its deadline (Session.put): a bot
// that reads it all gets every byte, and one that reads nothing has not
// read its input in time.
func TestWriteBeyondThePipe(t *testing.T) {
	line := strings.Repeat("x", 300<<10) // more than a pipe's 64 KiB
	t.Run("read", func(t *testing.T) {
		s, err := Start(context.Background(), Spec{Bot: "wc", Argv: []string{"wc", "-c"}, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Kill()
		if err := s.Write(line, time.Now().Add(10*time.Second)); err != nil {
			t.Fatal(err)
		}
		s.in.Close()
		got, err := s.ReadLine(time.Now().Add(10 * time.Second))
		if err != nil || strings.TrimSpace(got) != strconv.Itoa(len(line)+1) {
			t.Errorf("the bot counted %q (%v), want %d bytes", got, err, len(line)+1)
		}
	})
	t.Run("unread", func(t *testing.T) {
		s, err := Start(context.Background(), Spec{Bot: "sleeper", Argv: []string{"sleep", "30"}, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Kill()
		err = s.Write(line, time.Now().Add(200*time.Millisecond))
		var f *Fault
		if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !strings.HasPrefix(f.Detail, "did not read its input in time") {
			t.Errorf("a command the bot does not read: %v, want the time fault %q", err, "did not read its input in time")
		}
	})
}
