package proc

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// The test binary doubles as the per-move bots too: init runs before
// TestMain, so a process started with PROC_ONCE_BOT set is a bot and never
// a test run.
func init() {
	if mode := os.Getenv("PROC_ONCE_BOT"); mode != "" {
		runOnceBot(mode)
		os.Exit(0)
	}
}

func runOnceBot(mode string) {
	spawn := func(child string, out *os.File) int {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "PROC_ONCE_BOT="+child)
		cmd.Stdout = out
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		return cmd.Process.Pid
	}
	switch mode {
	case "line": // the trivial bot of the benchmarks
		os.Stdout.WriteString("42\n")
	case "args":
		wd, _ := os.Getwd()
		fmt.Printf("%s|%s\n", strings.Join(os.Args[1:], " "), wd)
	case "write": // writes in its working folder, then answers
		if err := os.WriteFile("mine.txt", []byte("kept"), 0o644); err != nil {
			fmt.Println("not written:", err)
			return
		}
		os.Stdout.WriteString("written\n")
	case "exit3":
		os.Stdout.WriteString("7\n")
		os.Exit(3)
	case "crash":
		os.Exit(2)
	case "nothing":
	case "noeol":
		os.Stdout.WriteString("12")
	case "noeolsleep": // flushes its answer without a line end, then works on
		os.Stdout.WriteString("12")
		time.Sleep(time.Duration(len(os.Getenv("ONCE_SLEEP"))) * time.Second)
	case "noeolkill": // flushes its answer without a line end, works on, and a signal ends it
		os.Stdout.WriteString("12")
		time.Sleep(time.Duration(len(os.Getenv("ONCE_SLEEP"))) * time.Second)
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	case "noeolmore": // flushes "1", works on, then ends its line: "100"
		os.Stdout.WriteString("1")
		time.Sleep(time.Duration(len(os.Getenv("ONCE_SLEEP"))) * time.Second)
		os.Stdout.WriteString("00\n")
	case "noeolhold": // prints "12" without a newline and exits; a setsid grandchild holds stdout open
		os.Stdout.WriteString("12")
		fmt.Fprintf(os.Stderr, "grandchild %d\n", spawn("linger", os.Stdout))
	case "hang": // no answer; a setsid grandchild holds stdout open
		fmt.Fprintf(os.Stderr, "grandchild %d\n", spawn("linger", os.Stdout))
		time.Sleep(time.Hour)
	case "daemon": // answers and exits, leaving a setsid grandchild without stdout
		fmt.Fprintf(os.Stderr, "grandchild %d\n", spawn("linger", nil))
		os.Stdout.WriteString("1\n")
	case "exitflood": // prints 64 bytes, no newline, and exits; a setsid grandchild floods its stdout
		// What the bot itself printed is over the tests' 50-byte cap
		// whenever the grandchild gets to write, so the verdict does not
		// depend on how the two are scheduled.
		os.Stdout.Write(bytes.Repeat([]byte("y"), 64))
		fmt.Fprintf(os.Stderr, "grandchild %d\n", spawn("flood", os.Stdout))
	case "linger":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
		time.Sleep(time.Hour)
	case "stay": // answers, then does not exit
		os.Stdout.WriteString("5\n")
		time.Sleep(time.Hour)
	case "flood": // endless output without a newline
		b := bytes.Repeat([]byte("x"), 4096)
		for {
			if _, err := os.Stdout.Write(b); err != nil {
				return
			}
		}
	case "longline":
		os.Stdout.WriteString(strings.Repeat("y", 100) + "\n")
	case "stdin":
		b, _ := io.ReadAll(os.Stdin)
		first, _, _ := strings.Cut(string(b), "\n")
		fmt.Printf("%d %s\n", len(b), first)
	case "sleep200":
		time.Sleep(200 * time.Millisecond)
		os.Stdout.WriteString("slept\n")
	case "stderr":
		fmt.Fprintln(os.Stderr, strings.Repeat("e", 99))
		os.Stdout.WriteString("3\n")
	case "noisy": // 300 KB to stderr, in pieces, before its answer
		for range 3 {
			os.Stderr.WriteString(strings.Repeat("n", 100<<10) + "\n")
		}
		os.Stdout.WriteString("3\n")
	}
}

// onceSpec runs the test binary as bot mode. Every process of the run
// carries ONCE_MARK=<mark>, so the test can look for leftovers.
func onceSpec(t testing.TB, mode string) (OnceSpec, string) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	mark := hex.EncodeToString(b[:])
	return OnceSpec{
		Bot:     mode,
		Argv:    []string{botBinary(t)},
		Dir:     t.TempDir(),
		Env:     []string{"PROC_ONCE_BOT=" + mode, "ONCE_MARK=" + mark},
		Timeout: 10 * time.Second,
		// Generous, so that a slow machine (or -race) does not turn a
		// bot's own exit into a kill.
		Grace: 5 * time.Second,
	}, mark
}

// assertNoLeftovers checks that no process carries mark and that we have
// no zombie children.
func assertNoLeftovers(t *testing.T, mark string) {
	t.Helper()
	proctest.AssertGone(t, "ONCE_MARK="+mark)
}

func runOnce(t *testing.T, spec OnceSpec) Reply {
	t.Helper()
	r, err := RunOnce(context.Background(), spec)
	if err != nil {
		t.Fatalf("RunOnce: %v", err)
	}
	return r
}

