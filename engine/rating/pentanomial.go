package rating

import "math"

// Penta counts pairs of games that one bot played against another on the
// same deal with the seats swapped, by the bot's result in the two games:
// LL (lost both), LD, WL and DD (one point in all), WD, WW. Duplicate play
// makes the two games of a pair alike (a good hand is good for whoever
// holds it), so the pair's total varies less than two independent games;
// counting pairs measures that smaller variance instead of assuming
// independence.
type Penta struct {
	LL int `json:"ll"`
	LD int `json:"ld"`
	WL int `json:"wl"`
	DD int `json:"dd"`
	WD int `json:"wd"`
	WW int `json:"ww"`
}

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p.LL + p.LD + p.WL + p.DD + p.WD + p.WW }

// Add counts one pair from the bot's scores (0, ½ or 1) in its two games.
func (p *Penta) Add(a, b Result) {
	switch a + b {
	case 0:
		p.LL++
	case 0.5:
		p.LD++
	case 1:
		if a == Draw {
			p.DD++
		} else {
			p.WL++
		}
	case 1.5:
		p.WD++
	default:
		p.WW++
	}
}

// WDL is the games of the pairs counted one by one.
func (p Penta) WDL() WDL {
	return WDL{
		W: 2*p.WW + p.WD + p.WL,
		D: p.WD + 2*p.DD + p.LD,
		L: p.WL + p.LD + 2*p.LL,
	}
}

// Estimate computes fastchess's EloPentanomial (elo_pentanomial.cpp): the
// score s is the mean of the pairs' mean scores 1, ¾, ½, ¼, 0; their
// variance Σ p_k (x_k - s)² is per pair, so the 95% interval is
// s ± z·√(var/pairs); nElo = (s-½)/√(2·var) · 800/ln 10 (√2 because a pair
// is two games); LOS = (1 - erf(-(s-½)/√(2·var/pairs)))/2.
func (p Penta) Estimate() Estimate {
	n := float64(p.Pairs())
	ww, wd, wlDD, ld, ll := float64(p.WW)/n, float64(p.WD)/n, float64(p.WL+p.DD)/n, float64(p.LD)/n, float64(p.LL)/n
	s := ww + 0.75*wd + 0.5*wlDD + 0.25*ld
	variance := ww*(1-s)*(1-s) + wd*(0.75-s)*(0.75-s) + wlDD*(0.5-s)*(0.5-s) + ld*(0.25-s)*(0.25-s) + ll*s*s
	return estimate("pentanomial", p.Pairs(), s, variance/n, math.Sqrt(2*variance))
}
