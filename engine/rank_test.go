package engine

import (
	"fmt"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// TestShardStopsCountsListedOnce: a shard of a later stage says the
// stopping rule ends the tournament with its stage only when the listed
// matches and the stages paired up to its own reach max_matches, as the
// merge decides it. The plan the run and rank give it holds the paired
// stages after the listed matches; they were counted twice, so a shard
// of round 2 of a Swiss tournament of 6 matches a round and max_matches
// 14 said the rule ended the tournament (12 + 6 ≥ 14), while the merge
// of that stage pairs round 3.
func TestShardStopsCountsListedOnce(t *testing.T) {
	round := func(r int) []plan.Match {
		var ms []plan.Match
		for g := 1; g <= 3; g++ {
			for s, seats := range [][]string{{"a", "b"}, {"b", "a"}} {
				ms = append(ms, plan.Match{ID: fmt.Sprintf("r%03d-g%02d-s%d", r, g, s+1), Round: r, Group: g, Shift: s + 1, Seats: seats})
			}
		}
		return ms
	}
	paired := []*pairing.Pairing{{Round: 2, Matches: round(2)}}
	sp := &ShardPlan{Shard: Shard{K: 0, N: 2, Stage: 1}, Matches: []string{"r002-g01-s1", "r002-g01-s2"}, Paired: paired}
	for _, c := range []struct {
		max  int
		want bool
	}{{14, false}, {13, false}, {12, true}, {8, true}} {
		listed := &plan.Plan{Bots: []plan.Bot{{Name: "a"}, {Name: "b"}}, Stop: &plan.Stop{MaxMatches: c.max}, Matches: round(1)}
		known := *listed
		known.Matches = append(round(1), round(2)...)
		for _, w := range []struct {
			what string
			p    *plan.Plan
		}{{"listed", listed}, {"known", &known}} {
			what, p := w.what, w.p
			st, err := Rank(p, nil, sp, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ended != c.want {
				t.Errorf("max_matches %d, the plan with its %s matches: the shard of stage 1 (matches 7-12) says the rule ended the tournament: %v, want %v", c.max, what, st.Ended, c.want)
			}
		}
	}
}
