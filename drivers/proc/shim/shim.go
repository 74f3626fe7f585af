// Package shim is the process between arbiter's fork and a confined
// bot's exec: arbiter's own executable re-run with Env set. Limits that
// must hold from the bot's first instruction (rlimits, cgroup membership,
// the sandbox's root, Landlock, seccomp, no capabilities) are applied by
// the process itself before it execs the bot, never racily from outside
// after the bot started.
//
// It runs from this package's init, and this package imports only the
// standard library's lower layers and golang.org/x/sys/unix: Go
// initializes packages in the order of their import paths, each after its
// imports, so this init runs before the heavier packages of the program
// (the configuration language, regular expressions, ...) pay for theirs.
// Every binary that links drivers/proc (arbiter, and the tests' binaries)
// is its own shim.
package shim

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	_ "github.com/arbiter-contests/arbiter/internal/linuxonly" // a build for another system stops there
	"golang.org/x/sys/unix"
)

// Env holds the shim's Config as JSON; ProbeEnv ("ns" or "mount") makes
// the process exit 0 once the namespace it was cloned in (and, for
// "mount", a private tmpfs in it) could be made.
const (
	Env      = "ARBITER_SHIM"
	ProbeEnv = "ARBITER_SHIM_PROBE"
	// Failed is the shim's exit status when it cannot confine the bot,
	// after a line on stderr that starts with FailPrefix.
	Failed     = 125
	FailPrefix = "arbiter shim: "
)

// Config is what the shim does before it execs the bot.
type Config struct {
	Path string   `json:"path"` // the bot's program, resolved by the parent
	Args []string `json:"args"`
	// Cgroups are cgroup.procs files to join.
	Cgroups []string `json:"cgroups,omitempty"`
	Rlimits []Rlimit `json:"rlimits,omitempty"`
	// Folder is the bot's private writable folder; with Tmpfs it is
	// mounted as a tmpfs of TmpfsSize bytes and TmpfsInodes inodes in the
	// bot's own mount namespace.
	Folder      string `json:"folder,omitempty"`
	Tmpfs       bool   `json:"tmpfs,omitempty"`
	TmpfsSize   int64  `json:"tmpfs_size,omitempty"`
	TmpfsInodes int    `json:"tmpfs_inodes,omitempty"`
	// PerfData is the folder where a JVM keeps its perf data file, named
	// by its pid (/tmp/hsperfdata_<user>): it is covered by a small empty
	// tmpfs in the bot's own mount namespace (PerfDataOpts), so that JVMs
	// that are PID 1 of their PID namespaces and share the machine's /tmp
	// do not use the same file. A failure to mount it is not the bot's:
	// it then sees the machine's folder.
	PerfData string `json:"perf_data,omitempty"`
	// Landlock is the ABI to use to forbid writes outside Folder (0: none).
	Landlock int `json:"landlock,omitempty"`
	// Seccomp installs the filter that refuses the bot a socket of any
	// family but Unix (EACCES).
	Seccomp bool `json:"seccomp,omitempty"`
	// NoChildren makes the filter refuse new processes (not threads).
	NoChildren bool `json:"no_children,omitempty"`
	// Root is the sandbox's root to build and enter (see Root); the
	// filter then also refuses namespaces, mounts and the like.
	Root *Root `json:"root,omitempty"`
	// NetNS is an inherited descriptor of the network namespace to join
	// (0: none; the process was cloned in its own, or keeps arbiter's).
	NetNS int `json:"netns,omitempty"`
}

// Rlimit is a resource limit the shim sets, as its soft and hard limit.
type Rlimit struct {
	Resource int    `json:"r"`
	Value    uint64 `json:"v"`
}

func init() {
	// The shim first: the program it execs may be a probe.
	if cfg := os.Getenv(Env); cfg != "" {
		runShim(cfg)
	}
	if mode := os.Getenv(ProbeEnv); mode != "" {
		shimProbe(mode)
	}
}

func shimFail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, FailPrefix+format+"\n", args...)
	os.Exit(Failed)
}

