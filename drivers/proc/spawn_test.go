package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// netnsBot answers its network namespace and, asked "leave NAME", binds
// the abstract Unix socket NAME and leaves it alive after its own end (a
// socket sent over a pair that is sent over itself: only the kernel's
// garbage collector frees it); asked "bind NAME", whether it could bind
// NAME itself.
const netnsBot = `import array
def answer(cmd):
    ns = os.readlink("/proc/self/ns/net")
    word, name = cmd.split()
    if word == "leave":
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        l.bind("\0" + name)
        l.listen(1)
        fds = array.array("i", [l.fileno(), a.fileno(), b.fileno()])
        a.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        b.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        reply(ns + " left")
        return
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind("\0" + name)
        reply(ns + " bound")
    except OSError as e:
        reply(ns + " in-use")
while True:
    line = sys.stdin.readline()
    if not line:
        break
    answer(line.strip())
`

// startNetnsBot starts netnsBot in the default sandbox.
func startNetnsBot(t *testing.T) *Session {
	t.Helper()
	spec := botSpec(t, "", drivers.Clock{Move: 5 * sec})
	script := filepath.Join(spec.Dir, "bot.py")
	if err := os.WriteFile(script, []byte(strings.Replace(pyHeader, "sys.stdin.readline()\n", "", 1)+netnsBot), 0o644); err != nil {
		t.Fatal(err)
	}
	readable(t, spec.Dir)
	spec.Argv = []string{python(t), script}
	spec.Env = nil
	spec.Limits = defaultLimits()
	return start(t, spec)
}

// TestNetNSLentOneAtATime: as root, bots are lent network namespaces
// rather than given new ones; two bots that run at once never share
// one, and what a bot left bound in its namespace is not there for the
// next one.
func TestNetNSLentOneAtATime(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 {
		t.Skip("needs the sandbox as root (a bot in a user namespace of its own gets a new network namespace)")
	}
	own, _ := os.Readlink("/proc/self/ns/net")
	name := fmt.Sprintf("arbiter-netns-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	ask2 := func(s *Session, cmd string) (ns, what string) {
		t.Helper()
		text, err := ask(s, cmd)
		if err != nil {
			t.Fatalf("%s: %v; stderr: %s", cmd, err, fileTail(s.spec.Stderr, 1024))
		}
		ns, what, _ = strings.Cut(text, " ")
		if ns == own {
			t.Fatalf("the bot is in arbiter's network namespace %s", ns)
		}
		return ns, what
	}
	a := startNetnsBot(t)
	nsA, what := ask2(a, "leave "+name)
	if what != "left" {
		t.Fatalf("the first bot answered %q", what)
	}
	a.Close("quit")
	b := startNetnsBot(t)
	nsB, what := ask2(b, "bind "+name)
	if what != "bound" {
		t.Errorf("the next bot found %s bound by the previous one (namespaces %s, %s)", name, nsA, nsB)
	}
	// Two at once: never the same namespace.
	c := startNetnsBot(t)
	nsC, _ := ask2(c, "bind other-"+name)
	if nsB == nsC {
		t.Errorf("two bots running at once share the network namespace %s", nsB)
	}
	b.Close("quit")
	c.Close("quit")
	// Lent again: the namespace of one of the two that ended (other tests
	// of the package do not run in parallel with this one).
	d := startNetnsBot(t)
	nsD, _ := ask2(d, "bind third-"+name)
	d.Close("quit")
	if nsD != nsB && nsD != nsC {
		t.Errorf("a new network namespace %s for each bot, want one of the idle %s, %s back", nsD, nsB, nsC)
	}
}

// TestSpawned: a confined bot is spawned, not started through the shim
// (unless ARBITER_SPAWN=shim says so); TestHostileAsNobody runs it as
// uid 65534 too, where the spawn makes a user namespace.
func TestSpawned(t *testing.T) {
	if !Machine().Sandbox || !spawnArch || !mountSetattrWorks() {
		t.Skip("needs the sandbox, amd64 or arm64, and mount_setattr")
	}
	for _, shimmed := range []bool{false, true} {
		if shimmed {
			t.Setenv(spawnEnv, "shim")
		}
		cmd := exec.Command(botBinary(t))
		b, err := Prepare(cmd, defaultLimits(), drivers.Clock{Move: 5 * sec})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.spawn != nil; got == shimmed {
			t.Errorf("ARBITER_SPAWN=shim %v: spawned %v", shimmed, got)
		}
		b.Close()
	}
}

// TestHostileThroughShim runs the sandbox's hostile suite and the
// identity check through the shim (ARBITER_SPAWN=shim), the path of older
// kernels and other architectures: bots are otherwise spawned.
// TestHostileAsNobody runs it as uid 65534 too.
func TestHostileThroughShim(t *testing.T) {
	if os.Getenv(spawnEnv) != "" {
		t.Skip("already running through the shim")
	}
	if !Machine().Sandbox || !spawnArch || !mountSetattrWorks() {
		t.Skip("needs the sandbox, amd64 or arm64, and mount_setattr (elsewhere every start goes through the shim)")
	}
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run", "^(TestHostileSandbox|TestHostileSandboxPair|TestSandboxIdentity|TestSandboxStartFault|TestStartFaultNamesMissingInterpreter|TestStartFaultInterpreterNotInSandbox|TestOwnExecutableRunsItsImage)$", "-test.count=1")
	cmd.Env = append(os.Environ(), spawnEnv+"=shim")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("through the shim: %v\n%s", err, out)
	}
}

