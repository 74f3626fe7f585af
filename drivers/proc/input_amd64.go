package proc

import "golang.org/x/sys/unix"

// isPollCall says whether system call nr waits on fds it does not show
// in /proc/TID/syscall: poll, select, epoll.
func isPollCall(nr int) bool {
	switch nr {
	case unix.SYS_POLL, unix.SYS_PPOLL, unix.SYS_SELECT, unix.SYS_PSELECT6,
		unix.SYS_EPOLL_WAIT, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2:
		return true
	}
	return false
}

// futexTime64 is the futex call with 64-bit times of the 32-bit
// architectures: none on amd64 (-1 is no call's number).
const futexTime64 = -1
