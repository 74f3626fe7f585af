package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitExit returns once the process p has exited, without reaping it
// (its Wait then returns at once), waiting in Go's poller on a pidfd
// rather than in a blocking waitid. A goroutine blocked in a system call
// keeps its thread's Go processor until the runtime's monitor takes it
// back, which it checks for less often the longer it has been idle (up
// to every 10 ms); with one processor (a match pinned to one CPU) every
// bot's waiting for its exit held it in turn, and the other goroutines of
// the match (the next bot's start, the referee) sat runnable on an idle
// CPU: 6 ms a Planowanie game. Where the kernel cannot make a
// non-blocking pidfd (before Linux 5.10) it returns at once and Wait
// blocks as before.
func awaitExit(p *os.Process) {
	fd, err := unix.PidfdOpen(p.Pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool {
		// Readable once the process has exited; WNOWAIT leaves it for
		// Wait to reap.
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		return err != nil || info.Signo != 0
	})
}
