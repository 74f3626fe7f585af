package tournament

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBySeatIsTheOriginalBricksOrder: a two-player round robin with both
// seatings, listed group by group, played by seat is the original Bricks
// referee's order (management.Executioner: for each first player, each
// other player in turn).
func TestBySeatIsTheOriginalBricksOrder(t *testing.T) {
	field := []string{"a", "b", "c", "d"}
	var listed [][]string
	for _, g := range combinations(field, 2) {
		for _, s := range Swap.Seatings(2) {
			listed = append(listed, []string{g[s[0]], g[s[1]]})
		}
	}
	var want [][]string
	for _, first := range field {
		for _, second := range field {
			if first != second {
				want = append(want, []string{first, second})
			}
		}
	}
	var got [][]string
	for _, i := range BySeat.Sort(listed, field) {
		got = append(got, listed[i])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("by-seat order (-original +got):\n%s", diff)
	}
	if got := ByGroup.Sort(listed, field); !cmp.Equal(got, identity(len(listed))) {
		t.Errorf("by-group reorders the listing: %v", got)
	}
}

// TestBySeatFollowsTheField: the field's order decides, not the names; a
// bot outside the field (a fill bot) comes after it, and equal seats keep
// their listed order.
func TestBySeatFollowsTheField(t *testing.T) {
	listed := [][]string{{"x", "fill"}, {"fill", "x"}, {"y", "x"}, {"x", "y"}, {"x", "y"}}
	got := BySeat.Sort(listed, []string{"y", "x"})
	if want := []int{2, 3, 4, 0, 1}; !cmp.Equal(got, want) {
		t.Errorf("order %v; want %v", got, want)
	}
}

func TestOrderNames(t *testing.T) {
	for _, o := range Orders {
		var back Order
		if err := back.UnmarshalText([]byte(o.String())); err != nil || back != o {
			t.Errorf("%v reads back as %v, %v", o, back, err)
		}
	}
	var o Order
	if err := o.UnmarshalText([]byte("sideways")); err == nil {
		t.Error("an unknown order reads without an error")
	}
}