func TestRunOnceReplies(t *testing.T) {
	tests := []struct {
		name, mode string
		line       string
		exit       int
		fault      string
	}{
		{"first line", "line", "42", 0, ""},
		{"exit status with a line", "exit3", "7", 3, ""},
		{"output without newline is the line", "noeol", "12", 0, ""},
		{"crash without output", "crash", "", 2, drivers.FaultCrash},
		{"exit 0 without output", "nothing", "", 0, drivers.FaultProtocol},
		{"stays after its line: killed after the grace", "stay", "5", 128 + 9, ""},
		{"output flood", "flood", "", -2, drivers.FaultOutput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, mark := onceSpec(t, tt.mode)
			if tt.mode == "stay" {
				spec.Grace = 100 * time.Millisecond
			}
			r := runOnce(t, spec)
			if r.Line != tt.line || (tt.exit != -2 && r.Exit != tt.exit) {
				t.Errorf("line %q exit %d, want %q %d", r.Line, r.Exit, tt.line, tt.exit)
			}
			switch {
			case tt.fault == "" && r.Fault != nil:
				t.Errorf("fault %v, want none", r.Fault)
			case tt.fault != "" && (r.Fault == nil || r.Fault.Kind != tt.fault):
				t.Errorf("fault %v, want %s", r.Fault, tt.fault)
			}
			if r.Used <= 0 || r.Used >= spec.Timeout {
				t.Errorf("used %v, want between 0 and the time-out %v", r.Used, spec.Timeout)
			}
			assertNoLeftovers(t, mark)
		})
	}
}

// Output without a line end is the answer only when the bot's output
// ends or it exits in time, and it is timed then, as the original
// contests read a strategy's output at its exit: at a deadline with the
// bot still running it is a time fault that quotes what arrived (a bot
// that flushed "1" and would have ended its line "100" later did not bid
// 1), and an answer that is late by its exit says when it had arrived.
func TestRunOnceAnswerWithoutLineEnd(t *testing.T) {
	for _, tt := range []struct {
		name, mode string
		sleep      string // its length is the seconds the bot works on
		timeout    time.Duration
		line       string
		fault      string // in the time fault's detail; "" for none
		exitAt     time.Duration
	}{
		{"a line ended past its time", "noeolmore", "xx", time.Second, "", `no full answer within 1s: only "1" arrived, without its line's end`, 0},
		{"exits in time", "noeol", "", 10 * time.Second, "12", "", 0},
		{"exits after working on", "noeolsleep", "x", 10 * time.Second, "12", "", time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec, mark := onceSpec(t, tt.mode)
			spec.Env = append(spec.Env, "ONCE_SLEEP="+tt.sleep)
			spec.Timeout, spec.Grace = tt.timeout, 100*time.Millisecond
			r := runOnce(t, spec)
			switch {
			case tt.fault != "":
				if r.Fault == nil || r.Fault.Kind != drivers.FaultTime || !strings.Contains(r.Fault.Detail, tt.fault) || r.Fault.Partial != "1" {
					t.Errorf("line %q fault %v, want a time fault with %s", r.Line, r.Fault, tt.fault)
				}
			case r.Line != tt.line || r.Fault != nil:
				t.Errorf("line %q fault %v, want %q and no fault", r.Line, r.Fault, tt.line)
			case r.Used < tt.exitAt || r.Arrived <= 0 || r.Arrived > r.Used || r.Arrived >= 900*time.Millisecond:
				t.Errorf("used %v, arrived %v: want the time to its exit (at least %v), and the arrival before it", r.Used, r.Arrived, tt.exitAt)
			case !strings.Contains(r.LateNote(), `; its answer "12" had arrived at `) || !strings.HasSuffix(r.LateNote(), "complete only when its line ends or the bot exits"):
				t.Errorf("late note %q", r.LateNote())
			}
			assertNoLeftovers(t, mark)
		})
	}
}

func TestRunOnceArgsDirAndLineCap(t *testing.T) {
	spec, mark := onceSpec(t, "args")
	spec.Argv = append(spec.Argv, "game", "B")
	r := runOnce(t, spec)
	if want := "game B|" + spec.Dir; r.Line != want || r.Fault != nil {
		t.Errorf("reply %q (%v), want %q", r.Line, r.Fault, want)
	}
	spec, mark2 := onceSpec(t, "longline")
	spec.MaxOutput = 50
	r = runOnce(t, spec)
	if r.Fault == nil || r.Fault.Kind != drivers.FaultOutput || !strings.Contains(r.Fault.Detail, "than 50 bytes") {
		t.Errorf("a 100-byte line with a cap of 50: fault %v, want protocol", r.Fault)
	}
	assertNoLeftovers(t, mark)
	assertNoLeftovers(t, mark2)
}

