package proc

import (
	"bytes"
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// Network namespaces are lent, not made per start. Making one costs more
// than all of a bot's other namespaces together (the kernel sets up a
// loopback device, its tables and sysctls, about 0.6 ms of arbiter's CPU
// a start on the project's machine) and tearing one down costs as much
// again in the kernel's workers; a tournament of per-move bots starts
// thousands. A namespace is lent to one bot at a time and taken back once
// that bot's PID namespace has ended, so that no two running bots share
// one. What a bot could leave in it: nothing it can configure (it has no
// capability, its loopback stays down, so no internet socket connects),
// and no socket, since every process that could hold one is gone. The one
// exception is a Unix socket kept alive by the kernel's garbage collector
// (a socket sent over itself): bound to an abstract name, the next bot
// could notice that name. A namespace that lists any Unix socket when it
// comes back is therefore closed, never lent again.
//
// Only as root: the shim joins the namespace with setns(2), which needs
// CAP_SYS_ADMIN over the namespace's user namespace, and a bot in a user
// namespace of its own (arbiter not root) has it over none but its own.

// idleNetNS bounds the namespaces kept between starts: more than the
// bots that ever run at once on a machine that runs arbiter.
const idleNetNS = 64

var netnsPool struct {
	sync.Mutex
	idle []*os.File
}

// leaseNetNS lends a network namespace: an idle one, or a new one.
func leaseNetNS() (*os.File, error) {
	netnsPool.Lock()
	if n := len(netnsPool.idle); n > 0 {
		f := netnsPool.idle[n-1]
		netnsPool.idle = netnsPool.idle[:n-1]
		netnsPool.Unlock()
		return f, nil
	}
	netnsPool.Unlock()
	return newNetNS()
}

// returnNetNS takes back a lent namespace, once no process is in it.
func returnNetNS(f *os.File) {
	if f == nil {
		return
	}
	if !netnsClean(f) {
		f.Close()
		return
	}
	netnsPool.Lock()
	defer netnsPool.Unlock()
	if len(netnsPool.idle) >= idleNetNS {
		f.Close()
		return
	}
	netnsPool.idle = append(netnsPool.idle, f)
}

// hostNetNS is arbiter's own network namespace, where a thread that
// visited another goes back.
var hostNetNS = sync.OnceValues(func() (*os.File, error) { return os.Open("/proc/thread-self/ns/net") })

// inNetNS runs fn on a thread moved into the namespace f and back. A
// thread that cannot be moved back is left locked, so the runtime ends it
// with the goroutine instead of reusing it elsewhere.
func inNetNS(f *os.File, fn func() error) error {
	return onThrowawayThread(func() error { return inNetNSLocked(f, fn) })
}

// onThrowawayThread runs fn on a goroutine of its own and waits: a thread
// fn leaves locked (outside arbiter's namespace) then ends with that
// goroutine, never carrying the caller.
func onThrowawayThread(fn func() error) error {
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	return <-ch
}

func inNetNSLocked(f *os.File, fn func() error) error {
	self, err := hostNetNS()
	if err != nil {
		return err
	}
	runtime.LockOSThread()
	if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return err
	}
	ferr := fn()
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		return err // the thread stays locked and dies with the goroutine
	}
	runtime.UnlockOSThread()
	return ferr
}

// newNetNS makes a network namespace and keeps a handle on it: a thread
// goes into a new one and back.
func newNetNS() (ns *os.File, err error) {
	err = onThrowawayThread(func() error {
		ns, err = newNetNSLocked()
		return err
	})
	return ns, err
}

func newNetNSLocked() (*os.File, error) {
	self, err := hostNetNS()
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	f, ferr := os.Open("/proc/thread-self/ns/net")
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		if f != nil {
			f.Close()
		}
		return nil, err // the thread stays locked and dies with the goroutine
	}
	runtime.UnlockOSThread()
	return f, ferr
}

// netnsClean says the namespace holds no Unix socket: its list in
// /proc has no line under the heading.
func netnsClean(f *os.File) bool {
	var buf [512]byte
	n := 0
	err := inNetNS(f, func() error {
		fd, err := unix.Open("/proc/thread-self/net/unix", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		n, err = readFull(fd, buf[:])
		return err
	})
	return err == nil && n > 0 && bytes.Count(buf[:n], []byte("\n")) <= 1
}
