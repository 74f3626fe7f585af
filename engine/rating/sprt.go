package rating

import (
	"fmt"
	"math"

	"github.com/arbiter-contests/arbiter/tournament"
)

// SPRT is a sequential probability ratio test between two hypotheses
// about the Elo difference of two bots, H0: elo = Elo0 and H1: elo = Elo1,
// with error rates Alpha (accepting H1 when H0 holds) and Beta (the
// reverse). After every game (or pair) the log-likelihood ratio of the
// counts so far is compared with the bounds: at or below Lower, H0 is
// accepted; at or above Upper, H1; in between, play on. It is fastchess's
// SPRT (app/src/matchmaking/sprt/sprt.cpp), which computes the generalised
// LLR of Michel Van den Bergh's notes.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	// Model says what Elo0 and Elo1 measure: "normalized" (normalised
	// Elo; the default when empty, as in fastchess), "logistic" (logistic
	// Elo, the Elo of Estimate) or "bayesian" (BayesElo, with the draw Elo
	// estimated from the counts; trinomial only).
	Model string `json:"model,omitempty"`
}

// The SPRT's models (SPRT.Model), as a stop { sprt } block names them.
const (
	ModelNormalized = "normalized"
	ModelLogistic   = "logistic"
	ModelBayesian   = "bayesian"
)

// Decision is the outcome of an SPRT so far.
type Decision string

const (
	Continue Decision = "continue" // play on
	AcceptH0 Decision = "H0"       // the difference is Elo0 (or less)
	AcceptH1 Decision = "H1"       // the difference is Elo1 (or more)
)

