package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
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

// TestUnmadeRoundSaysRoundOnce: a round that a resumed run cannot pair
// again from its results names the round once ("round 3 cannot be made
// from out/results.jsonl: pairing round 3: ..." said it twice), and so
// does a stage ("stage final cannot be made from ...: stage final pool
// A: ..."); an error of another round or stage than the file's keeps its
// own.
func TestUnmadeRoundSaysRoundOnce(t *testing.T) {
	path := filepath.Join("out", ResultsFile)
	why := errors.New("no partner of a leaves a pairing of 1 meetings")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"r003.json", &pairing.RoundError{Round: 3, Err: why}, "round 3 cannot be made from " + path + ": no partner of a leaves a pairing of 1 meetings"},
		{"r003.json", &pairing.RoundError{Round: 4, Err: why}, "round 3 cannot be made from " + path + ": pairing round 4: no partner of a leaves a pairing of 1 meetings"},
		{"stage-final.json", fmt.Errorf("stage qualify pool A: %w", why), "stage final cannot be made from " + path + ": stage qualify pool A: no partner of a leaves a pairing of 1 meetings"},
		{"stage-final.json", &stages.PoolError{Stage: "final", Pool: 2, Err: why}, "stage final cannot be made from " + path + ": pool B: no partner of a leaves a pairing of 1 meetings"},
		{"stage-final.json", &stages.PoolError{Stage: "qualify", Pool: 1, Err: why}, "stage final cannot be made from " + path + ": stage qualify pool A: no partner of a leaves a pairing of 1 meetings"},
	} {
		err := unmadeLater(c.name, path, c.err)
		if err.Error() != c.want {
			t.Errorf("unmadeLater(%s): %v; want %s", c.name, err, c.want)
		}
		if !errors.Is(err, why) {
			t.Errorf("unmadeLater(%s): %v does not wrap %v", c.name, err, why)
		}
	}
}