// TestSpawnKeepsOpenFilesLimit: a spawned bot gets the soft limit of open
// files arbiter was started with, as os/exec gives it, not the one Go
// raised for itself.
func TestSpawnKeepsOpenFilesLimit(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 || !spawnArch {
		t.Skip("needs the sandbox as root on amd64 or arm64")
	}
	if os.Getenv("SPAWN_NOFILE_CHILD") == "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Max < 2048 {
			t.Skipf("hard limit of open files %d: too low to tell", lim.Max)
		}
		// The test binary again, started by a shell that lowers the soft
		// limit to 1000 (this process keeps a higher one): its Go raises
		// it, its bot must see 1000.
		low := lim
		low.Cur = 1500
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
			t.Fatal(err)
		}
		exe, _ := os.Executable()
		cmd := exec.Command("/bin/sh", "-c", `ulimit -Sn 1000 && exec "$0" "$@"`, exe, "-test.run", "^TestSpawnKeepsOpenFilesLimit$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "SPAWN_NOFILE_CHILD=1")
		out, err := cmd.CombinedOutput()
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	spec := botSpec(t, "", drivers.Clock{Move: 5 * sec})
	script := filepath.Join(spec.Dir, "bot.py")
	os.WriteFile(script, []byte(pyHeader+"import resource\nreply(str(resource.getrlimit(resource.RLIMIT_NOFILE)[0]))\nsys.stdin.readline()\n"), 0o644)
	readable(t, spec.Dir)
	spec.Argv, spec.Env, spec.Limits = []string{python(t), script}, nil, defaultLimits()
	s := start(t, spec)
	defer s.Close("quit")
	got, err := ask(s, "limit")
	if err != nil || got != "1000" {
		t.Errorf("the bot's soft limit of open files: %q (%v), want 1000", got, err)
	}
}

// TestBotsGetNoRealtimePriority: a confined bot, spawned or started
// through the shim, in the sandbox or not, has RLIMIT_RTPRIO and
// RLIMIT_NICE 0 whatever arbiter has: where the organiser may raise its
// priority (rtprio in limits.conf), a bot could otherwise take
// SCHED_FIFO and starve the others. Every confined bot's and build's
// rlimits set them (spawned and shim alike start from those); then the
// test raises its own limits (which needs CAP_SYS_RESOURCE, or hard
// limits above 0) for bots to inherit and read their own.
func TestBotsGetNoRealtimePriority(t *testing.T) {
	for _, build := range []bool{false, true} {
		for _, lim := range []drivers.Limits{defaultLimits(), {CPU: "10s"}} {
			cmd := exec.Command(botBinary(t))
			cmd.Dir = t.TempDir()
			readable(t, cmd.Dir)
			prepare := Prepare
			if build {
				prepare = func(cmd *exec.Cmd, lim drivers.Limits, clock drivers.Clock) (*Box, error) {
					return PrepareBuild(cmd, lim, clock, "")
				}
			}
			b, err := prepare(cmd, lim, drivers.Clock{Move: 5 * sec})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(b.cfg.Rlimits, rlimit{Resource: unix.RLIMIT_RTPRIO}) || !slices.Contains(b.cfg.Rlimits, rlimit{Resource: unix.RLIMIT_NICE}) {
				t.Errorf("build %v, sandbox %v: rlimits %+v, want RLIMIT_RTPRIO (%d) and RLIMIT_NICE (%d) at 0",
					build, lim.Sandbox != nil, b.cfg.Rlimits, unix.RLIMIT_RTPRIO, unix.RLIMIT_NICE)
			}
			b.Close()
		}
	}
	for _, res := range []int{unix.RLIMIT_RTPRIO, unix.RLIMIT_NICE} {
		var was unix.Rlimit
		if err := unix.Getrlimit(res, &was); err != nil {
			t.Fatal(err)
		}
		raised := unix.Rlimit{Cur: max(was.Max, 10), Max: max(was.Max, 10)}
		if err := unix.Setrlimit(res, &raised); err != nil {
			t.Skipf("cannot raise rlimit %d to %d: %v", res, raised.Max, err)
		}
		t.Cleanup(func() { unix.Setrlimit(res, &was) })
	}
	script := pyHeader + "import resource\n" +
		"reply(\"rtprio %s nice %s\" % (resource.getrlimit(resource.RLIMIT_RTPRIO), resource.getrlimit(resource.RLIMIT_NICE)))\n" +
		"sys.stdin.readline()\n"
	for _, shimmed := range []bool{false, true} {
		for _, lim := range []drivers.Limits{defaultLimits(), {CPU: "10s"}} {
			t.Run(fmt.Sprintf("shim %v, sandbox %v", shimmed, lim.Sandbox != nil), func(t *testing.T) {
				if shimmed {
					t.Setenv(spawnEnv, "shim")
				}
				spec := botSpec(t, "", drivers.Clock{Move: 5 * sec})
				os.WriteFile(filepath.Join(spec.Dir, "bot.py"), []byte(script), 0o644)
				readable(t, spec.Dir)
				spec.Argv, spec.Env, spec.Limits = []string{python(t), filepath.Join(spec.Dir, "bot.py")}, nil, lim
				s := start(t, spec)
				defer s.Close("quit")
				if got, err := ask(s, "limits"); err != nil || got != "rtprio (0, 0) nice (0, 0)" {
					t.Errorf("the bot's limits: %q (%v), want rtprio (0, 0) nice (0, 0)", got, err)
				}
			})
		}
	}
}

