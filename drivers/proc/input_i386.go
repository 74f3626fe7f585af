//go:build amd64 || 386

package proc

// i386Calls is i386's call table: 386's own (nativeCalls), and that of an
// i386 process under amd64 (compatCalls), where golang.org/x/sys/unix
// has only amd64's numbers; on 386 TestCallTable32 checks it against
// unix's.
var i386Calls = callTable{
	read: 3, readv: 145, pread64: 180,
	futex: 240, futexTime64: 422, futexWaitv: 449, wait4: 114, waitid: 284,
	epollWait: 256, epollPwait: 319, epollPwait2: 441,
	poll: 168, ppoll: 309, ppollTime64: 414, sel: 142, pselect6: 308, pselect6Time64: 413,
}
