package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// TestFinishedRunLeavesNoCgroups: a run that finished removes its bots'
// cgroups that went back to be lent again (proc.RemoveIdleCgroups), in
// every hierarchy. Before, a Planowanie run's idle cgroups (one of each
// of memory, pids, cpu and cpuacct per bot) stayed until a later arbiter removed
// them.
func TestFinishedRunLeavesNoCgroups(t *testing.T) {
	t.Parallel()
	p := proc.Machine()
	bases := []string{p.CgroupV2}
	for _, d := range p.CgroupV1 {
		bases = append(bases, d)
	}
	if p.CgroupV2 == "" && len(p.CgroupV1) == 0 {
		t.Skip("no cgroups for bots here")
	}
	dir := t.TempDir()
	// One match of four Planowanie bots.
	cfg := strings.Replace(fmt.Sprintf(resumeConfig, "cgroups"), "rounds  = 8", "rounds  = 1", 1)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("arbiter", "run", dir, "-out", filepath.Join(dir, "out"), "-j", "1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arbiter run: %v\n%s", err, out)
	}
	for _, base := range bases {
		if base == "" {
			continue
		}
		left, _ := filepath.Glob(filepath.Join(base, fmt.Sprintf("arbiter.%d.*", cmd.Process.Pid)))
		if len(left) > 0 {
			t.Errorf("the finished run left its cgroups in %s: %v", base, left)
		}
	}
}
