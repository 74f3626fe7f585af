//go:build 386 || arm || mips || mipsle

package proc

import "golang.org/x/sys/unix"

// isPollCall says whether system call nr waits on fds it does not show
// in /proc/TID/syscall: poll, select, epoll, with the 32-bit
// architectures' calls of 64-bit times beside the older ones. A 32-bit C
// library (glibc since 2.34) and Go's runtime make the *_time64 ones
// where the kernel has them.
func isPollCall(nr int) bool {
	switch nr {
	case unix.SYS_POLL, unix.SYS_PPOLL, unix.SYS_PPOLL_TIME64, unix.SYS__NEWSELECT, unix.SYS_PSELECT6,
		unix.SYS_PSELECT6_TIME64, unix.SYS_EPOLL_WAIT, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2:
		return true
	}
	return false
}

// futexTime64 is the futex call with 64-bit times, in which Go's runtime
// and a 32-bit C library wait on a lock (threadDoing).
const futexTime64 = unix.SYS_FUTEX_TIME64
