package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Shards are disjoint, cover the stage, keep a group of a round in one
// shard, balance by matches, and do not depend on anything but the plan.
func TestShardMatches(t *testing.T) {
	var ms []plan.Match
	for r := 1; r <= 7; r++ {
		for g := 1; g <= 3; g++ {
			for s := 1; s <= 1+g%3; s++ { // groups of 2, 3 and 1 seatings
				ms = append(ms, plan.Match{ID: fmt.Sprintf("r%03d-g%02d-s%d", r, g, s), Round: r, Group: g})
			}
		}
	}
	for _, n := range []int{1, 2, 5, 8, 60} {
		owner := map[string]int{}
		group := map[[2]int]int{}
		sizes := make([]int, n)
		for k := 0; k < n; k++ {
			ids := ShardMatches(ms, k, n)
			if !slices.Equal(ids, ShardMatches(ms, k, n)) {
				t.Fatalf("%d/%d: not deterministic", k, n)
			}
			sizes[k] = len(ids)
			for _, id := range ids {
				if o, ok := owner[id]; ok {
					t.Fatalf("%s in shards %d and %d of %d", id, o, k, n)
				}
				owner[id] = k
			}
		}
		for _, m := range ms {
			k, ok := owner[m.ID]
			if !ok {
				t.Fatalf("N=%d: %s in no shard", n, m.ID)
			}
			u := [2]int{m.Round, m.Group}
			if o, ok := group[u]; ok && o != k {
				t.Fatalf("N=%d: round %d group %d split over shards %d and %d", n, m.Round, m.Group, o, k)
			}
			group[u] = k
		}
		// Balanced within the largest unit (3 matches).
		if n <= 21 && slices.Max(sizes)-slices.Min(sizes) > 3 {
			t.Fatalf("N=%d: shard sizes %v", n, sizes)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "3", "a/b", "2/2", "-1/2", "0/0", "1/-3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	if s, err := ParseShard("7/8"); err != nil || s.K != 7 || s.N != 8 {
		t.Fatalf("ParseShard(7/8) = %v, %v", s, err)
	}
}
