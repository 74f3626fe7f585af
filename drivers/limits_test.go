package drivers

import (
	"strings"
	"testing"
)

// A cpu limit under a second is refused in a configuration
// (ConfigProblems) but not in a saved plan an earlier arbiter compiled
// (Problems), which is warned that it is enforced as a second.
func TestCPUFloorOnlyForConfigurations(t *testing.T) {
	for _, tc := range []struct {
		cpu string
		low bool
	}{{"500ms", true}, {"100us", true}, {"1s", false}, {"1.5s", false}, {"match", false}, {"", false}} {
		l := Limits{CPU: tc.cpu}
		if p := l.Problems(); len(p) != 0 {
			t.Errorf("cpu %q: Problems = %v, want none", tc.cpu, p)
		}
		if p := l.ConfigProblems(); (len(p) == 1 && p[0].Limit == LimitCPU) != tc.low || !tc.low && len(p) != 0 {
			t.Errorf("cpu %q: ConfigProblems = %v, want a cpu problem %v", tc.cpu, p, tc.low)
		}
		if w := l.CPUWarning(); strings.Contains(w, "enforced as 1s") != tc.low || !tc.low && w != "" {
			t.Errorf("cpu %q: CPUWarning = %q, want one saying enforced as 1s %v", tc.cpu, w, tc.low)
		}
	}
}
