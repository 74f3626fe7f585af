package proc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// Box confines one bot process to its limits with the strongest
// mechanisms the machine offers (see Machine and Probe.Enforcements).
// Any layer that starts bot processes uses it the same way:
//
//	cmd := exec.Command(argv[0], argv[1:]...) // with Dir, Env, SysProcAttr set
//	box, err := proc.Prepare(cmd, limits, clock) // nil box: nothing to confine
//	err = proc.StartCmd(cmd, box)                // on error: box.Close(); never cmd.Start()
//	...
//	if f := box.Check(); f != nil { ... }        // after every answer
//	f := box.Explain(kind, ps, tail)             // when the bot misbehaved
//	box.Kill(); cmd.Wait(); box.Close()          // at the end
//
// All methods are safe on a nil *Box.
type Box struct {
	lim   drivers.Limits
	probe *Probe
	cmd   *exec.Cmd
	cg    *cgroup
	// folder is the private writable folder on the host ("" if none);
	// inside is where the bot sees its private folder ("" if none: the
	// sandbox's /tmp, or folder); tmpfs says it is a tmpfs in the bot's
	// mount namespace, seen through folderFD once the bot mounted it.
	folder   string
	inside   string
	tmpfs    bool
	folderFD int
	// mountPoints is how many of the entries in the bot's private /tmp
	// the sandbox made to mount the bot's own folders on (its dir under
	// /tmp and the folders above it): arbiter's, not the bot's.
	mountPoints int
	rl          func(res int, v uint64) // adds an rlimit to the shim's configuration
	cpu         time.Duration           // RLIMIT_CPU, 0 if none
	fileSize    int64                   // a per-move quota's RLIMIT_FSIZE, 0 if none
	data        bool                    // memory is only RLIMIT_DATA
	nproc       bool                    // processes is only RLIMIT_NPROC
	seccomp     bool
	// noChildren says the seccomp filter refuses the bot's forks
	// (children = false, where seccomp is available).
	noChildren bool
	build      bool   // a bot's build (PrepareBuild)
	cache      string // a build's cache folder, shown at BuildCache
	// lent is the bot's dir lent to the sandbox's uid for a build (nil:
	// none); Close gives it back.
	lent *lending
	// givenBack is why Close could not give lent back (GiveBackError).
	givenBack error
	// countersAt is when Check last read the cgroup's counters.
	countersAt time.Time
	killed     bool // Kill ran
	// perfData is the JVM perf data folder that is the bot's own in its
	// mount namespace (ownPerfData), "" if none.
	perfData string
	pidNS    bool // the bot is PID 1 of its own PID namespace
	// jvm says the program run is the java launcher (as written, or as
	// the sandbox resolved it): its limit faults say what to give it.
	// jvmHeap is the option its command gives that sizes its heap
	// ("" if none; see javacmd.MaxHeap),
	// jvmMissing the ThreadFlags it does not give.
	jvm        bool
	jvmHeap    string
	jvmMissing []string
	// netns is the network namespace lent to the bot (nil: none, or a
	// new one of its own); Close gives it back.
	netns     *netNS
	netnsLent bool // lent: Close gives it back; else it is closed
	// spawn is the child's program when the bot is spawned rather than
	// started through the shim (see spawnable), cfg what it was written
	// from (or what the shim was given), spawnMsgs what each of its steps' failure means, spawnBots
	// which of those failures are the bot's (see spawnProg.bots).
	// sandboxed says the bot is in the sandbox's root; shows, whether
	// that root holds a path of the host.
	sandboxed bool
	shows     func(string) bool
	// cgMu orders the reads of the cgroup's counters against Close,
	// which gives the cgroup away (cg nil, closed) and keeps the final
	// counts.
	cgMu                sync.Mutex
	closed              bool
	finalOOM, finalPids int64
	spawn               *spawnProg
	cfg                 *shimConfig
	spawnMsgs           []string
	spawnBots           []bool
}

// Prepare rewrites cmd, made by exec.Command with its Dir and Env, so
// that it starts the bot under lim: through the shim (this executable
// re-run), in its own namespaces, in its own cgroup. clock resolves
// cpu = "match". It returns a nil Box when lim sets no limit on the
// process itself (output is counted by the reader of the bot's answers),
// and an error, a start *Fault, when the bot cannot be started.
func Prepare(cmd *exec.Cmd, lim drivers.Limits, clock drivers.Clock) (*Box, error) {
	return prepare(cmd, lim, clock, "", 0)
}

// PrepareBuild is Prepare for a bot's build, which must write its output
// into the bot's own dir (cmd.Dir): that folder is writable for it (in
// the sandbox it is the one writable folder; as root, its folders and
// files are lent to the sandbox's uid for the build, recorded in LentDir,
// and Close gives them back).
// The build runs under BuildLimits(lim). cache, when not "", is the
// build's cache folder (BuildCache), kept by arbiter between builds of
// the bot: in the sandbox, it is shown writable at BuildCache (the
// private /tmp's .cache, $HOME/.cache, where Go, pip and ccache keep
// theirs); as root, its folders are the sandbox's uid's.
func PrepareBuild(cmd *exec.Cmd, lim drivers.Limits, clock drivers.Clock, cache string) (*Box, error) {
	lim = BuildLimits(lim)
	if lim.Memory == 0 && lim.CPU == "" && lim.Processes == 0 && !lim.NoNetwork() && lim.Files == 0 && lim.FileCount == 0 &&
		cmd.Dir == "" && lim.Sandbox == nil && !lim.NoChildren() {
		return nil, nil
	}
	return prepareWith(Machine(), cmd, lim, clock, cmd.Dir, 0, &buildConfig{cache: cache})
}

