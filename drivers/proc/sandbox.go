package proc

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc/shim"
)

// The default sandbox, nsjail and bubblewrap style: a bot whose limits
// have a Sandbox runs in namespaces of its own (mount, PID, IPC, network,
// UTS; a user namespace when arbiter is not root), in a root of its own
// made by the shim on a tmpfs and entered with pivot_root. That root holds
// the system's folders read-only (/usr, /lib*, /bin, /sbin, /etc with its
// unreadable entries masked), a minimal /dev, a fresh /proc of its PID
// namespace, a private /tmp, what its command needs (its program, the
// installation of its interpreter) read-only, its own dir read-only and,
// for games that run a bot once per move, its working folder writable.
// Nothing else exists for it: not the results directory, not the other
// bots' folders, not the host's /tmp or home folders. It runs as uid
// SandboxUID when arbiter is root (after the root is built), as arbiter's
// own uid inside a user namespace otherwise, without capabilities, with
// no_new_privs and a seccomp filter that refuses namespaces, mounts and
// the kernel's other doors out.

// SandboxUID is the uid and gid a sandboxed bot runs as when arbiter runs
// as root: nobody's.
const SandboxUID = 65534

// sandboxTmp is the size of the private /tmp when no files limit sets it,
// and sandboxShm the size of /dev/shm; both are memory, counted against
// the bot's memory limit.
const (
	sandboxTmp = 64 << 20
	sandboxShm = 64 << 20
	// buildTmp is a build's /tmp: tmpfs pages are charged to the build's
	// memory, which BuildLimits raises to at least 2 GiB.
	buildTmp = 1 << 30
)

// BuildCache is where a sandboxed build sees its cache folder
// (PrepareBuild): $HOME/.cache, its HOME being its private /tmp, which is
// where Go (GOCACHE), pip and ccache keep their caches unless told
// otherwise.
const BuildCache = "/tmp/.cache"

// mountOp is one step of building a sandbox's root, done by the shim in
// order; rootConfig is the sandbox part of the shim's configuration.
type (
	mountOp    = shim.MountOp
	rootConfig = shim.Root
)

var concealed struct {
	sync.Mutex
	paths []string
}

// Conceal hides path from every sandboxed bot started after the call,
// even one whose own folders contain it: the engine conceals the results
// directory, so that a bot whose dir holds it cannot read the other
// matches' transcripts.
func Conceal(path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	concealed.Lock()
	defer concealed.Unlock()
	if !slices.Contains(concealed.paths, abs) {
		concealed.paths = append(concealed.paths, abs)
	}
}

func concealedPaths() []string {
	concealed.Lock()
	defer concealed.Unlock()
	return slices.Clone(concealed.paths)
}

var systemOnce = sync.OnceValue(systemOps)

// systemOps are the steps that make the system's part of every root: the
// system folders, /etc's secrets masked, /dev, /proc with /proc/locks
// masked.
func systemOps() []mountOp {
	var ops []mountOp
	for _, d := range drivers.SystemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				ops = append(ops, mountOp{Kind: "link", Path: d, Opts: target})
			}
		case fi.IsDir():
			ops = append(ops, mountOp{Kind: "ro", Path: d, Src: d})
		}
	}
	ops = append(ops, etcMasks()...)
	ops = append(ops, mountOp{Kind: "tmpfs", Path: "/dev", Opts: "mode=0755,size=64k,nr_inodes=64"})
	for _, d := range []string{"null", "zero", "full", "random", "urandom", "tty"} {
		if fi, err := os.Stat("/dev/" + d); err == nil && fi.Mode()&fs.ModeCharDevice != 0 {
			ops = append(ops, mountOp{Kind: "dev", Path: "/dev/" + d, Src: "/dev/" + d})
		}
	}
	for name, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		ops = append(ops, mountOp{Kind: "link", Path: "/dev/" + name, Opts: target})
	}
	ops = append(ops, mountOp{Kind: "tmpfs", Path: "/dev/shm", Opts: "mode=1777,size=" + strconv.Itoa(sandboxShm)},
		mountOp{Kind: "proc", Path: "/proc"},
		// Every process's file locks, other bots' among them: the
		// filter lets a bot take none, and it need not see the host's.
		mountOp{Kind: "mask", Path: "/proc/locks", Opts: "false"})
	return ops
}

// etcMasks hide what in /etc others may not read (shadow, gshadow,
// sudoers, private keys): the bot's uid cannot read them anyway, and
// masked they are not there at all.
func etcMasks() []mountOp {
	var ops []mountOp
	for _, dir := range []string{"/etc", "/etc/ssl"} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil || fi.Mode()&fs.ModeSymlink != 0 || fi.Mode().Perm()&0o004 != 0 {
				continue
			}
			ops = append(ops, mountOp{Kind: "mask", Path: filepath.Join(dir, e.Name()), Opts: strconv.FormatBool(fi.IsDir())})
		}
	}
	return ops
}

