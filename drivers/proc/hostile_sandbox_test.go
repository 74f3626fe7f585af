package proc

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// The hostile suite in the default sandbox: the limits a bot without a
// limits block gets (drivers.UnstatedLimits and the sandbox), bots that
// try to harm, read or outlive what lies outside their sandbox. TestMain
// also runs it as uid 65534 (TestHostileAsNobody), where the sandbox is
// built in a user namespace.

// defaultLimits are a bot's limits without a limits block.
func defaultLimits() drivers.Limits {
	l := drivers.UnstatedLimits()
	l.Sandbox = &drivers.Sandbox{}
	return l
}

// readable makes a test's folder one a sandboxed bot's uid may enter, as
// a contest's bot folders are.
func readable(t *testing.T, dir string) {
	t.Helper()
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// sentinel starts a process of the uid sandboxed bots run as, outside any
// sandbox, for a bot to try to kill.
func sentinel(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("/bin/sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if os.Getuid() == 0 {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: SandboxUID, Gid: SandboxUID}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func answerIs(want string) func(t *testing.T, s *Session, answers []string) {
	return func(t *testing.T, s *Session, answers []string) {
		if len(answers) == 0 || answers[0] != want {
			t.Errorf("answers %q, want %q first", answers, want)
		}
	}
}

func sandboxCases() []hostileCase {
	var kept *exec.Cmd
	var other, results string
	return []hostileCase{
		{name: "kill(-1)", py: `try:
    os.kill(-1, signal.SIGKILL)
    reply("killed")
except OSError as e:
    reply("nothing to kill")
sys.stdin.readline()
`, want: []string{""}, setup: func(t *testing.T, spec *Spec) { kept = sentinel(t) },
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 {
					t.Errorf("answers %q", answers)
				}
				if err := kept.Process.Signal(syscall.Signal(0)); err != nil {
					t.Errorf("a process of uid %d outside the sandbox died: %v", SandboxUID, err)
				}
				if _, state, ok := procStat(kept.Process.Pid); !ok || state == 'Z' {
					t.Errorf("the sentinel outside the sandbox was killed (state %q)", state)
				}
			}},
		{name: "reading another match's transcript", py: `out = []
for p in [os.environ["RESULTS"] + "/matches/m1/events.jsonl", "/proc/1/cmdline"]:
    try:
        out.append(open(p).read()[:40].replace("\0", " "))
    except OSError as e:
        out.append("denied")
reply("|".join(out))
sys.stdin.readline()
`, setup: func(t *testing.T, spec *Spec) {
			// The worst case: the results directory inside the bot's own dir.
			results = filepath.Join(spec.Dir, "results")
			m := filepath.Join(results, "matches", "m1")
			os.MkdirAll(m, 0o755)
			os.WriteFile(filepath.Join(m, "events.jsonl"), []byte("SECRET hands of the other match\n"), 0o644)
			Conceal(results)
			spec.Env = append(spec.Env, "RESULTS="+results)
		}, want: []string{""},
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 || strings.Contains(answers[0], "SECRET") || !strings.Contains(answers[0], "python3") {
					t.Errorf("answers %q: the bot read outside its sandbox", answers)
				}
			}},
		{name: "chmod chown utime of another bot's files", py: `out = []
for p in [os.environ["OTHER"], os.path.join(os.getcwd(), "mine.txt")]:
    for what, f in [("chmod", lambda: os.chmod(p, 0)), ("chown", lambda: os.chown(p, 0, 0)), ("utime", lambda: os.utime(p, (0, 0))), ("unlink", lambda: os.unlink(p))]:
        try:
            f()
            out.append(what + " done")
        except OSError as e:
            out.append(what + " failed")
reply(" ".join(out))
sys.stdin.readline()
`, setup: func(t *testing.T, spec *Spec) {
			dir := t.TempDir()
			other = filepath.Join(dir, "bot.py")
			os.WriteFile(other, []byte("print('other bot')\n"), 0o644)
			os.WriteFile(filepath.Join(spec.Dir, "mine.txt"), []byte("mine\n"), 0o644)
			spec.Env = append(spec.Env, "OTHER="+other)
		}, want: []string{""},
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 || strings.Contains(answers[0], "done") {
					t.Errorf("answers %q: the bot changed files outside its folder", answers)
				}
				for _, p := range []string{other, filepath.Join(s.spec.Dir, "mine.txt")} {
					fi, err := os.Stat(p)
					if err != nil || fi.Mode().Perm() != 0o644 || time.Since(fi.ModTime()) > time.Minute {
						t.Errorf("%s: %v, mode %v, modified %v", p, err, fi.Mode(), fi.ModTime())
					}
				}
			}},
		{name: "shared memory left behind", py: `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
key = int(os.environ["ARBITER_TOKEN"][:7], 16)
sysv = libc.shmget(key, 64 << 20, 0o1000 | 0o666)
with open("/dev/shm/arbiter-hostile-" + os.environ["ARBITER_TOKEN"], "wb") as f:
    f.write(b"x" * (1 << 20))
reply("sysv %d posix ok" % sysv)
sys.stdin.readline()
`, want: []string{""},
			check: func(t *testing.T, s *Session, answers []string) {
				if len(answers) != 1 || !strings.HasPrefix(answers[0], "sysv ") || strings.HasPrefix(answers[0], "sysv -1") {
					t.Errorf("answers %q: the bot could not even make shared memory", answers)
				}
				key, _ := strconv.ParseInt(s.Token()[:7], 16, 64)
				b, _ := os.ReadFile("/proc/sysvipc/shm")
				for _, line := range strings.Split(string(b), "\n")[1:] {
					if f := strings.Fields(line); len(f) > 0 && f[0] == strconv.FormatInt(key, 10) {
						t.Errorf("the bot's System V segment outlived it: %s", line)
					}
				}
				keyFile := "/dev/shm/arbiter-hostile-" + s.Token()
				if _, err := os.Stat(keyFile); err == nil {
					os.Remove(keyFile)
					t.Errorf("the bot's POSIX shared memory %s outlived it", keyFile)
				}
			}},
		{name: "reading /etc/shadow", py: `try:
    open("/etc/shadow").read()
    reply("read")
except OSError as e:
    reply("denied")
sys.stdin.readline()
`, want: []string{""}, check: answerIs("denied")},
		{name: "process listing", py: `import json
procs = {}
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            procs[p] = open("/proc/%s/cmdline" % p).read().replace("\0", " ")
        except OSError:
            pass
reply(json.dumps(procs))
sys.stdin.readline()
`, want: []string{""}, check: func(t *testing.T, s *Session, answers []string) {
			var procs map[string]string
			if len(answers) != 1 || json.Unmarshal([]byte(answers[0]), &procs) != nil || len(procs) == 0 {
				t.Fatalf("answers %q", answers)
			}
			for pid, cmdline := range procs {
				if !strings.Contains(cmdline, "bot.py") {
					t.Errorf("the bot sees process %s (%q), not its own", pid, cmdline)
				}
			}
		}},
		{name: "double fork with a cleared environment", mode: "noenv", asks: 2, want: []string{drivers.FaultCrash}},
		{name: "double fork", mode: "doublefork", asks: 2, want: []string{drivers.FaultCrash}},
		{name: "fork bomb", py: "while True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
			want: []string{drivers.FaultProcesses, drivers.FaultTime}, needs: []string{drivers.LimitProcesses}},
		{name: "devices", py: `out = []
try:
    open("/dev/null", "w").write("x")
    out.append("null")
    if len(open("/dev/urandom", "rb").read(16)) == 16 and open("/dev/zero", "rb").read(4) == bytes(4):
        out.append("random-zero")
    try:
        open("/dev/full", "wb", buffering=0).write(b"x")
    except OSError:
        out.append("full")
except OSError as e:
    out.append("error " + str(e))
for name in ["/dev/sda", "/dev/mem", "/dev/kmsg"]:
    if os.path.exists(name):
        out.append("has " + name)
try:
    os.mknod("/dev/made", 0o666 | 0o020000, os.makedev(1, 3))
    out.append("mknod")
except OSError:
    pass
try:
    open("/dev/new-file", "w")
    out.append("wrote /dev")
except OSError:
    pass
reply(" ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: answerIs("null random-zero full")},
		// Only internet sockets were refused: a bot opened a vsock (the VM's
		// host, CID 2, outside any network namespace) and netlink ones.
		{name: "sockets of families other than Unix", py: `import errno
out = []
families = [("unix", 1, socket.SOCK_STREAM), ("inet", 2, socket.SOCK_STREAM), ("inet6", 10, socket.SOCK_DGRAM),
    ("netlink", 16, socket.SOCK_RAW), ("packet", 17, socket.SOCK_RAW), ("key", 15, socket.SOCK_RAW),
    ("tipc", 30, socket.SOCK_RDM), ("bluetooth", 31, socket.SOCK_STREAM), ("can", 29, socket.SOCK_RAW),
    ("alg", 38, socket.SOCK_SEQPACKET), ("vsock", 40, socket.SOCK_STREAM), ("rds", 21, socket.SOCK_SEQPACKET),
    ("xdp", 44, socket.SOCK_RAW), ("unknown", 0x10001, socket.SOCK_STREAM)]
for name, family, kind in families:
    try:
        socket.socket(family, kind).close()
        out.append(name + " opened")
    except OSError as e:
        out.append(name + (" refused" if e.errno == errno.EACCES else " " + errno.errorcode.get(e.errno, str(e.errno))))
for name, family in [("unix", 1), ("tipc", 30)]:
    try:
        a, b = socket.socketpair(family, socket.SOCK_STREAM if family == 1 else socket.SOCK_SEQPACKET)
        a.close(); b.close()
        out.append("pair " + name + " opened")
    except OSError as e:
        out.append("pair " + name + (" refused" if e.errno == errno.EACCES else " " + errno.errorcode.get(e.errno, str(e.errno))))
reply(", ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: answerIs("unix opened, inet refused, inet6 refused, netlink refused, packet refused, key refused, " +
			"tipc refused, bluetooth refused, can refused, alg refused, vsock refused, rds refused, xdp refused, unknown refused, " +
			"pair unix opened, pair tipc refused")},
		// A bot widened its affinity from its match's CPU to all of them,
		// and its children took CPU from the match beside it.
		{name: "widening its CPU affinity", py: `out = []
mine = os.sched_getaffinity(0)
for what, cpus in [("all", set(range(os.cpu_count()))), ("its own", mine)]:
    try:
        os.sched_setaffinity(0, cpus)
        out.append(what + " set")
    except OSError as e:
        out.append(what + " refused" if isinstance(e, PermissionError) else what + " " + str(e))
out.append("kept" if os.sched_getaffinity(0) == mine else "changed")
reply(", ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: answerIs("all refused, its own refused, kept")},
		// A bot that reads chosen pages of a big system file leaves them in
		// the page cache for a later bot to find: preadv2 with RWF_NOWAIT
		// says whether a page is cached without timing, as an aio read
		// with the flag and cachestat do. A plain read still works.
		{name: "asking the page cache what another read", py: `import ctypes, errno, platform
libc = ctypes.CDLL(None, use_errno=True)
out = []
fd = os.open(sys.executable, os.O_RDONLY)
buf = bytearray(16)
for what, flags in [("read", 0), ("nowait", os.RWF_NOWAIT), ("nowait hipri", os.RWF_NOWAIT | os.RWF_HIPRI)]:
    try:
        os.preadv(fd, [buf], 0, flags)
        out.append(what + " done")
    except OSError as e:
        out.append(what + " " + errno.errorcode.get(e.errno, str(e.errno)))
ctx = ctypes.c_ulong(0)
io_setup = {"x86_64": 206, "aarch64": 0}[platform.machine()]
r = libc.syscall(io_setup, 1, ctypes.byref(ctx))
out.append("aio " + ("set up" if r == 0 else errno.errorcode.get(ctypes.get_errno(), "?")))
rng, stat = (ctypes.c_uint64 * 2)(0, 0), (ctypes.c_uint64 * 5)()
r = libc.syscall(451, fd, rng, stat, 0)
out.append("cachestat " + ("done" if r == 0 else errno.errorcode.get(ctypes.get_errno(), "?")))
reply(", ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: answerIs("read done, nowait ENOTSUP, nowait hipri ENOTSUP, aio ENOSYS, cachestat ENOSYS")},
		// The kernel log holds what a bot may not read (other processes'
		// names, pids and cgroups in OOM reports) and what a bot may
		// write into it: a crash at a chosen address logs that address,
		// for a bot of a later match to read. Where dmesg_restrict is 0
		// (as on some distributions) the kernel lets any uid read it and
		// only the filter refuses; where it is 1 the kernel refuses too,
		// so shim's TestSeccompFilterKernelLog runs the filter itself
		// (the case does not change the machine's setting).
		{name: "reading the kernel log", py: `import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
out = []
buf = ctypes.create_string_buffer(1 << 14)
for what, action, b, n in [("size", 10, None, 0), ("read", 3, buf, len(buf))]:
    r = libc.klogctl(action, b, n)
    out.append(what + " " + ("done" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")))
reply(", ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: answerIs("size EPERM, read EPERM")},
		{name: "writing outside its folders", py: `out = []
for p in [os.path.join(os.getcwd(), "escape.txt"), "/etc/escape", "/escape", "/usr/escape"]:
    try:
        open(p, "w").write("x")
        out.append("wrote " + p)
    except OSError:
        out.append("denied")
open("/tmp/mine", "w").write("fine")
reply(" ".join(out))
sys.stdin.readline()
`, want: []string{""}, check: func(t *testing.T, s *Session, answers []string) {
			if len(answers) != 1 || strings.Contains(answers[0], "wrote") {
				t.Errorf("answers %q: the bot wrote outside its /tmp", answers)
			}
		}},
	}
}

func TestHostileSandbox(t *testing.T) {
	p := Machine()
	if !p.Sandbox {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs the tests with the sandbox, but here it is not: %s", p.Why["sandbox"])
		}
		t.Skipf("no sandbox here: %s", p.Why["sandbox"])
	}
	for _, tc := range sandboxCases() {
		tc.limits = defaultLimits()
		tc.clock = drivers.Clock{Move: 5 * sec}
		tc.within = 10 * time.Second
		setup := tc.setup
		tc.setup = func(t *testing.T, spec *Spec) {
			readable(t, spec.Dir)
			if setup != nil {
				setup(t, spec)
			}
		}
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) { runHostile(t, tc) })
	}
}

// TestSandboxStartFault: a bot whose dir its uid cannot enter gets a
// start fault that says so, not a hang or a crash of arbiter.
func TestSandboxStartFault(t *testing.T) {
	if !Machine().Sandbox || os.Getuid() != 0 {
		t.Skip("needs the sandbox as root")
	}
	spec := botSpec(t, "echo", drivers.Clock{Move: 5 * sec})
	os.Chmod(spec.Dir, 0o700)
	spec.Limits = defaultLimits()
	s, err := Start(t.Context(), spec)
	if err == nil {
		_, err = ask(s, "x")
		s.Kill()
	}
	if faultKind(err) != drivers.FaultStart || !strings.Contains(fmt.Sprint(err), "entering its folder") {
		t.Errorf("got %v, want a start fault about its folder", err)
	}
}
