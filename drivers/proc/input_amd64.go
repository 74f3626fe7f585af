package proc

import "golang.org/x/sys/unix"

// nativeCalls is amd64's call table: no *_time64 calls.
var nativeCalls = &callTable{
	read: unix.SYS_READ, readv: unix.SYS_READV, pread64: unix.SYS_PREAD64,
	futex: unix.SYS_FUTEX, futexTime64: -1, futexWaitv: unix.SYS_FUTEX_WAITV, wait4: unix.SYS_WAIT4, waitid: unix.SYS_WAITID,
	epollWait: unix.SYS_EPOLL_WAIT, epollPwait: unix.SYS_EPOLL_PWAIT, epollPwait2: unix.SYS_EPOLL_PWAIT2,
	poll: unix.SYS_POLL, ppoll: unix.SYS_PPOLL, ppollTime64: -1, sel: unix.SYS_SELECT,
	pselect6: unix.SYS_PSELECT6, pselect6Time64: -1,
}

// An i386 process (ELF machine EM_386) calls in i386's numbering.
var compatCalls = &i386Calls

const compatMachine = 3
