package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/config"
)

func names(bots []*config.Bot) []string {
	var out []string
	for _, b := range bots {
		out = append(out, b.Name)
	}
	return out
}

func TestAddingABotKeepsTheOthersInOrder(t *testing.T) {
	var four, five []*config.Bot
	for _, n := range []string{"a", "b", "c", "d"} {
		four = append(four, &config.Bot{Name: n})
	}
	// The same bots plus one, listed in another order.
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		five = append(five, &config.Bot{Name: n})
	}
	for r := 1; r <= 5; r++ {
		got4 := names(drawOrder(9, r, four))
		var got5 []string
		for _, n := range names(drawOrder(9, r, five)) {
			if n != "e" {
				got5 = append(got5, n)
			}
		}
		if !cmp.Equal(got4, got5) {
			t.Errorf("round %d: %v, but with e added and the list reversed %v", r, got4, got5)
		}
	}
	if cmp.Equal(names(drawOrder(9, 1, four)), names(drawOrder(9, 2, four))) &&
		cmp.Equal(names(drawOrder(9, 2, four)), names(drawOrder(9, 3, four))) {
		t.Error("the draw order is the same in rounds 1 to 3: rounds are not drawn independently")
	}
}
