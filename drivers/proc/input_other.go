//go:build !amd64 && !386 && !arm && !mips && !mipsle

package proc

import "golang.org/x/sys/unix"

// nativeCalls is the call table of the other 64-bit architectures: the
// calls every Linux architecture has (arm64 has only these).
var nativeCalls = &callTable{
	read: unix.SYS_READ, readv: unix.SYS_READV, pread64: unix.SYS_PREAD64,
	futex: unix.SYS_FUTEX, futexTime64: -1, futexWaitv: unix.SYS_FUTEX_WAITV, wait4: unix.SYS_WAIT4, waitid: unix.SYS_WAITID,
	epollWait: -1, epollPwait: unix.SYS_EPOLL_PWAIT, epollPwait2: unix.SYS_EPOLL_PWAIT2,
	poll: -1, ppoll: unix.SYS_PPOLL, ppollTime64: -1, sel: -1, pselect6: unix.SYS_PSELECT6, pselect6Time64: -1,
}
