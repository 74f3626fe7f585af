package blokus

import (
	"slices"
	"testing"
)

// TestGreedyBeatsRandom plays greedy against random in both seatings on
// the course board and the classic one, and wants greedy to win clearly
// more games.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	for _, tc := range []struct {
		name string
		s    Settings
	}{{"course 10x10", courseSettings(t)}, {"classic 20x20", classicSettings(t)}} {
		t.Run(tc.name, func(t *testing.T) {
			wins := map[string]float64{}
			points := map[string]float64{}
			for seed := uint64(1); seed <= uint64(games); seed++ {
				names := []string{"greedy", "random"}
				if seed%2 == 0 {
					names = []string{"random", "greedy"}
				}
				out, _ := playHouse(t, tc.s, seed, names...)
				for i, s := range out.Seats {
					if s.Fault != "" {
						t.Fatalf("seed %d: %s faulted: %s %s", seed, names[i], s.Fault, s.Detail)
					}
					points[names[i]] += s.Score
					wins[names[i]] += 2 - s.Place // 1 for a win, 0.5 for a draw
				}
			}
			t.Logf("%d games: greedy wins %.1f (mean score %.1f), random %.1f (mean %.1f)", games,
				wins["greedy"], points["greedy"]/float64(games), wins["random"], points["random"]/float64(games))
			if wins["greedy"] < 0.8*float64(games) {
				t.Errorf("greedy won %.1f of %d games against random, want at least 80%%", wins["greedy"], games)
			}
		})
	}
}

// TestSameSeedSameGame plays the same seeded match twice and wants the
// same moves.
func TestSameSeedSameGame(t *testing.T) {
	moves := func(seed uint64, names ...string) []MoveEvent {
		_, rec := playHouse(t, classicSettings(t), seed, names...)
		var out []MoveEvent
		for _, e := range rec.of("move") {
			out = append(out, e.(MoveEvent))
		}
		return out
	}
	for _, names := range [][]string{{"random", "greedy"}, {"greedy", "greedy"}} {
		a, b := moves(7, names...), moves(7, names...)
		if !slices.EqualFunc(a, b, func(x, y MoveEvent) bool {
			return x.Stone == y.Stone && slices.Equal(x.Cells, y.Cells) && x.Pass == y.Pass
		}) {
			t.Errorf("%v: two runs with seed 7 differ", names)
		}
		if c := moves(8, names...); slices.EqualFunc(a, c, func(x, y MoveEvent) bool { return slices.Equal(x.Cells, y.Cells) }) {
			t.Errorf("%v: seeds 7 and 8 play the same game", names)
		}
	}
}
