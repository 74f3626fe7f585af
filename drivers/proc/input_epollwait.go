//go:build amd64 || 386 || arm || mips || mipsle

package proc

import "golang.org/x/sys/unix"

// isEpollCall says whether system call nr is an epoll wait, whose fds its
// fdinfo shows (epollDoing): on the architectures that have epoll_wait
// beside epoll_pwait and epoll_pwait2.
func isEpollCall(nr int) bool {
	switch nr {
	case unix.SYS_EPOLL_WAIT, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2:
		return true
	}
	return false
}
