package euchre

import (
	"fmt"
	"testing"
)

// TestDealIsAWholeDeck: every deal gives 5 cards to each player and one
// upcard, 21 different cards of the deck.
func TestDealIsAWholeDeck(t *testing.T) {
	for hand := range 50 {
		d := DealHand(77, hand, hand%4)
		seen := map[Card]bool{d.Upcard: true}
		for p, h := range d.Hands {
			if len(h) != 5 {
				t.Fatalf("hand %d: position %d got %d cards", hand, p, len(h))
			}
			for _, c := range h {
				if seen[c] || c >= Card(deckSize) {
					t.Fatalf("hand %d: card %s dealt twice or not in the deck", hand, c)
				}
				seen[c] = true
			}
		}
	}
}

// TestDealPinned pins a deal, so that a change to the shuffle (or to Go's
// PCG) that would change every seeded tournament is noticed.
func TestDealPinned(t *testing.T) {
	d := DealHand(2009, 0, 0)
	got := fmt.Sprintf("%s|%s|%s|%s|%s", FormatCards(d.Hands[0]), FormatCards(d.Hands[1]),
		FormatCards(d.Hands[2]), FormatCards(d.Hands[3]), d.Upcard)
	const want = "jh,qs,9s,qc,kd|js,qd,jd,ks,th|ad,ts,ac,ah,td|9h,tc,kc,jc,9d|9c"
	if got != want {
		t.Errorf("DealHand(2009, 0, 0) = %s, want %s", got, want)
	}
}

// TestSameSeedSameDeals: a seed gives the same deals whoever plays them,
