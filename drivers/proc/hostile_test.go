package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// The hostile suite: real bots that attack the limits, one case a row.
// After every case no process of the bot may be left, no zombie, no
// cgroup. A case is skipped only when the probe says the mechanism it
// needs is not available here, and the skip says why.

// A grandchild of a hostile bot: `<test binary> hostile-linger <token>`.
// It carries the token in its arguments, so it can be found even when it
// cleared its environment.
func init() {
	if len(os.Args) > 2 && os.Args[1] == "hostile-linger" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
		os.Exit(0)
	}
}

func hostileBot(mode string, in *bufio.Scanner, reply func(string)) {
	linger := func(setsid bool, env []string, stdout bool) int {
		cmd := exec.Command(os.Args[0], "hostile-linger", os.Getenv("ARBITER_TOKEN"))
		cmd.Env = env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
		if stdout {
			cmd.Stdout = os.Stdout
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "linger:", err)
			os.Exit(4)
		}
		return cmd.Process.Pid
	}
	switch mode {
	case "gohog": // allocates and touches memory without end
		in.Scan()
		var keep [][]byte
		for {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = byte(i)
			}
			keep = append(keep, b)
		}
	case "gonormal": // a well-behaved Go bot using 30 MiB
		b := make([]byte, 30<<20)
		for i := range b {
			b[i] = 1
		}
		for in.Scan() {
			reply(strconv.Itoa(len(b)))
		}
	case "spin": // an infinite loop within a move
		in.Scan()
		for {
		}
	case "cpuburn": // answers at once, but burns CPU between moves
		go func() {
			for {
			}
		}()
		for in.Scan() {
			reply("ok")
		}
	case "sleeper":
		in.Scan()
		time.Sleep(time.Minute)
	case "floodlines": // an answer that never ends, in lines
		in.Scan()
		w := bufio.NewWriter(os.Stdout)
		w.WriteString("= start\n")
		for {
			if _, err := w.WriteString("more\n"); err != nil {
				return
			}
		}
	case "stderrflood": // 40 MiB of stderr, then a normal answer
		b := bytes.Repeat([]byte("noise "), 1<<20)
		for i := 0; i < 7; i++ {
			os.Stderr.Write(b)
		}
		for in.Scan() {
			reply("ok")
		}
	case "binary":
		in.Scan()
		os.Stdout.Write([]byte("\xff\xfe\x00\x01 \xc3\x28\n\n"))
		time.Sleep(time.Minute)
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		for in.Scan() {
			reply("not quitting")
		}
		time.Sleep(time.Minute)
	case "grandchild", "setsid", "doublefork", "noenv":
		in.Scan()
		switch mode {
		case "grandchild":
			linger(false, os.Environ(), false)
		case "setsid":
			linger(true, os.Environ(), false)
		case "noenv": // escapes the token scan: no environment at all
			linger(true, []string{}, false)
		case "doublefork": // the middle process exits at once
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "PROC_TEST_BOT=forkonce")
			cmd.Run()
		}
		reply("ok")
		time.Sleep(50 * time.Millisecond)
		os.Exit(0)
	case "forkonce":
		linger(true, os.Environ(), false)
	case "holdstdout": // a grandchild keeps the bot's stdout open
		in.Scan()
		linger(true, os.Environ(), true)
		os.Exit(0)
	case "closestdin":
		os.Stdin.Close()
		time.Sleep(time.Minute)
	case "closestdout":
		in.Scan()
		os.Stdout.Close()
		time.Sleep(time.Minute)
	case "noread":
		time.Sleep(time.Minute)
	case "exit":
		os.Exit(0)
	case "sigstop":
		in.Scan()
		syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		reply("woke")
		for in.Scan() {
			reply("ok")
		}
	case "godial":
		in.Scan()
		// What net.Dial does, without linking package net: that would link
		// cgo into the test binary, whose pthread stacks count against
		// RLIMIT_DATA and break the memory cases where it is the mechanism.
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
		if err == nil {
			err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: 53, Addr: [4]byte{1, 1, 1, 1}})
			syscall.Close(fd)
		}
		if err == nil {
			reply("connected")
		} else {
			reply("blocked " + err.Error())
		}
		for in.Scan() {
			reply("ok")
		}
	}
}

