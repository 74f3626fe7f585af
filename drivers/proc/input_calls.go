package proc

import (
	"encoding/binary"
	"io"
	"os"
)

// callTable is the numbers of the system calls threadDoing tells apart in
// one ABI's numbering; -1 is a call the ABI does not have. A thread's
// /proc/TID/syscall numbers its call as its process's ABI does: a 32-bit
// process on a 64-bit kernel (an i386 bot under amd64, an arm one under
// arm64) shows the 32-bit number (callsOf).
type callTable struct {
	read, readv, pread64                                    int
	futex, futexTime64, futexWaitv, wait4, waitid           int // a lock or a child: nothing of its own
	epollWait, epollPwait, epollPwait2                      int // epolls, whose fds their fdinfo shows
	poll, ppoll, ppollTime64, sel, pselect6, pselect6Time64 int // waits on fds not shown (sel: select, _newselect)
}

// isIdle says whether call nr waits on a lock (futex) or a child (wait4,
// waitid).
func (c *callTable) isIdle(nr int) bool {
	return nr >= 0 && (nr == c.futex || nr == c.futexTime64 || nr == c.futexWaitv || nr == c.wait4 || nr == c.waitid)
}

// isRead says whether call nr reads from the fd it names first.
func (c *callTable) isRead(nr int) bool {
	return nr >= 0 && (nr == c.read || nr == c.readv || nr == c.pread64)
}

// isEpoll says whether call nr is an epoll wait (epollDoing).
func (c *callTable) isEpoll(nr int) bool {
	return nr >= 0 && (nr == c.epollWait || nr == c.epollPwait || nr == c.epollPwait2)
}

// isPoll says whether call nr waits on fds it does not show in
// /proc/TID/syscall: poll or select, in each form the ABI has (a 32-bit C
// library, glibc since 2.34, and Go's runtime make the *_time64 ones
// where the kernel has them).
func (c *callTable) isPoll(nr int) bool {
	return nr >= 0 && (nr == c.poll || nr == c.ppoll || nr == c.ppollTime64 || nr == c.sel ||
		nr == c.pselect6 || nr == c.pselect6Time64)
}

// The ELF header's fields callsOf reads: its class (e_ident[EI_CLASS]),
// its byte order (EI_DATA) and its machine (e_machine, at 18).
const (
	elfClass32   = 1
	elfDataLSB   = 1
	elfHeaderLen = 20
)

// callsOf is the call table of thread tid's process: compatCalls when
// its executable is a 32-bit ELF file of compatMachine (the kernel runs
// it in compat mode), nativeCalls otherwise, and where the executable
// cannot be read. Only an explained time fault looks (slowness), so its
// header is read then, for each thread looked at, and not when the bot
// starts: the process that started may be a shell or a wrapper that runs
// the bot as its child, or become another program by exec since.
func callsOf(tid string) *callTable {
	if compatCalls == nil {
		return nativeCalls
	}
	f, err := os.Open("/proc/" + tid + "/exe")
	if err != nil {
		return nativeCalls
	}
	defer f.Close()
	var h [elfHeaderLen]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != "\x7fELF" || h[4] != elfClass32 {
		return nativeCalls
	}
	var order binary.ByteOrder = binary.BigEndian
	if h[5] == elfDataLSB {
		order = binary.LittleEndian
	}
	if order.Uint16(h[18:]) != compatMachine {
		return nativeCalls // x32 on amd64, say: its numbers are amd64's with a bit set
	}
	return compatCalls
}
