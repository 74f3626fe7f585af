package proc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Two sandboxed bots at once share the inodes of the system's folders and
// of a dir they both run from (two copies of one bot in a match, or in
// two matches of a round at -j 2). A red-team trial passed a hand of
// cards between them through those inodes: one bot opened files named
// after its cards while the other watched the folder with inotify, or
// one held a flock on a shared file while the other probed it. pairBot is
// both copies: its commands watch the folder (inotify, fanotify,
// dnotify) or open files in it, take locks on its own script or probe
// them.
const pairBot = `import ctypes, errno, fcntl, struct
libc = ctypes.CDLL(None, use_errno=True)
here = os.path.dirname(os.path.abspath(__file__))
me = os.path.abspath(__file__)
def fail():
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
held = []
watch = None
reply("ready")
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "watch":
        out = []
        fd = libc.inotify_init1(os.O_NONBLOCK)
        if fd < 0:
            out.append("inotify " + fail())
        elif libc.inotify_add_watch(fd, here.encode(), 0x20) < 0:
            out.append("inotify watch " + fail())
        else:
            watch = fd
            out.append("inotify watching")
        fan = libc.fanotify_init(0x400 | 0x800, os.O_RDONLY)
        if fan < 0:
            out.append("fanotify " + fail())
        elif libc.fanotify_mark(fan, 1, ctypes.c_uint64(0x20 | 0x08000000), -100, here.encode()) < 0:
            out.append("fanotify mark " + fail())
        else:
            out.append("fanotify watching")
        d = os.open(here, os.O_RDONLY)
        try:
            fcntl.fcntl(d, 1026, 0x1 | 0x80000000)
            out.append("dnotify watching")
        except OSError as e:
            out.append("dnotify " + errno.errorcode.get(e.errno, str(e.errno)))
        reply(", ".join(out))
    elif cmd == "open":
        for name in ["card-AS", "card-KH"]:
            with open(os.path.join(here, name), "rb") as f:
                f.read(1)
        reply("opened")
    elif cmd == "events":
        names = []
        try:
            buf = os.read(watch, 65536) if watch is not None else b""
        except BlockingIOError:
            buf = b""
        i = 0
        while i < len(buf):
            wd, mask, cookie, n = struct.unpack_from("iIII", buf, i)
            names.append(buf[i + 16:i + 16 + n].rstrip(b"\0").decode())
            i += 16 + n
        reply("events: " + (" ".join(sorted(set(names))) or "none"))
    elif cmd == "lock":
        out = []
        for what, take in [("flock", lambda f: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)),
                ("posix", lambda f: fcntl.fcntl(f, fcntl.F_SETLK, struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, 0, 0, 0, 0))),
                ("posix wait", lambda f: fcntl.fcntl(f, fcntl.F_SETLKW, struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, 0, 0, 0, 0))),
                ("ofd", lambda f: fcntl.fcntl(f, 37, struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, 0, 0, 0, 0)))]:
            f = open(me, "rb")
            held.append(f)
            try:
                take(f)
                out.append(what + " taken")
            except OSError as e:
                out.append(what + " " + errno.errorcode.get(e.errno, str(e.errno)))
        try:
            fcntl.fcntl(held[0], fcntl.F_SETLEASE, fcntl.F_RDLCK)
            out.append("lease taken")
        except OSError as e:
            out.append("lease " + errno.errorcode.get(e.errno, str(e.errno)))
        reply(", ".join(out))
    elif cmd == "probe":
        out = []
        f = open(me, "rb")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f, fcntl.LOCK_UN)
            out.append("flock free")
        except OSError as e:
            out.append("flock " + errno.errorcode.get(e.errno, str(e.errno)))
        for what, get in [("posix", fcntl.F_GETLK), ("ofd", 36)]:
            r = fcntl.fcntl(f, get, struct.pack("hhxxxxqqixxxx", fcntl.F_WRLCK, 0, 0, 0, 0))
            out.append(what + (" free" if struct.unpack("hhxxxxqqixxxx", r)[0] == fcntl.F_UNLCK else " held"))
        try:
            out.append("/proc/locks %d lines" % len(open("/proc/locks").read().splitlines()))
        except OSError as e:
            out.append("/proc/locks " + errno.errorcode.get(e.errno, str(e.errno)))
        reply(", ".join(out))
    else:
        reply("?")
`

// startPair starts two copies of pairBot in one dir, each in its own
// default sandbox.
func startPair(t *testing.T) (a, b *Session) {
	t.Helper()
	if !Machine().Sandbox {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs the tests with the sandbox, but here it is not: %s", Machine().Why["sandbox"])
		}
		t.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
	}
	dir := t.TempDir()
	readable(t, dir)
	script := filepath.Join(dir, "bot.py")
	files := map[string]string{"bot.py": pyHeader + pairBot, "card-AS": "x", "card-KH": "x", "card-2C": "x"}
	for _, name := range []string{"bot.py", "card-AS", "card-KH", "card-2C"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var s [2]*Session
	for i := range s {
		spec := botSpec(t, "", drivers.Clock{Move: 5 * sec})
		spec.Bot = []string{"a", "b"}[i]
		spec.Argv, spec.Env, spec.Dir = []string{python(t), script}, nil, dir
		spec.Limits = defaultLimits()
		s[i] = start(t, spec)
		t.Cleanup(func() { s[i].Kill() })
		if got, err := ask(s[i], "hello"); err != nil || got != "ready" {
			t.Fatalf("bot %s: %q, %v; its stderr ends:\n%s", spec.Bot, got, err, fileTail(spec.Stderr, 2048))
		}
	}
	return s[0], s[1]
}

// asks sends the commands in turn, each to its bot, and returns the
// answers.
func asks(t *testing.T, steps ...any) []string {
	t.Helper()
	var answers []string
	for i := 0; i < len(steps); i += 2 {
		got, err := ask(steps[i].(*Session), steps[i+1].(string))
		if err != nil {
			t.Fatalf("%s: %v", steps[i+1], err)
		}
		answers = append(answers, got)
	}
	return answers
}

// TestHostileSandboxPair: a bot cannot watch the folders it shares with
// another (inotify and fanotify fail with ENOSYS, dnotify with EINVAL,
// as on a kernel without them), and the locks a bot takes succeed
// without being taken, so the other one, probing, always finds the file
// free; /proc/locks is masked. A lease (which breaks when another opens
// the file) fails with EINVAL, as with leases disabled. A Python bot that calls fcntl.flock runs
// on.
func TestHostileSandboxPair(t *testing.T) {
	t.Run("watching_the_other's_opens", func(t *testing.T) {
		a, b := startPair(t)
		got := asks(t, a, "watch", b, "open", a, "events")
		if want := "inotify ENOSYS, fanotify ENOSYS, dnotify EINVAL"; got[0] != want {
			t.Errorf("the watcher: %q, want %q", got[0], want)
		}
		if got[2] != "events: none" {
			t.Errorf("the watcher saw the other bot's opens: %q", got[2])
		}
	})
	t.Run("locks_as_a_signal", func(t *testing.T) {
		a, b := startPair(t)
		got := asks(t, a, "lock", b, "probe", b, "lock", a, "probe")
		if want := "flock taken, posix taken, posix wait taken, ofd taken, lease EINVAL"; got[0] != want || got[2] != want {
			t.Errorf("locking: %q and %q, want %q", got[0], got[2], want)
		}
		for _, p := range []string{got[1], got[3]} {
			if want := "flock free, posix free, ofd free, /proc/locks EACCES"; p != want {
				t.Errorf("probing the other's locks: %q, want %q", p, want)
			}
		}
	})
}
