package proc

import "testing"

func TestProbeReport(t *testing.T) {
	p := Machine()
	for _, f := range p.Facts() {
		t.Logf("%-24s %s", f[0], f[1])
	}
	for _, e := range p.Enforcements() {
		t.Logf("%-10s %v %s", e.Limit, e.Enforced, e.How)
	}
}