// TestRunOnceRelativeDirConfined: a per-move bot confined to its working
// folder (a files limit outside the sandbox: Landlock on that folder), the
// folder given relative to arbiter's working folder, as a match's folder
// is under a relative -out (Auction's seats/D). The child chdirs to the
// folder before it confines the writes; the folder it then allows must be
// the same one, not the relative path resolved again from inside it
// ("Landlock: allowing .../seats/D: no such file or directory"). Both
// ways a bot starts: spawned and through the shim.
func TestRunOnceRelativeDirConfined(t *testing.T) {
	if m := Machine(); m.Landlock == 0 {
		t.Skipf("no Landlock here (%s): the folder is not confined", m.Why["landlock"])
	}
	for _, how := range []string{"spawned", "shim"} {
		t.Run(how, func(t *testing.T) {
			if how == "shim" {
				t.Setenv(spawnEnv, "shim")
			}
			t.Chdir(t.TempDir())
			rel := filepath.Join("a1", "matches", "m", "seats", "D")
			if err := os.MkdirAll(rel, 0o755); err != nil {
				t.Fatal(err)
			}
			spec, mark := onceSpec(t, "write")
			spec.Dir, spec.Limits = rel, drivers.Limits{Files: 1 << 20}
			r, err := RunOnce(context.Background(), spec)
			if err != nil {
				t.Fatalf("RunOnce in %s: %v", rel, err)
			}
			if r.Line != "written" || r.Fault != nil {
				t.Fatalf("reply %q (fault %v), want %q", r.Line, r.Fault, "written")
			}
			if b, err := os.ReadFile(filepath.Join(rel, "mine.txt")); err != nil || string(b) != "kept" {
				t.Errorf("the bot's file in %s: %q, %v", rel, b, err)
			}
			assertNoLeftovers(t, mark)
		})
	}
}

// TestRunOnceTimeoutKillsGroupAndEscapee: a bot that never answers while
// a setsid grandchild holds its stdout open gets a time fault at its
// time-out, and both are gone afterwards.
func TestRunOnceTimeoutKillsGroupAndEscapee(t *testing.T) {
	spec, mark := onceSpec(t, "hang")
	spec.Timeout = 300 * time.Millisecond
	spec.Stderr = filepath.Join(t.TempDir(), "stderr")
	r := runOnce(t, spec)
	if r.Fault == nil || r.Fault.Kind != drivers.FaultTime {
		t.Fatalf("fault %v, want time", r.Fault)
	}
	if r.Used < spec.Timeout || r.Used > 5*time.Second {
		t.Errorf("charged %v for a time-out of %v", r.Used, spec.Timeout)
	}
	assertGrandchildGone(t, spec.Stderr)
	assertNoLeftovers(t, mark)
}

// TestRunOnceDaemonIsKilled: a bot that answers and exits but leaves a
// daemon (setsid, no stdout) behind has answered, and its daemon is killed.
func TestRunOnceDaemonIsKilled(t *testing.T) {
	spec, mark := onceSpec(t, "daemon")
	spec.Stderr = filepath.Join(t.TempDir(), "stderr")
	r := runOnce(t, spec)
	if r.Line != "1" || r.Fault != nil {
		t.Fatalf("reply %q (%v), want 1", r.Line, r.Fault)
	}
	assertGrandchildGone(t, spec.Stderr)
	assertNoLeftovers(t, mark)
}

func assertGrandchildGone(t *testing.T, stderr string) {
	t.Helper()
	b, _ := os.ReadFile(stderr)
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimPrefix(first, "grandchild "))
	if err != nil {
		t.Fatalf("stderr %q: the bot did not report its grandchild", b)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("setsid grandchild %d is still alive", pid)
	}
}

func TestRunOnceStartFailure(t *testing.T) {
	r, err := RunOnce(context.Background(), OnceSpec{Bot: "nope", Argv: []string{"/nonexistent/bot"}, Timeout: time.Second})
	if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultStart || r.Exit != -1 {
		t.Fatalf("reply %+v, err %v: want a start fault", r, err)
	}
}

func TestRunOnceStdin(t *testing.T) {
	// A bot that reads nothing of a large input is fine.
	spec, mark := onceSpec(t, "line")
	spec.Stdin = strings.Repeat("ignored line\n", 100000)
	if r := runOnce(t, spec); r.Line != "42" || r.Fault != nil {
		t.Errorf("bot ignoring 1.3 MB of stdin: reply %q (%v)", r.Line, r.Fault)
	}
	assertNoLeftovers(t, mark)
	// Small and large inputs both arrive whole, then end.
	for _, in := range []string{"state 1\nmore\n", "big\n" + strings.Repeat("z", 200000)} {
		spec, mark := onceSpec(t, "stdin")
		spec.Stdin = in
		first, _, _ := strings.Cut(in, "\n")
		if r := runOnce(t, spec); r.Line != fmt.Sprintf("%d %s", len(in), first) || r.Fault != nil {
			t.Errorf("stdin of %d bytes: reply %q (%v)", len(in), r.Line, r.Fault)
		}
		assertNoLeftovers(t, mark)
	}
}

func TestRunOnceStderrAppendedAndCapped(t *testing.T) {
	spec, _ := onceSpec(t, "stderr")
	spec.Stderr = filepath.Join(t.TempDir(), "stderr")
	spec.MaxStderr = 250
	for range 4 {
		if r := runOnce(t, spec); r.Line != "3" {
			t.Fatalf("reply %q (%v)", r.Line, r.Fault)
		}
	}
	b, _ := os.ReadFile(spec.Stderr)
	if !strings.HasPrefix(string(b), strings.Repeat("e", 99)+"\n"+strings.Repeat("e", 99)+"\n") {
		t.Errorf("stderr does not hold two runs' output: %q", b)
	}
	if !strings.Contains(string(b), "truncated") || len(b) > 250+100 {
		t.Errorf("stderr of %d bytes with a cap of 250: %q", len(b), b)
	}
}