// needsCache keeps what a program needs, by program and folder: resolving
// reads a few files, and a per-move game starts its bots thousands of
// times.
var needsCache sync.Map // [2]string{path, dir} → drivers.Sandbox

// sandboxPlan is what prepare decides for a sandboxed bot.
type sandboxPlan struct {
	root    rootConfig
	program string // the program to exec, when Needs replaced it
	tmp     string // the private /tmp's tmpfs options
	// shown are the host's paths bound in the root beside the system's
	// folders: its folders, what its command needs.
	shown []string
}

// planSandbox lays out the root of a bot: prog is its program (absolute),
// dir its working folder, writable the folder it may write in ("" for a
// session bot, which writes in its private /tmp only), tmpOpts the
// private /tmp's tmpfs options.
func planSandbox(sb *drivers.Sandbox, prog, dir, writable string, env []string, argv []string) (*sandboxPlan, error) {
	sp := &sandboxPlan{}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		return a
	}
	dir, writable = abs(dir), abs(writable)
	needs := sandboxNeeds(sb, prog, dir, env, argv)
	if needs.Program != "" {
		sp.program, prog = needs.Program, needs.Program
	}
	// A folder in a concealed one (a house bot's match folder in the
	// results) is not shown: such a session bot works in its /tmp.
	hidden := false
	real := evalOr(dir)
	if drivers.IsSandboxTmp(dir) || drivers.IsSandboxTmp(writable) {
		// The bot's private /tmp is mounted over it: the bot would start
		// in an empty folder and not find its own files.
		return nil, faultf(drivers.FaultStart, "cannot start in the sandbox: its folder is /tmp itself, which the sandbox replaces by the bot's private /tmp, so it would not see its files there; "+
			"put the bot in a folder of its own (e.g. /tmp/mybot), or run it outside the sandbox (sandbox = false; check -sandbox=false)")
	}
	hiddenDirs := concealedPaths()
	for _, c := range hiddenDirs {
		hidden = hidden || drivers.Within(real, c)
	}
	var binds []mountOp
	add := func(kind, p string) {
		if p != "" && !drivers.InSystem(p) {
			binds = append(binds, mountOp{Kind: kind, Path: p, Src: p})
		}
	}
	for _, r := range needs.Read {
		// What a command names in a concealed folder (the results,
		// --log ../out) stays concealed; its own folder is the bot's.
		if r != dir && slices.ContainsFunc(hiddenDirs, func(c string) bool { return drivers.Within(r, c) }) {
			continue
		}
		if _, err := os.Stat(r); err != nil {
			return nil, faultf(drivers.FaultStart, "cannot start in the sandbox: it needs %s: %v", r, err)
		}
		add("ro", r)
	}
	// A submitted command's program is shown where the PATH found it (in
	// what was resolved for it) or in its folder, not wherever it points.
	if !sb.Submitted || slices.ContainsFunc(needs.Read, func(r string) bool { return drivers.Within(prog, r) }) {
		add("ro", prog)
	}
	cwd := "/tmp"
	switch {
	case writable != "":
		add("rw", writable)
		cwd = dir
		if dir != writable && !hidden {
			add("ro", dir)
		}
	case dir != "" && !hidden:
		add("ro", dir)
		cwd = dir
	}
	binds = append(binds, concealOps(hiddenDirs, binds)...)
	sort.SliceStable(binds, func(i, j int) bool { return binds[i].Path < binds[j].Path })
	binds = dropInner(binds)
	sp.shown = bound(binds)
	sp.root = rootConfig{Ops: append(slices.Clone(systemOnce()), binds...), Cwd: cwd, UID: -1, GID: -1}
	return sp, nil
}

// hideOwnPath removes the bind that would show a bot arbiter's
// executable at path, which it is started from as its own image
// (OwnImage) instead: that needs no file in its root. The file at the
// path may be another build by now (an install over it), or nothing, and
// the image itself cannot be bound there: the kernel binds only what is
// mounted in the bot's own mount namespace, and the image is a file of
// arbiter's (mount(2) refuses it, EINVAL).
func hideOwnPath(root *rootConfig, path string) {
	root.Ops = slices.DeleteFunc(root.Ops, func(op mountOp) bool {
		return op.Kind == "ro" && op.Path == path && op.Src == path
	})
}

