package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Which match's state a bot starts each match from: its match before in
// plan order, or, keeping deals apart, its match before the first of its
// matches on the same seed, so that the seatings of a group on the same
// deals all start from the same state (and may run at once) and none
// starts from another's.
func TestPreviousMatches(t *testing.T) {
	m := func(id string, seed uint64, seats ...string) plan.Match {
		return plan.Match{ID: id, Seed: seed, Seats: seats}
	}
	for _, tc := range []struct {
		name       string
		dealsApart bool
		ms         []plan.Match
		want       map[string]map[string]string
	}{
		{"match to match", false,
			[]plan.Match{m("g1-s1", 1, "a", "b"), m("g1-s2", 1, "b", "a"), m("g2-s1", 2, "a", "c")},
			map[string]map[string]string{
				"g1-s1": {"a": "", "b": ""}, "g1-s2": {"a": "g1-s1", "b": "g1-s1"}, "g2-s1": {"a": "g1-s2", "c": ""}}},
		{"duplicate seatings start alike", true,
			[]plan.Match{m("g1-s1", 1, "a", "b"), m("g1-s2", 1, "b", "a"), m("g2-s1", 2, "a", "c"), m("g2-s2", 2, "c", "a")},
			map[string]map[string]string{
				"g1-s1": {"a": "", "b": ""}, "g1-s2": {"a": "", "b": ""},
				"g2-s1": {"a": "g1-s2", "c": ""}, "g2-s2": {"a": "g1-s2", "c": ""}}},
		{"own deals pass on", true,
			[]plan.Match{m("s1", 1, "a", "b"), m("s2", 2, "b", "a"), m("s3", 3, "a", "b")},
			map[string]map[string]string{
				"s1": {"a": "", "b": ""}, "s2": {"a": "s1", "b": "s1"}, "s3": {"a": "s2", "b": "s2"}}},
		// Seatings ordered by shift: a's second match on seed 1 starts
		// from what it had before its first, not from its match on seed 2
		// between them, which started from its first on seed 1.
		{"interleaved seeds", true,
			[]plan.Match{m("g1-s1", 1, "a", "b"), m("g2-s1", 2, "a", "c"), m("g1-s2", 1, "b", "a"), m("g2-s2", 2, "c", "a"), m("g3-s1", 3, "a", "b")},
			map[string]map[string]string{
				"g1-s1": {"a": "", "b": ""}, "g2-s1": {"a": "g1-s1", "c": ""}, "g1-s2": {"a": "", "b": ""},
				"g2-s2": {"a": "g1-s1", "c": ""}, "g3-s1": {"a": "g2-s2", "b": "g1-s2"}}},
	} {
		if diff := cmp.Diff(tc.want, previousMatches(tc.ms, tc.dealsApart)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestStageLabel: a refused shard names the stage it speaks of: a stage
// of a tournament in stages by its name, a playoff of one as that
// stage's playoff (not as the stage), a single tournament's round or
// playoff by number alone.
func TestStageLabel(t *testing.T) {
	p := &plan.Plan{Stages: []plan.Stage{{Name: "a", Rounds: 2}, {Name: "b", Rounds: 1}}}
	st := p.StagePlayoffMatches(0, 1, [][][]string{{{"x", "y"}}})
	if len(st) == 0 {
		t.Fatal("no playoff match made")
	}
	for _, tc := range []struct {
		stage int
		ms    []plan.Match
		want  string
	}{
		{1, []plan.Match{{ID: "b-A-r001-g01-s1", Stage: "b", Round: 1}}, "stage 1 (b)"},
		{1, st, "stage 1 (playoff 1 of stage a)"},
		{2, []plan.Match{{ID: "playoff-1-g01-s1", Round: 3}}, "stage 2"},
		{0, nil, "stage 0"},
	} {
		if got := stageLabel(p, tc.stage, tc.ms); got != tc.want {
			t.Errorf("stageLabel(%d, %v) = %q, want %q", tc.stage, tc.ms, got, tc.want)
		}
	}
}