// TestRunOnceStderrLost: a stderr file that cannot be written (/dev/full,
// as a full disk) does not reach the bot, which answers as always, and is
// RunOnce's error (the arbiter's, not the bot's), naming the bot and the
// file; the context's handler hears of it too.
func TestRunOnceStderrLost(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	f.Close()
	spec, mark := onceSpec(t, "noisy")
	spec.Stderr = "/dev/full"
	var told atomic.Int32
	ctx := StderrFailures(context.Background(), func(error) { told.Add(1) })
	r, err := RunOnce(ctx, spec)
	if err == nil || !strings.Contains(err.Error(), "/dev/full") || !strings.Contains(err.Error(), "bot noisy") {
		t.Errorf("RunOnce: %v (reply %q, exit %d, fault %v), want the lost file as its error", err, r.Line, r.Exit, r.Fault)
	}
	if r.Fault != nil {
		t.Errorf("the bot is judged for the arbiter's failure: %v", r.Fault)
	}
	if told.Load() != 1 {
		t.Errorf("the handler heard of it %d times, want 1", told.Load())
	}
	assertNoLeftovers(t, mark)
}

func TestRunOnceCancel(t *testing.T) {
	spec, mark := onceSpec(t, "hang")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := RunOnce(ctx, spec)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	assertNoLeftovers(t, mark)
}

// TestRunOnceSimultaneous runs 8 bots at once that each sleep 200ms: each
// is charged for its own time, not for the others'.
func TestRunOnceSimultaneous(t *testing.T) {
	const n = 8
	replies := make([]Reply, n)
	marks := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		spec, mark := onceSpec(t, "sleep200")
		marks[i] = mark
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := RunOnce(context.Background(), spec)
			if err != nil {
				t.Error(err)
			}
			replies[i] = r
		}()
	}
	wg.Wait()
	for i, r := range replies {
		if r.Line != "slept" || r.Fault != nil {
			t.Errorf("bot %d: reply %q (%v)", i, r.Line, r.Fault)
		}
		if r.Used < 200*time.Millisecond || r.Used >= n*200*time.Millisecond {
			t.Errorf("bot %d charged %v: want its own 200ms and less than everyone's %v", i, r.Used, n*200*time.Millisecond)
		}
		assertNoLeftovers(t, marks[i])
	}
}

// BenchmarkRunOnce runs the trivial bot (prints a line, exits) through the
// per-move layer; BenchmarkBareForkExec runs the same binary with plain
// os/exec, the baseline the overhead is judged against.
func BenchmarkRunOnce(b *testing.B) {
	spec, _ := onceSpec(b, "line")
	for b.Loop() {
		r, err := RunOnce(context.Background(), spec)
		if err != nil || r.Line != "42" {
			b.Fatal(r, err)
		}
	}
}

func BenchmarkBareForkExec(b *testing.B) {
	spec, _ := onceSpec(b, "line")
	for b.Loop() {
		cmd := exec.Command(spec.Argv[0])
		cmd.Dir = spec.Dir
		cmd.Env = append(os.Environ(), spec.Env...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil || out.String() != "42\n" {
			b.Fatal(out.String(), err)
		}
	}
}

// BenchmarkRunOnce4 is one Auction-like round: four bots run at once, so
// each run finds the others' processes among the arbiter's children and
// must tell them from escaped descendants (by the kernel's lists of the
// arbiter's children, or a scan of /proc).
// BenchmarkBareForkExec4 is the same with plain os/exec.
func BenchmarkRunOnce4(b *testing.B) {
	spec, _ := onceSpec(b, "line")
	for b.Loop() {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if r, err := RunOnce(context.Background(), spec); err != nil || r.Line != "42" {
					b.Error(r, err)
				}
			}()
		}
		wg.Wait()
	}
}

func BenchmarkBareForkExec4(b *testing.B) {
	spec, _ := onceSpec(b, "line")
	for b.Loop() {
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(spec.Argv[0])
				cmd.Dir = spec.Dir
				cmd.Env = append(os.Environ(), spec.Env...)
				var out bytes.Buffer
				cmd.Stdout = &out
				if err := cmd.Run(); err != nil || out.String() != "42\n" {
					b.Error(out.String(), err)
				}
			}()
		}
		wg.Wait()
	}
}