// shimProbe is the probe's test of a namespace: it got this far, so the
// namespace could be made; "mount" also tries the private tmpfs.
func shimProbe(mode string) {
	if mode == "mount" {
		if err := privateMounts(); err != nil {
			shimFail("%v", err)
		}
		if err := unix.Mount("tmpfs", "/tmp", "tmpfs", 0, "size=4096"); err != nil {
			shimFail("mounting a tmpfs: %v", err)
		}
	}
	os.Exit(0)
}

func privateMounts() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	return nil
}

// PerfDataOpts are the options of the tmpfs over Config.PerfData, and
// PerfDataFlags its flags: as a JVM makes the folder (owned by the
// bot's uid, 0755), room for a few dozen of its 32 KiB files, charged
// to the bot's memory.
const (
	PerfDataOpts  = "mode=0755,size=4m,nr_inodes=256"
	PerfDataFlags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
)

// privateFolders mounts, outside the sandbox, the bot's private folder
// (Tmpfs) and its own JVM perf data folder (PerfData) in its mount
// namespace, whose mounts it first makes private.
func privateFolders(cfg *Config) {
	if err := privateMounts(); err != nil {
		shimFail("%v", err)
	}
	if cfg.Tmpfs {
		opts := "mode=0700,size=" + strconv.FormatInt(cfg.TmpfsSize, 10)
		if cfg.TmpfsInodes > 0 {
			opts += ",nr_inodes=" + strconv.Itoa(cfg.TmpfsInodes)
		}
		if err := unix.Mount("tmpfs", cfg.Folder, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			shimFail("mounting the bot's folder: %v", err)
		}
	}
	if cfg.PerfData != "" {
		_ = unix.Mount("tmpfs", cfg.PerfData, "tmpfs", PerfDataFlags, PerfDataOpts)
	}
}

func runShim(cfgJSON string) {
	// Everything below is per thread (no_new_privs, Landlock, seccomp,
	// capabilities, the uid) and must be on the thread that execs: the
	// runtime keeps the main goroutine on the main thread while packages
	// initialize, and the shim runs from an init and never returns.
	// (runtime.LockOSThread would start the runtime's template thread,
	// one more thread for the exec to end.)
	var cfg Config
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		shimFail("bad configuration: %v", err)
	}
	if cfg.NetNS > 0 {
		joinNetNS(cfg.NetNS)
	}
	env := botEnv()
	// The cgroups are opened before a sandbox's root hides them, and
	// joined last of what needs privileges, so that the shim's own
	// threads count as little as possible against pids.max.
	cgroups := openCgroups(cfg.Cgroups)
	switch {
	case cfg.Root != nil:
		if err := buildRoot(cfg.Root); err != nil {
			shimFail("%v", err)
		}
	case cfg.Tmpfs || cfg.PerfData != "":
		privateFolders(&cfg)
	}
	joinCgroups(cgroups)
	for _, r := range cfg.Rlimits {
		lim := unix.Rlimit{Cur: r.Value, Max: r.Value}
		if err := unix.Prlimit(0, r.Resource, &lim, nil); err != nil {
			shimFail("setting rlimit %d to %d: %v", r.Resource, r.Value, err)
		}
	}
	if cfg.Root != nil && cfg.Root.UID >= 0 {
		if err := becomeUser(cfg.Root.UID, cfg.Root.GID); err != nil {
			shimFail("%v", err)
		}
		// Changing the uid cleared the parent-death signal (prctl(2)) that
		// makes the bot, PID 1 of its namespace, die with arbiter even
		// when arbiter is killed with SIGKILL: set it again.
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
			shimFail("parent-death signal: %v", err)
		}
	}
	if cfg.Root != nil {
		// As the bot's uid: a folder it may not enter is its start fault.
		if err := unix.Chdir(cfg.Root.Cwd); err != nil {
			shimFail("sandbox: entering its folder %s as uid %d: %v (it must be readable by that uid)", cfg.Root.Cwd, os.Getuid(), err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		shimFail("no_new_privs: %v", err)
	}
	if cfg.Landlock > 0 {
		if err := landlockWritesOnlyIn(cfg.Landlock, cfg.Folder); err != nil {
			shimFail("Landlock: %v", err)
		}
	}
	if cfg.Seccomp || cfg.NoChildren || cfg.Root != nil {
		if err := seccompInstall(cfg.Seccomp, cfg.NoChildren, cfg.Root != nil); err != nil {
			shimFail("seccomp: %v", err)
		}
	}
	dropCapabilities()
	err := syscall.Exec(cfg.Path, cfg.Args, env)
	shimFail("cannot start %s: %v", strings.Join(cfg.Args, " "), err)
}

// botEnv is the shim's environment less its configuration.
func botEnv() []string {
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, Env+"=") {
			env = append(env, kv)
		}
	}
	return env
}

