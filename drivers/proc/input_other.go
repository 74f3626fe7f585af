//go:build !amd64 && !386 && !arm && !mips && !mipsle

package proc

import "golang.org/x/sys/unix"

// isPollCall says whether system call nr waits on fds it does not show
// in /proc/TID/syscall: poll, select, epoll, in the forms every Linux
// architecture has (arm64 has only these).
func isPollCall(nr int) bool {
	switch nr {
	case unix.SYS_PPOLL, unix.SYS_PSELECT6, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2:
		return true
	}
	return false
}

// isEpollCall says whether system call nr is an epoll wait, whose fds its
// fdinfo shows (epollDoing).
func isEpollCall(nr int) bool {
	switch nr {
	case unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2:
		return true
	}
	return false
}

// futexTime64 is the futex call with 64-bit times of the 32-bit
// architectures: none here (-1 is no call's number).
const futexTime64 = -1