// Build floors: what a compiler may need beyond what a bot needs to play.
const (
	buildProcesses = 512     // a JVM's threads (javac), make -j's jobs
	buildMemory    = 2 << 30 // a C++ compiler on a template-heavy file
)

// BuildLimits are the limits a bot's build runs under: the bot's, in the
// same sandbox and without network when the bot has none, but with what a
// compiler needs beyond what a bot needs to play: it may start other
// processes (a compiler driver runs its passes as programs), and the
// bot's caps on tasks and memory are raised to at least 512 and 2 GiB.
func BuildLimits(lim drivers.Limits) drivers.Limits {
	lim.Children = nil
	if lim.Processes > 0 {
		lim.Processes = max(lim.Processes, buildProcesses)
	}
	if lim.Memory > 0 {
		lim.Memory = max(lim.Memory, buildMemory)
	}
	return lim
}

// prepare is Prepare; a non-empty writable confines the bot's writes to
// that existing folder (with Landlock, when there is no private folder)
// without a private folder of its own: per-move games keep their bots'
// files in the game's folders and count them by the game's own rules;
// fileSize, when positive, caps every file the bot writes (RLIMIT_FSIZE:
// a per-move run's FolderQuota) where the bot is confined anyway.
func prepare(cmd *exec.Cmd, lim drivers.Limits, clock drivers.Clock, writable string, fileSize int64) (*Box, error) {
	if lim.Memory == 0 && lim.CPU == "" && lim.Processes == 0 && !lim.NoNetwork() && lim.Files == 0 && lim.FileCount == 0 &&
		writable == "" && lim.Sandbox == nil && !lim.NoChildren() {
		return nil, nil
	}
	return prepareWith(Machine(), cmd, lim, clock, writable, fileSize, nil)
}

// buildConfig is what a bot's build has beside a bot (PrepareBuild).
type buildConfig struct {
	cache string // its cache folder, "" for none
}

