package auction

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestBidFormat pins, through real processes, what a bid may look like:
// white space around the number is ignored and leading zeros are read
// as the number they write (" 2 " is 2, "01" is 1); a sign, a decimal
// point or an exponent is not a whole number, and the bid counts as 0
// with an illegal default.
func TestBidFormat(t *testing.T) {
	m, rec, mark := newMatch(t, 3,
		seat{"padded", "fixed:\t 2 \r"}, seat{"zeros", "fixed:01"},
		seat{"plus", "fixed:+2"}, seat{"point", "fixed:2.0"}, seat{"exponent", "fixed:2e0"}, seat{"minuszero", "fixed:-0"})
	m.Clock.Move = drivers.Duration(2 * time.Second)
	b := Board{Name: "tiny", Cols: 2, Rows: 1, Capital: 6}
	out, err := play(context.Background(), m, testSettings, b, NewPosition(b, len(m.Seats), 3))
	if err != nil {
		t.Fatal(err)
	}
	var rounds []RoundEvent
	for _, e := range rec.events {
		if r, ok := e.data.(RoundEvent); ok {
			rounds = append(rounds, r)
		}
	}
	if len(rounds) != 2 {
		t.Fatalf("%d rounds, want 2: %+v", len(rounds), rounds)
	}
	for _, r := range rounds {
		if want := []int{2, 1, 0, 0, 0, 0}; !slices.Equal(r.Bids, want) || r.Winner != 0 {
			t.Errorf("round %d: bids %v winner %d, want %v and seat 0", r.Round, r.Bids, r.Winner, want)
		}
	}
	count := map[int]int{}
	for _, d := range rec.defaults() {
		count[d.Seat]++
		if d.Seat < 2 || d.Kind != "illegal" {
			t.Errorf("default of seat %d: %s (%s), want none for seats 0 and 1, illegal for the others", d.Seat, d.Kind, d.Detail)
		}
	}
	for i, r := range out.Seats {
		want := 2
		if i < 2 {
			want = 0
		}
		if r.Defaults != want || count[i] != want {
			t.Errorf("seat %d: %d defaults, %d default events, want %d", i, r.Defaults, count[i], want)
		}
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}
