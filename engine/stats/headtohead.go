package stats

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
)

// HeadToHead compares two bots on the games they played against each
// other: in every regular match that seats both, the pairwise game between
// them (as BayesElo rates it).
type HeadToHead struct {
	A string `json:"a"`
	B string `json:"b"`
	// WDL counts A's games against B.
	WDL rating.WDL `json:"wdl"`
	// Penta counts the pairs of games on the same deal with A and B in
	// swapped seats, when every game has such a partner: then the
	// estimate and the SPRT use the pentanomial model, whose variance
	// accounts for the deal both games share. Otherwise it is nil, and the
	// games count one by one (trinomial).
	Penta *rating.Penta `json:"pentanomial,omitempty"`
	// Unpaired counts the games without a partner.
	Unpaired int `json:"unpaired"`
	// Estimate is A's Elo difference over B.
	Estimate rating.Estimate `json:"estimate"`
	// SPRT is the test run on the counts and Test its state.
	SPRT rating.SPRT       `json:"sprt"`
	Test rating.SPRTResult `json:"sprt_result"`
}

// duelGame is one game of a head-to-head.
type duelGame struct {
	seed         uint64
	seatA, seatB int
	result       rating.Result // A's
	paired       bool
}

// DefaultSPRT is the SPRT a head-to-head of the plan's bots runs unless
// told otherwise: that of the plan's stop { sprt } block when it has one,
// so that the head-to-head's LLR is the stop's, else normalised Elo
// [0, 5] with alpha = beta = 0.05.
func DefaultSPRT(p *plan.Plan) rating.SPRT {
	if p.Stop != nil && p.Stop.SPRT != nil {
		return PlanSPRT(p.Stop.SPRT)
	}
	return rating.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: rating.ModelNormalized}
}

// PlanSPRT is the test of a stop { sprt } block, its model spelled out.
func PlanSPRT(t *plan.SPRT) rating.SPRT {
	s := rating.SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: t.Model}
	if s.Model == "" {
		s.Model = rating.ModelNormalized
	}
	return s
}

// ComputeHeadToHead compares bots a and b, and runs sprt on their games.
// Matches are duplicate-deal partners when they have the same seed and a
// and b sit in each other's seats.
func ComputeHeadToHead(p *plan.Plan, results []Result, a, b string, sprt rating.SPRT) (*HeadToHead, error) {
	for _, name := range []string{a, b} {
		if p.Bot(name) == nil {
			return nil, p.UnknownBot(name)
		}
	}
	if a == b {
		return nil, fmt.Errorf("a head-to-head needs two different bots, got %q twice", a)
	}
	// The plan's bounds, or -sprt's, which parseSPRT held to Validate.
	if err := sprt.ValidateSaved(); err != nil {
		return nil, err
	}
	var games []duelGame
	for _, r := range InPlanOrder(p, results) {
		if IsPlayoff(r.Match) {
			continue
		}
		ia, ib := -1, -1
		for s, seat := range r.Seats {
			switch seat.Bot {
			case a:
				ia = s
			case b:
				ib = s
			}
		}
		if ia < 0 || ib < 0 {
			continue
		}
		if res, ok := PairResult(&r, ia, ib); ok {
			games = append(games, duelGame{seed: r.Seed, seatA: ia, seatB: ib, result: res})
		}
	}
	return headToHead(a, b, games, sprt), nil
}

// AllHeadToHeads is ComputeHeadToHead of every pair of bots (in the order
// of bots: each a before its b) that played at least one game against
// each other, made in one pass over the results: the pairs that never met
// are left out, so a field of many bots costs its games, not the square
// of its size. bots must be bots of p; sprt must be valid.
func AllHeadToHeads(p *plan.Plan, results []Result, bots []string, sprt rating.SPRT) []*HeadToHead {
	at := make(map[string]int, len(bots))
	for i, b := range bots {
		at[b] = i
	}
	type pair struct{ a, b int }
	games := map[pair][]duelGame{}
	var met []pair
	for _, r := range InPlanOrder(p, results) {
		if IsPlayoff(r.Match) {
			continue
		}
		// A bot in two seats plays from its last, as ComputeHeadToHead
		// takes it.
		seat := map[int]int{}
		for s, st := range r.Seats {
			if i, ok := at[st.Bot]; ok {
				seat[i] = s
			}
		}
		for ia, sa := range seat {
			for ib, sb := range seat {
				if ia >= ib {
					continue
				}
				if res, ok := PairResult(&r, sa, sb); ok {
					k := pair{ia, ib}
					if games[k] == nil {
						met = append(met, k)
					}
					games[k] = append(games[k], duelGame{seed: r.Seed, seatA: sa, seatB: sb, result: res})
				}
			}
		}
	}
	slices.SortFunc(met, func(x, y pair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	out := make([]*HeadToHead, len(met))
	for i, k := range met {
		out[i] = headToHead(bots[k.a], bots[k.b], games[k], sprt)
	}
	return out
}

// headToHead compares a and b on their games, in plan order.
func headToHead(a, b string, games []duelGame, sprt rating.SPRT) *HeadToHead {
	h := &HeadToHead{A: a, B: b, SPRT: sprt}
	var penta rating.Penta
	for i := range games {
		g := &games[i]
		switch g.result {
		case rating.WhiteWins:
			h.WDL.W++
		case rating.Draw:
			h.WDL.D++
		default:
			h.WDL.L++
		}
		if g.paired {
			continue
		}
		for j := i + 1; j < len(games); j++ {
			o := &games[j]
			if !o.paired && o.seed == g.seed && o.seatA == g.seatB && o.seatB == g.seatA {
				g.paired, o.paired = true, true
				penta.Add(g.result, o.result)
				break
			}
		}
		if !g.paired {
			h.Unpaired++
		}
	}
	if h.Unpaired == 0 && len(games) > 0 {
		h.Penta = &penta
		h.Estimate = penta.Estimate()
		h.Test = sprt.TestPenta(penta)
	} else {
		h.Estimate = h.WDL.Estimate()
		h.Test = sprt.Test(h.WDL)
	}
	return h
}