// prepareWith is prepare on the machine p found; build is set for a
// bot's build (PrepareBuild).
func prepareWith(p *Probe, cmd *exec.Cmd, lim drivers.Limits, clock drivers.Clock, writable string, fileSize int64, build *buildConfig) (*Box, error) {
	if cmd.Err != nil {
		return nil, startFault(cmd.Args, cmd.Dir, cmd.Err)
	}
	prog := cmd.Path
	if !filepath.IsAbs(prog) {
		prog = filepath.Join(cmd.Dir, prog)
	}
	if st, err := os.Stat(prog); err != nil || st.IsDir() {
		if err == nil {
			err = errors.New("is a directory")
		}
		return nil, faultf(drivers.FaultStart, "cannot start %s: %v", strings.Join(cmd.Args, " "), err)
	}
	if lim.Sandbox != nil {
		if err := p.SandboxFailure(); err != nil {
			return nil, err
		}
	}
	b := &Box{lim: lim, probe: p, cmd: cmd, folderFD: -1, build: build != nil}
	if build != nil {
		b.cache = build.cache
	}
	var err error
	cfg := shimConfig{Path: cmd.Path, Args: cmd.Args}
	b.rl = func(res int, v uint64) { cfg.Rlimits = append(cfg.Rlimits, rlimit{Resource: res, Value: v}) }
	b.baseRlimits()
	if len(p.cgroupBases()) > 0 {
		if b.cg, err = leaseCgroup(p, lim.Memory, lim.Processes); err != nil {
			return nil, err
		}
		cfg.Cgroups = b.cg.procsFiles()
	}
	if lim.Memory > 0 && (b.cg == nil || b.cg.memory == "") {
		b.data = true
		b.rl(unix.RLIMIT_DATA, uint64(lim.Memory+dataSlack))
	}
	userNS := false
	if lim.Processes > 0 && (b.cg == nil || b.cg.pids == "") && p.nprocWorks() {
		b.rl(unix.RLIMIT_NPROC, uint64(lim.Processes))
		b.nproc, userNS = true, true
	}
	if err := b.cpuLimit(clock); err != nil {
		b.Close()
		return nil, err
	}
	if fileSize > 0 {
		b.fileSize = fileSize
		b.rl(unix.RLIMIT_FSIZE, uint64(fileSize))
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	sandboxed := lim.Sandbox != nil && p.Sandbox
	b.sandboxed = sandboxed
	if sandboxed {
		env, err = b.sandbox(&cfg, prog, writable, env)
	} else {
		env, err = b.folders(&cfg, writable, env)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	b.noteJVM(&cfg, env)
	if lim.NoNetwork() && p.Seccomp {
		b.seccomp, cfg.Seccomp = true, true
	}
	b.noChildren = lim.NoChildren() && p.Seccomp
	cfg.NoChildren = b.noChildren
	b.namespaces(sandboxed, userNS)
	if err := b.launcher(&cfg, env); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// baseRlimits are every confined bot's and build's rlimits: no core
// files, and no real-time priority or nice value below the one it starts
// with, whatever arbiter's limits allow: where the organiser may raise
// its priority (rtprio in limits.conf), a bot could otherwise take a
// real-time policy (SCHED_FIFO) and starve the other bots and arbiter.
func (b *Box) baseRlimits() {
	b.rl(unix.RLIMIT_CORE, 0)
	b.rl(unix.RLIMIT_RTPRIO, 0)
	b.rl(unix.RLIMIT_NICE, 0)
}

// noteJVM notes whether the bot's program is a JVM, or a shell whose -c
// script, or a wrapper script whose one command, is java's simple
// command (javacmd.Launched), and what of a heap and the small-limit
// thread options that command gives it, for its memory and process
// faults to say.
func (b *Box) noteJVM(cfg *shimConfig, env []string) {
	dir := ""
	if b.cmd != nil {
		dir = b.cmd.Dir
	}
	command, _ := javacmd.Launched(append([]string{cfg.Path}, cfg.Args[1:]...), dir)
	if b.jvm = command != nil; b.jvm {
		b.jvmHeap = javacmd.MaxHeap(command, env)
		b.jvmMissing = javacmd.MissingThreadFlags(command, env)
	}
}

// launcher sets how the bot starts: spawned (see spawnable), or through
// the shim, this executable re-run with cfg in its environment (its own
// image: OwnImage).
func (b *Box) launcher(cfg *shimConfig, env []string) error {
	cmd := b.cmd
	b.cfg = cfg // the bot's program and arguments, for execFault
	if b.spawnable(cmd.SysProcAttr) {
		var err error
		if b.spawn, err = compileSpawn(cfg, b.netns, cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWUSER != 0); err != nil {
			return faultf(drivers.FaultStart, "%v", err)
		}
		cmd.Env = env
		cmd.Err = errSpawned // a cmd.Start() must not start it unconfined
		return nil
	}
	if b.netns != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, b.netns.ns)
		cfg.NetNS = 2 + len(cmd.ExtraFiles)
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	cmd.Env = append(env, shimEnv+"="+string(js))
	cmd.Path = OwnImage
	cmd.Args = []string{"arbiter-shim"}
	return nil
}

// namespaces sets the namespaces the bot's process is cloned in, and the
// network namespace it is lent instead of a new one (see leaseNetNS).
func (b *Box) namespaces(sandboxed, userNS bool) {
	p, cmd := b.probe, b.cmd
	attr := cmd.SysProcAttr
	if attr == nil {
		attr = &syscall.SysProcAttr{}
		cmd.SysProcAttr = attr
	}
	if sandboxed {
		sandboxAttr(attr, p.Root)
		b.pidNS = true
	} else {
		attr.Cloneflags |= p.cloneFlags(b.lim, b.tmpfs || b.perfData != "")
		b.pidNS = attr.Cloneflags&syscall.CLONE_NEWPID != 0
		if userNS && !p.Root {
			attr.Cloneflags |= syscall.CLONE_NEWUSER
		}
		if attr.Cloneflags&syscall.CLONE_NEWUSER != 0 {
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		}
	}
	if attr.Cloneflags&syscall.CLONE_NEWNET == 0 || attr.Cloneflags&syscall.CLONE_NEWUSER != 0 || !p.Root {
		return
	}
	// A lent namespace goes back when the bot's PID namespace has ended,
	// which proves every process that was in it gone. Only a sandboxed
	// bot without internet sockets gets one (see netns.go); another gets
	// a new one, made ahead of time.
	var ns *netNS
	var err error
	if b.pidNS && sandboxed && b.seccomp {
		ns, err = leaseNetNS()
		b.netnsLent = err == nil
	} else {
		ns, err = freshNetNS()
	}
	if err == nil { // else cloned in a new one
		b.netns = ns
		attr.Cloneflags &^= syscall.CLONE_NEWNET
	}
}

// cpuLimit sets RLIMIT_CPU from the cpu limit.
func (b *Box) cpuLimit(clock drivers.Clock) error {
	switch {
	case b.lim.CPU == "match" && clock.Total > 0:
		b.cpu = time.Duration(clock.Total+clock.Startup) + time.Second
	case b.lim.CPU != "" && b.lim.CPU != "match":
		d, err := time.ParseDuration(b.lim.CPU)
		if err != nil || d <= 0 {
			return fmt.Errorf("bad cpu limit %q", b.lim.CPU)
		}
		b.cpu = d
	}
	if b.cpu > 0 {
		b.rl(unix.RLIMIT_CPU, uint64((b.cpu+time.Second-1)/time.Second))
	}
	return nil
}

// folders sets up the private folder and the confinement of writes of a
// bot outside the sandbox.
func (b *Box) folders(cfg *shimConfig, writable string, env []string) ([]string, error) {
	p, lim := b.probe, b.lim
	// The child confines the bot's writes after its chdir to cmd.Dir: a
	// relative folder (a match's under a relative -out) would be looked
	// up again from in there. (The sandbox's plan makes its own paths
	// absolute.)
	writable, err := absFolder(writable)
	if err != nil {
		return nil, err
	}
	if lim.Files > 0 || lim.FileCount > 0 {
		tmp, err := absFolder(os.TempDir())
		if err != nil {
			return nil, err
		}
		if b.folder, err = os.MkdirTemp(tmp, "arbiter-files-"); err != nil {
			return nil, err
		}
		b.inside = b.folder
		cfg.Folder = b.folder
		env = append(env, "ARBITER_FILES="+b.folder, "TMPDIR="+b.folder)
		if p.MountNS {
			b.tmpfs, cfg.Tmpfs = true, true
			cfg.TmpfsSize = (lim.Files+4095)/4096*4096 + 4096
			if lim.Files == 0 {
				cfg.TmpfsSize = 1 << 30
			}
			if lim.FileCount > 0 {
				cfg.TmpfsInodes = lim.FileCount + 2 // the root, and one over to notice
			}
		}
		if lim.Files > 0 {
			b.rl(unix.RLIMIT_FSIZE, uint64(lim.Files)+1)
		}
		cfg.Landlock = p.Landlock
	}
	if writable != "" && b.folder == "" && p.Landlock > 0 {
		cfg.Folder, cfg.Landlock = writable, p.Landlock
	}
	b.ownPerfData(cfg, b.cmd.Dir, writable, b.folder)
	return env, nil
}

// absFolder is dir made absolute from arbiter's working folder ("" stays
// ""): the folder the bot may write in is named to the child that starts
// it, which has already moved to the bot's own folder.
func absFolder(dir string) (string, error) {
	if dir == "" || filepath.IsAbs(dir) {
		return dir, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("the bot's folder %s: %w", dir, err)
	}
	return abs, nil
}

// sandbox lays out the bot's root (see sandbox.go): a session bot's
// private folder is its /tmp, a per-move bot writes in writable.
func (b *Box) sandbox(cfg *shimConfig, prog, writable string, env []string) ([]string, error) {
	lim := b.lim
	own := b.cmd.Path == OwnImage
	if own {
		prog = shownPath(b.cmd)
	}
	sp, err := planSandbox(lim.Sandbox, prog, b.cmd.Dir, writable, env, b.cmd.Args)
	if err != nil {
		return nil, err
	}
	b.shows = sp.shows
	switch {
	case own:
		hideOwnPath(&sp.root, prog)
	case sp.program != "":
		cfg.Path = sp.program
		cfg.Args = append([]string{sp.program}, cfg.Args[1:]...)
	}
	uid, gid := os.Getuid(), os.Getgid()
	if b.probe.Root {
		uid, gid = SandboxUID, SandboxUID
		sp.root.UID, sp.root.GID = uid, gid
		switch {
		case writable != "" && b.build:
			// A build rewrites what an earlier build made (javac its
			// .class files, make its objects), which Close gave back.
			if b.lent, err = lendTree(writable, uid, gid); err != nil {
				return nil, err
			}
		case writable != "":
			chownTree(writable, uid, gid)
		}
	}
	size := int64(sandboxTmp)
	if b.build {
		// A compiler's scratch and caches (Go's build cache, javac's
		// temporary files): bounded by the build's memory all the same.
		size = buildTmp
	}
	opts := fmt.Sprintf("mode=0700,uid=%d,gid=%d", uid, gid)
	if writable == "" && (lim.Files > 0 || lim.FileCount > 0) {
		b.tmpfs, b.inside = true, "/tmp"
		b.mountPoints = mountPointsIn("/tmp", sp.root.Ops)
		if lim.Files > 0 {
			size = (lim.Files+4095)/4096*4096 + 4096
			b.rl(unix.RLIMIT_FSIZE, uint64(lim.Files)+1)
		}
		if lim.FileCount > 0 {
			// The root, the mount points, and one over to notice.
			opts += ",nr_inodes=" + strconv.Itoa(lim.FileCount+2+b.mountPoints)
		}
		env = append(env, "ARBITER_FILES=/tmp")
	}
	opts += ",size=" + strconv.FormatInt(size, 10)
	ops := append(sp.root.Ops, mountOp{Kind: "tmpfs", Path: "/tmp", Opts: opts})
	if b.build && b.cache != "" {
		if b.probe.Root {
			chownTree(b.cache, uid, gid)
		}
		ops = append(ops, mountOp{Kind: "rw", Path: BuildCache, Src: b.cache})
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Path < ops[j].Path })
	sp.root.Ops = ops
	cfg.Root = &sp.root
	return append(env, "TMPDIR=/tmp"), nil
}

// dataSlack is added to the memory limit when it is enforced with
// RLIMIT_DATA, which counts address space a runtime reserves writable but
// never touches: a Go program holds some 40 MiB of it (its heap arena
// index) before it allocates anything, so a Go bot using 30 MiB would die
// under a 100 MiB RLIMIT_DATA.
const dataSlack = 64 << 20

// countersEvery is how often Check reads the cgroup's counters. Reading
// a cgroup file costs more than a whole exchange with a fast bot (a
// Planowanie game has some 4000), so reading them after every answer
// doubled the length of a game; a bot killed by a limit is found at once
// anyway, by Explain.
const countersEvery = 50 * time.Millisecond

// Check looks for a limit the bot went over while it kept running: a
// process killed at the memory limit, a fork refused at the process
// limit (both read from the cgroup at most every countersEvery), a
// private folder over its size or count (one fstatfs). Drivers call it
// after every answer.
func (b *Box) Check() *Fault {
	if b == nil {
		return nil
	}
	now := time.Now()
	if now.Sub(b.countersAt) < countersEvery {
		if b.tmpfs { // one fstatfs; a plain folder's walk waits its turn
			return b.checkFolder()
		}
		return nil
	}
	b.countersAt = now
	return b.check()
}

// check is Check without sparing the counters.
func (b *Box) check() *Fault {
	if f := b.counters(); f != nil {
		return f
	}
	return b.checkFolder()
}

// checkFolder checks the private folder's size and count.
func (b *Box) checkFolder() *Fault {
	if b.inside != "" {
		bytes, files, ok := b.usage()
		switch {
		case !ok:
		case b.lim.Files > 0 && bytes > b.lim.Files:
			return faultf(drivers.FaultFiles, "filled its folder with %d bytes, over its limit of %s", bytes, Size(b.lim.Files))
		case b.lim.FileCount > 0 && files > int64(b.lim.FileCount):
			return faultf(drivers.FaultFiles, "made %d files and folders in its folder, over its limit of %d", files, b.lim.FileCount)
		}
	}
	return nil
}

// usage is what the bot's private folder holds.
func (b *Box) usage() (bytes, files int64, ok bool) {
	if b.tmpfs {
		if b.folderFD < 0 && b.cmd.Process != nil {
			// The folder is a tmpfs only in the bot's mount namespace: hold
			// it open through the bot's root, so it can still be measured
			// once the bot is gone.
			fd, err := unix.Open(fmt.Sprintf("/proc/%d/root%s", b.cmd.Process.Pid, b.inside), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				return 0, 0, false
			}
			var st unix.Statfs_t
			if unix.Fstatfs(fd, &st) != nil || st.Type != unix.TMPFS_MAGIC {
				unix.Close(fd) // not mounted yet
				return 0, 0, false
			}
			b.folderFD = fd
		}
		if b.folderFD < 0 {
			return 0, 0, false
		}
		var st unix.Statfs_t
		if unix.Fstatfs(b.folderFD, &st) != nil {
			return 0, 0, false
		}
		return int64(st.Blocks-st.Bfree) * int64(st.Bsize), int64(st.Files-st.Ffree) - 1 - int64(b.mountPoints), true
	}
	err := filepath.WalkDir(b.folder, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == b.folder {
			return nil
		}
		files++
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			bytes += info.Size()
		}
		return nil
	})
	return bytes, files, err == nil
}

