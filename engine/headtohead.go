package engine

import (
	"fmt"
	"io"
	"math"
	"strings"

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

// ComputeHeadToHead compares bots a and b, and runs sprt on their games.
// Matches are duplicate-deal partners when they have the same seed and a
// and b sit in each other's seats.
func ComputeHeadToHead(p *plan.Plan, results []Result, a, b string, sprt rating.SPRT) (*HeadToHead, error) {
	for _, name := range []string{a, b} {
		if p.Bot(name) == nil {
			var names []string
			for _, bot := range p.Bots {
				names = append(names, bot.Name)
			}
			return nil, fmt.Errorf("the plan has no bot %q; its bots are %s", name, strings.Join(names, ", "))
		}
	}
	if a == b {
		return nil, fmt.Errorf("a head-to-head needs two different bots, got %q twice", a)
	}
	if err := sprt.Validate(); err != nil {
		return nil, err
	}
	var games []duelGame
	for _, r := range inPlanOrder(p, results) {
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
		if res, ok := pairResult(&r, ia, ib); ok {
			games = append(games, duelGame{seed: r.Seed, seatA: ia, seatB: ib, result: res})
		}
	}

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
	return h, nil
}

// WriteHeadToHead prints a head-to-head in the manner of fastchess.
func WriteHeadToHead(w io.Writer, h *HeadToHead) error {
	var b strings.Builder
	e := h.Estimate
	fmt.Fprintf(&b, "%s vs %s: %d games, %d wins, %d draws, %d losses for %s\n",
		h.A, h.B, h.WDL.Games(), h.WDL.W, h.WDL.D, h.WDL.L, h.A)
	if h.Penta != nil {
		p := h.Penta
		fmt.Fprintf(&b, "Model:  pentanomial, %d duplicate-deal pairs [LL %d, LD %d, WL %d, DD %d, WD %d, WW %d]\n",
			p.Pairs(), p.LL, p.LD, p.WL, p.DD, p.WD, p.WW)
	} else {
		why := "no games"
		if h.WDL.Games() > 0 {
			why = fmt.Sprintf("%d of %d games have no duplicate-deal partner", h.Unpaired, h.WDL.Games())
		}
		fmt.Fprintf(&b, "Model:  trinomial (%s)\n", why)
	}
	fmt.Fprintf(&b, "Score:  %s\n", pct(e.Score))
	fmt.Fprintf(&b, "Elo:    %s +/- %s (95%%)\n", num(e.Elo), num(e.EloError))
	fmt.Fprintf(&b, "nElo:   %s +/- %s (95%%)\n", num(e.NElo), num(e.NEloError))
	fmt.Fprintf(&b, "LOS:    %s\n", pct(e.LOS))
	model := h.SPRT.Model
	if model == "" {
		model = "normalized"
	}
	fmt.Fprintf(&b, "SPRT:   %s Elo [%g, %g], alpha %g, beta %g: LLR %.2f (%.2f, %.2f), %s\n",
		model, h.SPRT.Elo0, h.SPRT.Elo1, h.SPRT.Alpha, h.SPRT.Beta, h.Test.LLR, h.Test.Lower, h.Test.Upper,
		map[rating.Decision]string{rating.Continue: "continue", rating.AcceptH0: "H0 accepted", rating.AcceptH1: "H1 accepted"}[h.Test.Decision])
	_, err := io.WriteString(w, b.String())
	return err
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*x)
}
