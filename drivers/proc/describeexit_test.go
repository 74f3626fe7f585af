package proc

import "testing"

// DescribeExit says how a process ended, a status past 128 as the signal
// that killed it, as the drivers word a crash after an answer.
func TestDescribeExit(t *testing.T) {
	for status, want := range map[int]string{
		0:   "exited with status 0",
		1:   "exited with status 1",
		128: "exited with status 128",
		137: "killed by signal killed",
		143: "killed by signal terminated",
	} {
		if got := DescribeExit(status); got != want {
			t.Errorf("DescribeExit(%d) = %q, want %q", status, got, want)
		}
	}
}
