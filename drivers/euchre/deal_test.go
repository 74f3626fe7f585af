package euchre

import (
	"context"
	"reflect"
	"slices"
	"testing"
)

// and different hands and seeds give different deals.
func TestSameSeedSameDeals(t *testing.T) {
	deals := func(seed uint64, bots [4]string) []DealEvent {
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
	a := deals(42, team("rules", "random"))
	b := deals(42, team("random", "rules")) // the duplicate: teams swapped
	c := deals(42, team("rules", "random"))
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
	if other := deals(43, team("rules", "random")); reflect.DeepEqual(other[0], a[0]) {
		t.Error("seeds 42 and 43 dealt the same first hand")
	}
}

// TestSameSeedSameGame: a whole game replays event for event.
func TestSameSeedSameGame(t *testing.T) {
	play := func() []event {
		rec := &events{}
		if _, err := Referee(context.Background(), DefaultSettings(), 8, inProcess(t, 8, team("random", "random")), rec); err != nil {
			t.Fatal(err)
		}
		return rec.list
	}
	if a, b := play(), play(); !slices.EqualFunc(a, b, func(x, y event) bool { return x.kind == y.kind && reflect.DeepEqual(x.data, y.data) }) {
		t.Error("the same seed played twice gave different games")
	}
}
