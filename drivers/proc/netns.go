package proc

import (
	"bytes"
	"io"
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
// one, and only to a bot that may not open internet sockets (which would
// leave counts in the namespace's statistics, /proc/net/snmp), in the
// sandbox (as root outside it, a bot could write the namespace's sysctls:
// their permissions are checked against the uid alone). What a bot could
// leave in it: nothing it can configure (it has no capability, is not
// root, and its loopback stays down), and no socket, since every process
// that could hold one is gone. The one exception is a Unix socket kept alive by the kernel's
// garbage collector (a socket sent over itself): bound to an abstract
// name, the next bot could notice that name. A namespace that lists any
// Unix socket when it comes back is therefore closed, never lent again.
//
// Only as root: the bot's process joins the namespace with setns(2),
// which needs CAP_SYS_ADMIN over the namespace's user namespace, and a
// bot in a user namespace of its own (arbiter not root) has it over none
// but its own.

// idleNetNS bounds the namespaces kept between starts: more than the
// bots that ever run at once on a machine that runs arbiter.
const idleNetNS = 64

var netnsPool struct {
	sync.Mutex
	idle []*netNS
}

// netNS is a network namespace of the pool: a handle on it, and its list
// of Unix sockets, opened from inside it (a file of /proc/net keeps the
// namespace it was opened in), read again at each return.
type netNS struct {
	ns, unix *os.File
}

func (n *netNS) close() {
	n.ns.Close()
	n.unix.Close()
}

// leaseNetNS lends a network namespace: an idle one, or a new one.
func leaseNetNS() (*netNS, error) {
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
func returnNetNS(n *netNS) {
	if n == nil {
		return
	}
	if !n.clean() {
		n.close()
		return
	}
	netnsPool.Lock()
	defer netnsPool.Unlock()
	if len(netnsPool.idle) >= idleNetNS {
		n.close()
		return
	}
	netnsPool.idle = append(netnsPool.idle, n)
}

// freshNetNS is a new network namespace, never used, for a bot that may
// not be lent one: made ahead of time by a goroutine that keeps a few
// ready, so that a start does not wait for the kernel to make one (0.6 ms
// and more). It is closed after its bot, never lent.
func freshNetNS() (*netNS, error) {
	fresh.Do(func() {
		fresh.ready = make(chan *netNS, freshNetNSReady)
		go func() {
			for {
				n, err := newNetNS()
				if err != nil {
					return // starts make theirs as they need them
				}
				fresh.ready <- n
			}
		}()
	})
	select {
	case n := <-fresh.ready:
		return n, nil
	default:
		return newNetNS()
	}
}

var fresh struct {
	sync.Once
	ready chan *netNS
}

// freshNetNSReady is how many new namespaces are kept ready.
const freshNetNSReady = 4

// hostNetNS is arbiter's own network namespace, where a thread that
// visited another goes back.
var hostNetNS = sync.OnceValues(func() (*os.File, error) { return os.Open("/proc/thread-self/ns/net") })

// newNetNS makes a network namespace and keeps a handle on it and on its
// list of Unix sockets: a thread of a goroutine of its own goes into a new
// one and back (one that cannot go back stays locked and ends with that
// goroutine).
func newNetNS() (n *netNS, err error) {
	ch := make(chan error, 1)
	go func() {
		n, err = newNetNSLocked()
		ch <- err
	}()
	return n, <-ch
}

func newNetNSLocked() (*netNS, error) {
	self, err := hostNetNS()
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	ns, err := os.Open("/proc/thread-self/ns/net")
	var list *os.File
	if err == nil {
		if list, err = os.Open("/proc/thread-self/net/unix"); err != nil {
			ns.Close()
		}
	}
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		if list != nil {
			ns.Close()
			list.Close()
		}
		return nil, err
	}
	runtime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	return &netNS{ns, list}, nil
}

// clean says the namespace holds no Unix socket: its list has no line
// under the heading.
func (n *netNS) clean() bool {
	var buf [512]byte
	m, err := n.unix.ReadAt(buf[:], 0)
	if err != nil && err != io.EOF {
		return false
	}
	return m > 0 && bytes.Count(buf[:m], []byte("\n")) <= 1
}