// TestRunOnceLimits runs hostile per-move bots under limits: the network,
// writes outside the working directory, memory, processes and CPU. A
// per-move bot's files stay in its working directory (the game counts
// them), so a files limit only forbids writes elsewhere. A bot over a
// limit that never answers gets its verdict at once, not at its
// time-out.
func TestRunOnceLimits(t *testing.T) {
	py := python(t)
	m := Machine()
	no := false
	lim := drivers.Limits{Network: &no, Files: 1 << 20, Memory: 200 << 20}
	prompt := 5 * time.Second
	cases := []struct {
		name, script string
		need         string
		wantLine     string
		wantFault    string
		limits       *drivers.Limits // lim when nil
		within       time.Duration   // how soon the verdict must come, if set
	}{
		// Refused (EACCES), the connection raises, and the bot fails.
		{"tcp", "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=2)\nprint('connected')", drivers.LimitNetwork, "", drivers.FaultCrash, nil, 0},
		{"write outside", `import os, sys
open('mine.txt', 'w').write('kept')
try:
    open(sys.argv[1], 'w').write('escaped')
    print('outside written')
except OSError as e:
    print('denied', e.errno)`, drivers.LimitFiles, "denied 13", "", nil, 0},
		{"memory", "b = []\nwhile True:\n    b.append(bytearray(16 << 20))", drivers.LimitMemory, "", drivers.FaultMemory, nil, 0},
		{"fork bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
			drivers.LimitProcesses, "", drivers.FaultProcesses, &drivers.Limits{Processes: 16}, prompt},
		{"memory hog in a child, the bot waiting for it", `import os, signal
pid = os.fork()
if pid == 0:
    b = []
    while True:
        b.append(bytearray(16 << 20))
os.waitpid(pid, 0)
signal.pause()`, drivers.LimitMemory, "", drivers.FaultMemory, nil, prompt},
		// CPU time comes slower than wall time on a busy machine: a
		// longer time-out, to tell its limit from its time-out.
		{"CPU burner", "while True:\n    pass", drivers.LimitCPU, "", drivers.FaultTime, &drivers.Limits{CPU: "1s"}, 30 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, e := range m.Enforcements() {
				if e.Limit == c.need && !e.Enforced {
					t.Skipf("%s is not enforced here: %s", c.need, e.How)
				}
			}
			if c.within > 0 && c.need != drivers.LimitCPU && !countedByCgroup(m, c.need) {
				t.Skipf("%s is not counted by a cgroup here (%s): a bot over it that never answers gets its verdict at its time-out", c.need, m.Enforcement(c.need).How)
			}
			dir := t.TempDir()
			outside := filepath.Join(t.TempDir(), "outside.txt")
			script := filepath.Join(dir, "bot.py")
			if err := os.WriteFile(script, []byte(c.script+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			limits := lim
			if c.limits != nil {
				limits = *c.limits
			}
			timeout := 20 * time.Second
			if c.need == drivers.LimitCPU {
				timeout = time.Minute
			}
			begin := time.Now()
			r, err := RunOnce(context.Background(), OnceSpec{Bot: c.name, Argv: []string{py, script, outside}, Dir: dir,
				Timeout: timeout, Limits: limits, Stderr: filepath.Join(dir, "stderr")})
			took := time.Since(begin)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%q (fault %v) after %v", r.Line, r.Fault, took.Round(time.Millisecond))
			if c.within > 0 && took >= c.within {
				t.Errorf("the verdict took %v, want less than %v (its time-out is %v)", took.Round(time.Millisecond), c.within, timeout)
			}
			switch {
			case c.wantFault != "" && (r.Fault == nil || r.Fault.Kind != c.wantFault):
				t.Fatalf("reply %+v (fault %v), want a %s fault", r, r.Fault, c.wantFault)
			case c.wantFault == "" && (r.Fault != nil || r.Line != c.wantLine):
				t.Fatalf("reply %+v (fault %v), want line %q", r, r.Fault, c.wantLine)
			}
			if c.name == "write outside" {
				if _, err := os.Stat(outside); err == nil {
					t.Error("the bot wrote outside its working directory")
				}
				if b, err := os.ReadFile(filepath.Join(dir, "mine.txt")); err != nil || string(b) != "kept" {
					t.Errorf("the bot's own file in its working directory: %q, %v", b, err)
				}
			}
		})
	}
}

// TestRunOnceStarvedReader: whatever a per-move bot wrote before it
// exited is its answer, however late the reader runs. The reader is held
// back, as on a machine starved of CPU, until the bot has exited and its
// read deadline (the exit plus the grace) has passed; then a read fails
// without looking at the pipe, and what is in it must still be taken.
func TestRunOnceStarvedReader(t *testing.T) {
	held := 0
	testHookRead = func(r *onceRun) {
		<-r.exited
		waitDeadlinePassed(r.out)
		held++
	}
	defer func() { testHookRead = nil }()
	cases := []struct {
		name  string
		argv  []string // the test binary in mode when empty
		mode  string
		line  string
		fault string
	}{
		{"sh -c 'echo 1'", []string{"/bin/sh", "-c", "echo 1"}, "", "1", ""},
		{"a line", nil, "line", "42", ""},
		{"output without newline", nil, "noeol", "12", ""},
		{"a line and exit status 3", nil, "exit3", "7", ""},
		{"a line too long", nil, "longline", "", drivers.FaultOutput},
		{"nothing", nil, "nothing", "", drivers.FaultProtocol},
		// The drain stops at the output cap, not at the end of a flood.
		{"a grandchild flooding the pipe", nil, "exitflood", "", drivers.FaultOutput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec, mark := onceSpec(t, c.mode)
			if c.argv != nil {
				spec.Argv = c.argv
			}
			spec.Grace = 20 * time.Millisecond
			spec.MaxOutput = 50
			r := runOnce(t, spec)
			if r.Line != c.line || (r.Fault == nil) != (c.fault == "") || r.Fault != nil && r.Fault.Kind != c.fault {
				t.Errorf("reply %q (fault %v), want %q (fault %q)", r.Line, r.Fault, c.line, c.fault)
			}
			if r.Used <= 0 || r.Used >= spec.Timeout {
				t.Errorf("used %v: want the time up to its exit", r.Used)
			}
			assertNoLeftovers(t, mark)
		})
	}
	if held != len(cases) {
		t.Errorf("the reader was held back %d times, want %d", held, len(cases))
	}
}

// TestRunOnceChildrenRefused: a bot whose new process the seccomp filter
// refuses under children = false, and that fails for it, is told the
// rule, not a bare crash; one that fails for another reason is a crash.
func TestRunOnceChildrenRefused(t *testing.T) {
	if e := Machine().Enforcement(drivers.LimitChildren); !e.Enforced {
		t.Skipf("children is not enforced here: %s", e.How)
	}
	no := false
	cases := []struct{ name, script, want string }{
		{"grep in a shell script", "#!/bin/sh\ncap=$(grep A state | cut -d' ' -f2)\necho $cap\n", drivers.FaultProcesses},
		{"a plain failure", "#!/bin/sh\necho 'no state here' >&2\nexit 2\n", drivers.FaultCrash},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte(c.script), 0o755); err != nil {
				t.Fatal(err)
			}
			r := runOnce(t, OnceSpec{Bot: "sh", Argv: []string{"./bot.sh"}, Dir: dir, Timeout: 10 * time.Second,
				Limits: drivers.Limits{Children: &no}, Stderr: filepath.Join(dir, "stderr")})
			if r.Fault == nil || r.Fault.Kind != c.want {
				t.Fatalf("reply %+v (fault %v), want a %s fault", r, r.Fault, c.want)
			}
			if said := strings.Contains(r.Fault.Detail, "children = false"); said != (c.want == drivers.FaultProcesses) {
				t.Errorf("fault %q: names children = false %v, want %v", r.Fault.Detail, said, c.want == drivers.FaultProcesses)
			}
		})
	}
}

func TestForkRefused(t *testing.T) {
	for stderr, want := range map[string]bool{
		"./bot.sh: 2: Cannot fork\n":                      true,
		"bot.sh: line 2: fork: Operation not permitted\n": true,
		"Exception in thread \"main\" java.io.IOException: Cannot run program \"ls\": error=1, Operation not permitted":                    true,
		"  File \"/usr/lib/python3.12/subprocess.py\", line 1955, in _execute_child\nPermissionError: [Errno 1] Operation not permitted\n": true,
		"PermissionError: [Errno 1] Operation not permitted: 'state'\n":                                                                    false,
		"Traceback ...\nValueError: bad bid\n": false,
	} {
		if got := forkRefused(stderr); got != want {
			t.Errorf("forkRefused(%q) = %v, want %v", stderr, got, want)
		}
	}
}

// TestTaskRefused: what runtimes say when RLIMIT_NPROC refuses a thread
// or a process, and EAGAIN that is not such a refusal.
func TestTaskRefused(t *testing.T) {
	for stderr, want := range map[string]bool{
		"RuntimeError: can't start new thread\n":                  true,
		"RuntimeError: can't create new thread\n":                 true,
		"bot.sh: fork: retry: Resource temporarily unavailable\n": true,
		"  File \"bot.py\", line 3, in <module>\n    pid = os.fork()\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n":                                                                                                 true,
		"[0.010s][warning][os,thread] Failed to start thread \"GC Thread#1\" - pthread_create failed (EAGAIN)\njava.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached": true,
		"runtime: failed to create new OS thread (have 7 already; errno=11)\n":                                                                                                                                                        true,
		"terminate called after throwing an instance of 'std::system_error'\n  what():  Resource temporarily unavailable\n":                                                                                                           true,
		"BlockingIOError: [Errno 11] Resource temporarily unavailable\n":                                                                                                                                                              false,
		"MemoryError\n": false,
		// EAGAIN of a non-blocking read, in a thread or after a word
		// that names a task far above it, is no refused task.
		"Exception in thread Thread-1:\nTraceback (most recent call last):\n  File \"bot.py\", line 5, in run\n    data = os.read(fd, 100)\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n": false,
		"debug: worker thread ready\nmove 3\nmove 4\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n":                                                                                        false,
	} {
		if got := taskRefused(stderr); got != want {
			t.Errorf("taskRefused(%q) = %v, want %v", stderr, got, want)
		}
	}
}

// TestTaskFaultThreadUnderData: under RLIMIT_DATA a refused thread may
// be its stack refused at the memory limit (a Python bot of 3 threads
// whose memory is nearly used says "can't start new thread" as one at
// RLIMIT_NPROC does): the detail names both limits, never only a number
// of tasks the bot may not have had; a refused fork, which RLIMIT_DATA
// does not refuse, and a thread without RLIMIT_DATA name RLIMIT_NPROC.
func TestTaskFaultThreadUnderData(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "exit 1")
	if err := cmd.Run(); err == nil {
		t.Fatal("sh exited 0")
	}
	both := &Box{lim: drivers.Limits{Memory: 64 << 20, Processes: 64}, data: true, nproc: true}
	nproc := &Box{lim: drivers.Limits{Processes: 64}, nproc: true}
	thread := "  File \"/usr/lib/python3.11/threading.py\", line 957, in start\n    _start_new_thread(self._bootstrap, ())\nRuntimeError: can't start new thread\n"
	fork := "BlockingIOError: [Errno 11] Resource temporarily unavailable: os.fork()\n"
	for _, c := range []struct {
		box       *Box
		tail      string
		want, not string
	}{
		{both, thread, "its memory limit of 64MiB (RLIMIT_DATA", "tried to have more than"},
		{both, "java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached", "RLIMIT_DATA", "tried to have more than"},
		{both, fork, "tried to have more than 64 processes", "RLIMIT_DATA"},
		{nproc, thread, "tried to have more than 64 processes", "RLIMIT_DATA"},
	} {
		f := c.box.Explain(drivers.FaultCrash, cmd.ProcessState, c.tail)
		if f == nil || f.Kind != drivers.FaultProcesses || !strings.Contains(f.Detail, c.want) || strings.Contains(f.Detail, c.not) {
			t.Errorf("memory only RLIMIT_DATA %v, stderr %q: fault %v, want processes saying %q, not %q", c.box.data, c.tail, f, c.want, c.not)
		}
	}
}

