package plan

import (
	"fmt"
	"slices"
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