// joinNetNS moves the shim into the network namespace lent to the bot,
// inherited as fd.
func joinNetNS(fd int) {
	err := unix.Setns(fd, unix.CLONE_NEWNET)
	unix.Close(fd)
	if err != nil {
		shimFail("joining the bot's network namespace: %v", err)
	}
}

// openCgroups opens the cgroup.procs files the shim joins.
func openCgroups(files []string) []*os.File {
	var out []*os.File
	for _, f := range files {
		fh, err := os.OpenFile(f, os.O_WRONLY, 0)
		if err != nil {
			shimFail("joining the bot's cgroup: %v", err)
		}
		out = append(out, fh)
	}
	return out
}

// joinCgroups moves the shim into the opened cgroups.
func joinCgroups(cgroups []*os.File) {
	for _, f := range cgroups {
		if _, err := f.Write([]byte("0")); err != nil {
			shimFail("joining the bot's cgroup: %v", err)
		}
		f.Close()
	}
}

// dropCapabilities leaves the bot no capability, even when arbiter runs
// as root: the bounding set is emptied (so exec grants none), then the
// thread's own sets.
func dropCapabilities() {
	dropBounding()
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	_ = unix.Capset(&hdr, &data[0])
}

// boundingDropped says dropBounding ran: a sandbox's root drops the set
// before it switches uid, and then the second call would only fail.
var boundingDropped bool

// dropBounding empties the capability bounding set, so that no exec
// grants a capability again.
func dropBounding() {
	if boundingDropped {
		return
	}
	boundingDropped = true
	last := CapLastCap()
	for c := 0; c <= last; c++ {
		_ = unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
	}
}

// LandlockHandled is every kind of write a ruleset of Landlock ABI abi
// handles (and so forbids outside its rules); LandlockFileRights is what a
// harmless device in LandlockDevices is allowed of them.
func LandlockHandled(abi int) uint64 {
	handled := uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
	if abi >= 2 {
		handled |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		handled |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return handled
}

// LandlockFileRights: see LandlockHandled.
func LandlockFileRights(handled uint64) uint64 {
	return uint64(unix.LANDLOCK_ACCESS_FS_WRITE_FILE) | handled&unix.LANDLOCK_ACCESS_FS_TRUNCATE
}

// LandlockDevices are the character devices a bot may write besides its
// folder.
var LandlockDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty"}

// LandlockRuleset makes a ruleset that handles every write (see
// LandlockHandled) and allows the harmless devices; the caller adds the
// bot's folder.
func LandlockRuleset(abi int) (fd int, err error) {
	handled := LandlockHandled(abi)
	attr := struct{ fs uint64 }{handled}
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return -1, fmt.Errorf("create ruleset: %w", errno)
	}
	fd = int(r)
	for _, dev := range LandlockDevices {
		if _, err := os.Stat(dev); err == nil {
			_ = LandlockAllow(fd, dev, LandlockFileRights(handled))
		}
	}
	return fd, nil
}

// LandlockAllow adds to the ruleset fd the right to write (rights) under
// path.
func LandlockAllow(fd int, path string, rights uint64) error {
	pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(pfd)
	rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(pfd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("allowing %s: %w", path, errno)
	}
	return nil
}

// CapLastCap is the highest capability this kernel knows.
func CapLastCap() int {
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			return n
		}
	}
	return 63
}