// SPRTResult is the state of an SPRT after some games.
type SPRTResult struct {
	LLR      float64  `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	Decision Decision `json:"decision"`
}

// MaxSPRTElo bounds Elo0 and Elo1, either sign (tournament.MaxSPRTElo):
// within it every model's LLR is a number.
const MaxSPRTElo = 1000

// Validate reports parameters fastchess refuses (SPRT::isValid), and
// bounds beyond MaxSPRTElo.
func (s SPRT) Validate() error {
	// As the configuration's stop { sprt } block checks them.
	switch {
	case !(math.Abs(s.Elo0) <= MaxSPRTElo && math.Abs(s.Elo1) <= MaxSPRTElo):
		return fmt.Errorf("sprt: elo0 and elo1 must be numbers from %d to %d, got %v and %v", -MaxSPRTElo, MaxSPRTElo, s.Elo0, s.Elo1)
	case !(s.Elo0 < s.Elo1):
		return fmt.Errorf("sprt: elo0 (%v) must be less than elo1 (%v)", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 0.5):
		return fmt.Errorf("sprt: alpha must be between 0 and 0.5 (exclusive), got %v", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("sprt: beta must be between 0 and 0.5 (exclusive), got %v", s.Beta)
	}
	switch s.Model {
	case "", "normalized", "logistic", "bayesian":
	default:
		return fmt.Errorf("sprt: model must be normalized, logistic or bayesian, got %q", s.Model)
	}
	return nil
}

// ValidateSaved is Validate for bounds a saved plan holds, as a saved
// plan's check takes them (tournament.CheckSavedSPRT): a plan saved
// before bounds beyond ±MaxSPRTElo were refused still runs, so its
// bounds need only be finite and, for the logistic and bayesian models,
// give an expected score short of 0 and 1.
func (s SPRT) ValidateSaved() error {
	if problems := tournament.CheckSavedSPRT(s.Elo0, s.Elo1, s.Alpha, s.Beta, s.Model); len(problems) > 0 {
		return fmt.Errorf("sprt: %s", problems[0].Detail)
	}
	return nil
}

// Bounds are Wald's bounds on the LLR: ln(β/(1-α)) and ln((1-β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Test returns the LLR of trinomial counts and the decision.
func (s SPRT) Test(c WDL) SPRTResult { return s.decide(s.LLR(c)) }

// TestPenta returns the LLR of pentanomial counts and the decision.
func (s SPRT) TestPenta(p Penta) SPRTResult { return s.decide(s.LLRPenta(p)) }

func (s SPRT) decide(llr float64) SPRTResult {
	r := SPRTResult{LLR: llr, Decision: Continue}
	r.Lower, r.Upper = s.Bounds()
	switch {
	case llr >= r.Upper:
		r.Decision = AcceptH1
	case llr <= r.Lower:
		r.Decision = AcceptH0
	}
	return r
}

// regularize replaces an empty count with 1e-3, so that every outcome has
// some probability and the logarithms stay finite (fastchess's
// regularize).
func regularize(n int) float64 {
	if n == 0 {
		return 1e-3
	}
	return float64(n)
}

// LLR is fastchess's SPRT::getLLR for wins, draws and losses.
func (s SPRT) LLR(c WDL) float64 {
	l, d, w := regularize(c.L), regularize(c.D), regularize(c.W)
	total := l + d + w
	scores := []float64{0, 0.5, 1}
	probs := []float64{l / total, d / total, w / total}
	switch s.Model {
	case "", "normalized":
		return llrNormalized(total, scores, probs, s.Elo0/nEloScale, s.Elo1/nEloScale)
	case "bayesian":
		if c.W == 0 || c.L == 0 {
			return 0
		}
		// The draw Elo that makes the observed win and loss rates
		// consistent with BayesElo's model at the observed difference.
		pl, pw := probs[0], probs[2]
		drawElo := 200 * math.Log10((1-pl)/pl*(1-pw)/pw)
		return llrLogistic(total, scores, probs, bayesEloScore(s.Elo0, drawElo), bayesEloScore(s.Elo1, drawElo))
	default:
		return llrLogistic(total, scores, probs, logisticScore(s.Elo0), logisticScore(s.Elo1))
	}
}

// LLRPenta is fastchess's SPRT::getLLR for pentanomial counts. WL and DD
// both score one point in the pair and are one outcome. The bayesian model
// has no pentanomial form; like fastchess's function, it falls back to
// logistic.
func (s SPRT) LLRPenta(p Penta) float64 {
	ll, ld, wlDD, wd, ww := regularize(p.LL), regularize(p.LD), regularize(p.WL+p.DD), regularize(p.WD), regularize(p.WW)
	total := ll + ld + wlDD + wd + ww
	scores := []float64{0, 0.25, 0.5, 0.75, 1}
	probs := []float64{ll / total, ld / total, wlDD / total, wd / total, ww / total}
	switch s.Model {
	case "", "normalized":
		// A pair's mean score has half the variance of a game's, so the
		// same normalised Elo is √2 times as many of its deviations.
		return llrNormalized(total, scores, probs, math.Sqrt2*s.Elo0/nEloScale, math.Sqrt2*s.Elo1/nEloScale)
	default:
		return llrLogistic(total, scores, probs, logisticScore(s.Elo0), logisticScore(s.Elo1))
	}
}

// logisticScore is the expected score at a logistic Elo difference
// (fastchess's leloToScore).
func logisticScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// bayesEloScore is the expected score at a BayesElo difference with the
// given draw Elo (fastchess's bayeseloToScore).
func bayesEloScore(elo, drawElo float64) float64 {
	win := 1 / (1 + math.Pow(10, (drawElo-elo)/400))
	loss := 1 / (1 + math.Pow(10, (drawElo+elo)/400))
	return win + (1-win-loss)/2
}

func mean(x, p []float64) float64 {
	m := 0.0
	for i := range x {
		m += x[i] * p[i]
	}
	return m
}

// llr is total · Σ p̂_i · ln(p1_i/p0_i): the log-likelihood ratio of the
// observed frequencies p̂ under the two fitted distributions.
func llr(total float64, probs, p0, p1 []float64) float64 {
	lpr := make([]float64, len(probs))
	for i := range probs {
		lpr[i] = math.Log(p1[i]) - math.Log(p0[i])
	}
	return total * mean(lpr, probs)
}

// llrLogistic compares the maximum-likelihood distributions with expected
// scores s0 and s1 (fastchess's getLLR_logistic). The distribution closest
// to the observed one with mean s is p_i = p̂_i / (1 + θ(a_i - s)), θ the
// root of Σ p̂_i (a_i - s)/(1 + θ(a_i - s)) = 0 (Proposition 1.1 and
// equations 1.2-1.3 of Van den Bergh, "Comparing the approximations for the
// generalized log likelihood ratio of a multinomial distribution").
func llrLogistic(total float64, scores, probs []float64, s0, s1 float64) float64 {
	n := len(scores)
	mle := func(s float64) []float64 {
		theta := itp(func(x float64) float64 {
			r := 0.0
			for i := range scores {
				r += probs[i] * (scores[i] - s) / (1 + x*(scores[i]-s))
			}
			return r
		}, -1/(scores[n-1]-s), -1/(scores[0]-s), math.Inf(1), math.Inf(-1), 0.1, 2, 0.99, 1e-3)
		p := make([]float64, n)
		for i := range scores {
			p[i] = probs[i] / (1 + theta*(scores[i]-s))
		}
		return p
	}
	return llr(total, probs, mle(s0), mle(s1))
}

// llrNormalized compares the maximum-likelihood distributions whose
// normalised score (μ - ½)/σ is t0 and t1 (fastchess's getLLR_normalized,
// after section 4.1 of Van den Bergh, "Comments on normalized Elo"): a
// fixed-point iteration from the uniform distribution, at most 10 steps,
// each solving equation 4.9 for θ. Far from the uniform distribution's t
// of 0 (a normalised Elo of about ±230 for pairs, ±340 for games), the
// uniform start has every φ of one sign, equation 4.9 no root, and
// fastchess's fitted distribution negative entries, whose logarithm is
// NaN; the iteration then starts again from a distribution that has the
// t sought (normalizedStart), where the φ of both signs always give
// equation 4.9 its root, and goes on until it converges.
func llrNormalized(total float64, scores, probs []float64, t0, t1 float64) float64 {
	mle := func(t float64) []float64 {
		p := uniform(len(scores))
		if normalizedSteps(scores, probs, p, t, 10) {
			return p
		}
		p = normalizedStart(scores, t)
		normalizedSteps(scores, probs, p, t, 1000)
		return p
	}
	return llr(total, probs, mle(t0), mle(t1))
}

func uniform(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

// normalizedSteps takes up to steps steps of llrNormalized's iteration
// from p, in place, until no entry moves by 1e-4, and reports whether
// every entry of the distribution it ends with is positive: a
// distribution the LLR can take the logarithm of.
func normalizedSteps(scores, probs, p []float64, t float64, steps int) bool {
	n := len(scores)
	phi := make([]float64, n)
	for range steps {
		mu := mean(scores, p)
		variance := 0.0
		for i := range scores {
			variance += p[i] * (scores[i] - mu) * (scores[i] - mu)
		}
		sigma := math.Sqrt(variance)
		for i, a := range scores {
			z := (a - mu) / sigma
			phi[i] = a - 0.5 - 0.5*t*sigma*(1+z*z)
		}
		u, v := phi[0], phi[0]
		for _, f := range phi {
			u, v = min(u, f), max(v, f)
		}
		if !(u < 0 && v > 0) {
			return false // equation 4.9 has no root from here
		}
		theta := itp(func(x float64) float64 {
			r := 0.0
			for i := range phi {
				r += probs[i] * phi[i] / (1 + x*phi[i])
			}
			return r
		}, -1/v, -1/u, math.Inf(1), math.Inf(-1), 0.1, 2, 0.99, 1e-7)
		maxDiff := 0.0
		for i := range p {
			np := probs[i] / (1 + theta*phi[i])
			maxDiff = max(maxDiff, math.Abs(np-p[i]))
			p[i] = np
		}
		if !(maxDiff >= 1e-4) {
			break
		}
	}
	for _, x := range p {
		if !(x > 0) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// normalizedStart is a distribution over scores (symmetric about ½, as
// a game's and a pair's are) whose normalised score (μ - ½)/σ is t: the
// uniform distribution mixed with all of its weight on the highest score
// (t > 0) or the lowest (t < 0), in the proportion, found by bisection,
// that makes it t. The uniform one has t = 0, and t grows without bound
// as the mix nears the one score.
func normalizedStart(scores []float64, t float64) []float64 {
	n := len(scores)
	end := n - 1
	if t < 0 {
		end = 0
	}
	mix := func(e float64) []float64 {
		p := uniform(n)
		for i := range p {
			p[i] *= e
		}
		p[end] += 1 - e
		return p
	}
	tOf := func(e float64) float64 {
		p := mix(e)
		mu := mean(scores, p)
		variance := 0.0
		for i := range scores {
			variance += p[i] * (scores[i] - mu) * (scores[i] - mu)
		}
		return math.Abs(mu-0.5) / math.Sqrt(variance)
	}
	// |t| falls as e, the uniform share, rises from 0 to 1.
	lo, hi := 0.0, 1.0
	for range 200 {
		mid := (lo + hi) / 2
		if tOf(mid) > math.Abs(t) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return mix(hi)
}

// itp finds a root of f in [a, b] to within eps with the ITP method
// (Oliveira and Takahashi, "An Enhancement of the Bisection Method Average
// Performance Preserving Minmax Optimality", ACM TOMS 47(1), 2021), with
// fastchess's parameters and its handling of the bracket: fa and fb may
// be infinite, and the ends are swapped so that f(a) < 0 < f(b).
func itp(f func(float64) float64, a, b, fa, fb, k1, k2, n0, eps float64) float64 {
	if fa > 0 {
		a, b = b, a
		fa, fb = fb, fa
	}
	nMax := math.Ceil(math.Log2(math.Abs(b-a)/(2*eps))) + n0
	// ITP ends within nMax steps in exact arithmetic; in floating point
	// an end far from 0 (a root bracketed up to 1e20) may have no
	// neighbour within 2·eps, and the loop would never end: it stops
	// after as many steps again, with the bracket as narrow as the
	// numbers allow.
	for i := 0; math.Abs(b-a) > 2*eps && !(float64(i) > 2*nMax+64); i++ {
		xHalf := (a + b) / 2
		r := eps*math.Pow(2, nMax-float64(i)) - (b-a)/2
		delta := k1 * math.Pow(b-a, k2)
		// Regula falsi, then truncated towards the midpoint and projected
		// into the minmax interval; NaN (infinite ends) means bisection.
		xf := (fb*a - fa*b) / (fb - fa)
		sigma := (xHalf - xf) / math.Abs(xHalf-xf)
		xt := xHalf
		if delta <= math.Abs(xHalf-xf) {
			xt = xf + sigma*delta
		}
		x := xHalf - sigma*r
		if math.Abs(xt-xHalf) <= r {
			x = xt
		}
		switch fx := f(x); {
		case fx == 0:
			a, b = x, x
		case math.Signbit(fx):
			a, fa = x, fx
		default:
			b, fb = x, fx
		}
	}
	return (a + b) / 2
}