const pyHeader = `import os, sys, socket, subprocess, signal
def reply(s):
    sys.stdout.write("= " + s + "\n\n")
    sys.stdout.flush()
sys.stdin.readline()
`

func python(t *testing.T) string {
	for _, p := range []string{"/usr/bin/python3", "/usr/local/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no python3 in /usr/bin or /usr/local/bin (a shim like pyenv's would start more processes)")
	return ""
}

type hostileCase struct {
	name   string
	mode   string // Go bot mode, or "" for py
	py     string // Python body after pyHeader
	limits drivers.Limits
	clock  drivers.Clock
	// needs are the limits whose enforcement the case relies on; counted
	// are those whose cgroup counters it relies on.
	needs, counted []string
	// asks is how many commands to send at most (default 1); big sends a
	// 1 MiB command.
	asks  int
	pause time.Duration // between asks
	big   bool
	// want is the fault kinds accepted, "" for no fault; check looks at
	// the session after the bot ended.
	want  []string
	check func(t *testing.T, s *Session, answers []string)
	// setup changes the bot's spec before it starts.
	setup func(t *testing.T, spec *Spec)
	// within is how soon the verdict must come, from the first ask: far
	// less than the clock, for a bot over a limit that never answers.
	within time.Duration
}

func no(b bool) *bool { return &b }

const (
	mib = int64(1 << 20)
	sec = drivers.Duration(time.Second)
)