// landlockWritesOnlyIn forbids every kind of write outside folder (and
// the harmless character devices), leaving reads and execution alone.
func landlockWritesOnlyIn(abi int, folder string) error {
	fd, err := LandlockRuleset(abi)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if folder != "" {
		if err := LandlockAllow(fd, folder, LandlockHandled(abi)); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("restrict self: %w", errno)
	}
	return nil
}

// seccompInstall installs the bot's filter. noNet refuses (EACCES) the
// bot a socket or socket pair of any family but Unix: IPv4 and IPv6 (TCP,
// UDP, DNS lookups, raw), and the families a network namespace does not
// close or that show the host, vsock (the VM's host), packet, netlink,
// Bluetooth, CAN, TIPC, RDS, XDP, AF_ALG, ... Netlink too: a bot without
// network needs no interface list, glibc's getaddrinfo goes on without
// one, and where only seccomp enforces the network limit it would show
// the host's interfaces and connections. A refusal, not a kill: runtimes
// open internet sockets at start only to see which families the machine
// has (the JVM's libnet does, for any program that reads a file through
// java.nio), and a refused one is as a machine without network to them.
// noChildren refuses fork, vfork and a clone that is not a thread.
// sandbox refuses (EPERM) new namespaces, mounts, pivot_root, keyrings,
// bpf, perf events, userfaultfd, module or kexec loading and
// sched_setaffinity, and fails fallocate in any mode but 0 (a plain
// allocation) with EOPNOTSUPP, as a file system without those modes does:
// FALLOC_FL_KEEP_SIZE reserves any amount of disk in the bot's folder
// with no size to show for it, and RLIMIT_FSIZE does not apply. It also
// closes what let bots running at once signal each other through the
// inodes they share (sandboxRules): file watches fail, locks are granted
// without being taken, and the page cache is not asked what is cached.
// Every filter fails io_uring (it can open sockets and files without the
// system calls above) and clone3 (whose flags it cannot read; C
// libraries then fall back to clone) with ENOSYS, and kills a system call
// of another architecture (a 32-bit binary), since it cannot vouch for it.
func seccompInstall(noNet, noChildren, sandbox bool) error {
	filter := SeccompFilter(noNet, noChildren, sandbox)
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return errno
	}
	return nil
}

// The filter's instructions, return values and argument offsets.
const (
	ldW    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	jeq    = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	jge    = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	jset   = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	ret    = unix.BPF_RET | unix.BPF_K
	kill   = unix.SECCOMP_RET_KILL_PROCESS
	ok     = unix.SECCOMP_RET_ALLOW
	eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	eacces = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	enosy  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	enotsu = unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP)
	einval = unix.SECCOMP_RET_ERRNO | uint32(unix.EINVAL)
	// done returns 0 without making the call.
	done = unix.SECCOMP_RET_ERRNO | 0
	arg0 = 16 // low word of the first argument (little endian)
	arg1 = 24 // low word of the second
	arg5 = 56 // low word of the sixth
)

