package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A bot's clock is the wall time from a command to its answer, charged to
// the bot waited on. A bot whose processes keep computing after it has
// answered (pondering, or children left spinning) would otherwise cost
// nothing for it and slow every bot that shares the CPU with it, whose
// clocks pay. So a session bot in its own cgroup (the default sandbox, or
// any memory or process limit) is, between its answer and its next
// command:
//
//   - charged the CPU its processes used, beyond offMoveAllowance, on its
//     own clock at its next command (Session.OffMove): read from the
//     cgroup at the moments the session already has, when an answer is
//     read and when a command is written, never on a timer;
//   - once it has been charged so, given the lowest CPU weight (v1
//     cpu.shares 2, v2 cpu.weight 1), so that on a busy CPU whatever it
//     runs yields to the bots being waited on (of its match and of
//     others'); on an idle CPU it still runs. Only then: writing the
//     weight twice an exchange would cost as much again as the reads,
//     and a bot that does nothing off move has nothing to yield.
//
// A bot run afresh for every decision (RunOnce) has no time off move and
// none of this.

// offMoveAllowance is the CPU a bot may use between an answer and the
// next command without it being charged: finishing the write of its
// answer and going back to read its input, its runtime's collector
// finishing a cycle. A bot that computes while not on move uses the
// whole of the wait, far beyond it.
const offMoveAllowance = 5 * time.Millisecond

// machineCPUs is how many CPUs a bot's processes may run on at once:
// the machine's online CPUs (a bot may widen the affinity it inherits
// from arbiter), or arbiter's own count if more.
var machineCPUs = max(runtime.NumCPU(), onlineCPUs())

// onlineCPUs counts the CPUs in /sys/devices/system/cpu/online ("0-3,6"),
// 0 if it cannot be read.
func onlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return 0
	}
	n := 0
	for _, r := range strings.Split(strings.TrimSpace(string(b)), ",") {
		lo, hi, found := strings.Cut(r, "-")
		a, err1 := strconv.Atoi(lo)
		z, err2 := strconv.Atoi(hi)
		switch {
		case err1 != nil:
		case !found:
			n++
		case err2 == nil && z >= a:
			n += z - a + 1
		}
	}
	return n
}

// The CPU weights (setOffMove): v1 cpu.shares' least and default, v2
// cpu.weight's.
var (
	weightOff = [2][]byte{[]byte("2"), []byte("1")}
	weightOn  = [2][]byte{[]byte("1024"), []byte("100")}
)

// openCPU opens the files that count the cgroup's CPU and set its weight,
// where they exist.
func (c *cgroup) openCPU() {
	usage, weight := "cpuacct.usage", "cpu.shares"
	if c.v2 {
		usage, weight = "cpu.stat", "cpu.weight"
	}
	if c.cpuacct != "" {
		c.usageFile, _ = os.Open(filepath.Join(c.cpuacct, usage))
	}
	if c.cpu != "" {
		c.weightFile, _ = os.OpenFile(filepath.Join(c.cpu, weight), os.O_WRONLY, 0)
	}
}

// cpuUsed is the CPU the cgroup's processes have used since it was made;
// ok is false when it is not counted.
func (c *cgroup) cpuUsed() (d time.Duration, ok bool) {
	if c == nil || c.usageFile == nil {
		return 0, false
	}
	var buf [512]byte // cpuacct.usage is a number; cpu.stat a few lines
	n, err := c.usageFile.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return 0, false
	}
	if c.v2 {
		return time.Duration(keyedValue(buf[:n], "usage_usec")) * time.Microsecond, true
	}
	ns, perr := strconv.ParseInt(string(bytes.TrimSpace(buf[:n])), 10, 64)
	return time.Duration(ns), perr == nil
}

// setOffMove gives the cgroup the lowest CPU weight (off) or the usual
// one.
func (c *cgroup) setOffMove(off bool) {
	if c == nil || c.weightFile == nil || c.offMove == off {
		return
	}
	w := weightOn
	if off {
		w = weightOff
	}
	v := 0
	if c.v2 {
		v = 1
	}
	if _, err := c.weightFile.WriteAt(w[v], 0); err == nil {
		c.offMove = off
	}
}

// cpuUsed is the CPU the bot's processes have used, ok false when it is
// not counted (no cgroup with it, or the box is closed).
func (b *Box) cpuUsed() (time.Duration, bool) {
	if b == nil || b.cg == nil {
		return 0, false
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	if b.closed {
		return 0, false
	}
	return b.cg.cpuUsed()
}

// setOffMove lowers the weight of the bot's processes while it is not on
// move (off), and puts it back when it is.
func (b *Box) setOffMove(off bool) {
	if b == nil || b.cg == nil {
		return
	}
	b.cgMu.Lock()
	defer b.cgMu.Unlock()
	if !b.closed {
		b.cg.setOffMove(off)
	}
}

// offMoveFrom marks the end of the bot's time on move: its answer was read
// (or the rest given up, Abandon). What CPU it uses from here until the
// next command is charged to it then (chargeOffMove).
func (s *Session) offMoveFrom(now time.Time) {
	s.cpuAt, s.cpuKnown = s.box.cpuUsed()
	s.answerAt = now
	s.sentCPUKnown = s.sentCPUKnown && s.cpuKnown // no stale figure for the next command's wait
	if s.offMove > 0 {
		s.box.setOffMove(true)
	}
}

// chargeOffMove charges the clock, as a command is due, with the CPU the
// bot's processes used since its last answer beyond offMoveAllowance,
// and puts the bot back on move (its usual weight). A wait too short for
// the bot to have used more than the allowance on every CPU of the
// machine is not read: in a game of fast bots most are, and the read
// costs some 3 µs. It says whether it read the cgroup.
func (s *Session) chargeOffMove(now time.Time) (read bool) {
	s.box.setOffMove(false)
	if !s.cpuKnown {
		return false
	}
	s.cpuKnown = false
	// Unread, the CPU now is cpuAt and at most the allowance more.
	s.sentCPU, s.sentCPUAt, s.sentCPUKnown = s.cpuAt, s.answerAt, true
	if now.Sub(s.answerAt)*time.Duration(machineCPUs) <= offMoveAllowance {
		return false
	}
	used, ok := s.box.cpuUsed()
	if !ok {
		s.sentCPUKnown = false
		return true
	}
	s.sentCPU, s.sentCPUAt = used, now
	d := used - s.cpuAt - offMoveAllowance
	if s.limited {
		d = min(d, s.left) // what the clock had
	}
	if d <= 0 {
		return true
	}
	s.offMove += d
	s.used += d
	if s.limited {
		s.left -= d
	}
	return true
}

// OffMove is how much of the clock time the bot used (Used) was CPU its
// processes used while it was not on move.
func (s *Session) OffMove() time.Duration { return s.offMove }
