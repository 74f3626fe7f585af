package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"golang.org/x/sys/unix"
)

// slowness is what a silent time fault found of the bot (Fault.Slow):
// its input (input), its wait for the command and the CPU it used in it.
func (s *Session) slowness() drivers.Slowness {
	sl := drivers.Slowness{Input: s.input(), Wait: time.Since(s.sentAt)}
	sl.CPU, sl.CPUKnown = s.waitCPU()
	sl.CPU = max(sl.CPU, 0)
	return sl
}

// input says what the bot had done with its input: bytes still in the
// pipe (FIONREAD, which a pipe answers on its write end too) are a
// command it had not read; an empty pipe with a thread of the bot in a
// read of it, one it read while it wants more.
func (s *Session) input() drivers.Input {
	rc, err := s.in.SyscallConn()
	if err != nil {
		return drivers.InputUnknown
	}
	var st unix.Stat_t
	n, serr, ierr := 0, error(nil), error(nil)
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Fstat(int(fd), &st)
		n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
	}); err != nil || serr != nil || ierr != nil {
		return drivers.InputUnknown
	}
	if n > 0 {
		return drivers.InputUnread
	}
	pipe := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
	seen, maybe := false, false
	for i, tid := range s.threads() {
		if i == maxBusyThreads {
			break
		}
		in, ok := threadInput(tid, pipe)
		switch {
		case !ok:
		case in == drivers.InputWaiting:
			return drivers.InputWaiting
		case in == drivers.InputUnknown:
			maybe = true
		default:
			seen = true
		}
	}
	if maybe || !seen {
		return drivers.InputUnknown
	}
	return drivers.InputTaken
}

// threads are the ids of the bot's threads: its cgroup's, or without
// one the threads of its first process (a bot it started is not seen).
func (s *Session) threads() []string {
	if list := s.box.threads(); list != nil {
		return list
	}
	dirs, err := os.ReadDir("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/task")
	if err != nil {
		return nil
	}
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d.Name()
	}
	return out
}

// threads are the ids of the threads of the box's cgroup, nil without one.
func (b *Box) threads() []string {
	if b == nil || b.cg == nil {
		return nil
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	dirs := b.cg.dirs()
	if b.closed || len(dirs) == 0 {
		return nil
	}
	file := "tasks"
	if b.cg.v2 {
		file = "cgroup.threads"
	}
	list, err := os.ReadFile(filepath.Join(dirs[0], file))
	if err != nil {
		return nil
	}
	return strings.Fields(string(list))
}

// threadInput says of thread tid whether it waits in a read of pipe (its
// /proc/TID/syscall: the call's number, then its first argument, the
// fd), may be waiting on it (in poll, select or epoll, whose fds are not
// shown: InputUnknown), or neither (InputTaken); ok is false for a
// thread that cannot be looked at (gone, or not arbiter's to look at).
func threadInput(tid, pipe string) (in drivers.Input, ok bool) {
	b, err := os.ReadFile("/proc/" + tid + "/syscall")
	if err != nil {
		return drivers.InputUnknown, false
	}
	f := strings.Fields(string(b))
	if len(f) >= 2 {
		nr, _ := strconv.Atoi(f[0])
		if nr == unix.SYS_READ || nr == unix.SYS_READV || nr == unix.SYS_PREAD64 {
			fd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 32)
			if link, lerr := os.Readlink("/proc/" + tid + "/fd/" + strconv.FormatUint(fd, 10)); err == nil && lerr == nil && link == pipe {
				return drivers.InputWaiting, true
			}
		}
	}
	wchan, _ := os.ReadFile("/proc/" + tid + "/wchan")
	if w := string(wchan); strings.Contains(w, "poll") || strings.Contains(w, "select") {
		return drivers.InputUnknown, true
	}
	return drivers.InputTaken, true
}
