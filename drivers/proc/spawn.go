package proc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc/shim"
)

// A confined bot is started in one of two ways, which do the same steps
// in the same order (see shim.runShim):
//
//   - spawned: arbiter forks, and the child makes the system calls of the
//     shim itself, written down beforehand by the parent, then execs the
//     bot. As root the child borrows arbiter's memory until its exec (a
//     vfork); in a user namespace of its own (arbiter not root) it is a
//     plain fork, which waits until the parent wrote its uid and gid maps.
//   - through the shim: arbiter's own executable re-run, which then execs
//     the bot. A second Go program's start costs two to three
//     milliseconds of CPU, so it is kept for kernels older than
//     mount_setattr (5.12) and architectures other than amd64 and arm64.
//
// ARBITER_SPAWN=shim makes every confined start go through the shim, so
// that the tests can run that path too.

// spawnEnv selects the shim for every start ("shim").
const spawnEnv = "ARBITER_SPAWN"

// spawnable reports whether b can be spawned rather than shimmed.
func (b *Box) spawnable(attr *syscall.SysProcAttr) bool {
	if !spawnArch || os.Getenv(spawnEnv) == "shim" || !mountSetattrWorks() {
		return false
	}
	// What the child does of os/exec's part: the namespaces, Setsid, a
	// parent-death SIGKILL, and a user namespace's id maps (AmbientCaps
	// are the shim's, which a spawned child has no need of).
	plain := *attr
	plain.Cloneflags, plain.Setsid, plain.Pdeathsig = 0, false, 0
	plain.UidMappings, plain.GidMappings, plain.AmbientCaps = nil, nil, nil
	if !reflect.ValueOf(plain).IsZero() || attr.Pdeathsig != 0 && attr.Pdeathsig != syscall.SIGKILL {
		return false
	}
	for _, f := range []any{b.cmd.Stdin, b.cmd.Stdout, b.cmd.Stderr} {
		if _, ok := f.(*os.File); f != nil && !ok {
			return false
		}
	}
	return len(b.cmd.ExtraFiles) == 0
}

// mountSetattrWorks says the kernel has mount_setattr and nothing (a
// container's seccomp profile) refuses it: a call that changes nothing
// succeeds then (or fails on its arguments), not with ENOSYS or EPERM.
var mountSetattrWorks = sync.OnceValue(func() bool {
	err := unix.MountSetattr(-1, "", 0, &unix.MountAttr{})
	return err == nil || errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EBADF) || errors.Is(err, unix.EINVAL)
})

// esc makes a path part of a failure's message, a format whose one verb
// is the errno's.
func esc(path string) string { return strings.ReplaceAll(path, "%", "%%") }

// atFDCWD is AT_FDCWD (-100) as a system call's argument.
const atFDCWD = ^uintptr(99)

// spawnProg is a child's program being written: its calls, what each
// failure means, and what must stay alive and be closed after the fork.
type spawnProg struct {
	ops  []spawnOp
	msgs []string // per op; "%v" is the errno
	// bots says, per op, that its failure is the bot's (it names a folder
	// of the bot's that cannot be entered): every other step sets up what
	// arbiter confines the bot with, and its failure is arbiter's own.
	bots []bool
	keep []any
	fds  []int // opened for the child, closed once it forked
	base int   // see placeholder; -1 until then
	// mknod makes the bot's devices rather than binding them (see device):
	// not in a user namespace, where mknod is not allowed.
	mknod bool
}

// str is s as a C string the child can pass.
func (p *spawnProg) str(s string) uintptr {
	b := append([]byte(s), 0)
	p.keep = append(p.keep, b)
	return uintptr(unsafe.Pointer(&b[0]))
}

// ptr keeps v (a pointer) alive and passes it.
func (p *spawnProg) ptr(v any, at unsafe.Pointer) uintptr {
	p.keep = append(p.keep, v)
	return uintptr(at)
}

// call adds one system call; msg says what its failure means.
func (p *spawnProg) call(msg string, nr uintptr, args ...uintptr) *spawnOp {
	op := spawnOp{nr: nr}
	copy(op.a[:], args)
	p.ops = append(p.ops, op)
	p.msgs = append(p.msgs, msg)
	p.bots = append(p.bots, false)
	return &p.ops[len(p.ops)-1]
}

// botsFault marks the failure of the last call as the bot's.
func (p *spawnProg) botsFault() { p.bots[len(p.bots)-1] = true }

