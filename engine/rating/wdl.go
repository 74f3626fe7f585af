package rating

import (
	"encoding/json"
	"math"
)

// The head-to-head estimates in this file, pentanomial.go and sprt.go
// follow fastchess (github.com/Disservin/fastchess,
// app/src/matchmaking/elo/ and app/src/matchmaking/sprt/), so that a
// result of arbiter reads the same as the one a chess engine tester would
// report for the same counts. Unlike BayesElo they compare two bots only
// and need no fit.

// z95 is the two-sided 95% quantile of the normal distribution
// (fastchess's CI95ZSCORE).
const z95 = 1.959963984540054

// nEloScale converts a score deviation measured in standard deviations to
// normalised Elo: 800/ln 10, the slope of the logistic Elo curve at
// equal strength times 4 (fastchess's scoreToNeloDiff).
var nEloScale = 800 / math.Ln10

// WDL counts one bot's games against another: wins, draws and losses.
type WDL struct {
	W int `json:"wins"`
	D int `json:"draws"`
	L int `json:"losses"`
}

// Games is the number of games counted.
func (c WDL) Games() int { return c.W + c.D + c.L }

// Estimate is an Elo difference estimated from one bot's results against
// another. Quantities that the counts do not bound (the Elo of a bot that
// won every game, the normalised Elo of results without variance) are
// infinite or NaN, and are written as null in JSON.
type Estimate struct {
	// Model is "trinomial" (games counted one by one) or "pentanomial"
	// (pairs of games on the same deal with the seats swapped).
	Model string `json:"model"`
	// N is the number of games (trinomial) or pairs (pentanomial).
	N int `json:"n"`
	// Score is the mean points per game, 0..1.
	Score float64 `json:"score"`
	// Elo is the logistic Elo difference that gives Score; EloError is the
	// half-width of its 95% interval.
	Elo      float64 `json:"elo"`
	EloError float64 `json:"elo_error"`
	// NElo is normalised Elo: the score's distance from 0.5 in standard
	// deviations of one game (or pair), scaled to Elo near equality. It
	// does not depend on the draw rate, which is why fishtest tests use it.
	NElo      float64 `json:"nelo"`
	NEloError float64 `json:"nelo_error"`
	// LOS is the likelihood of superiority, 0..1: the probability that the
	// bot is the stronger one, under the normal approximation.
	LOS float64 `json:"los"`
}

// MarshalJSON writes non-finite numbers as null, which encoding/json
// would refuse.
func (e Estimate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Model     string   `json:"model"`
		N         int      `json:"n"`
		Score     *float64 `json:"score"`
		Elo       *float64 `json:"elo"`
		EloError  *float64 `json:"elo_error"`
		NElo      *float64 `json:"nelo"`
		NEloError *float64 `json:"nelo_error"`
		LOS       *float64 `json:"los"`
	}{e.Model, e.N, Finite(e.Score), Finite(e.Elo), Finite(e.EloError), Finite(e.NElo), Finite(e.NEloError), Finite(e.LOS)})
}

// Finite returns a pointer to x, or nil when x is infinite or NaN, for
// JSON output; a negative zero is 0 (JSON's -0 reads as a sign that
// means nothing).
func Finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	if x == 0 {
		x = 0
	}
	return &x
}

// scoreToElo is the logistic Elo difference whose expected score is s
// (fastchess's scoreToEloDiff).
func scoreToElo(s float64) float64 { return -400 * math.Log10(1/s-1) }

// Estimate computes fastchess's EloWDL (elo_wdl.cpp): the per-game
// variance of the score is Σ p_k (x_k - s)² over the outcomes x = 1, ½, 0
// with their observed frequencies p; the 95% interval of the score is
// s ± z·√(var/n), mapped through the logistic curve (the Elo error is half
// the width of the mapped interval); nElo = (s-½)/√var · 800/ln 10; and
// LOS = (1 - erf(-(s-½)/√(2·var/n)))/2.
func (c WDL) Estimate() Estimate {
	n := float64(c.Games())
	w, d, l := float64(c.W)/n, float64(c.D)/n, float64(c.L)/n
	s := w + d/2
	variance := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*s*s
	return estimate("trinomial", c.Games(), s, variance/n, math.Sqrt(variance))
}

// estimate derives fastchess's reported quantities from a score, the
// variance of its mean and the standard deviation that normalises Elo.
func estimate(model string, n int, s, varMean, nEloSD float64) Estimate {
	e := Estimate{Model: model, N: n, Score: s}
	if n == 0 {
		nan := math.NaN()
		e.Score, e.Elo, e.EloError, e.NElo, e.NEloError, e.LOS = nan, nan, nan, nan, nan, nan
		return e
	}
	upper := s + z95*math.Sqrt(varMean)
	lower := s - z95*math.Sqrt(varMean)
	nElo := func(s float64) float64 { return (s - 0.5) / nEloSD * nEloScale }
	e.Elo = scoreToElo(s)
	e.EloError = (scoreToElo(upper) - scoreToElo(lower)) / 2
	e.NElo = nElo(s)
	e.NEloError = (nElo(upper) - nElo(lower)) / 2
	e.LOS = (1 - math.Erf(-(s-0.5)/math.Sqrt(2*varMean))) / 2
	return e
}
