package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// TestUnmadeStageCommand: a result of a stage whose file is missing, the
// results before it all there, says how to make the stage again with a
// command that pastes: the directory's saved plan, its bots' -root and
// the directory quoted for the shell.
func TestUnmadeStageCommand(t *testing.T) {
	p := &plan.Plan{Tournament: "t",
		Bots: []plan.Bot{{Name: "a", Dir: "bots/a", Fingerprint: &plan.Fingerprint{Dir: "/conf dir/bots/a", Root: "/conf dir"}}, {Name: "b", House: "g/random"}},
		Stages: []plan.Stage{{Name: "qualify", Bots: []plan.Pick{{Bot: "a"}, {Bot: "b"}}},
			{Name: "final", Bots: []plan.Pick{{Stage: "qualify", From: 1, To: 2}}}},
		Matches: []plan.Match{{ID: "qualify-A-r001-g01-s1", Stage: "qualify", Seats: []string{"a", "b"}}}}
	dir := filepath.Join(t.TempDir(), "s1 y")
	path := filepath.Join(dir, ResultsFile)
	results := []Result{{Match: "qualify-A-r001-g01-s1"}, {Match: "final-A-r001-g01-s1"}}
	err := unmadeStage(p, results, path, 2, "final-A-r001-g01-s1")
	again := shell.Line("arbiter", "run", filepath.Join(dir, PlanFile), "-root", "/conf dir", "-out", dir)
	if err == nil || !strings.Contains(err.Error(), "is missing: "+again+" makes it again from the results") {
		t.Fatalf("unmadeStage: %v; want it to say %q makes the stage again", err, again)
	}
}
