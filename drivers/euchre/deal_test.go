package euchre

import (
	"context"
	"fmt"
	"reflect"
	"slices"
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
// and different hands and seeds give different deals.
func TestSameSeedSameDeals(t *testing.T) {
	deals := func(seed uint64, bots [4]strategy) []DealEvent {
		rec := &events{}
		if _, err := Referee(context.Background(), DefaultSettings(), seed, inProcess(t, seed, bots), rec); err != nil {
			t.Fatal(err)
		}
		var out []DealEvent
		for _, e := range rec.of("deal") {
			out = append(out, e.(DealEvent))
		}
		return out
	}
	a := deals(42, team(rules, random))
	b := deals(42, team(random, rules)) // the duplicate: teams swapped
	c := deals(42, team(rules, random))
	if !reflect.DeepEqual(a, c) {
		t.Error("the same seed and bots gave different deals")
	}
	n := min(len(a), len(b))
	if n < 3 || !reflect.DeepEqual(a[:n], b[:n]) {
		t.Errorf("swapping the teams changed the deals of seed 42 (or the games were too short: %d hands)", n)
	}
	if reflect.DeepEqual(a[0].Hands, a[1].Hands) {
		t.Error("hands 1 and 2 were dealt the same cards")
	}
	if other := deals(43, team(rules, random)); reflect.DeepEqual(other[0], a[0]) {
		t.Error("seeds 42 and 43 dealt the same first hand")
	}
}

// TestSameSeedSameGame: a whole game replays event for event.
func TestSameSeedSameGame(t *testing.T) {
	play := func() []event {
		rec := &events{}
		if _, err := Referee(context.Background(), DefaultSettings(), 8, inProcess(t, 8, team(random, random)), rec); err != nil {
			t.Fatal(err)
		}
		return rec.list
	}
	if a, b := play(), play(); !slices.EqualFunc(a, b, func(x, y event) bool { return x.kind == y.kind && reflect.DeepEqual(x.data, y.data) }) {
		t.Error("the same seed played twice gave different games")
	}
}
