package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/tournament"
)

// TestImpossibleID: a playoff id is impossible only when the
// configuration alone rules it out; any id a run may still make is not.
func TestImpossibleID(t *testing.T) {
	p := &plan.Plan{Stages: []plan.Stage{
		{Name: "q", Pools: 2, Rating: tournament.Placement, Playoffs: true, Seats: tournament.Rotate},
		{Name: "q-x", Pools: 1, Rating: tournament.Placement, Playoffs: true, Seats: tournament.Swap,
			Bots: []plan.Pick{{Stage: "q", From: 1, To: 2}}},
		{Name: "w", Pools: 1, Rating: tournament.Wins, Bots: []plan.Pick{{Stage: "q", From: 1, To: 1}}},
	}}
	for i := 1; i <= 7; i++ {
		name := fmt.Sprintf("b%d", i)
		p.Bots = append(p.Bots, plan.Bot{Name: name})
		p.Stages[0].Bots = append(p.Stages[0].Bots, plan.Pick{Bot: name})
	}
	for _, c := range []struct{ id, want string }{
		{"playoff-q-A-1-g01-s1", ""},
		{"playoff-q-B-3-g02-s4", ""}, // groups of 4 and 3: two ties of two, a tie of 4 seated 4 ways
		{"playoff-q-C-1-g01-s1", "stage q has 2 groups (A to B), so no group C"},
		{"playoff-q-A-1-g03-s1", "at most 2 tie(s) to play off"},
		{"playoff-q-A-1-g01-s5", "played in at most 4 seating(s)"},
		{"playoff-q-x-A-1-g02-s2", ""}, // the longest name: a field of 4, two ties of two, swapped
		{"playoff-q-x-A-1-g01-s5", "a tie of stage q-x (at most 4 bots, seats \"swap\") is played in at most 4 seating(s)"},
		{"playoff-q-x-B-1-g01-s1", "stage q-x has 1 group (A), so no group B"},
		{"playoff-w-A-1-g01-s1", "stage w's rating \"wins\" plays no playoffs"},
		{"playoff-z-A-1-g01-s1", "it names no stage of this tournament (its stages: q, q-x, w;"},
		{"playoff-q-A-01-g01-s1", "it is not of the form"},
		{"q-A-r001-g01-s1", ""},
	} {
		got := impossibleID(p, c.id)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.id, got, c.want)
		}
	}
}