// open opens path for the child in the parent (O_PATH): the descriptor
// is inherited by the fork and closed by the exec.
func (p *spawnProg) open(path string, flags int) (int, error) {
	fd, err := unix.Open(path, flags|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	p.fds = append(p.fds, fd)
	return fd, nil
}

func (p *spawnProg) close() {
	for _, fd := range p.fds {
		unix.Close(fd)
	}
	p.fds = nil
}

// compile writes down what the shim would do for cfg (see
// shim.runShim), descriptors opened ahead by the parent wherever the
// child's view of the files does not change them.
func compileSpawn(cfg *shimConfig, netns *netNS, userNS bool) (*spawnProg, error) {
	p := &spawnProg{base: -1, mknod: !userNS}
	fail := func(err error) (*spawnProg, error) {
		p.close()
		return nil, err
	}
	if netns != nil {
		p.call("joining the bot's network namespace: %v", unix.SYS_SETNS, netns.ns.Fd(), unix.CLONE_NEWNET)
		p.keep = append(p.keep, netns)
	}
	var joins []int
	for _, f := range cfg.Cgroups {
		fd, err := p.open(f, unix.O_WRONLY)
		if err != nil {
			return fail(fmt.Errorf("joining the bot's cgroup: %w", err))
		}
		joins = append(joins, fd)
	}
	switch {
	case cfg.Root != nil:
		if err := p.root(cfg.Root); err != nil {
			return fail(err)
		}
	case cfg.Tmpfs || cfg.PerfData != "":
		p.privateFolders(cfg)
	}
	one := p.str("0")
	for _, fd := range joins {
		p.call("joining the bot's cgroup: %v", unix.SYS_WRITE, uintptr(fd), one, 1)
	}
	if lim := origNofile(); lim != nil {
		p.call("setting the limit of open files: %v", unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE, p.ptr(lim, unsafe.Pointer(lim)), 0)
	}
	for _, r := range cfg.Rlimits {
		lim := &unix.Rlimit{Cur: r.Value, Max: r.Value}
		p.call(fmt.Sprintf("setting rlimit %d to %d: %%v", r.Resource, r.Value), unix.SYS_PRLIMIT64, 0, uintptr(r.Resource), p.ptr(lim, unsafe.Pointer(lim)), 0)
	}
	bounding := p.identity(cfg)
	p.call("no_new_privs: %v", unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1)
	if cfg.Landlock > 0 {
		if err := p.landlock(cfg); err != nil {
			return fail(err)
		}
	}
	if cfg.Seccomp || cfg.NoChildren || cfg.Root != nil {
		filter := shim.SeccompFilter(cfg.Seccomp, cfg.NoChildren, cfg.Root != nil)
		prog := &unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
		p.keep = append(p.keep, filter)
		p.call("seccomp: %v", unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, p.ptr(prog, unsafe.Pointer(prog)))
	}
	if !bounding {
		p.dropBounding()
	}
	p.call("", unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL).any = true
	hdr := &unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := &[2]unix.CapUserData{}
	p.keep = append(p.keep, data)
	p.call("", unix.SYS_CAPSET, p.ptr(hdr, unsafe.Pointer(hdr)), uintptr(unsafe.Pointer(&data[0]))).any = true
	// No descriptor arbiter itself inherited reaches the bot: all but its
	// three close at the exec (Linux 5.11; before, as os/exec leaves them).
	p.call("", unix.SYS_CLOSE_RANGE, 3, ^uintptr(0), unix.CLOSE_RANGE_CLOEXEC).any = true
	return p, nil
}

// identity writes down the switch to the sandbox's uid (root only: it
// empties the bounding set first, and reports that it did) and the entry
// into the bot's folder.
func (p *spawnProg) identity(cfg *shimConfig) (bounding bool) {
	if cfg.Root != nil && cfg.Root.UID >= 0 {
		uid, gid := uintptr(cfg.Root.UID), uintptr(cfg.Root.GID)
		p.dropBounding()
		bounding = true
		p.call("dropping groups: %v", unix.SYS_SETGROUPS, 0, 0)
		p.call(fmt.Sprintf("switching to gid %d: %%v", gid), unix.SYS_SETRESGID, gid, gid, gid)
		p.call(fmt.Sprintf("switching to uid %d: %%v", uid), unix.SYS_SETRESUID, uid, uid, uid)
		p.call("parent-death signal: %v", unix.SYS_PRCTL, unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL))
	}
	if cfg.Root != nil {
		uid := cfg.Root.UID
		if uid < 0 {
			uid = os.Getuid()
		}
		p.call(fmt.Sprintf("sandbox: entering its folder %s as uid %d: %%v (it must be readable by that uid)", esc(cfg.Root.Cwd), uid),
			unix.SYS_CHDIR, p.str(cfg.Root.Cwd))
		p.botsFault()
	}
	return bounding
}