// Explain says which limit, if any, ended the bot: found is the kind of
// the fault the caller saw (drivers.FaultCrash for a bot that ended
// without its answer), ps its exit state (nil while it runs) and
// stderrTail the end of what it wrote to stderr. It returns nil when no
// limit is to blame.
//
// A time fault is the arbiter's own verdict, from its clock: it is never
// relabelled. What the bot wrote to stderr is the bot's to choose, so the
// guesses made from it (a refused fork, an allocation that failed under
// RLIMIT_DATA, a failing shim) only ever explain a crash, or the wrong
// answer of a JVM under RLIMIT_DATA that ended (jvmReportsMemory): a bot
// that prints "Cannot fork" and then overruns its time is still late,
// and one that fakes the JVM's report still loses, as a memory fault.
func (b *Box) Explain(found string, ps *os.ProcessState, stderrTail string) *Fault {
	if b == nil || found == drivers.FaultTime {
		return nil
	}
	if f := b.check(); f != nil {
		return f
	}
	if ps == nil {
		return nil
	}
	ws, _ := ps.Sys().(syscall.WaitStatus)
	cpu := ps.UserTime() + ps.SystemTime()
	crash := found == drivers.FaultCrash
	switch {
	case crash && ws.Exited() && ws.ExitStatus() == shimFailed && strings.Contains(stderrTail, "arbiter shim: "):
		_, msg, _ := strings.Cut(stderrTail, "arbiter shim: ")
		msg, _, _ = strings.Cut(msg, "\n")
		if f := b.shimExecFault(msg); f != nil {
			return f
		}
		return faultf(drivers.FaultStart, "%s", msg)
	case ws.Signaled() && ws.Signal() == syscall.SIGSYS && (b.seccomp || b.sandboxed || b.lim.NoChildren()):
		return faultf(drivers.FaultCrash, "made a system call of another architecture (a 32-bit one), which the sandbox's filter cannot vouch for: killed")
	case ws.Signaled() && ws.Signal() == syscall.SIGXFSZ && b.lim.Files > 0:
		return faultf(drivers.FaultFiles, "wrote a file over its limit of %s: killed", Size(b.lim.Files))
	case ws.Signaled() && ws.Signal() == syscall.SIGXFSZ && b.fileSize > 0:
		// (Its own folder is within its quota, or it would have been
		// said: the file is elsewhere, in the sandbox's /tmp.)
		return faultf(drivers.FaultFiles, "wrote a file over %d bytes, the most any file of its may hold while it runs (its folder's quota, at least 1MiB; RLIMIT_FSIZE): killed", b.fileSize-1)
	case b.cpu > 0 && ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL && cpu >= b.cpu-time.Second):
		return b.cpuFault(cpu)
	case crash && b.noChildren && (ws.Signaled() || ws.ExitStatus() != 0) && forkRefused(stderrTail):
		return faultf(drivers.FaultProcesses, "tried to start another program, which this game forbids (children = false; its stderr says a new process was refused): do the work in the bot's own process (in a shell script each grep, cut, sed or $(...) starts one: use the shell's read, case and $((...)) instead)")
	case crash && b.nproc && (ws.Signaled() || ws.ExitStatus() != 0) && taskRefused(stderrTail):
		// (After the seccomp filter's refusals of children, which come
		// first, and before the memory evidence: a JVM says its thread
		// was refused with an OutOfMemoryError.)
		return b.taskFault(stderrTail)
	case crash && b.data && (ws.Signaled() || ws.ExitStatus() != 0) && outOfMemory(stderrTail):
		return faultf(drivers.FaultMemory, "ran out of memory under its limit of %s (RLIMIT_DATA)", Size(b.lim.Memory))
	case b.jvmReportsMemory(found) && (ws.Signaled() || ws.ExitStatus() != 0) && jvmOutOfMemory(stderrTail):
		return faultf(drivers.FaultMemory, "ran out of memory under its limit of %s (RLIMIT_DATA): the JVM could not commit the memory it asked for "+
			"and ended with its fatal error report, whose '#' lines on its output are no answer%s", Size(b.lim.Memory), b.jvmMemoryHint())
	}
	return nil
}