func hostileCases() []hostileCase {
	move := drivers.Clock{Move: 2 * sec}
	short := drivers.Clock{Move: drivers.Duration(300 * time.Millisecond)}
	netOff := drivers.Limits{Network: no(false)}
	noNet := func(t *testing.T, s *Session, answers []string) {
		for _, a := range answers {
			if strings.HasPrefix(a, "connected") || strings.HasPrefix(a, "resolved") || strings.HasPrefix(a, "sent") {
				t.Errorf("the bot reached the network: %q", a)
			}
		}
	}
	return []hostileCase{
		// A bot over its process, memory or CPU limit that never answers
		// gets its verdict at once (the cgroup's counters are watched
		// while it is waited on), not when its clock of 20 s runs out.
		{name: "fork bomb", py: "while True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
			limits: drivers.Limits{Processes: 16}, clock: drivers.Clock{Total: 20 * sec}, counted: []string{drivers.LimitProcesses},
			want: []string{drivers.FaultProcesses}, within: 5 * time.Second},
		{name: "memory hog in a child, the bot waiting for it", py: `pid = os.fork()
if pid == 0:
    a = []
    while True:
        a.append(bytearray(8 << 20))
os.waitpid(pid, 0)
signal.pause()
`, limits: drivers.Limits{Memory: 100 * mib}, clock: drivers.Clock{Total: 20 * sec}, counted: []string{drivers.LimitMemory},
			want: []string{drivers.FaultMemory}, within: 5 * time.Second},
		// Whatever enforces the process limit contains a fork bomb; without
		// a cgroup to count refused forks, its verdict is its clock.
		{name: "fork bomb, any enforcement", py: "while True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
			limits: drivers.Limits{Processes: 16}, clock: move, needs: []string{drivers.LimitProcesses},
			want: []string{drivers.FaultProcesses, drivers.FaultTime}},
		// A bot that dies of a thread refused at its process limit gets
		// the processes verdict whatever enforces the limit: counted by a
		// pids cgroup, or under RLIMIT_NPROC (not root, no cgroup) read
		// from what its runtime says as it dies, as root's would be.
		{name: "threads past the process limit, dying of it", py: `import threading, time
for i in range(32):
    threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
`, limits: drivers.Limits{Processes: 8}, clock: drivers.Clock{Total: 20 * sec}, needs: []string{drivers.LimitProcesses},
			want: []string{drivers.FaultProcesses}},
		// CPU time comes slower than wall time on a busy machine: a
		// longer clock, to tell its limit from its clock.
		{name: "CPU burner past its limit without answering", mode: "spin",
			limits: drivers.Limits{CPU: "1s"}, clock: drivers.Clock{Total: 60 * sec}, needs: []string{drivers.LimitCPU},
			want: []string{drivers.FaultTime}, within: 30 * time.Second},
		{name: "memory hog in Python", py: "a = []\nwhile True:\n    a.append(bytearray(8 << 20))\n",
			limits: drivers.Limits{Memory: 100 * mib}, clock: drivers.Clock{Move: 20 * sec}, needs: []string{drivers.LimitMemory},
			want: []string{drivers.FaultMemory}},
		{name: "memory hog in Go", mode: "gohog",
			limits: drivers.Limits{Memory: 100 * mib}, clock: drivers.Clock{Move: 20 * sec}, needs: []string{drivers.LimitMemory},
			want: goHogVerdicts()},
		{name: "normal Go bot under the memory limit", mode: "gonormal", asks: 3,
			limits: drivers.Limits{Memory: 100 * mib, Processes: 64, Network: no(false), Files: 10e6, CPU: "match"},
			clock:  drivers.Clock{Total: 10 * sec}, want: []string{""}},
		{name: "infinite loop within a move", mode: "spin", clock: short,
			limits: drivers.Limits{Memory: 100 * mib}, want: []string{drivers.FaultTime}},
		{name: "infinite loop across a game", mode: "cpuburn", asks: 600, pause: 50 * time.Millisecond,
			limits: drivers.Limits{CPU: "1s"}, clock: move, needs: []string{drivers.LimitCPU},
			want: []string{drivers.FaultTime}},
		{name: "sleeping past the limit", mode: "sleeper", clock: short, limits: netOff, want: []string{drivers.FaultTime}},
		{name: "stdout flood without newlines", mode: "flood", clock: move, limits: netOff, want: []string{drivers.FaultOutput}},
		// Reading 1 MiB of short lines takes seconds under -race on a busy
		// machine: a clock that does not race the output cap.
		{name: "stdout flood with newlines", mode: "floodlines", clock: drivers.Clock{Move: 20 * sec}, limits: netOff, want: []string{drivers.FaultOutput}},
		{name: "stderr flood", mode: "stderrflood", clock: drivers.Clock{Move: 20 * sec}, asks: 2, limits: netOff, want: []string{""},
			check: func(t *testing.T, s *Session, _ []string) {
				if st, err := os.Stat(s.spec.Stderr); err != nil || st.Size() > 17<<20 {
					t.Errorf("stderr file: %v, size over the 16 MiB cap", err)
				}
			}},
		{name: "a partial line then silence", mode: "partial", clock: short, limits: netOff, want: []string{drivers.FaultTime}},
		// The session passes any bytes through as a line; that they are no
		// response is the game's framing to judge (drivers/gtp's TestAsk).
		// The move clock, not the short one: this case is not about time,
		// and a bot that answers in full is timed (a loaded machine took 333 ms).
		{name: "binary and invalid UTF-8", mode: "binary", clock: move, limits: netOff, want: []string{""},
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 || answers[0] != "\xff\xfe\x00\x01 \xc3\x28" {
					t.Errorf("answers %q, want the bytes as written", answers)
				}
			}},
		{name: "ignoring SIGTERM", mode: "ignoreterm", asks: 2, clock: move, limits: netOff, want: []string{""}},
		{name: "grandchild", mode: "grandchild", asks: 2, clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "setsid grandchild", mode: "setsid", asks: 2, clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "double fork", mode: "doublefork", asks: 2, clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "grandchild without environment", mode: "noenv", asks: 2, clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "grandchild holding stdout open", mode: "holdstdout", clock: move, limits: netOff,
			want: []string{drivers.FaultCrash, drivers.FaultTime}},
		{name: "closing stdin", mode: "closestdin", clock: move, big: true, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "closing stdout", mode: "closestdout", clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		{name: "reading no input", mode: "noread", clock: short, big: true, limits: netOff, want: []string{drivers.FaultTime}},
		{name: "exiting at once", mode: "exit", clock: move, limits: netOff, want: []string{drivers.FaultCrash}},
		// A bot that is PID 1 of its namespace cannot stop itself: it goes
		// on. Without a PID namespace it stops and runs out of time.
		{name: "stopping itself", mode: "sigstop", asks: 2, clock: short, limits: netOff, want: []string{"", drivers.FaultTime}},
		{name: "TCP connect in Go", mode: "godial", clock: move, limits: netOff, needs: []string{drivers.LimitNetwork},
			want: []string{""}, check: noNet},
		{name: "TCP connect in Python", py: `try:
    socket.create_connection(("1.1.1.1", 53), timeout=2)
    reply("connected")
except OSError as e:
    reply("blocked " + str(e))
sys.stdin.readline()
`, clock: move, limits: netOff, needs: []string{drivers.LimitNetwork}, want: []string{""}, check: noNet},
		{name: "UDP send", py: `try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x", ("1.1.1.1", 53))
    reply("sent")
except OSError as e:
    reply("blocked " + str(e))
sys.stdin.readline()
`, clock: move, limits: netOff, needs: []string{drivers.LimitNetwork}, want: []string{""}, check: noNet},
		{name: "DNS lookup", py: `try:
    socket.getaddrinfo("example.com", 80)
    reply("resolved")
except OSError as e:
    reply("blocked " + str(e))
sys.stdin.readline()
`, clock: move, limits: netOff, needs: []string{drivers.LimitNetwork}, want: []string{""}, check: noNet},
		{name: "running /bin/sh", py: `subprocess.run(["/bin/sh", "-c", "echo hi"], stdout=subprocess.DEVNULL)
reply("ran")
sys.stdin.readline()
`, limits: drivers.Limits{Processes: 1}, clock: move, needs: []string{drivers.LimitProcesses},
			want: []string{drivers.FaultProcesses, drivers.FaultCrash}},
		{name: "writing outside its folder", py: `import tempfile
out = []
for p in [os.path.join(os.getcwd(), "escape.txt"), "/tmp/arbiter-escape-" + os.environ["ARBITER_TOKEN"]]:
    try:
        open(p, "w").write("x")
        out.append("wrote " + p)
    except OSError as e:
        out.append("denied")
with open(os.path.join(os.environ["ARBITER_FILES"], "mine.txt"), "w") as f:
    f.write("mine")
tempfile.TemporaryFile().close()
reply(" ".join(out))
sys.stdin.readline()
`, limits: drivers.Limits{Files: 10e6}, clock: move, needs: []string{drivers.LimitFiles}, want: []string{""},
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 || strings.Contains(answers[0], "wrote") {
					t.Errorf("answers %q: the bot wrote outside its folder", answers)
				}
				if _, err := os.Stat(filepath.Join(s.spec.Dir, "escape.txt")); err == nil {
					t.Errorf("escape.txt exists in the bot's directory")
				}
				os.Remove("/tmp/arbiter-escape-" + s.Token())
			}},
		{name: "more bytes than allowed", py: `try:
    with open(os.path.join(os.environ["ARBITER_FILES"], "big"), "wb") as f:
        for i in range(50):
            f.write(b"x" * 100000)
except OSError:
    pass
reply("done")
sys.stdin.readline()
`, limits: drivers.Limits{Files: 1e6}, clock: move, needs: []string{drivers.LimitFiles}, want: []string{drivers.FaultFiles}},
		{name: "more files than allowed", py: `for i in range(20):
    try:
        open(os.path.join(os.environ["ARBITER_FILES"], "f%d" % i), "w").close()
    except OSError:
        pass
reply("done")
sys.stdin.readline()
`, limits: drivers.Limits{Files: 10e6, FileCount: 10}, clock: move, needs: []string{drivers.LimitFiles}, want: []string{drivers.FaultFiles}},
	}
}