// dropBounding empties the capability bounding set.
func (p *spawnProg) dropBounding() {
	last := capLastCap()
	for c := 0; c <= last; c++ {
		p.call("", unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, uintptr(c)).any = true
	}
}

var capLastCap = sync.OnceValue(shim.CapLastCap)

// origNofile is the limit of open files arbiter started with, which
// os/exec gives back to the programs it starts: Go raises its own soft
// limit to the hard one less one at start, and keeps the original where
// no other package can read it. Then it is read from a program os/exec
// starts; nil when Go did not raise it or it cannot be read.
var origNofile = sync.OnceValue(func() *unix.Rlimit {
	var cur unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &cur) != nil || cur.Max == 0 || cur.Cur != cur.Max-1 {
		return nil
	}
	lim, err := startedNofile()
	if err != nil {
		return nil
	}
	return lim
})

// startedNofile is the limit of open files os/exec gives a program it
// starts: read from one stopped at its exec (traced), before it ran any
// of its own code.
func startedNofile() (*unix.Rlimit, error) {
	cmd, err := ownCommand()
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread() // a tracer is a thread
	defer runtime.UnlockOSThread()
	cmd.Env = []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL}
	children.Lock()
	err = cmd.Start()
	if err == nil {
		children.pids[cmd.Process.Pid] = true
	}
	children.Unlock()
	if err != nil {
		return nil, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		children.Lock()
		delete(children.pids, cmd.Process.Pid)
		children.Unlock()
	}()
	var lim unix.Rlimit
	if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_NOFILE, nil, &lim); err != nil {
		return nil, err
	}
	return &lim, nil
}

// privateFolders writes down shim.privateFolders: the bot's private
// folder and its own JVM perf data folder, a failure to mount which is
// passed over.
func (p *spawnProg) privateFolders(cfg *shimConfig) {
	p.privateMounts()
	if cfg.Tmpfs {
		opts := "mode=0700,size=" + fmt.Sprint(cfg.TmpfsSize)
		if cfg.TmpfsInodes > 0 {
			opts += ",nr_inodes=" + fmt.Sprint(cfg.TmpfsInodes)
		}
		p.mount("mounting the bot's folder: %v", "tmpfs", cfg.Folder, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts)
	}
	if cfg.PerfData != "" {
		p.mount("", "tmpfs", cfg.PerfData, "tmpfs", shim.PerfDataFlags, shim.PerfDataOpts).any = true
	}
}

func (p *spawnProg) privateMounts() {
	p.mount("making mounts private: %v", "", "/", "", unix.MS_REC|unix.MS_PRIVATE, "")
}

// mount adds mount(2); "" is a null pointer.
func (p *spawnProg) mount(msg, src, target, fstype string, flags uintptr, data string) *spawnOp {
	s := func(v string) uintptr {
		if v == "" {
			return 0
		}
		return p.str(v)
	}
	return p.call(msg, unix.SYS_MOUNT, s(src), p.str(target), s(fstype), flags, s(data))
}

// setAttr adds mount_setattr(2) of attr on the mount at t.
func (p *spawnProg) setAttr(msg, t string, attr uint64, recursive bool) *spawnOp {
	var at uintptr
	if recursive {
		at = unix.AT_RECURSIVE
	}
	a := &unix.MountAttr{Attr_set: attr}
	return p.call(msg, unix.SYS_MOUNT_SETATTR, atFDCWD, p.str(t), at, p.ptr(a, unsafe.Pointer(a)), unsafe.Sizeof(*a))
}

