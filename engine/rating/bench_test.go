package rating

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// benchGames simulates a league: players with normally spread strengths
// play random pairings with the model's own outcome probabilities.
func benchGames(players, games int) ([]string, []Game) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := make([]string, players)
	strength := make([]float64, players)
	for i := range names {
		names[i] = fmt.Sprintf("bot-%02d", i)
		strength[i] = rng.NormFloat64() * 150
	}
	m := &model{adv: 32.8, drawElo: 97.3}
	out := make([]Game, 0, games)
	for len(out) < games {
		w, b := rng.IntN(players), rng.IntN(players)
		if w == b {
			continue
		}
		d := strength[w] - strength[b]
		var res Result
		switch u := rng.Float64(); {
		case u < m.winP(d):
			res = WhiteWins
		case u < 1-m.lossP(d):
			res = Draw
		default:
			res = BlackWins
		}
		out = append(out, Game{w, b, res})
	}
	return names, out
}

func BenchmarkFit(b *testing.B) {
	names, games := benchGames(50, 5000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(names, games, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExactDist(b *testing.B) {
	names, games := benchGames(50, 5000)
	r, err := Fit(names, games, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r.ExactDist()
	}
}

func BenchmarkCovariance(b *testing.B) {
	names, games := benchGames(50, 5000)
	r, err := Fit(names, games, DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		// Bypasses the cache in Ratings.
		r.m.covariance(r.raw)
	}
}

// The simulated strengths should be recovered, which checks the fit
// against the model it claims to implement.
func TestFitRecoversStrengths(t *testing.T) {
	names, games := benchGames(10, 20000)
	r, err := Fit(names, games, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	strength := make([]float64, len(names))
	mean := 0.0
	for i := range strength {
		strength[i] = rng.NormFloat64() * 150
		mean += strength[i] / float64(len(names))
	}
	for i := range strength {
		// Elo is on bayeselo's display scale.
		raw := r.Elo[i] / r.Scale
		if d := math.Abs(raw - (strength[i] - mean)); d > 4*math.Sqrt(r.Variance(i))/r.Scale {
			t.Errorf("player %d: fitted %.1f, true %.1f", i, raw, strength[i]-mean)
		}
	}
}

// BenchmarkFitPGN is rank -pgn's path: reading and counting the games of a
// PGN file, then the fit. Its allocations do not grow with the games.
func BenchmarkFitPGN(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			names, games := benchGames(50, n)
			var pgn bytes.Buffer
			if err := WritePGN(&pgn, names, games); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := FitPGN(bytes.NewReader(pgn.Bytes()), DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
