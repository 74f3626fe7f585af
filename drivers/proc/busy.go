package proc

import "time"

// busyShare is the part of its wait a bot must have used in CPU to be
// said to have kept computing (Fault.Busy): a quarter. A bot that waits
// for input, or that answered into a buffer it did not flush, uses next
// to none; one in an endless loop or a search too slow for its clock
// uses all of a CPU it has to itself, but on a machine busy with other
// bots it gets a share only (a third of a CPU, measured on two CPUs with
// fifteen programs wanting them), so the bar is well below a whole wait.
const busyShare = 4 // the wait over the CPU used

// CPUCounted says whether this machine counts the CPU a bot's processes
// use (a cgroup of the bot's own, cgroup v2 or v1 cpuacct): where it
// does not, a time fault cannot tell a bot that kept computing from one
// that sat waiting (Fault.Busy).
func (p *Probe) CPUCounted() bool {
	return p.CgroupV2 != "" || p.CgroupV1["cpuacct"] != ""
}

// busy says whether the bot's processes used the CPU for at least a
// quarter of the time from the write of the command it is on to now.
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
	return (used-s.sentCPU)*busyShare >= time.Since(s.sentAt)
}
