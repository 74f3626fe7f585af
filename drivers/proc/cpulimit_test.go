package proc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestCPULimitVerdict: a bot killed at its CPU limit is told it reached
// that limit, never a figure below the limit beside it: the time the
// kernel reports for a process is counted in clock ticks and falls short
// of what it enforced.
func TestCPULimitVerdict(t *testing.T) {
	if e := Machine().Enforcement(drivers.LimitCPU); !e.Enforced {
		t.Skipf("cpu is not enforced here: %s", e.How)
	}
	spec := botSpec(t, "spin", drivers.Clock{Total: 60 * sec})
	spec.Limits = drivers.Limits{CPU: "1s"}
	s := start(t, spec)
	_, err := ask(s, "gen_move")
	s.Kill()
	msg := fmt.Sprint(err)
	if faultKind(err) != drivers.FaultTime || !strings.Contains(msg, "reached its CPU time limit of 1s") {
		t.Errorf("got %v, want a time fault saying it reached its CPU time limit of 1s", err)
	}
	if strings.Contains(msg, "its limit is") {
		t.Errorf("%q puts a measured figure beside the limit as if it were under it", msg)
	}
}
