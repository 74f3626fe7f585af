package euchre

import (
	"context"
	"testing"
)

// TestRulesBeatsRandom plays the rules bot against random on both sides of
// the same deals: it must win clearly more than half the games.
func TestRulesBeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	s := DefaultSettings()
	wins := 0
	for seed := range uint64(games / 2) {
		for swap := range 2 {
			bots := team("rules", "random")
			if swap == 1 {
				bots = team("random", "rules")
			}
			res, err := Referee(context.Background(), s, seed, inProcess(t, seed, bots), nopRecorder{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Winner == swap {
				wins++
			}
			for p, d := range res.Defaults {
				if d != 0 {
					t.Errorf("seed %d: position %d got %d defaults; house bots answer validly", seed, p, d)
				}
			}
		}
	}
	t.Logf("rules won %d of %d games against random", wins, games)
	if wins*100 < games*80 {
		t.Errorf("rules won only %d of %d games against random", wins, games)
	}
}