// landlock adds the confinement of writes to cfg.Folder: the ruleset is
// made by the parent; the folder's rule is added in the child, where a
// private folder is the tmpfs mounted on it (a rule holds an inode).
func (p *spawnProg) landlock(cfg *shimConfig) error {
	rs, err := shim.LandlockRuleset(cfg.Landlock)
	if err != nil {
		return fmt.Errorf("Landlock: %w", err)
	}
	p.fds = append(p.fds, rs)
	if cfg.Folder != "" {
		// The folder's descriptor is opened in the child and moved to a
		// number the parent holds (a descriptor of /), so that the rule
		// can be written down here.
		at, err := p.placeholder()
		if err != nil {
			return fmt.Errorf("Landlock: %w", err)
		}
		msg := "Landlock: allowing " + esc(cfg.Folder) + ": %v"
		p.call(msg, unix.SYS_OPENAT, atFDCWD, p.str(cfg.Folder), unix.O_PATH|unix.O_CLOEXEC).save = true
		dup := p.call(msg, unix.SYS_DUP3, 0, uintptr(at), unix.O_CLOEXEC)
		dup.use = 1
		rule := &unix.LandlockPathBeneathAttr{Allowed_access: shim.LandlockHandled(cfg.Landlock), Parent_fd: int32(at)}
		p.call(msg, unix.SYS_LANDLOCK_ADD_RULE, uintptr(rs), unix.LANDLOCK_RULE_PATH_BENEATH, p.ptr(rule, unsafe.Pointer(rule)), 0)
	}
	p.call("Landlock: restrict self: %v", unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(rs), 0)
	return nil
}

// spawnStart starts b's command spawned (see spawnable): what cmd.Start
// does, with the shim's steps between the fork and the exec.
func (b *Box) spawnStart() error {
	cmd, prog := b.cmd, b.spawn
	b.spawnMsgs, b.spawnBots = prog.msgs, prog.bots
	defer func() { prog.close(); b.spawn = nil }()
	c, err := b.spawnChild()
	if err != nil {
		return err
	}
	pid, err := forkWait(c, cmd.SysProcAttr)
	runtime.KeepAlive(c)
	runtime.KeepAlive(prog)
	if err != nil {
		return err
	}
	if c.step != nil {
		return b.spawnFault(c.step[0], syscall.Errno(c.step[1]))
	}
	cmd.Process, err = os.FindProcess(pid)
	return err
}

// spawnChild is what the child of b's spawn needs: its program, its
// descriptors, its command and environment.
func (b *Box) spawnChild() (*spawnChild, error) {
	cmd, prog := b.cmd, b.spawn
	var stdio [3]int
	for i, f := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		if f, ok := f.(*os.File); ok && f != nil {
			stdio[i] = int(f.Fd())
			prog.keep = append(prog.keep, f)
			continue
		}
		null, err := prog.open(os.DevNull, unix.O_RDWR)
		if err != nil {
			return nil, err
		}
		stdio[i] = null
	}
	exe, err := syscall.BytePtrFromString(b.cfg.Path)
	if err != nil {
		return nil, err
	}
	argv, err := syscall.SlicePtrFromStrings(b.cfg.Args)
	if err != nil {
		return nil, err
	}
	// As os/exec passes it: a key set twice has its last value.
	envv, err := syscall.SlicePtrFromStrings(cmd.Environ())
	if err != nil {
		return nil, err
	}
	prog.keep = append(prog.keep, exe, argv, envv)
	c := &spawnChild{ops: prog.ops, stdio: stdio, path: exe, argv: &argv[0], envv: &envv[0],
		ppid: uintptr(os.Getpid()), failed: shimFailed, setsid: cmd.SysProcAttr.Setsid, syncR: -1, syncW: -1}
	if cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWPID != 0 {
		c.ppid = 0 // a parent outside its PID namespace has no pid in it
	}
	if cmd.Dir != "" {
		if c.dir, err = syscall.BytePtrFromString(cmd.Dir); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// forkWait forks c's child in attr's namespaces and waits until it
// exec'd or failed: a failure's step and errno are then in c.step. A
// child in a user namespace is a plain fork that waits for its id maps.
func forkWait(c *spawnChild, attr *syscall.SysProcAttr) (int, error) {
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		return 0, err
	}
	defer unix.Close(pipe[0])
	c.errFD = uintptr(pipe[1])
	// A byte written now gives the pipe its page, charged to arbiter: a
	// child's report then fills that page, and needs no memory of the
	// bot's cgroup, which it may have joined and filled (a report the
	// child cannot write would read as an exec, and the child's exit as
	// the bot's).
	if _, err := unix.Write(pipe[1], []byte{0}); err != nil {
		unix.Close(pipe[1])
		return 0, err
	}
	userNS := attr.Cloneflags&syscall.CLONE_NEWUSER != 0
	if userNS {
		var sync [2]int
		if err := unix.Pipe2(sync[:], unix.O_CLOEXEC); err != nil {
			unix.Close(pipe[1])
			return 0, err
		}
		c.syncR, c.syncW = sync[0], sync[1]
		defer unix.Close(sync[0])
	}
	syscall.ForkLock.Lock()
	pid, errno := forkSpawn(attr.Cloneflags, c, !userNS)
	syscall.ForkLock.Unlock()
	unix.Close(pipe[1])
	if userNS {
		var err error
		if errno == 0 {
			if err = writeIDMaps(pid, attr); err != nil {
				unix.Write(c.syncW, []byte{1}) // the child gives up
			}
		}
		unix.Close(c.syncW)
		if err != nil {
			var ws unix.WaitStatus
			unix.Wait4(pid, &ws, 0, nil)
			return 0, fmt.Errorf("writing the user namespace's id maps: %w", err)
		}
	}
	if errno != 0 {
		return 0, os.NewSyscallError("clone", errno)
	}
	var msg [9]byte // the byte written above, then the child's report
	if n, _ := readFull(pipe[0], msg[:]); n == len(msg) {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, 0, nil)
		c.step = &[2]int{int(int32(binary.NativeEndian.Uint32(msg[1:5]))), int(binary.NativeEndian.Uint32(msg[5:]))}
	}
	return pid, nil
}

