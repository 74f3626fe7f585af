package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/tournament"
)

// TestShardLostSearchBounded: static stages whose playoffs may interleave
// give the steps of a shard factorially many orders (five stages of
// three playoffs each: 15!/6^5 of them, which the search once tried
// all of, keeping each). shardLost tries at most lostLooks steps and then
// names the first gap, and keeps one way of each set of lost files.
func TestShardLostSearchBounded(t *testing.T) {
	for _, stages := range []int{3, 5} {
		p := &plan.Plan{}
		for k := range stages {
			st := plan.Stage{Name: fmt.Sprintf("d%d", k), Pools: 1, Rounds: 1, Rating: tournament.Placement, Playoffs: true, Seats: tournament.Rotate}
			for i := range 2 {
				name := fmt.Sprintf("b%d_%d", k, i)
				p.Bots = append(p.Bots, plan.Bot{Name: name})
				st.Bots = append(st.Bots, plan.Pick{Bot: name})
				p.Matches = append(p.Matches, plan.Match{ID: fmt.Sprintf("d%d-A-r001-g01-s%d", k, i+1), Stage: st.Name, Round: 1})
			}
			p.Stages = append(p.Stages, st)
		}
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, RoundsDir), 0o755); err != nil {
			t.Fatal(err)
		}
		steps := 3 * stages
		own := []string{plan.StagePlayoffID("d0", 1, 3, 1, 1)}
		w := &lostWalk{steps: steps, own: own, files: map[string]*pairing.Pairing{}, seen: map[string]bool{}}
		known := *p
		w.walk(&known, 0, nil)
		if w.looks > lostLooks+steps { // each level of the walk counts the step it stops at
			t.Errorf("%d stages: the search tried %d steps, more than its bound %d", stages, w.looks, lostLooks)
		}
		ways, _, err := shardLost(dir, p, steps, own)
		if err != nil || len(ways) == 0 {
			t.Fatalf("%d stages: ways %v, %v; want the files lost named", stages, ways, err)
		}
		seen := map[string]bool{}
		for _, way := range ways {
			key := fmt.Sprint(way)
			if seen[key] {
				t.Errorf("%d stages: the way %v is given twice", stages, way)
			}
			seen[key] = true
		}
	}
}