// sandboxNeeds is what the bot's sandbox shows it beside its folders: sb,
// or what its command needs when the plan resolved nothing (a start
// without a plan, or a program the plan did not find), resolved as sb
// says (Submitted) and kept by program and folder.
func sandboxNeeds(sb *drivers.Sandbox, prog, dir string, env, argv []string) drivers.Sandbox {
	needs := *sb
	if needs.Program == "" && len(needs.Read) == 0 {
		key := [2]string{fmt.Sprint(sb.Submitted, "\x00", prog, "\x00", strings.Join(argv[1:], "\x00")), dir}
		if v, ok := needsCache.Load(key); ok {
			needs = v.(drivers.Sandbox)
		} else if sb.Submitted {
			needs = drivers.ResolveSubmitted(append([]string{prog}, argv[1:]...), dir, env)
			needsCache.Store(key, needs)
		} else {
			needs = drivers.ResolveSandbox(append([]string{prog}, argv[1:]...), dir, env)
			needsCache.Store(key, needs)
		}
	}
	return needs
}

// evalOr is p with its symbolic links resolved, or p.
func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// concealOps are the steps that conceal, of the concealed paths hidden,
// those that lie in a folder that binds shows: each but what lies in
// another concealed path that is shown, and so covered whole (the run's
// results); one in a shown folder inside a concealed one that is not
// shown gets its own.
func concealOps(hidden []string, binds []mountOp) []mountOp {
	shown := func(c string) bool {
		return slices.ContainsFunc(binds, func(b mountOp) bool { return drivers.Within(c, b.Path) && c != b.Path })
	}
	var ops []mountOp
	for _, c := range hidden {
		if !shown(c) || slices.ContainsFunc(hidden, func(o string) bool { return o != c && drivers.Within(c, o) && shown(o) }) {
			continue // not shown, or in a folder concealed whole
		}
		if op, ok := concealOp(c); ok {
			ops = append(ops, op)
		}
	}
	return ops
}

// concealOp is the step that conceals path, which lies in a folder the
// bot is shown: a folder is covered by an empty one, a file by an empty
// unreadable one; false when nothing is there to conceal any more (an
// earlier run's lock or temporary file, gone since the run began).
func concealOp(path string) (mountOp, bool) {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return mountOp{}, false
	case !fi.IsDir():
		return mountOp{Kind: "mask", Path: path}, true
	}
	return mountOp{Kind: "hide", Path: path}, true
}

// mountPointsIn is how many folders and files the shim makes in the
// tmpfs at top to mount ops on below it (a bot's dir /tmp/a/b needs /tmp/a
// and /tmp/a/b in its private /tmp): what lies under another mount is
// not in that tmpfs.
func mountPointsIn(top string, ops []mountOp) int {
	mounts := map[string]bool{}
	for _, op := range ops {
		if op.Kind != "link" {
			mounts[op.Path] = true
		}
	}
	made := map[string]bool{}
	for _, op := range ops {
		if op.Path == top || !drivers.Within(op.Path, top) {
			continue
		}
		rel, err := filepath.Rel(top, op.Path)
		if err != nil {
			continue
		}
		p := top
		for _, name := range strings.Split(rel, string(filepath.Separator)) {
			p = filepath.Join(p, name)
			made[p] = true
			if mounts[p] {
				break
			}
		}
	}
	return len(made)
}

// dropInner removes read-only binds inside another read-only bind (the
// outer one shows them already), keeping every bind that changes what is
// seen: a writable folder, a hidden one.
func dropInner(ops []mountOp) []mountOp {
	var out []mountOp
	for _, op := range ops {
		covered := false
		if op.Kind == "ro" {
			for _, o := range out {
				if o.Kind == "ro" && drivers.Within(op.Path, o.Path) {
					covered = true
				}
			}
		}
		if !covered {
			out = append(out, op)
		}
	}
	return out
}

// chownTree gives uid the folder a per-move bot writes in, and the
// folders in it, when arbiter is root and the bot is not. Files stay
// whose they are: the bot made its own, and the game's (Auction's state
// and log) are the game's to check, by their ctime among others.
func chownTree(dir string, uid, gid int) {
	// By descriptor (walkFolder): another bot of the sandbox's uid may
	// swap a folder in it for a link meanwhile.
	fd, real, err := openFolder(dir)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	walkFolder(fd, real, func(e *treeEntry) {
		if e.isDir() && (int(e.st.Uid) != uid || int(e.st.Gid) != gid) {
			_ = e.chown(uid, gid)
		}
	})
}

// sandboxCloneFlags are the namespaces of a sandboxed bot.
const sandboxCloneFlags = syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWUTS

