package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestShortGroupIsDrawn: Fibot split 23 teams into groups of 6, 6, 6 and
// 5, "a randomly chosen group will have fewer members". A random split
// draws which group is short from the seed (the same seed, the same
// group), so over seeds every group is sometimes the short one, not
// always A.
func TestShortGroupIsDrawn(t *testing.T) {
	var field []string
	for i := 1; i <= 23; i++ {
		field = append(field, fmt.Sprintf("tym%02d", i))
	}
	short := map[int]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		p := &Plan{Seed: seed, Stages: []Stage{{Name: "qualification", Pools: 4, Split: "random"}}}
		pools := p.SplitPools(0, field)
		var sizes []int
		var all []string
		for g, pool := range pools {
			sizes = append(sizes, len(pool))
			all = append(all, pool...)
			if len(pool) == 5 {
				short[g]++
			}
		}
		slices.Sort(sizes)
		slices.Sort(all)
		if !slices.Equal(sizes, []int{5, 6, 6, 6}) || !slices.Equal(all, field) {
			t.Fatalf("seed %d: groups %v, want sizes 6, 6, 6, 5 holding every team once", seed, pools)
		}
		if again := p.SplitPools(0, field); !slices.Equal(again[0], pools[0]) || !slices.Equal(again[3], pools[3]) {
			t.Fatalf("seed %d: the split is not deterministic: %v, then %v", seed, pools, again)
		}
	}
	if len(short) != 4 {
		t.Errorf("over 40 seeds the short group was only %v (group index: times)", short)
	}
}

// TestSeededShortPoolsAreTheTopSeeds: a seeded split whose field does not
// divide by its pools makes the top seeds' pools the short ones, A first
// (stages.md): the snake's last, partial row goes to the last pools. A
// plan made before the rule (TopShort false) keeps its snake, which ran
// the last row from where it started, so that 7 seeds in 3 pools made A
// the only large pool: s1, s6, s7.
func TestSeededShortPoolsAreTheTopSeeds(t *testing.T) {
	for _, tc := range []struct {
		bots, pools int
		topShort    bool
		want        [][]int
	}{
		{7, 3, true, [][]int{{1, 6}, {2, 5}, {3, 4, 7}}},
		{7, 3, false, [][]int{{1, 6, 7}, {2, 5}, {3, 4}}},
		{5, 2, true, [][]int{{1, 4}, {2, 3, 5}}},
		{5, 2, false, [][]int{{1, 4, 5}, {2, 3}}},
		{7, 2, true, [][]int{{1, 4, 5}, {2, 3, 6, 7}}},
		{23, 4, true, [][]int{{1, 8, 9, 16, 17}, {2, 7, 10, 15, 18, 23}, {3, 6, 11, 14, 19, 22}, {4, 5, 12, 13, 20, 21}}},
		{8, 4, true, [][]int{{1, 8}, {2, 7}, {3, 6}, {4, 5}}},
		{6, 4, true, [][]int{{1}, {2}, {3, 6}, {4, 5}}},
	} {
		var field []string
		for i := 1; i <= tc.bots; i++ {
			field = append(field, fmt.Sprintf("s%d", i))
		}
		p := &Plan{Seed: 1, Stages: []Stage{{Name: "groups", Pools: tc.pools, Split: "seeded", TopShort: tc.topShort}}}
		var want [][]string
		for _, pool := range tc.want {
			var names []string
			for _, s := range pool {
				names = append(names, fmt.Sprintf("s%d", s))
			}
			want = append(want, names)
		}
		got := p.SplitPools(0, field)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d bots in %d pools (top_short %v): %v, want %v", tc.bots, tc.pools, tc.topShort, got, want)
		}
	}
}

// TestOldSnakeSaidOnlyWherePoolsCanBeShort: arbiter plan names the rule of
// an earlier arbiter for a seeded stage without top_short only when its
// pools can differ in size; one pool, or a field of named bots that
// divides by its pools, is split alike under either rule.
func TestOldSnakeSaidOnlyWherePoolsCanBeShort(t *testing.T) {
	named := func(n int) []Pick {
		var picks []Pick
		for i := 1; i <= n; i++ {
			picks = append(picks, Pick{Bot: fmt.Sprintf("s%d", i)})
		}
		return picks
	}
	picked := []Pick{{Stage: "first", From: 1, To: 2}}
	for _, tc := range []struct {
		pools    int
		bots     []Pick
		topShort bool
		old      bool
	}{
		{1, picked, false, false},
		{1, named(7), false, false},
		{3, named(6), false, false},
		{3, named(7), false, true},
		{3, named(7), true, false},
		{2, picked, false, true},
		{2, picked, true, false},
	} {
		p := &Plan{Seed: 1, Stages: []Stage{
			{Name: "first", Pools: 1, Split: "seeded", Bots: named(7)},
			{Name: "next", Pools: tc.pools, Split: "seeded", TopShort: tc.topShort, Bots: tc.bots}}}
		said := p.DescribeStage(1)
		if got := strings.Contains(said, "earlier arbiter") || strings.Contains(said, "arbiter that made the plan"); got != tc.old {
			t.Errorf("%d pools of %v, top_short %v: %q; names the old rule: %v, want %v", tc.pools, tc.bots, tc.topShort, said, got, tc.old)
		}
	}
}
