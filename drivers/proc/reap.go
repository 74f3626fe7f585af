package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// children is the set of pids that os/exec started and has not yet waited
// for. The orphan reaper must never wait for one of them (it would steal
// its exit status from os/exec), so Start registers a pid and the reaper
// scans under the same lock.
var children = struct {
	sync.Mutex
	pids map[int]bool
}{pids: map[int]bool{}}

var subreaper sync.Once

// becomeSubreaper makes descendants that lose their parent (a bot's setsid
// or double-forked grandchild) our children instead of init's, so that we
// can find, kill and reap them. Init in a container often reaps nothing.
func becomeSubreaper() {
	subreaper.Do(func() {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
}

// killTokened kills every live process whose environment carries token,
// rescanning until none is left, because a process may fork between the
// scan and the kill. A process whose environment reads empty may be in
// the middle of an exec (a bot's grandchild becoming `sleep`), when the
// kernel shows no environment for a moment: such processes are read
// again for a few milliseconds before they are let go. It returns how
// many it killed.
func killTokened(token string) int {
	needle := []byte("ARBITER_TOKEN=" + token + "\x00")
	killed := 0
	unsure := map[int]int{} // pid → times its environment read empty
	for round := 0; round < 200; round++ {
		found, waiting := 0, false
		for _, pid := range allPids() {
			env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			if err == nil && len(env) == 0 && unsure[pid] < emptyRereads && mayExec(pid) {
				unsure[pid]++
				waiting = true
				continue
			}
			if err != nil || !bytes.Contains(env, needle) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		killed += found
		if found == 0 && !waiting {
			return killed
		}
		// A SIGKILLed process keeps its environ until it is a zombie; give
		// the kernel a moment before scanning again.
		time.Sleep(time.Millisecond)
	}
	return killed
}

// emptyRereads is how many times killTokened reads an empty environment
// again before it takes it for a process that has none.
const emptyRereads = 5

// mayExec reports whether pid is a live user process (not a zombie, not
// a kernel thread) whose empty environment may only be an exec under way.
func mayExec(pid int) bool {
	ppid, state, ok := procStat(pid)
	return ok && state != 'Z' && pid != 2 && ppid != 2
}

// eachAdopted calls fn, under the children lock, for every child of ours
// that os/exec did not start: descendants of bots adopted by us as
// subreaper. fn returns false to stop.
func eachAdopted(fn func(pid int, state byte) bool) {
	self := os.Getpid()
	children.Lock()
	defer children.Unlock()
	for _, pid := range allPids() {
		if children.pids[pid] {
			continue
		}
		if ppid, state, ok := procStat(pid); ok && ppid == self && !fn(pid, state) {
			return
		}
	}
}

// reapOrphans waits for every adopted child that is a zombie.
func reapOrphans() {
	eachAdopted(func(pid int, state byte) bool {
		if state == 'Z' {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		return true
	})
}

// adoptedPending reports whether one of our adopted children still needs
// reaping: a zombie, or alive and either carrying token or already
// without an environment (exiting: an exiting process's environ reads
// empty, or fails on newer kernels). Live adoptees of other sessions do
// not count.
func adoptedPending(token string) bool {
	needle := []byte("ARBITER_TOKEN=" + token + "\x00")
	pending := false
	eachAdopted(func(pid int, state byte) bool {
		if state == 'Z' {
			pending = true
			return false
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		pending = err != nil || len(env) == 0 || bytes.Contains(env, needle)
		return !pending
	})
	return pending
}

func allPids() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	pids := make([]int, 0, len(ents))
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat reads the parent pid and state letter of pid from /proc.
func procStat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, false
	}
	// The command name is in parentheses and may itself contain spaces or
	// parentheses: the fields we want follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+4 > len(b) {
		return 0, 0, false
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(string(fields[1]))
	if err != nil {
		return 0, 0, false
	}
	return ppid, fields[0][0], true
}