// jvmReportsMemory says whether a fault of kind found may be a JVM's
// failure to get memory under RLIMIT_DATA (which has no kernel counter):
// the bot is a JVM under a memory limit enforced by RLIMIT_DATA alone,
// and the fault a crash, or a protocol fault, since the JVM prints its
// fatal error report ("#" lines: "There is insufficient memory for the
// Java Runtime Environment to continue") on its output, where the
// referee reads it as an answer. Explain takes the JVM's own report on
// its stderr (jvmOutOfMemory) as the evidence, as a crash's stderr is.
func (b *Box) jvmReportsMemory(found string) bool {
	return b != nil && b.data && b.jvm && (found == drivers.FaultCrash || found == drivers.FaultProtocol)
}

// jvmOutOfMemory recognises a HotSpot JVM's report, on stderr, of memory
// it could not get: its warning that os::commit_memory failed with
// ENOMEM (errno=12, which it words "Not enough space" or "Cannot
// allocate memory"), or its fatal error report when written to stderr
// (-XX:+DisplayVMOutputToStderr).
func jvmOutOfMemory(stderr string) bool {
	stderr = strings.ToLower(stderr)
	return strings.Contains(stderr, "os::commit_memory") && strings.Contains(stderr, "errno=12") ||
		strings.Contains(stderr, "insufficient memory for the java runtime environment")
}