// TestCgroupLentWithFreshCounters: a sandboxed bot's cgroup is lent
// again once it ended, and the next bot is not charged with what the
// previous one did in it (a fork refused at the process limit).
func TestCgroupLentWithFreshCounters(t *testing.T) {
	p := Machine()
	if !p.Sandbox || !countedByCgroup(p, drivers.LimitProcesses) {
		t.Skip("needs the sandbox and a pids cgroup")
	}
	lim := defaultLimits()
	lim.Processes = 8
	spec := botSpec(t, "", drivers.Clock{Move: 5 * sec})
	script := filepath.Join(spec.Dir, "bot.py")
	// Forks until one is refused, its children asleep; then answers.
	os.WriteFile(script, []byte(pyHeader+`import time
while True:
    try:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
    except OSError:
        reply("refused")
        break
sys.stdin.readline()
`), 0o644)
	readable(t, spec.Dir)
	spec.Argv, spec.Env, spec.Limits = []string{python(t), script}, nil, lim
	a := start(t, spec)
	dirs := a.box.cg.dirs()
	if _, err := ask(a, "go"); faultKind(err) != drivers.FaultProcesses {
		t.Fatalf("the fork bomb: %v, want a processes fault", err)
	}
	a.Kill()
	b := botSpec(t, "echo", drivers.Clock{Move: 5 * sec})
	readable(t, b.Dir)
	b.Limits = lim
	s := start(t, b)
	defer s.Close("quit")
	if got := s.box.cg.dirs(); strings.Join(got, " ") != strings.Join(dirs, " ") {
		t.Errorf("the next bot's cgroup %q, want the idle %q lent again", got, dirs)
	}
	if _, err := ask(s, "play 1 AS"); err != nil {
		t.Fatalf("the next bot: %v", err)
	}
	if f := s.box.check(); f != nil {
		t.Errorf("the next bot is charged with the previous one's forks: %v", f)
	}
}

// TestSpawnedCommandRefusesPlainStart: a command Prepare set up to be
// spawned does not start, unconfined, through cmd.Start.
func TestSpawnedCommandRefusesPlainStart(t *testing.T) {
	if !Machine().Sandbox || !spawnArch || !mountSetattrWorks() {
		t.Skip("needs the sandbox, amd64 or arm64, and mount_setattr")
	}
	cmd := exec.Command(botBinary(t))
	cmd.Dir = t.TempDir()
	readable(t, cmd.Dir)
	b, err := PrepareBuild(cmd, defaultLimits(), drivers.Clock{Move: 5 * sec}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := cmd.Start(); err == nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("cmd.Start started a command prepared to be spawned, outside its confinement")
	}
}

// TestNetNSLentOnlyWithoutSockets: only a sandboxed bot without internet
// sockets is lent a network namespace; a bot that may open sockets (its
// traffic counts in the namespace's statistics) or runs outside the
// sandbox (as root it could write the namespace's sysctls) gets a new one.
func TestNetNSLentOnlyWithoutSockets(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 || !Machine().Seccomp {
		t.Skip("needs the sandbox and seccomp, as root")
	}
	network := defaultLimits()
	network.Network = no(true)
	outside := drivers.UnstatedLimits()
	for _, c := range []struct {
		name string
		lim  drivers.Limits
		lent bool
	}{{"default sandbox", defaultLimits(), true}, {"network allowed", network, false}, {"outside the sandbox", outside, false}} {
		cmd := exec.Command(botBinary(t))
		b, err := Prepare(cmd, c.lim, drivers.Clock{Move: 5 * sec})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.netns != nil && b.netnsLent; got != c.lent {
			t.Errorf("%s: lent a network namespace %v, want %v", c.name, got, c.lent)
		}
		given := b.netns
		b.Close()
		// A namespace that was not lent (a new one) is never lent after.
		netnsPool.Lock()
		for _, n := range netnsPool.idle {
			if n == given && !c.lent {
				t.Errorf("%s: its new network namespace went into the pool", c.name)
			}
		}
		netnsPool.Unlock()
	}
}