// TestRunOnceJavaClassNotFound: a JVM that cannot find the bot's main
// class is a crash that says so and how to fix it: a class named without
// -cp, run outside the bot's dir, needs "-cp", "."; a class with its
// class path is not there (not compiled), which -cp would not fix, and so
// is one that an absolute CLASSPATH in the bot's env gives (-cp would
// replace it); a relative CLASSPATH is relative to where it runs.
func TestRunOnceJavaClassNotFound(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'Error: Could not find or load main class Bot' >&2\necho 'Caused by: java.lang.ClassNotFoundException: Bot' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv      []string
		env       []string
		want, not string
	}{
		{[]string{"./java", "Bot"}, nil, `"-cp", "."`, "compiled"},
		{[]string{"./java", "-cp", ".", "Bot"}, nil, "compiled", `"-cp", "."`},
		{[]string{"./java", "Bot"}, []string{"CLASSPATH=/abs/classes"}, "compiled", `"-cp", "."`},
		{[]string{"./java", "Bot"}, []string{"CLASSPATH=."}, `"-cp", "."`, "compiled"},
	} {
		r := runOnce(t, OnceSpec{Bot: "java", Argv: c.argv, Env: c.env, Dir: dir, Timeout: 10 * time.Second,
			Stderr: filepath.Join(dir, "stderr")})
		if r.Fault == nil || r.Fault.Kind != drivers.FaultCrash || !strings.Contains(r.Fault.Detail, c.want) || strings.Contains(r.Fault.Detail, c.not) {
			t.Errorf("%q %q: reply %+v (fault %v), want a crash that says %s, not %s", c.env, c.argv, r, r.Fault, c.want, c.not)
		}
	}
}

// TestRunOnceLateBotBlamingAFork: a bot's stderr is its own to write, so
// a bot that says its fork was refused and then overruns its time is late
// (a time fault, which games count as an overrun), not a processes fault.
func TestRunOnceLateBotBlamingAFork(t *testing.T) {
	if e := Machine().Enforcement(drivers.LimitChildren); !e.Enforced {
		t.Skipf("children is not enforced here: %s", e.How)
	}
	no := false
	dir := t.TempDir()
	script := "#!/bin/sh\necho './bot.sh: 2: Cannot fork' >&2\nwhile :; do :; done\n"
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runOnce(t, OnceSpec{Bot: "sh", Argv: []string{"./bot.sh"}, Dir: dir, Timeout: 300 * time.Millisecond,
		Limits: drivers.Limits{Children: &no}, Stderr: filepath.Join(dir, "stderr")})
	if r.Fault == nil || r.Fault.Kind != drivers.FaultTime {
		t.Fatalf("reply %+v (fault %v), want a time fault", r, r.Fault)
	}
}

// TestExplainStderrOnlyForACrash: the guesses Explain makes from a bot's
// stderr (a refused fork, a failed allocation under RLIMIT_DATA) explain
// a crash, never a time-out, whose bot was killed too.
func TestExplainStderrOnlyForACrash(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "kill -9 $$")
	if err := cmd.Run(); err == nil {
		t.Fatal("sh survived its SIGKILL")
	}
	box := &Box{lim: drivers.Limits{Memory: 64 << 20, Processes: 8}, data: true, nproc: true, noChildren: true}
	for tail, want := range map[string]string{
		"./bot.sh: 2: Cannot fork\n":           drivers.FaultProcesses,
		"MemoryError\n":                        drivers.FaultMemory,
		"RuntimeError: can't start new thread": drivers.FaultProcesses,
		"java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached": drivers.FaultProcesses,
	} {
		if f := box.Explain(drivers.FaultCrash, cmd.ProcessState, tail); f == nil || f.Kind != want {
			t.Errorf("a crash whose stderr says %q: fault %v, want %s", tail, f, want)
		}
		if f := box.Explain(drivers.FaultTime, cmd.ProcessState, tail); f != nil {
			t.Errorf("a time-out whose stderr says %q: relabelled %v", tail, f)
		}
	}
}

// TestStderrCutNote: a stderr file cut at its cap ends with the note
// IsStderrCutNote knows (the engine's fault line says the file was cut
// rather than quote it), and a line of the bot's own is no such note.
func TestStderrCutNote(t *testing.T) {
	spec, _ := onceSpec(t, "stderr")
	spec.Stderr = filepath.Join(t.TempDir(), "stderr")
	spec.MaxStderr = 150
	runOnce(t, spec)
	runOnce(t, spec)
	b, _ := os.ReadFile(spec.Stderr)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if last := lines[len(lines)-1]; !IsStderrCutNote(last) || last != StderrCutNote(150) {
		t.Errorf("the cut file's last line %q is not StderrCutNote(150)", last)
	}
	for _, line := range []string{"[arbiter: stderr truncated at x bytes]", "[arbiter: stderr truncated at 5 bytes] more", "e"} {
		if IsStderrCutNote(line) {
			t.Errorf("IsStderrCutNote(%q) = true", line)
		}
	}
}

