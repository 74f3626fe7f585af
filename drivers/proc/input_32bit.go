//go:build 386 || arm || mips || mipsle

package proc

import "golang.org/x/sys/unix"

// unix32Calls is the call table of the 32-bit architectures as
// golang.org/x/sys/unix numbers it: mips's (nativeCalls), and what 386's
// and arm's written-out tables must be (TestCallTable32), which amd64
// and arm64 use for their compat processes.
var unix32Calls = callTable{
	read: unix.SYS_READ, readv: unix.SYS_READV, pread64: unix.SYS_PREAD64,
	futex: unix.SYS_FUTEX, futexTime64: unix.SYS_FUTEX_TIME64, futexWaitv: unix.SYS_FUTEX_WAITV,
	wait4: unix.SYS_WAIT4, waitid: unix.SYS_WAITID,
	epollWait: unix.SYS_EPOLL_WAIT, epollPwait: unix.SYS_EPOLL_PWAIT, epollPwait2: unix.SYS_EPOLL_PWAIT2,
	poll: unix.SYS_POLL, ppoll: unix.SYS_PPOLL, ppollTime64: unix.SYS_PPOLL_TIME64, sel: unix.SYS__NEWSELECT,
	pselect6: unix.SYS_PSELECT6, pselect6Time64: unix.SYS_PSELECT6_TIME64,
}