// goHogVerdicts are the verdicts a Go memory hog may get. Under
// RLIMIT_DATA (no memory cgroup) the Go runtime sometimes dies of a
// SIGSEGV in its garbage collector instead of saying "out of memory", and
// then nothing tells that death from a crash.
func goHogVerdicts() []string {
	if strings.HasPrefix(Machine().Enforcement(drivers.LimitMemory).How, "RLIMIT_DATA") {
		return []string{drivers.FaultMemory, drivers.FaultCrash}
	}
	return []string{drivers.FaultMemory}
}

func TestHostile(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) { runHostile(t, tc) })
	}
}

// runHostile runs one hostile case: the bot gets its commands, then its
// verdict (within tc.within of the first ask, when set) and what it
// answered are checked, and that nothing of it is left: no process, no
// grandchild, no cgroup, no private folder.
func runHostile(t *testing.T, tc hostileCase) {
	p := Machine()
	for _, n := range tc.needs {
		if e := p.Enforcement(n); !e.Enforced {
			t.Skipf("%s is not enforced here: %s", n, e.How)
		}
	}
	for _, n := range tc.counted {
		if !countedByCgroup(p, n) {
			t.Skipf("%s is not counted by a cgroup here (%s): a bot over it that never answers gets its verdict when its clock runs out", n, p.Enforcement(n).How)
		}
	}
	spec := botSpec(t, tc.mode, tc.clock)
	if tc.py != "" {
		script := filepath.Join(t.TempDir(), "bot.py")
		if err := os.WriteFile(script, []byte(pyHeader+tc.py), 0o644); err != nil {
			t.Fatal(err)
		}
		spec.Argv = []string{python(t), script}
		spec.Env = nil
	}
	spec.Limits = tc.limits
	if tc.setup != nil {
		tc.setup(t, &spec)
	}
	s := start(t, spec)
	cgDirs := s.box.cg.dirs()
	answers, took, err := askHostile(s, tc)
	got := ""
	if err != nil {
		got = faultKind(err)
	}
	t.Logf("verdict %q after %v: %v (%d answers %q)", got, took.Round(time.Millisecond), err, len(answers), answers)
	if tc.within > 0 && took >= tc.within {
		t.Errorf("the verdict took %v, want less than %v (its clock is %v)", took.Round(time.Millisecond), tc.within, time.Duration(tc.clock.Total))
	}
	if !contains(tc.want, got) {
		t.Errorf("verdict %q (%v), want one of %q; its stderr ends:\n%s", got, err, tc.want, fileTail(spec.Stderr, 2048))
	}
	if tc.check != nil {
		tc.check(t, s, answers)
	}
	assertGone(t, s)
	assertNoMarked(t, s.Token())
	for _, d := range cgDirs {
		// Removed, or idle to be lent again: then it holds no process.
		if b, err := os.ReadFile(filepath.Join(d, "cgroup.procs")); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			t.Errorf("cgroup %s still holds processes %s", d, b)
		}
	}
	if f := s.Folder(); f != "" {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("private folder %s was not removed", f)
		}
	}
}

