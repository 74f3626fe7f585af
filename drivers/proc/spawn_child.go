package proc

import (
	"syscall"
	"unsafe"
)

// The child of a spawn runs between fork and exec with nothing of the Go
// runtime but the forking thread's stack: it may not allocate, grow its
// stack or take a lock, so it only interprets the system calls the parent
// wrote down (spawnProg), as the syscall package's own fork does for
// os/exec. The runtime's hooks around a fork are the syscall package's,
// reached as other sandboxes reach them (see go.dev/issue/67401).

//go:linkname runtime_BeforeFork syscall.runtime_BeforeFork
func runtime_BeforeFork()

//go:linkname runtime_AfterFork syscall.runtime_AfterFork
func runtime_AfterFork()

//go:linkname runtime_AfterForkInChild syscall.runtime_AfterForkInChild
func runtime_AfterForkInChild()

// spawnOp is one system call of the child's program.
type spawnOp struct {
	nr uintptr
	a  [6]uintptr
	// ok is an errno that counts as success; any makes every error one.
	ok  syscall.Errno
	any bool
	// skip is how many of the following calls to pass over when this
	// one succeeds (a mount point that exists needs no making).
	skip int
	// save keeps the call's result in the child's one register; use
	// (a bit per argument) puts the register in those arguments.
	save bool
	use  uint8
}

// spawnChild is what the child needs besides its program: every pointer
// in it and in ops points into memory the parent keeps alive until the
// fork returned.
type spawnChild struct {
	ops    []spawnOp
	stdio  [3]int // the descriptors that become 0, 1 and 2
	dir    *byte  // chdir first (nil: stay)
	setsid bool   // a session (and process group) of its own
	ppid   uintptr
	errFD  uintptr // where a failure goes: the op's index and errno
	path   *byte
	argv   **byte
	envv   **byte
	failed uintptr // exit status after a failure
	// syncR and syncW are a pipe the child waits on (a plain fork into a
	// user namespace) until the parent wrote its id maps and closed its
	// end; -1 when it need not wait.
	syncR, syncW int
	// step is, in the parent, the step that failed and its errno (nil:
	// the child exec'd).
	step *[2]int
}

// forkSpawn forks a child that runs c and execs; it returns the child's
// pid in the parent. With vfork the child borrows the parent's memory
// and this goroutine's stack below this frame (CLONE_VM|CLONE_VFORK: the
// parent's thread waits until the exec), as os/exec's fork does: copying
// the parent's page tables, and the copy-on-write faults after, cost more
// than all of a sandboxed start's other work. So the child writes
// nothing of the parent's but its own frames, which the parent no longer
// uses, and the results of the call it returns from. Without vfork (a
// child that must wait for its parent) it is a plain fork.
//
//go:noinline
//go:norace
//go:nocheckptr
func forkSpawn(flags uintptr, c *spawnChild, vfork bool) (pid int, err syscall.Errno) {
	runtime_BeforeFork()
	var r1, e uintptr
	if vfork {
		r1, e = vforkSyscall(syscall.SYS_CLONE, flags|syscall.CLONE_VM|syscall.CLONE_VFORK|uintptr(syscall.SIGCHLD), 0, 0)
	} else {
		var errno syscall.Errno
		r1, _, errno = syscall.RawSyscall6(syscall.SYS_CLONE, flags|uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
		e = uintptr(errno)
	}
	if e != 0 || r1 != 0 {
		runtime_AfterFork()
		return int(r1), syscall.Errno(e)
	}
	runtime_AfterForkInChild()
	spawnRun(c)
	return 0, 0
}

// spawnRun is the child: the parts of os/exec's fork the bot needs, then
// its program, then the exec. It never returns.
//
//go:nosplit
//go:norace
//go:nocheckptr
func spawnRun(c *spawnChild) {
	var e syscall.Errno
	if c.syncR >= 0 {
		// Wait for the parent's id maps: its end closed, nothing read.
		syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(c.syncW), 0, 0)
		var b [1]byte
		if r, _, _ := syscall.RawSyscall(syscall.SYS_READ, uintptr(c.syncR), uintptr(unsafe.Pointer(&b[0])), 1); r != 0 {
			spawnFail(c, -1, syscall.EPERM)
		}
	}
	if c.setsid {
		if _, _, e = syscall.RawSyscall(syscall.SYS_SETSID, 0, 0, 0); e != 0 {
			spawnFail(c, -1, e)
		}
	}
	// Die with arbiter, even when arbiter died before this line.
	syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0)
	if r, _, _ := syscall.RawSyscall(syscall.SYS_GETPPID, 0, 0, 0); r != c.ppid {
		spawnFail(c, -1, syscall.ESRCH)
	}
	if c.dir != nil {
		if _, _, e = syscall.RawSyscall(syscall.SYS_CHDIR, uintptr(unsafe.Pointer(c.dir)), 0, 0); e != 0 {
			spawnFail(c, -2, e)
		}
	}
	// The three descriptors go above 2 first, so that none is
	// overwritten before it is copied.
	var high [3]uintptr
	for i := 0; i < 3; i++ {
		r, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(c.stdio[i]), syscall.F_DUPFD_CLOEXEC, 3)
		if e != 0 {
			spawnFail(c, -1, e)
		}
		high[i] = r
	}
	for i := 0; i < 3; i++ {
		if _, _, e := syscall.RawSyscall(syscall.SYS_DUP3, high[i], uintptr(i), 0); e != 0 {
			spawnFail(c, -1, e)
		}
	}
	var reg uintptr
	for i := 0; i < len(c.ops); i++ {
		op := &c.ops[i]
		a := op.a
		for j := 0; j < 6; j++ {
			if op.use&(1<<j) != 0 {
				a[j] = reg
			}
		}
		r, _, e := syscall.RawSyscall6(op.nr, a[0], a[1], a[2], a[3], a[4], a[5])
		if e != 0 && !op.any && e != op.ok {
			spawnFail(c, i, e)
		}
		if op.save {
			reg = r
		}
		if e == 0 {
			i += op.skip
		}
	}
	_, _, e = syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(c.path)), uintptr(unsafe.Pointer(c.argv)), uintptr(unsafe.Pointer(c.envv)))
	spawnFail(c, len(c.ops), e)
}

// spawnFail tells the parent which step failed and how, and exits.
//
//go:nosplit
//go:norace
//go:nocheckptr
func spawnFail(c *spawnChild, step int, e syscall.Errno) {
	msg := [2]int32{int32(step), int32(e)}
	syscall.RawSyscall(syscall.SYS_WRITE, c.errFD, uintptr(unsafe.Pointer(&msg[0])), unsafe.Sizeof(msg))
	for {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, c.failed, 0, 0)
	}
}
