package proctest

import (
	"syscall"
	"testing"
)

// CPU is the CPU time used so far by the test's process and by its reaped
// children (the bots, once waited for).
type CPU struct{ self, children syscall.Rusage }

// StartCPU is the CPU time used until now, for ReportCPU.
func StartCPU() (c CPU) {
	syscall.Getrusage(syscall.RUSAGE_SELF, &c.self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c.children)
	return c
}

// ReportCPU reports the CPU time used since c, an iteration of b: the
// test process's own (self-cpu-ms/op: arbiter's work, the kernel's for
// its system calls included) and its reaped children's (bot-cpu-ms/op).
// Beside the wall time, it tells arbiter's work apart from the bots' and
// from the wait for a CPU on a loaded machine.
func ReportCPU(b *testing.B, c CPU) {
	now := StartCPU()
	ms := func(a, z syscall.Rusage) float64 {
		ns := func(r syscall.Rusage) int64 { return r.Utime.Nano() + r.Stime.Nano() }
		return float64(ns(z)-ns(a)) / float64(b.N) / 1e6
	}
	b.ReportMetric(ms(c.self, now.self), "self-cpu-ms/op")
	b.ReportMetric(ms(c.children, now.children), "bot-cpu-ms/op")
}