// sandboxAttr sets up cmd to start in the sandbox's namespaces; as
// another user than root, in a user namespace that maps its own uid and
// gid to themselves, the shim keeping (as ambient capabilities, dropped
// before the bot's exec) what building the root needs.
func sandboxAttr(attr *syscall.SysProcAttr, root bool) {
	attr.Cloneflags |= sandboxCloneFlags
	if root {
		return
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	uid, gid := os.Getuid(), os.Getgid()
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
}

// SandboxMissing says what a bot can do when the sandbox cannot be had.
const SandboxMissing = "bots run with arbiter's uid in the machine's file system: a bot can read every file arbiter can " +
	"(other bots' sources, the results directory with other matches' transcripts), see every process's command line, " +
	"and change the files of other bots that arbiter's uid may change"

func (p *Probe) sandboxHow() string {
	who := fmt.Sprintf("uid %d (set after its root is built)", SandboxUID)
	if !p.Root {
		who = fmt.Sprintf("uid %d (arbiter's own) in a user namespace of its own", p.UID)
	}
	return "a root of its own (pivot_root) holding the system's folders, its interpreter and its dir read-only, " +
		"its working folder writable and nothing else; " + who + ", no capabilities, no_new_privs; " +
		"its own PID (with a fresh /proc), IPC, mount, network and UTS namespaces; seccomp refusing namespaces, mounts, kernel keyrings, the kernel log, changes of its CPU affinity, " +
		"file watches and the page cache's answers, and granting file locks without taking them"
}

// Mechanism is one thing the default sandbox is made of, for `arbiter
// doctor`: whether this machine has it and, when not, what a bot can do.
type Mechanism struct {
	Name    string `json:"name"`
	Have    bool   `json:"have"`
	Why     string `json:"why,omitempty"`     // why it is missing
	Without string `json:"without,omitempty"` // what a bot can do without it
}

// SandboxMechanisms lists what the default sandbox needs, in order.
func (p *Probe) SandboxMechanisms() []Mechanism {
	userOK, userWhy := p.Root || p.UserNS, p.Why["user namespace"]
	if p.Root {
		userWhy = ""
	}
	cg := p.CgroupV2 != "" || p.CgroupV1["memory"] != "" || p.CgroupV1["pids"] != ""
	return []Mechanism{
		{"root, or a user namespace (a uid that is not root's, and the right to build the sandbox)", userOK, userWhy,
			"no sandbox at all: " + SandboxMissing},
		{"mount namespace (a root of its own, pivot_root)", p.MountNS, p.Why["mount namespace"],
			"it sees the machine's files: " + SandboxMissing},
		{"PID namespace (its own processes only, a fresh /proc)", p.PIDNS, p.Why["PID namespace"],
			"kill(-1) reaches every process of arbiter's uid; it reads other processes' command lines (arbiter's -out DIR)"},
		{"network namespace", p.NetNS, p.Why["network namespace"],
			"only seccomp keeps it off the network; it can reach other bots' abstract Unix sockets"},
		{"seccomp", p.Seccomp, p.Why["seccomp"],
			"it can make namespaces of its own and mount in them, open internet sockets where only the namespace stands in the way and, in a VM, vsock sockets to its host (no namespace closes those), and leave the CPUs its match was pinned to"},
		{"cgroups (memory and pids)", cg, p.why("cgroup v2", "cgroup v1 memory", "cgroup v1 pids"),
			p.withoutCgroups()},
		{"the sandbox, tried for real", p.Sandbox, p.Why["sandbox"], SandboxMissing},
	}
}

// withoutCgroups says what a bot can do without cgroups, on this machine:
// its processes counted by RLIMIT_NPROC in its user namespace (not root)
// or not at all (root, or no user namespace), and reaped by its PID
// namespace or else found by token.
func (p *Probe) withoutCgroups() string {
	procs := "processes are not counted (root is exempt from RLIMIT_NPROC)"
	switch {
	case p.nprocWorks():
		procs = "processes are only RLIMIT_NPROC in a user namespace of its own"
	case !p.Root:
		procs = "processes are not counted (RLIMIT_NPROC needs a user namespace)"
	}
	reap := "its processes are found by token, not killed as a group"
	if p.PIDNS {
		reap = "its processes die with its PID namespace"
	}
	return "memory is only RLIMIT_DATA per process, " + procs + "; a fork or allocation refused in a child of a bot that never answers is not counted (its verdict is its clock); " + reap
}

// bound are the paths of binds that show the host's files (ro, rw).
func bound(binds []mountOp) []string {
	var out []string
	for _, b := range binds {
		if b.Kind == "ro" || b.Kind == "rw" {
			out = append(out, b.Path)
		}
	}
	return out
}

// shows reports whether the sandbox's root holds the host's path p (or
// the file it links to): the system's folders and what planSandbox bound.
func (sp *sandboxPlan) shows(p string) bool {
	for _, q := range []string{p, evalOr(p)} {
		if drivers.InSystem(q) || slices.ContainsFunc(sp.shown, func(s string) bool { return drivers.Within(q, s) }) {
			return true
		}
	}
	return false
}
