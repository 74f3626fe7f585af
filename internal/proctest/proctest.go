// Package proctest finds the processes a test left behind: live processes
// that carry a marker in their environment or arguments, zombie children
// of the test, grandchildren listed in a pid file. Tests import it to check
// that a driver cleaned up after its bots.
//
// It reads /proc on its own and deliberately shares nothing with
// drivers/proc's reaping code: a test checks the product rather than
// reuse it.
//
// StartCPU and ReportCPU give benchmarks the CPU time of the test process
// and of its bots. Backoff paces a test's waits for them. WithFileLimit
// stops files short, as a full disk does.
package proctest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/arbiter-contests/arbiter/internal/linuxonly" // a build for another system stops there
)

// zombieGrace is how long a zombie child may stay: a parallel test reaps
// its own children a moment after they exit, so only a zombie that stays
// is left behind.
const zombieGrace = 2 * time.Second

// The pauses of a Backoff: the first look after a millisecond, so that
// what comes at once is seen at once; at most lastPause between looks,
// so that a long wait costs the machine little.
const (
	firstPause = time.Millisecond
	lastPause  = 32 * time.Millisecond
)

// Backoff paces a test that looks again and again for something (bots
// playing, bots gone, a line in a file): its pauses start at a
// millisecond and double up to 32 ms. A look at every process in /proc
// (WithEnv, WithCmdline) reads a file of each, hundreds of them on a
// busy host: made every millisecond or few for the seconds a test waits,
// such looks took a large part of the tests' CPU time, most of it the
// kernel's. The zero Backoff is ready to use; a wait that must see a
// moment as it comes (kill a run as soon as it has written a line) looks
// at a cheap file at its own short interval instead.
type Backoff struct{ next time.Duration }

// Pause returns how long to wait before the next look, and makes the
// one after longer.
func (b *Backoff) Pause() time.Duration {
	d := max(b.next, firstPause)
	b.next = min(2*d, lastPause)
	return d
}

// Sleep sleeps for the next pause.
func (b *Backoff) Sleep() { time.Sleep(b.Pause()) }

// After is time.After of the next pause, for a select that also waits
// for a process to end.
func (b *Backoff) After() <-chan time.Time { return time.After(b.Pause()) }

// pids lists the processes in /proc, except the test's own.
func pids() []int {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid != self {
			out = append(out, pid)
		}
	}
	return out
}

// matching lists the processes whose /proc file name contains needle.
func matching(name string, needle []byte) []int {
	var out []int
	for _, pid := range pids() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + name)
		if err == nil && bytes.Contains(b, needle) {
			out = append(out, pid)
		}
	}
	return out
}

// WithEnv lists the processes whose environment holds entry, a whole
// NAME=value variable like "RUN_MARK=42".
func WithEnv(entry string) []int { return matching("environ", []byte(entry+"\x00")) }

// WithCmdline lists the processes whose command line contains part; the
// arguments are separated by NUL bytes, so "\x00mark" finds an argument
// after the program's name starting with mark.
func WithCmdline(part string) []int { return matching("cmdline", []byte(part)) }

// Cmdline is pid's command line, its arguments separated by spaces.
func Cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Join(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), " ")
}

// Stat reads the parent pid and the state letter ('Z' for a zombie) of
// pid; ok is false when pid is gone.
func Stat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	if err != nil {
		return 0, 0, false
	}
	return ppid, f[0][0], true
}

// ZombieChildren lists the test's children that have exited and not been
// reaped.
func ZombieChildren() []int {
	self := os.Getpid()
	var out []int
	for _, pid := range pids() {
		if ppid, state, ok := Stat(pid); ok && ppid == self && state == 'Z' {
			out = append(out, pid)
		}
	}
	return out
}

// AssertNoEnv fails the test for every live process whose environment
// holds entry.
func AssertNoEnv(tb testing.TB, entry string) {
	tb.Helper()
	for _, pid := range WithEnv(entry) {
		tb.Errorf("process %d (%s) with %s is still running", pid, Cmdline(pid), entry)
	}
}

// AssertGone is AssertNoEnv, and it fails the test for every zombie child
// that is still there after a grace period.
func AssertGone(tb testing.TB, entry string) {
	tb.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		tb.Fatalf("cannot look for leftover processes: %v", err)
	}
	AssertNoEnv(tb, entry)
	zombies := ZombieChildren()
	var pause Backoff
	for deadline := time.Now().Add(zombieGrace); len(zombies) > 0 && time.Now().Before(deadline); {
		pause.Sleep()
		var still []int
		for _, pid := range zombies {
			if ppid, state, ok := Stat(pid); ok && ppid == os.Getpid() && state == 'Z' {
				still = append(still, pid)
			}
		}
		zombies = still
	}
	for _, pid := range zombies {
		tb.Errorf("zombie child %d left behind", pid)
	}
}

// AssertPidFileGone fails the test for every process listed in path (pids
// separated by white space, as bots that escape their group write them)
// that still exists. A missing file lists none.
func AssertPidFileGone(tb testing.TB, path string) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			tb.Fatal(err)
		}
		return
	}
	for _, s := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(s)
		if err != nil {
			tb.Errorf("pid file %s: %q is not a pid", path, s)
			continue
		}
		if syscall.Kill(pid, 0) == nil {
			_, state, _ := Stat(pid)
			tb.Errorf("setsid grandchild %d is still there (state %c)", pid, state)
		}
	}
}

// WriteMiBs writes n MiB to path a MiB at a time, carrying on whatever
// fails, as a careless bot does (the folder-quota tests' bots).
func WriteMiBs(path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	mib := make([]byte, 1<<20)
	for range n {
		f.Write(mib)
	}
}
