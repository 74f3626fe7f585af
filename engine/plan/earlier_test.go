package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRunnableEarlierPlans: the plan.json of a results directory that an
// earlier arbiter wrote and ran, by rules later versions tightened, is one
// its readers go through (Runnable), though it would not run again
// (Parse). testdata/earlier holds plans written by the arbiters of the
// commits their names begin with: a clock of 500µs and an output limit of
// 40 bytes (before 88adb8c), a memory limit of 400 KiB (before the 1 MiB
// floor), a stage seating 3 players by "swap" (before 0fc337f, played as
// rotations).
func TestRunnableEarlierPlans(t *testing.T) {
	paths, err := filepath.Glob("testdata/earlier/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no plans in testdata/earlier: %v", err)
	}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var p Plan
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		if err := p.Runnable(); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: Parse takes it: the plan is no example of a rule tightened since", path)
		}
	}
}