// writeIDMaps maps the ids of the child pid's user namespace as attr
// says, setgroups denied, as os/exec does.
func writeIDMaps(pid int, attr *syscall.SysProcAttr) error {
	line := func(m []syscall.SysProcIDMap) []byte {
		var b []byte
		for _, e := range m {
			b = fmt.Appendf(b, "%d %d %d\n", e.ContainerID, e.HostID, e.Size)
		}
		return b
	}
	dir := fmt.Sprintf("/proc/%d/", pid)
	if err := os.WriteFile(dir+"uid_map", line(attr.UidMappings), 0); err != nil {
		return err
	}
	if err := os.WriteFile(dir+"setgroups", []byte("deny"), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.WriteFile(dir+"gid_map", line(attr.GidMappings), 0)
}

// spawnFault is the failure of a child that failed at step: a start
// fault of the bot when the step was the bot's (entering its folder, the
// exec of its program), else a *SetupError, arbiter's own.
func (b *Box) spawnFault(step int, e syscall.Errno) error {
	switch {
	case step == -2:
		return faultf(drivers.FaultStart, "cannot start %s: chdir %s: %v", strings.Join(b.cmd.Args, " "), b.cmd.Dir, e)
	case step < 0 || step > len(b.spawnMsgs):
		return b.setupFailure(fmt.Errorf("starting %s: %w", strings.Join(b.cmd.Args, " "), e))
	case step == len(b.spawnMsgs):
		return b.execFault(e)
	case b.spawnBots[step]:
		return faultf(drivers.FaultStart, b.spawnMsgs[step], e) // each a format with one %v (see esc)
	}
	return b.setupFailure(fmt.Errorf(strings.ReplaceAll(b.spawnMsgs[step], "%v", "%w"), e))
}

// setupFailure is the SetupError of a step of arbiter's that failed with
// err. Out of memory under a memory cgroup, the limit is what to change:
// from the moment the bot's process joins its cgroup, what arbiter sets
// up for it (its credentials, its filter, its root) is charged there.
func (b *Box) setupFailure(err error) error {
	if errors.Is(err, unix.ENOMEM) && b.lim.Memory > 0 && b.cg != nil && b.cg.memory != "" {
		err = fmt.Errorf("%w (under its memory limit of %s, too small for arbiter to set the bot up; the smallest limit is %s)",
			err, Size(b.lim.Memory), Size(drivers.MinMemory))
	}
	return &SetupError{Err: err}
}

// readFull reads fd until buf is full or the writers are gone (the exec).
func readFull(fd int, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m == 0 {
			return n, err
		}
		n += m
	}
	return n, nil
}

