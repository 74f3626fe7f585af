package pairing

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching is the least cost of a perfect matching of the vertices
// left, by trying every one.
func bruteMatching(left []int, cost [][]int) int {
	if len(left) == 0 {
		return 0
	}
	best := -1
	for k := 1; k < len(left); k++ {
		rest := append(append([]int{}, left[1:k]...), left[k+1:]...)
		if c := cost[left[0]][left[k]] + bruteMatching(rest, cost); best < 0 || c < best {
			best = c
		}
	}
	return best
}

// TestMinCostMatchingIsLeast: random complete graphs of up to 12
// vertices, their costs from a few values (many ties and zeros, as
// meetings are) to many: the matching is perfect, its cost is its edges'
// and is the least of every perfect matching.
func TestMinCostMatchingIsLeast(t *testing.T) {
	for seed := range uint64(3000) {
		rng := rand.New(rand.NewPCG(seed, 5))
		n := 2 * rng.IntN(7)
		spread := []int{1, 2, 3, 4, 100}[rng.IntN(5)]
		cost := make([][]int, n)
		for i := range cost {
			cost[i] = make([]int, n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				c := rng.IntN(spread)
				if rng.IntN(3) == 0 {
					c = 0
				}
				cost[i][j], cost[j][i] = c, c
			}
		}
		mate, total := minCostMatching(n, func(i, j int) int { return cost[i][j] })
		sum := 0
		for i, j := range mate {
			if j < 0 || j >= n || j == i || mate[j] != i {
				t.Fatalf("seed %d: mate %v is no perfect matching", seed, mate)
			}
			if i < j {
				sum += cost[i][j]
			}
		}
		left := make([]int, n)
		for i := range left {
			left[i] = i
		}
		if best := bruteMatching(left, cost); total != sum || sum != best {
			t.Errorf("seed %d: costs %v matched %v at %d (said %d); the least is %d", seed, cost, mate, sum, total, best)
		}
	}
}
