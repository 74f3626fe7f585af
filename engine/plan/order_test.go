package plan

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAddingABotKeepsTheOthersInOrder(t *testing.T) {
	four := []string{"a", "b", "c", "d"}
	// The same bots plus one, listed in another order.
	five := []string{"e", "d", "c", "b", "a"}
	for r := 1; r <= 5; r++ {
		got4 := drawOrder(9, r, four)
		var got5 []string
		for _, n := range drawOrder(9, r, five) {
			if n != "e" {
				got5 = append(got5, n)
			}
		}
		if !cmp.Equal(got4, got5) {
			t.Errorf("round %d: %v, but with e added and the list reversed %v", r, got4, got5)
		}
	}
	if cmp.Equal(drawOrder(9, 1, four), drawOrder(9, 2, four)) &&
		cmp.Equal(drawOrder(9, 2, four), drawOrder(9, 3, four)) {
		t.Error("the draw order is the same in rounds 1 to 3: rounds are not drawn independently")
	}
}
