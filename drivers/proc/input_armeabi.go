//go:build arm || arm64

package proc

// armCalls is arm's (EABI) call table: arm's own (nativeCalls), and that
// of an arm process under arm64 (compatCalls), where golang.org/x/sys/unix
// has only arm64's numbers; on arm TestCallTable32 checks it against
// unix's.
var armCalls = callTable{
	read: 3, readv: 145, pread64: 180,
	futex: 240, futexTime64: 422, futexWaitv: 449, wait4: 114, waitid: 280,
	epollWait: 252, epollPwait: 346, epollPwait2: 441,
	poll: 168, ppoll: 336, ppollTime64: 414, sel: 142, pselect6: 335, pselect6Time64: 413,
}
