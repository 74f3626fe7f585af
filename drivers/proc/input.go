package proc

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"golang.org/x/sys/unix"
)

// slowness is what a silent time fault found of the bot (Fault.Slow):
// its input (input), its wait for the command and the CPU it used in it.
// Only a session that explains its faults looks (Spec.Explain): the
// look reads /proc for each of the bot's threads.
func (s *Session) slowness() drivers.Slowness {
	if !s.spec.Explain {
		return drivers.Slowness{}
	}
	sl := drivers.Slowness{Input: s.input(), Wait: time.Since(s.sentAt)}
	sl.CPU, sl.CPUKnown = s.waitCPU()
	sl.CPU = max(sl.CPU, 0)
	return sl
}

// input says what the bot had done with its input. Bytes in the pipe
// (FIONREAD, which a pipe answers on its write end too) beyond those of
// the lines written after the command (the rest of its write, less what
// of it is not written yet) are the command's: the bot had not read it.
// Otherwise the bot's threads say (threadsInput).
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
	if n > s.bytesAfter() {
		return drivers.InputUnread
	}
	tids, ok := s.threads()
	if !ok {
		return drivers.InputUnknown
	}
	return threadsInput(tids, st.Ino)
}

// bytesAfter is how many bytes of the last write, the lines after the
// command being answered (s.next), the pipe holds when the bot has read
// the command and nothing more: those written of them.
func (s *Session) bytesAfter() int {
	after := 0
	for _, l := range s.next {
		after += len(l) + 1
	}
	return max(after-(len(s.text)-s.wrote), 0)
}

// threadsInput says from what the threads tids were doing whether the
// bot waits for more input (pipe, its stdin). A thread in a read of the
// pipe with none other doing anything is the bot waiting for input it
// lost; with another sleeping or running (a reader thread that hands
// lines to a slow one, say), it cannot be told from a slow bot, nor can
// a bot with a thread in poll or select, whose fds are not shown, or in
// an epoll that watches its input: InputUnknown. Threads waiting on a
// lock (futex), on a child (wait4, waitid: a shell around the bot) or in
// an epoll without a time-out that does not watch its input (an idle
// thread of the Go runtime) do nothing of their own; with no thread
// reading and one at something else (an epoll with a time-out is a
// sleep: the Go runtime's time.Sleep), the bot read the command and was
// busy with it (InputTaken). ino is the input pipe's inode.
func threadsInput(tids []string, ino uint64) drivers.Input {
	reading, other, polling := false, false, false
	in := pipeInput{link: "pipe:[" + strconv.FormatUint(ino, 10) + "]", ino: ino}
	for i, tid := range tids {
		if i == maxBusyThreads {
			break
		}
		switch threadDoing(tid, in) {
		case doingRead:
			reading = true
		case doingPoll:
			polling = true
		case doingOther:
			other = true
		}
	}
	switch {
	case reading && !other && !polling:
		return drivers.InputWaiting
	case reading || polling || !other:
		return drivers.InputUnknown
	}
	return drivers.InputTaken
}

// What a thread is doing (threadDoing).
const (
	doingNothing = iota // gone, not to be looked at, or waiting on a lock or a child
	doingRead           // in a read of the bot's input
	doingPoll           // in poll, select or epoll, on fds not shown
	doingOther          // running, or sleeping in another call
)

// pipeInput is the bot's input as a thread's files show it: the link of
// its fd in /proc/TID/fd, and its inode, which an epoll's fdinfo names.
type pipeInput struct {
	link string
	ino  uint64
}

// threadDoing says what thread tid is doing, from /proc/TID/syscall:
// the number of the call it is blocked in (in its process's numbering:
// callsOf), then its arguments (for a read, the fd: the input when its
// link in /proc/TID/fd is the bot's input; for an epoll, epollDoing), or
// "running".
func threadDoing(tid string, in pipeInput) int {
	b, err := os.ReadFile("/proc/" + tid + "/syscall")
	if err != nil {
		return doingNothing
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return doingOther // "running"
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || nr < 0 {
		return doingOther // stopped outside a call
	}
	calls := callsOf(tid)
	switch {
	case calls.isIdle(nr):
		return doingNothing
	case calls.isRead(nr):
		fd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 32)
		if link, lerr := os.Readlink("/proc/" + tid + "/fd/" + strconv.FormatUint(fd, 10)); err == nil && lerr == nil && link == in.link {
			return doingRead
		}
	case calls.isEpoll(nr):
		return epollDoing(tid, nr == calls.epollPwait2, f, in.ino)
	case calls.isPoll(nr):
		return doingPoll
	}
	return doingOther
}

