package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
)

// TestArbiterEnvWinsOverThePlans: a plan whose bots' env sets ARBITER_SEED
// and ARBITER_SEAT (the configuration refuses it, a plan.json edited by
// hand need not) does not change what the bots get: the random house bots,
// seeded from those two, play the same cards as without it.
func TestArbiterEnvWinsOverThePlans(t *testing.T) {
	moves := func(edit bool) string {
		out := t.TempDir()
		r := runner(t, 3, journalTour, out, 1)
		if edit {
			for i := range r.Plan.Bots {
				r.Plan.Bots[i].Env = map[string]string{"ARBITER_SEED": "1", "ARBITER_SEAT": "1"}
			}
		}
		id := r.Plan.Matches[0].ID
		r.Only = []string{id}
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, engine.MatchesDir, id, "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var recv []string
		for _, l := range strings.Split(string(b), "\n") {
			if i := strings.Index(l, `"recv"`); i >= 0 {
				recv = append(recv, l[i:])
			}
		}
		return strings.Join(recv, "\n")
	}
	plain, edited := moves(false), moves(true)
	if plain == "" || plain != edited {
		t.Errorf("the bots answered differently with ARBITER_* in the plan's env:\n%s\nwant\n%s", edited, plain)
	}
}
