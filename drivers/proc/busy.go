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
// quarter of the time from when the clock of the command it is on
// started to now, or less but one of their threads wants the CPU now.
// It is false when the CPU is not counted (no cgroup of the bot's own):
// a time fault then says what it says of a silent bot.
//
// The baseline is sentCPU, read at sentCPUAt: around the write, at
// start-up before the first, or as the clock of a command written behind
// others started (rebaseSentCPU). The CPU the bot may have used between
// the baseline and the start of the command's clock is taken off at its
// most, the whole of the machine's CPUs for all that time: what it
// computed for the commands before it is never counted as computing for
// this one, and what is left is at most what the bot used in its wait.
// Since that time is at most offMoveAllowance of CPU (rebaseSentCPU
// reads the counter anew after a longer one), what is left is about all
// the bot used in its wait. A bot's start-up that runs on after the
// first write counts toward that write's first command: it is the bot's.
func (s *Session) busy() bool {
	used, ok := s.waitCPU()
	if !ok {
		return false
	}
	return used*busyShare >= time.Since(s.sentAt) || s.box.running()
}

// waitCPU is the CPU the bot's processes used since the clock of the
// command it is on started, as busy counts it (it may be below zero
// when the time before that clock is taken off at its most); ok is
// false when it is not counted.
func (s *Session) waitCPU() (time.Duration, bool) {
	if !s.sentCPUKnown {
		return 0, false
	}
	used, ok := s.box.cpuUsed()
	if !ok {
		return 0, false
	}
	before := s.sentAt.Sub(s.sentCPUAt) * time.Duration(machineCPUs)
	return used - s.sentCPU - max(before, 0), true
}

// rebaseSentCPU reads the CPU the bot's processes have used as the clock
// of a command written behind others starts (sentAt, as the answer
// before it was read), for busy's baseline, when the baseline it has is
// too old for busy to take off what the bot may have used since
// (offMoveAllowance at most, on all the machine's CPUs): after a slow
// answer before it, that would be more than its whole wait. Quick
// answers before it, as a play's and a time_left's mostly are, cost no
// read of the cgroup.
func (s *Session) rebaseSentCPU() {
	if !s.sentCPUKnown || s.sentAt.Sub(s.sentCPUAt)*time.Duration(machineCPUs) <= offMoveAllowance {
		return
	}
	start := time.Now()
	used, ok := s.box.cpuUsed()
	if !ok {
		s.sentCPUKnown = false
		return
	}
	s.sentCPU, s.sentCPUAt = used, time.Now()
	s.sentAt = s.sentAt.Add(s.sentCPUAt.Sub(start)) // the read is arbiter's time, not the bot's
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
func (c *cgroup) running() bool {
	list, _ := c.threadIDs()
	for i, tid := range list {
		if i == maxBusyThreads {
			break
		}
		if threadRunning(tid) {
			return true
		}
	}
	return false
}

// threadIDs are the ids of the threads of the cgroup's processes; ok is
// false when they cannot be read. The list is in the PID namespace of
// whoever reads it: arbiter's, as /proc is.
func (c *cgroup) threadIDs() ([]string, bool) {
	dirs := c.dirs()
	if len(dirs) == 0 {
		return nil, false
	}
	file := "tasks"
	if c.v2 {
		file = "cgroup.threads"
	}
	list, err := os.ReadFile(filepath.Join(dirs[0], file))
	if err != nil {
		return nil, false
	}
	return strings.Fields(string(list)), true
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
