package stats

import (
	"testing"

	"github.com/arbiter-contests/arbiter/tournament"
)

// TestEveryRatingHasAnOrder: a rating method added to package tournament
// needs its order here.
func TestEveryRatingHasAnOrder(t *testing.T) {
	for _, r := range tournament.Ratings {
		if int(r) >= len(orders) || orders[r] == nil {
			t.Errorf("rating %s has no order", r)
		}
	}
}