// TestExplainJVMMemoryReport: a JVM that could not commit its memory
// under RLIMIT_DATA prints its fatal error report's '#' lines on its
// output, which the referee reads as a wrong answer (a protocol fault),
// and exits 1: its warning on stderr that os::commit_memory failed with
// ENOMEM makes that, and the crash it may be, a memory fault. Only of a
// JVM under RLIMIT_DATA alone, that ended, and never of a time-out: a
// program other than java that prints the same is not relabelled.
func TestExplainJVMMemoryReport(t *testing.T) {
	exited := func(code string) *os.ProcessState {
		cmd := exec.Command("/bin/sh", "-c", "exit "+code)
		_ = cmd.Run()
		return cmd.ProcessState
	}
	failed, clean := exited("1"), exited("0")
	const report = "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00007ff32b5d0000, 6225920, 0) failed; error='Not enough space' (errno=12)\n"
	jvm := &Box{lim: drivers.Limits{Memory: 64 << 20}, data: true, jvm: true}
	for _, kind := range []string{drivers.FaultProtocol, drivers.FaultCrash} {
		f := jvm.Explain(kind, failed, report)
		if f == nil || f.Kind != drivers.FaultMemory || !strings.Contains(f.Detail, "ran out of memory under its limit of 64MiB (RLIMIT_DATA)") || !strings.Contains(f.Detail, `"-Xmx48m"`) {
			t.Errorf("a JVM's %s fault with its commit_memory report: %v, want a memory fault with a heap to give", kind, f)
		}
	}
	if f := jvm.Explain(drivers.FaultProtocol, failed, "# There is insufficient memory for the Java Runtime Environment to continue.\n"); f == nil || f.Kind != drivers.FaultMemory {
		t.Errorf("a JVM's fatal error report on stderr: %v, want a memory fault", f)
	}
	for name, tc := range map[string]struct {
		box        *Box
		kind, tail string
		ps         *os.ProcessState
	}{
		"not a JVM":          {&Box{lim: drivers.Limits{Memory: 64 << 20}, data: true}, drivers.FaultProtocol, report, failed},
		"memory by a cgroup": {&Box{lim: drivers.Limits{Memory: 64 << 20}, jvm: true}, drivers.FaultProtocol, report, failed},
		"a time-out":         {jvm, drivers.FaultTime, report, failed},
		"still running":      {jvm, drivers.FaultProtocol, report, nil},
		"exited 0":           {jvm, drivers.FaultProtocol, report, clean},
		"no report":          {jvm, drivers.FaultProtocol, "Exception in thread \"main\" java.lang.NullPointerException\n", failed},
		"another errno":      {jvm, drivers.FaultProtocol, "os::commit_memory(0x0, 4096, 0) failed; error='Permission denied' (errno=13)\n", failed},
	} {
		if f := tc.box.Explain(tc.kind, tc.ps, tc.tail); f != nil {
			t.Errorf("%s: relabelled %v", name, f)
		}
	}
}

// TestParentOfAfterNoFileDescriptor: parentOf, which anyAdopted's search
// for escaped descendants rests on, opens /proc once; when its first try
// finds no file descriptor to spare (EMFILE, here RLIMIT_NOFILE at 0),
// it fails then but reads parents again once descriptors are free,
// instead of failing for the rest of the process's life. It runs in a
// fresh process (this test binary again), where /proc was never opened.
func TestParentOfAfterNoFileDescriptor(t *testing.T) {
	if os.Getenv("PROC_TEST_EMFILE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestParentOfAfterNoFileDescriptor$", "-test.v", "-test.count", "1")
		cmd.Env = append(os.Environ(), "PROC_TEST_EMFILE=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestParentOfAfterNoFileDescriptor") {
			t.Fatalf("in a fresh process, TestParentOfAfterNoFileDescriptor did not pass (%v):\n%s", err, out)
		}
		return
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	none := lim
	none.Cur = 0
	buf := make([]byte, 512)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &none); err != nil {
		t.Fatal(err)
	}
	_, ok := parentOf(os.Getpid(), buf)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Fatal("parentOf read /proc with RLIMIT_NOFILE at 0: the test cannot make it fail")
	}
	if ppid, ok := parentOf(os.Getpid(), buf); !ok || ppid != os.Getppid() {
		t.Errorf("parentOf(self) once descriptors are free again = %d, %v; want %d, true", ppid, ok, os.Getppid())
	}
}

// An output limit beyond what an int counts (3 GB or 4 GiB on 32-bit,
// the largest size on any) caps a per-move bot's answer at the most an
// int can, not at a wrapped negative cap (a 386 arbiter panicked at the
// first answer) or at 0 (every answer too long), nor one past the largest
// int.
func TestRunOnceOutputLimitBeyondInt(t *testing.T) {
	for _, limit := range []int64{3_000_000_000, 1 << 32, math.MaxInt64} {
		t.Run(strconv.FormatInt(limit, 10), func(t *testing.T) {
			spec, mark := onceSpec(t, "line")
			spec.Limits.Output = limit
			if r := runOnce(t, spec); r.Line != "42" || r.Fault != nil {
				t.Errorf("line %q, fault %v; want 42 and no fault", r.Line, r.Fault)
			}
			assertNoLeftovers(t, mark)
		})
	}
}
