package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// busyShare is the part of its wait a bot must have used in CPU to be
// said to have kept computing (Fault.Busy): a quarter. A bot that waits
// for input, or that answered into a buffer it did not flush, uses next
// to none; one in an endless loop or a search too slow for its clock
// uses all of a CPU it has to itself, but on a machine busy with other
// bots it gets a share only (a third of a CPU, measured on two CPUs with
// fifteen programs wanting them), so the bar is well below a whole wait.
// On a machine busier still, a bot below the bar is said to have kept
// computing all the same when one of its threads wants the CPU at the
// deadline (running or waiting to run), which a bot waiting for input
// never does.
const busyShare = 4 // the wait over the CPU used

// maxBusyThreads is how many of a bot's threads busy looks at for one
// that wants the CPU.
const maxBusyThreads = 256

// CPUCounted says whether this machine counts the CPU a bot's processes
// use (a cgroup of the bot's own, cgroup v2 or v1 cpuacct): where it
// does not, a time fault cannot tell a bot that kept computing from one
// that sat waiting (Fault.Busy).
func (p *Probe) CPUCounted() bool {
	return p.CgroupV2 != "" || p.CgroupV1["cpuacct"] != ""
}

// busy says whether the bot's processes used the CPU for at least a
// quarter of the time from the write of the command it is on to now, or
// less but one of their threads wants the CPU now.
// It is false when the CPU is not counted (no cgroup of the bot's own):
// a time fault then says what it says of a silent bot.
func (s *Session) busy() bool {
	if !s.sentCPUKnown {
		return false
	}
	used, ok := s.box.cpuUsed()
	if !ok {
		return false
	}
	return (used-s.sentCPU)*busyShare >= time.Since(s.sentAt) || s.box.running()
}

// running says whether a thread of the bot's processes is running or
// waiting to run (state R), false when that cannot be read.
func (b *Box) running() bool {
	if b == nil || b.cg == nil {
		return false
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	if b.closed {
		return false
	}
	return b.cg.running()
}

// running says whether a thread of the cgroup's processes is in state R.
// The cgroup's thread list is in the PID namespace of whoever reads it:
// arbiter's, as /proc is.
func (c *cgroup) running() bool {
	dirs := c.dirs()
	if len(dirs) == 0 {
		return false
	}
	file := "tasks"
	if c.v2 {
		file = "cgroup.threads"
	}
	list, err := os.ReadFile(filepath.Join(dirs[0], file))
	if err != nil {
		return false
	}
	for i, tid := range strings.Fields(string(list)) {
		if i == maxBusyThreads {
			break
		}
		if threadRunning(tid) {
			return true
		}
	}
	return false
}

// threadRunning says whether thread tid is in state R: /proc/TID/stat's
// third field, after the command name in parentheses (which may itself
// hold spaces and parentheses, hence the last one).
func threadRunning(tid string) bool {
	stat, err := os.ReadFile("/proc/" + tid + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'R'
}