// SeccompFilter is seccompInstall's program: the architecture check, then
// one block per rule, each reloading the system call number.
func SeccompFilter(noNet, noChildren, sandbox bool) []unix.SockFilter {
	f := []unix.SockFilter{
		{Code: ldW, K: 4}, // arch
		{Code: jeq, Jt: 1, K: SeccompArch},
		{Code: ret, K: kill},
		{Code: ldW, K: 0},                     // syscall number
		{Code: jge, Jt: 0, Jf: 1, K: 1 << 30}, // x32 on amd64
		{Code: ret, K: kill},
	}
	rule := func(nr uint32, body ...unix.SockFilter) {
		f = append(f, unix.SockFilter{Code: ldW, K: 0}, unix.SockFilter{Code: jeq, Jt: 0, Jf: uint8(len(body)), K: nr})
		f = append(f, body...)
	}
	rule(unix.SYS_IO_URING_SETUP, unix.SockFilter{Code: ret, K: enosy})
	if sandbox || noChildren {
		rule(unix.SYS_CLONE3, unix.SockFilter{Code: ret, K: enosy})
		body := []unix.SockFilter{{Code: ldW, K: arg0}}
		if sandbox {
			body = append(body, unix.SockFilter{Code: jset, Jt: 0, Jf: 1, K: cloneNamespaces}, unix.SockFilter{Code: ret, K: eperm})
		}
		if noChildren {
			body = append(body, unix.SockFilter{Code: jset, Jt: 1, Jf: 0, K: unix.CLONE_THREAD}, unix.SockFilter{Code: ret, K: eperm})
		}
		rule(unix.SYS_CLONE, append(body, unix.SockFilter{Code: ret, K: ok})...)
	}
	if noChildren {
		for _, nr := range forkSyscalls {
			rule(nr, unix.SockFilter{Code: ret, K: eperm})
		}
	}
	if sandbox {
		sandboxRules(rule)
	}
	if noNet {
		for _, nr := range []uint32{unix.SYS_SOCKET, unix.SYS_SOCKETPAIR} {
			rule(nr,
				unix.SockFilter{Code: ldW, K: arg0},
				unix.SockFilter{Code: jeq, Jt: 0, Jf: 1, K: unix.AF_UNIX},
				unix.SockFilter{Code: ret, K: ok},
				unix.SockFilter{Code: ret, K: eacces})
		}
	}
	return append(f, unix.SockFilter{Code: ret, K: ok})
}

// sandboxRules are the sandbox's part of the filter, rule adding one
// block for a system call.
func sandboxRules(rule func(nr uint32, body ...unix.SockFilter)) {
	for _, nr := range sandboxDenied {
		rule(nr, unix.SockFilter{Code: ret, K: eperm})
	}
	for _, nr := range sandboxAbsent {
		rule(nr, unix.SockFilter{Code: ret, K: enosy})
	}
	// A reservation that keeps the file's size (and any other mode
	// but a plain allocation, which RLIMIT_FSIZE bounds) takes disk
	// at once, before a folder quota's watch can look.
	rule(unix.SYS_FALLOCATE,
		unix.SockFilter{Code: ldW, K: arg1},
		unix.SockFilter{Code: jeq, Jt: 0, Jf: 1, K: 0},
		unix.SockFilter{Code: ret, K: ok},
		unix.SockFilter{Code: ret, K: enotsu})
	// A lock one bot holds on a file another can open is a signal
	// between them: every lock is granted and none is taken, so F_GETLK
	// truthfully finds none. A lease (which breaks when another opens
	// the file) and dnotify (which tells of another's reads in a
	// folder) fail with EINVAL, as on a kernel without them.
	rule(unix.SYS_FLOCK, unix.SockFilter{Code: ret, K: done})
	rule(unix.SYS_FCNTL,
		unix.SockFilter{Code: ldW, K: arg1},
		unix.SockFilter{Code: jeq, Jt: 6, K: unix.F_SETLK},
		unix.SockFilter{Code: jeq, Jt: 5, K: unix.F_SETLKW},
		unix.SockFilter{Code: jeq, Jt: 4, K: unix.F_OFD_SETLK},
		unix.SockFilter{Code: jeq, Jt: 3, K: unix.F_OFD_SETLKW},
		unix.SockFilter{Code: jeq, Jt: 3, K: unix.F_SETLEASE},
		unix.SockFilter{Code: jeq, Jt: 2, K: unix.F_NOTIFY},
		unix.SockFilter{Code: ret, K: ok},
		unix.SockFilter{Code: ret, K: done},
		unix.SockFilter{Code: ret, K: einval})
	// A read with RWF_NOWAIT fails at once when its page is not cached:
	// whether another bot read it before, without timing anything. It
	// fails as on a file without the flag's support.
	for _, nr := range []uint32{unix.SYS_PREADV2, unix.SYS_PWRITEV2} {
		rule(nr,
			unix.SockFilter{Code: ldW, K: arg5},
			unix.SockFilter{Code: jset, Jt: 0, Jf: 1, K: unix.RWF_NOWAIT},
			unix.SockFilter{Code: ret, K: enotsu},
			unix.SockFilter{Code: ret, K: ok})
	}
}

// cloneNamespaces are the clone flags that make namespaces.
const cloneNamespaces = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWTIME
