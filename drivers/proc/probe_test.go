package proc

import (
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

func TestProbeReport(t *testing.T) {
	p := Machine()
	for _, f := range p.Facts() {
		t.Logf("%-24s %s", f[0], f[1])
	}
	for _, e := range p.Enforcements() {
		t.Logf("%-10s %v %s", e.Limit, e.Enforced, e.How)
	}
}

// TestUnenforceable: on a machine without cgroups, namespaces, seccomp or
// Landlock, as root, only the limits arbiter can keep by itself or with
// rlimits are enforceable; the others are returned, in the order asked.
func TestUnenforceable(t *testing.T) {
	bare := &Probe{Root: true, Why: map[string]string{}}
	var got []string
	for _, e := range bare.Unenforceable([]string{"output", "network", "memory", "files", "cpu", "processes"}) {
		if e.Enforced || e.How == "" {
			t.Errorf("%s: enforced %v, how %q", e.Limit, e.Enforced, e.How)
		}
		got = append(got, e.Limit)
	}
	if want := "network files processes"; strings.Join(got, " ") != want {
		t.Errorf("Unenforceable = %v, want %s", got, want)
	}
	withAll := &Probe{CgroupV2: "/sys/fs/cgroup/x", NetNS: true, Landlock: 3, Seccomp: true, Sandbox: true, Why: map[string]string{}}
	if u := withAll.Unenforceable(drivers.LimitNames); len(u) != 0 {
		t.Errorf("with cgroup v2, a network namespace, Landlock, seccomp and the sandbox: Unenforceable = %v", u)
	}
}