// jvmReportLine says whether line, read where an answer was due, may be
// a line of a HotSpot JVM's fatal error report, which it prints on its
// output: every one of them begins with '#' (the first is "#" alone). A
// game whose answers are read one process at a time (RunOnce), or whose
// referee judges the line itself (Session.ExplainAnswer), has only this
// line to tell the report from an answer by; no game's answer begins so.
func jvmReportLine(line string) bool { return strings.HasPrefix(line, "#") }

// jvmErrorFile says whether name is a HotSpot JVM's error file, which it
// writes in its working directory when it ends with its fatal error
// report: hs_err_pid<N>.log.
func jvmErrorFile(name string) bool {
	ok, _ := filepath.Match("hs_err_pid*.log", name)
	return ok
}

// fileStamp identifies one version of a file: its inode and its change
// time, which any write, rename or utimes changes and no process can set.
type fileStamp struct {
	ino   uint64
	ctime syscall.Timespec
}

// stampOfFile is fi's stamp; false when the system gives none.
func stampOfFile(fi fs.FileInfo) (fileStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{ino: st.Ino, ctime: st.Ctim}, true
}

// jvmErrorFiles is the JVM's error files (jvmErrorFile) dir holds before
// a run, each with its stamp, for removeJVMErrorFiles to leave alone: a
// file of that name the bot had before the run (a Euchre bot's memory
// file may be so named) is the bot's. Nil when dir is "" or cannot be
// read.
func jvmErrorFiles(dir string) map[string]fileStamp {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	files := map[string]fileStamp{}
	for _, e := range entries {
		if !jvmErrorFile(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil {
			if st, ok := stampOfFile(fi); ok {
				files[e.Name()] = st
			}
		}
	}
	return files
}

// removeJVMErrorFiles removes from dir the error files a JVM that ended
// with its fatal error report wrote there, in its working directory,
// during the run: hs_err_pid<N>.log (its report at length, the JVM's,
// not the bot's). A per-move bot's folder is the game's to judge (an
// Auction bot's files, a Euchre bot's memory file), and the JVM's report
// of memory it could not get is the memory verdict, not a breach of the
// folder's rules. Only regular files, and none of those that dir held,
// unchanged, before the run (before, from jvmErrorFiles; nil: nothing is
// removed). dir is read as a folder, never as a pattern.
func removeJVMErrorFiles(dir string, before map[string]fileStamp) {
	if dir == "" || before == nil {
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !jvmErrorFile(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if st, ok := stampOfFile(fi); !ok || before[e.Name()] == st {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

// cpuFault is the verdict of a process the kernel killed at its CPU
// limit (RLIMIT_CPU, whole seconds). The CPU time the kernel then reports
// for it (rusage) is sampled at clock ticks and may fall short of the
// limit it enforced: it is given as what it is, not as the time used.
func (b *Box) cpuFault(reported time.Duration) *Fault {
	limit := fmt.Sprint(b.cpu)
	if enforced := (b.cpu + time.Second - 1) / time.Second * time.Second; enforced != b.cpu {
		limit += fmt.Sprintf(" (enforced in whole seconds: %v)", enforced)
	}
	return faultf(drivers.FaultTime, "reached its CPU time limit of %s in one process: killed (the kernel, which samples CPU time at clock ticks, reported %v)",
		limit, reported.Round(10*time.Millisecond))
}

// forkRefused recognises how common runtimes fail when the seccomp filter
// refuses a new process (EPERM from fork, vfork or clone): the evidence
// under children = false, which has no kernel counter. dash says "Cannot
// fork", bash "fork: Operation not permitted", Java "Cannot run program
// ... Operation not permitted", Python's subprocess a PermissionError
// raised in subprocess.py.
func forkRefused(stderr string) bool {
	stderr = strings.ToLower(stderr)
	if strings.Contains(stderr, "cannot fork") {
		return true
	}
	if !strings.Contains(stderr, "operation not permitted") {
		return false
	}
	for _, s := range []string{"fork", "cannot run program", "subprocess", "spawn"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// taskRefused recognises how common runtimes fail when RLIMIT_NPROC
// refuses a new thread or process (EAGAIN from clone): the evidence
// under RLIMIT_NPROC, which has no kernel counter (a pids cgroup counts
// the refusals instead). Python says "can't start new thread" (3.13:
// "can't create new thread"), and "[Errno 11] Resource temporarily
// unavailable" from os.fork or subprocess; bash "fork: retry: Resource
// temporarily unavailable", dash "Cannot fork"; Java "unable to create
// native thread" (or "new native thread"); Go "failed to create new OS
// thread" or "pthread_create failed: Resource temporarily unavailable";
// C++'s std::thread a std::system_error "Resource temporarily
// unavailable" (which names no thread: it is taken only beside one of
// these words, as EAGAIN is also a non-blocking read's).
func taskRefused(stderr string) bool {
	stderr = strings.ToLower(stderr)
	for _, s := range []string{"can't start new thread", "can't create new thread", "cannot fork", "create native thread", "create new native thread", "failed to create new os thread"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	// EAGAIN is also a non-blocking read's or write's: it counts only
	// with a call that makes a task on its own line or the two before
	// (the traceback's last call, C++'s "what():" under its exception),
	// and Python's header of an exception raised in a thread names no
	// call.
	lines := strings.Split(stderr, "\n")
	for i, line := range lines {
		if !strings.Contains(line, "resource temporarily unavailable") {
			continue
		}
		near := strings.ReplaceAll(strings.Join(lines[max(0, i-2):i+1], "\n"), "exception in thread", "")
		for _, s := range []string{"fork", "thread", "spawn", "subprocess", "cannot run program", "system_error"} {
			if strings.Contains(near, s) {
				return true
			}
		}
	}
	return false
}

// taskFault is the verdict of a bot that died of a thread or process
// refused under RLIMIT_NPROC (taskRefused). Under RLIMIT_DATA too, a
// refused thread need not be its process limit: every thread's stack is
// counted in its data (Python's default is 8 MiB) and glibc says EAGAIN
// when it cannot map one, as clone does at RLIMIT_NPROC, so a bot of a
// few threads whose memory is nearly used is refused one the same way:
// then the detail names both limits, not a number of tasks it may never
// have had.
func (b *Box) taskFault(stderr string) *Fault {
	if b.data && threadRefused(stderr) {
		return faultf(drivers.FaultProcesses, "a new thread was refused (its stderr says so): more than %d processes and threads at once (RLIMIT_NPROC), or no room for the thread's stack under its memory limit of %s (RLIMIT_DATA, which counts every thread's stack)%s",
			b.lim.Processes, Size(b.lim.Memory), b.jvmThreadsHint())
	}
	return faultf(drivers.FaultProcesses, "tried to have more than %d processes and threads at once (its stderr says a new thread or process was refused: RLIMIT_NPROC)%s", b.lim.Processes, b.jvmThreadsHint())
}

// threadRefused says whether the refusal taskRefused found is of a
// thread (rather than of a fork, which RLIMIT_DATA does not refuse).
func threadRefused(stderr string) bool {
	stderr = strings.ToLower(stderr)
	return strings.Contains(stderr, "thread") || strings.Contains(stderr, "system_error")
}

// outOfMemory recognises how common runtimes die when an allocation
// fails: the evidence under RLIMIT_DATA, which has no kernel counter.
func outOfMemory(stderr string) bool {
	stderr = strings.ToLower(stderr)
	for _, s := range []string{"out of memory", "memoryerror", "cannot allocate memory", "bad_alloc", "outofmemoryerror", "memory allocation of"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// Kill kills every process in the bot's cgroup. The caller still kills
// the process itself (and its group), which also ends its PID namespace.
func (b *Box) Kill() {
	if b != nil {
		b.cgMu.Lock()
		defer b.cgMu.Unlock()
		if !b.pidNS {
			// (A bot that is PID 1 of its namespace takes all it started
			// with it when the caller kills it.)
			b.cg.kill() // none once closed: it may be another bot's now
		}
		b.killed = true
	}
}

// Contained reports whether nothing the bot starts can outlive it: it is
// PID 1 of a PID namespace of its own, whose processes the kernel kills
// when it ends. Then no search for escaped descendants is needed.
func (b *Box) Contained() bool {
	return b != nil && b.pidNS
}

// abortNote is what the detail of a crash by ws adds when the bot was
// PID 1 of its own PID namespace and died of SIGSEGV: there the kernel
// drops the SIGABRT a process sends itself, and glibc's abort() (a failed
// assert, an uncaught C++ exception, Python's os.abort) ends it with the
// SIGSEGV of its last resort instead, so the signal alone does not tell
// a segmentation fault from an abort. "" otherwise.
func (b *Box) abortNote(ws syscall.WaitStatus) string {
	if !b.Contained() || !ws.Signaled() || ws.Signal() != syscall.SIGSEGV {
		return ""
	}
	return " (or an abort(): a failed assert, an uncaught C++ exception; the bot is PID 1 of its own PID namespace, " +
		"where the kernel drops the SIGABRT a process sends itself and abort() ends it with SIGSEGV)"
}

// Close removes the cgroup and the private folder, or lends them again,
// and gives a build's lent dir back; call it once the bot has been
// waited for. A second Close does nothing.
func (b *Box) Close() {
	if b == nil {
		return
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	// What the counters said at the end stays the bot's, whoever the
	// cgroup is lent to next.
	b.finalOOM, b.finalPids = b.cg.oomKills(), b.cg.pidsDenied()
	ended := b.cmd.ProcessState != nil || b.cmd.Process == nil // or never started
	switch {
	case b.sandboxed && b.pidNS && ended:
		// Nothing of the bot is left, and it could not reach its cgroup's
		// files (its root has no /sys): lend the cgroup again.
		b.cg.giveBack()
	default:
		if !b.killed {
			b.cg.kill()
		}
		b.cg.remove()
	}
	b.cg = nil
	if b.spawn != nil {
		b.spawn.close()
		b.spawn = nil
	}
	if b.netns != nil {
		if ended && b.netnsLent {
			returnNetNS(b.netns)
		} else {
			b.netns.close()
		}
		b.netns = nil
	}
	if b.folderFD >= 0 {
		unix.Close(b.folderFD)
		b.folderFD = -1
	}
	if b.folder != "" {
		_ = os.RemoveAll(b.folder)
	}
	// After the cgroup: its processes are gone (killed, and waited for
	// by its removal). A folder not given back keeps its record, for
	// GiveBackAbandoned once this arbiter has ended.
	if err := b.lent.giveBack(); err != nil && b.givenBack == nil {
		b.givenBack = err
	}
	b.lent = nil
}

// GiveBackError is why Close could not give back the folder lent to a
// build (its record is kept, for the next arbiter), nil when it could or
// none was lent.
func (b *Box) GiveBackError() error {
	if b == nil {
		return nil
	}
	return b.givenBack
}

// Folder is the bot's private writable folder, "" if it has none.
func (b *Box) Folder() string {
	if b == nil {
		return ""
	}
	return b.folder
}

// Size formats a byte count the way limits are written: "400MiB", "10MB".
func Size(n int64) string { return drivers.FormatSize(n) }

// execFault is the start fault of a bot whose program's exec failed with
// e, in its sandbox or out of it: its "#!" interpreter when that is to
// blame (interpreterFault), as the bot's sandbox sees it.
func (b *Box) execFault(e error) *Fault {
	args := b.cmd.Args
	if b.cfg != nil {
		args = b.cfg.Args
	}
	path := b.cmd.Path
	if b.cfg != nil && b.cfg.Path != "" {
		path = b.cfg.Path
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(b.cmd.Dir, path)
	}
	var shows func(string) bool
	if b.sandboxed {
		shows = b.shows
	}
	why := interpreterFault(path, args[0], e, shows)
	if why == "" {
		why = hiddenLinkFault(path, b.cmd.Dir, e, shows)
	}
	if why != "" {
		return faultf(drivers.FaultStart, "cannot start %s: %s", strings.Join(args, " "), why)
	}
	return faultf(drivers.FaultStart, "cannot start %s: %v", strings.Join(args, " "), e)
}

// shimExecFault is execFault for the shim's report msg of its exec's
// failure ("cannot start ARGS: ERROR"); nil for another report.
func (b *Box) shimExecFault(msg string) *Fault {
	for _, e := range []syscall.Errno{syscall.ENOENT, syscall.ENOEXEC, syscall.EACCES} {
		if strings.HasPrefix(msg, "cannot start ") && strings.HasSuffix(msg, ": "+e.Error()) {
			return b.execFault(e)
		}
	}
	return nil
}