// root writes down buildRoot (see package shim): the bot's root on a
// tmpfs staged on /tmp, entered with pivot_root.
func (p *spawnProg) root(r *shim.Root) error {
	p.privateMounts()
	// Every source is opened before the staging tmpfs covers anything,
	// in the child (a bind's source must be in the child's own mount
	// namespace), each moved to a number the parent holds.
	at := make([]int, len(r.Ops))
	isDir := make([]bool, len(r.Ops))
	devs := make([]*syscall.Stat_t, len(r.Ops)) // made, not bound
	for i, op := range r.Ops {
		at[i] = -1
		if op.Src == "" {
			continue
		}
		fi, err := os.Stat(op.Src)
		if err != nil {
			return fmt.Errorf("opening %s for the sandbox: %w", op.Src, err)
		}
		isDir[i] = fi.IsDir()
		if op.Kind == "dev" && p.mknod {
			st, _ := fi.Sys().(*syscall.Stat_t)
			devs[i] = st
			continue
		}
		if at[i], err = p.placeholder(); err != nil {
			return err
		}
		msg := "opening " + esc(op.Src) + " for the sandbox: %v"
		p.call(msg, unix.SYS_OPENAT, atFDCWD, p.str(op.Src), unix.O_PATH|unix.O_CLOEXEC).save = true
		p.call(msg, unix.SYS_DUP3, 0, uintptr(at[i]), unix.O_CLOEXEC).use = 1
		p.call(msg, unix.SYS_CLOSE, 0).use = 1
	}
	stage := "/tmp"
	if fi, err := os.Stat(stage); err != nil || !fi.IsDir() {
		stage = "/dev"
	}
	// The root's folders and files get the modes written here whatever
	// the organiser's umask; the bot runs under shim.BotUmask of it.
	p.call("", unix.SYS_UMASK, 0)
	p.mount("mounting the sandbox's root: %v", "tmpfs", stage, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m,nr_inodes=4096")
	var readOnly []string
	mask := false // the file that masks files is made
	for i, op := range r.Ops {
		if devs[i] != nil {
			p.device(stage+op.Path, devs[i])
			continue
		}
		if p.doMount(stage, op, at[i], isDir[i], &mask) {
			readOnly = append(readOnly, op.Path)
		}
	}
	p.call("%v", unix.SYS_CHDIR, p.str(stage))
	p.call("sandbox: pivot_root: %v", unix.SYS_PIVOT_ROOT, p.str("."), p.str("."))
	p.call("sandbox: detaching the old root: %v", unix.SYS_UMOUNT2, p.str("."), unix.MNT_DETACH)
	p.call("%v", unix.SYS_CHDIR, p.str("/"))
	p.setAttr("sandbox: making the root read-only: %v", "/", unix.MOUNT_ATTR_RDONLY, false)
	for _, ro := range readOnly {
		p.setAttr("", ro, unix.MOUNT_ATTR_RDONLY, false).any = true
	}
	p.call("", unix.SYS_UMASK, uintptr(shim.BotUmask(organiserUmask())))
	return nil
}

// organiserUmask is arbiter's umask, which it never changes: read from
// /proc/self/status (Linux 4.7), since umask(2) only reads it by setting
// it, for the whole process; 022 where it cannot be read.
var organiserUmask = sync.OnceValue(func() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o022
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Umask:"); ok {
			if n, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return int(n)
			}
		}
	}
	return 0o022
})

