//go:build 386 || arm || mips || mipsle

package proc

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The futex operations of a process's own lock (FUTEX_PRIVATE_FLAG).
const (
	futexWait = 0 | 128
	futexWake = 1 | 128
)

// TestThreadDoing32 holds a thread in each wait that only the 32-bit
// architectures have (Go's runtime and a 32-bit C library make the
// *_time64 ones), on a pipe, and asks threadDoing what it does: a poll,
// select or epoll on the bot's input is a poll (not a thread at work), a
// futex a lock.
func TestThreadDoing32(t *testing.T) {
	var word uint32
	for _, tc := range []struct {
		name string
		nr   uintptr
		args func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr
		want int
	}{
		{"poll", unix.SYS_POLL, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(unsafe.Pointer(pfd)), 1, ^uintptr(0)}
		}, doingPoll},
		{"ppoll_time64", unix.SYS_PPOLL_TIME64, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(unsafe.Pointer(pfd)), 1}
		}, doingPoll},
		{"_newselect", unix.SYS__NEWSELECT, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(fd + 1), uintptr(unsafe.Pointer(set))}
		}, doingPoll},
		{"pselect6_time64", unix.SYS_PSELECT6_TIME64, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(fd + 1), uintptr(unsafe.Pointer(set))}
		}, doingPoll},
		{"epoll_wait", unix.SYS_EPOLL_WAIT, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(ep), uintptr(unsafe.Pointer(ev)), 1, ^uintptr(0)}
		}, doingPoll},
		{"futex_time64", unix.SYS_FUTEX_TIME64, func(fd, ep int, set *unix.FdSet, pfd *unix.PollFd, ev *unix.EpollEvent) [6]uintptr {
			return [6]uintptr{uintptr(unsafe.Pointer(&word)), futexWait}
		}, doingNothing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			fd := int(r.Fd())
			in := pipeInputOf(t, fd)
			ep := epollOn(fd)
			defer unix.Close(ep)
			set, pfd, ev := &unix.FdSet{}, &unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}, &unix.EpollEvent{}
			set.Set(fd)
			a := tc.args(fd, ep, set, pfd, ev)
			tids, done := make(chan int), make(chan struct{})
			go func() {
				defer close(done)
				runtime.LockOSThread() // the thread ends with the goroutine
				tids <- unix.Gettid()
				unix.Syscall6(tc.nr, a[0], a[1], a[2], a[3], a[4], a[5])
			}()
			tid := strconv.Itoa(<-tids)
			waitInCall(tid, tc.nr)
			if got := threadDoing(tid, in); got != tc.want {
				t.Errorf("threadDoing in %s = %d, want %d", tc.name, got, tc.want)
			}
			w.Write([]byte("x"))
			unix.Syscall6(unix.SYS_FUTEX_TIME64, uintptr(unsafe.Pointer(&word)), futexWake, 1, 0, 0, 0)
			<-done
		})
	}
}

// The call table written out for 386 and arm, which amd64 and arm64 use
// for their compat processes where golang.org/x/sys/unix has no 32-bit
// numbers, is unix's.
func TestCallTable32(t *testing.T) {
	if *nativeCalls != unix32Calls {
		t.Errorf("%s's call table is\n%+v, unix numbers it\n%+v", runtime.GOARCH, *nativeCalls, unix32Calls)
	}
}

// pipeInputOf is fd as threadDoing knows the bot's input.
func pipeInputOf(t *testing.T, fd int) pipeInput {
	link, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	var st syscall.Stat_t
	if err == nil {
		err = syscall.Fstat(fd, &st)
	}
	if err != nil {
		t.Fatal(err)
	}
	return pipeInput{link: link, ino: st.Ino}
}

// waitInCall waits until thread tid is blocked in system call nr.
func waitInCall(tid string, nr uintptr) {
	for {
		b, _ := os.ReadFile("/proc/" + tid + "/syscall")
		if f := strings.Fields(string(b)); len(f) > 1 && f[0] == strconv.Itoa(int(nr)) {
			return
		}
		runtime.Gosched()
	}
}