// epollDoing says what thread tid, blocked in an epoll call (pwait2 when
// epoll_pwait2) with the fields f of /proc/TID/syscall, is doing. The epoll's fdinfo lists the
// files it watches, each with its inode: one of them the input (ino),
// another epoll, or a list that cannot be read, is a wait that may be on
// the input (doingPoll, see watches). Otherwise the thread does not wait on the input: without
// a time-out (epoll_wait's -1, epoll_pwait2's NULL) it is idle, as the Go
// runtime's threads are with nothing to run (doingNothing); with one it
// sleeps (doingOther), as the Go runtime does for time.Sleep.
func epollDoing(tid string, pwait2 bool, f []string, ino uint64) int {
	if len(f) < 5 {
		return doingPoll
	}
	epfd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 32)
	if err != nil {
		return doingPoll
	}
	info, err := os.ReadFile("/proc/" + tid + "/fdinfo/" + strconv.FormatUint(epfd, 10))
	if err != nil || watches(tid, string(info), ino) {
		return doingPoll
	}
	timeout, err := strconv.ParseUint(strings.TrimPrefix(f[4], "0x"), 16, 64)
	if err != nil {
		return doingPoll
	}
	if pwait2 && timeout == 0 || !pwait2 && int32(uint32(timeout)) < 0 {
		return doingNothing
	}
	return doingOther
}

// watches says whether the epoll of thread tid whose fdinfo is given
// (its "tfd: FD ... ino:HEX" lines) may wait on a file of inode ino: it
// lists that file, or another epoll (whose own files its inode does not
// tell: every epoll, eventfd and timerfd shares one), or a line or file
// it cannot read.
func watches(tid, fdinfo string, ino uint64) bool {
	for _, line := range strings.Split(fdinfo, "\n") {
		fd, ok := strings.CutPrefix(line, "tfd:")
		if !ok {
			continue
		}
		fd, rest, _ := strings.Cut(strings.TrimLeft(fd, " \t"), " ")
		_, hex, ok := strings.Cut(rest, " ino:")
		if !ok {
			return true
		}
		hex, _, _ = strings.Cut(hex, " ")
		n, err := strconv.ParseUint(hex, 16, 64)
		if err != nil || n == ino {
			return true
		}
		if link, err := os.Readlink("/proc/" + tid + "/fd/" + fd); err != nil || link == "anon_inode:[eventpoll]" {
			return true
		}
	}
	return false
}

// threads are the ids of the bot's threads: its cgroup's, or without one
// those of its first process and its descendants (/proc/PID/task/TID/
// children). ok is false when they cannot be listed.
func (s *Session) threads() ([]string, bool) {
	if list, ok := s.box.threads(); ok {
		return list, true
	}
	var out []string
	pids := []string{strconv.Itoa(s.cmd.Process.Pid)}
	for len(pids) > 0 && len(out) < maxBusyThreads {
		pid := pids[0]
		pids = pids[1:]
		dirs, err := os.ReadDir("/proc/" + pid + "/task")
		if err != nil {
			return nil, false
		}
		for _, d := range dirs {
			out = append(out, d.Name())
			children, err := os.ReadFile("/proc/" + pid + "/task/" + d.Name() + "/children")
			if err != nil {
				return nil, false // gone since, or no such file in this kernel
			}
			pids = append(pids, strings.Fields(string(children))...)
		}
	}
	return out, true
}

// threads are the ids of the threads of the box's cgroup; ok is false
// without one.
func (b *Box) threads() ([]string, bool) {
	if b == nil || b.cg == nil {
		return nil, false
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	if b.closed {
		return nil, false
	}
	return b.cg.threadIDs()
}