// doMount writes down one step of the root (shim's doMount): fd is the
// number the source was moved to; it reports a tmpfs to make read-only
// once the root is built.
func (p *spawnProg) doMount(stage string, op shim.MountOp, fd int, dir bool, mask *bool) (ro bool) {
	t := stage + op.Path
	msg := func(what string) string { return "sandbox: " + what + " " + esc(op.Path) + ": %v" }
	switch op.Kind {
	case "ro", "rw", "dev":
		p.mountpoint(msg("making the mount point of"), stage, t, dir)
		p.mount(msg("binding"), fmt.Sprintf("/proc/self/fd/%d", fd), t, "", unix.MS_BIND|unix.MS_REC, "")
		attr := uint64(unix.MOUNT_ATTR_NOSUID)
		switch op.Kind {
		case "ro":
			attr |= unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NODEV
		case "rw":
			attr |= unix.MOUNT_ATTR_NODEV
		case "dev":
			attr |= unix.MOUNT_ATTR_NOEXEC
		}
		p.setAttr(msg("restricting"), t, attr, true)
	case "tmpfs", "hide":
		p.mountpoint(msg("making"), stage, t, true)
		opts := op.Opts
		if op.Kind == "hide" {
			opts = "mode=0755,size=16k"
		}
		var flags uintptr = unix.MS_NOSUID | unix.MS_NODEV
		if op.Path == "/dev" && p.mknod {
			flags = unix.MS_NOSUID // its devices are made in it (see device)
		}
		p.mount(msg("mounting a tmpfs on"), "tmpfs", t, "tmpfs", flags, opts)
		return op.Kind == "hide" || op.Path == "/dev"
	case "mask":
		if op.Opts == "true" {
			p.mount(msg("masking"), "tmpfs", t, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, "mode=0000,size=4k")
			break
		}
		if !*mask {
			*mask = true
			p.call(msg("masking"), unix.SYS_MKNODAT, atFDCWD, p.str(stage+"/.mask"), unix.S_IFREG, 0).ok = unix.EEXIST
		}
		p.mount(msg("masking"), stage+"/.mask", t, "", unix.MS_BIND, "")
		p.setAttr(msg("masking"), t, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOEXEC, false)
	case "proc":
		p.mountpoint(msg("making"), stage, t, true)
		p.mount(msg("mounting"), "proc", t, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	case "link":
		p.mkdirAll(msg("making the folder of"), stage, path.Dir(t))
		p.call(msg("linking"), unix.SYS_SYMLINKAT, p.str(op.Opts), atFDCWD, p.str(t))
	}
	return false
}

// device writes down the making of the device st describes at t, with
// its mode, in the bot's /dev: a tmpfs made read-only once the root is
// built, where the shim binds the host's devices. A node costs less than
// a mount, and the bot, without capabilities, can make no other.
func (p *spawnProg) device(t string, st *syscall.Stat_t) {
	msg := "sandbox: making the device " + esc(t) + ": %v"
	p.call(msg, unix.SYS_MKNODAT, atFDCWD, p.str(t), uintptr(unix.S_IFCHR|st.Mode&0o777), uintptr(st.Rdev))
	p.call(msg, unix.SYS_FCHMODAT, atFDCWD, p.str(t), uintptr(st.Mode&0o777), 0)
}

// placeholder is a descriptor number the child's open of a source is
// moved to: a copy of one descriptor of / the parent holds.
func (p *spawnProg) placeholder() (int, error) {
	if p.base < 0 {
		fd, err := p.open("/", unix.O_PATH)
		if err != nil {
			return -1, err
		}
		p.base = fd
		return fd, nil
	}
	fd, err := unix.FcntlInt(uintptr(p.base), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	p.fds = append(p.fds, fd)
	return fd, nil
}

// mountpoint makes the folder or empty file a bind or tmpfs goes on,
// unless it exists (in a bound folder).
func (p *spawnProg) mountpoint(msg, stage, t string, dir bool) {
	var st unix.Stat_t
	check := p.call("", sysFstatat, atFDCWD, p.str(t), p.ptr(&st, unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW)
	check.any = true
	i, n := len(p.ops)-1, len(p.ops)
	if dir {
		p.mkdirAll(msg, stage, t)
	} else {
		p.mkdirAll(msg, stage, path.Dir(t))
		p.call(msg, unix.SYS_MKNODAT, atFDCWD, p.str(t), unix.S_IFREG|0o444, 0).ok = unix.EEXIST
	}
	p.ops[i].skip = len(p.ops) - n
}

// mkdirAll makes dir and the folders above it, below stage.
func (p *spawnProg) mkdirAll(msg, stage, dir string) {
	var chain []string
	for d := dir; len(d) > len(stage); d = path.Dir(d) {
		chain = append(chain, d)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p.call(msg, unix.SYS_MKDIRAT, atFDCWD, p.str(chain[i]), 0o755).ok = unix.EEXIST
	}
}

// errSpawned is what cmd.Start returns for a command Prepare set up to
// be spawned: only StartCmd starts it confined.
var errSpawned = errors.New("proc: a confined command starts with proc.StartCmd, not cmd.Start")

// StartCmd starts cmd, which Prepare or PrepareBuild confined to box (nil:
// not confined).
func StartCmd(cmd *exec.Cmd, box *Box) error {
	if box != nil && box.spawn != nil {
		cmd.Err = nil
		return box.spawnStart()
	}
	return cmd.Start()
}