// askHostile sends the case's commands until a fault, then ends the bot;
// took is the time from the first ask to the verdict (or the last answer).
func askHostile(s *Session, tc hostileCase) (answers []string, took time.Duration, err error) {
	asks := max(tc.asks, 1)
	cmd := "gen_move"
	if tc.big {
		cmd = strings.Repeat("x", 1<<20)
	}
	begin := time.Now()
	for i := 0; i < asks && err == nil; i++ {
		var text string
		text, err = ask(s, cmd)
		if err == nil {
			answers = append(answers, text)
			time.Sleep(tc.pause)
		}
	}
	took = time.Since(begin)
	if err == nil {
		s.Close("quit")
	} else {
		s.Kill()
	}
	return answers, took, err
}

// countedByCgroup reports whether a cgroup counts the bot's going over
// limit (memory or processes) here: only then can a bot that never
// answers get its verdict before its clock runs out.
func countedByCgroup(p *Probe, limit string) bool {
	c := map[string]string{drivers.LimitMemory: "memory", drivers.LimitProcesses: "pids"}[limit]
	return c != "" && (p.CgroupV2 != "" || p.CgroupV1[c] != "")
}

// assertNoMarked checks that no hostile grandchild of the session is left,
// even one without environment (they carry the token in their arguments).
func assertNoMarked(t *testing.T, token string) {
	t.Helper()
	needle := "hostile-linger\x00" + token
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []int
		for _, pid := range proctest.WithCmdline(needle) {
			if _, state, ok := proctest.Stat(pid); ok && state != 'Z' {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("grandchildren %v of the bot outlived it", left)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHostileAsNobody runs the hostile suite again as an unprivileged
// user, in a copy of this test binary: the limits available to that user
// must hold and the others must be reported, never silently ignored.
func TestHostileAsNobody(t *testing.T) {
	if os.Getenv("HOSTILE_AS_NOBODY") != "" {
		t.Skip("already running as the unprivileged user")
	}
	if os.Getuid() != 0 {
		t.Skip("not root: cannot switch to another user (the suite itself already ran as this unprivileged user)")
	}
	cmd, dir := asNobody(t, "^(TestHostile|TestHostileSandbox|TestHostileSandboxPair|TestProbeReport|TestSpawned|TestHostileThroughShim)$", "HOSTILE_AS_NOBODY=1")
	if raceBuild { // the bots are not this binary: see botBinary
		bots := filepath.Join(dir, "bots.test")
		if err := copyFile(botBinary(t), bots); err != nil {
			t.Fatal(err)
		}
		cmd.Env = append(cmd.Env, "PROC_TEST_BOTBIN="+bots)
	}
	out, err := cmd.CombinedOutput()
	t.Logf("as uid 65534:\n%s", out)
	if err != nil {
		t.Fatalf("the hostile suite failed as uid 65534: %v", err)
	}
}

// asNobody is proctest.AsNobody: a copy of this test binary running the
// tests run matches as uid 65534.
func asNobody(t *testing.T, run string, env ...string) (cmd *exec.Cmd, dir string) {
	return proctest.AsNobody(t, run, env...)
}

// copyFile copies an executable.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}

// BenchmarkStartPlain starts a bot, has it answer once and ends it;
// BenchmarkStartLimited does the same under every limit (shim, cgroups,
// namespaces, Landlock, seccomp): the difference is the cost of the
// sandbox per bot start.
func BenchmarkStartPlain(b *testing.B) { benchStart(b, drivers.Limits{}) }

func BenchmarkStartLimited(b *testing.B) {
	benchStart(b, drivers.Limits{Memory: 400 << 20, CPU: "match", Processes: 16, Network: no(false), Files: 10e6, FileCount: 10})
}

// BenchmarkStartSandbox does the same in the default sandbox (a bot
// without a limits block): its own root, uid and namespaces besides the
// default limits.
func BenchmarkStartSandbox(b *testing.B) {
	if !Machine().Sandbox {
		b.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
	}
	benchStart(b, defaultLimits())
}

// BenchmarkStartOwnImage and BenchmarkStartOwnImageSandbox start the
// bot as arbiter starts its house bots, from its own image (OwnImage)
// rather than by its path: beside BenchmarkStartPlain and
// BenchmarkStartSandbox, what that costs.
func BenchmarkStartOwnImage(b *testing.B) { benchStartOwn(b, drivers.Limits{}) }

func BenchmarkStartOwnImageSandbox(b *testing.B) {
	if !Machine().Sandbox {
		b.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
	}
	benchStartOwn(b, defaultLimits())
}

// benchStartOwn is benchStart with the bot named by a path recorded as
// this executable's (OwnExecutable), which then need not exist.
func benchStartOwn(b *testing.B, lim drivers.Limits) {
	if raceBuild {
		b.Skip("the bots are not this binary under -race (botBinary)")
	}
	path := filepath.Join(b.TempDir(), "arbiter")
	OwnExecutable(path)
	benchStartArgv(b, lim, []string{path})
}

func benchStart(b *testing.B, lim drivers.Limits) { benchStartArgv(b, lim, nil) }

// benchStartArgv is benchStart of the bot started by argv (nil: the
// bots' binary by its path).
func benchStartArgv(b *testing.B, lim drivers.Limits, argv []string) {
	spec := botSpec(b, "echo", drivers.Clock{Total: drivers.Duration(time.Minute)})
	spec.Limits = lim
	if argv != nil {
		spec.Argv = argv
	}
	spec.Stderr = ""
	Machine()
	// CPU time is reported beside the wall time: on a loaded machine it
	// tells the sandbox's cost apart from the wait for a CPU. The kernel's
	// work of clone and unshare counts as arbiter's (self); a namespace's
	// teardown in the kernel's workers counts nowhere.
	cpu := proctest.StartCPU()
	for b.Loop() {
		s := start(b, spec)
		if _, err := ask(s, "play 1 AS"); err != nil {
			b.Fatal(err)
		}
		s.Close("quit")
	}
	proctest.ReportCPU(b, cpu)
}
