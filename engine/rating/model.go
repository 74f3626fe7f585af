package rating

import "math"

// record holds the results between one player and one opponent, seen from
// the player. The counts are float32 because bayeselo stores them (and the
// fractional prior draws added to them) in single precision; keeping the
// same precision keeps the fit within rounding of bayeselo's.
type record struct {
	opp   int // opponent, as a fitted-player index
	back  int // position of the mirror record in the opponent's list
	games int // real games, without the prior

	whiteWin, whiteDraw, whiteLoss float32 // player had White
	blackWin, blackDraw, blackLoss float32 // player had Black
}

// model is bayeselo's "condensed results" plus the Bradley-Terry
// parameters. Players are numbered densely (players with no games are not
// part of it).
//
// Each player's records are stored in bayeselo's slot order and every loop
// over them runs from the last slot to the first, because the floating
// point sums (and so the last digits of the fit) depend on that order.
type model struct {
	recs    [][]record
	adv     float64 // Elo advantage of White
	drawElo float64
}

func newModel(n int, t *tally, fit []int, prior float32, adv, drawElo float64) *model {
	m := &model{recs: make([][]record, n), adv: adv, drawElo: drawElo}
	met := t.slots()
	slot := make(map[uint64]int, 2*len(t.pairs)) // player<<32 | opponent -> slot, by fitted player
	for p, ms := range met {
		if len(ms) == 0 {
			continue
		}
		fp := fit[p]
		m.recs[fp] = make([]record, len(ms))
		for k, mt := range ms {
			m.recs[fp][k].opp = fit[mt.opp]
			slot[uint64(fp)<<32|uint64(fit[mt.opp])] = k
		}
	}
	for p := range m.recs {
		for k := range m.recs[p] {
			r := &m.recs[p][k]
			r.back = slot[uint64(r.opp)<<32|uint64(p)]
		}
	}
	for _, c := range t.pairs {
		gw, gb := fit[c.white], fit[c.black]
		w := &m.recs[gw][slot[uint64(gw)<<32|uint64(gb)]]
		b := &m.recs[gb][slot[uint64(gb)<<32|uint64(gw)]]
		games := int(c.win + c.draw + c.loss)
		w.games += games
		b.games += games
		w.whiteWin, w.whiteDraw, w.whiteLoss = count32(c.win), count32(c.draw), count32(c.loss)
		b.blackLoss, b.blackDraw, b.blackWin = count32(c.win), count32(c.draw), count32(c.loss)
	}

	m.addPrior(prior)
	return m
}

func (m *model) players() int { return len(m.recs) }

func (m *model) trueGames(p int) int {
	total := 0
	for _, r := range m.recs[p] {
		total += r.games
	}
	return total
}

// addPrior spreads prior virtual draws over each player's opponents in
// proportion to the games played against them. Every virtual draw is
// booked on both sides with both colours, so a player ends up with prior/2
// of its own plus its share of its opponents' priors, exactly as bayeselo.
func (m *model) addPrior(prior float32) {
	for p := m.players() - 1; p >= 0; p-- {
		share := float32(float64(prior) * 0.25 / float64(m.trueGames(p)))
		for k := len(m.recs[p]) - 1; k >= 0; k-- {
			r := &m.recs[p][k]
			o := &m.recs[r.opp][r.back]
			t := share * float32(r.games)
			r.whiteDraw += t
			r.blackDraw += t
			o.whiteDraw += t
			o.blackDraw += t
		}
	}
}

func (m *model) thetas() (tW, tD float64) {
	return math.Pow(10, m.adv/400), math.Pow(10, m.drawElo/400)
}

const (
	mmEpsilon  = 1e-5
	mmMaxSteps = 10000
)

// fit runs bayeselo's MM iteration and returns ratings whose average is 0.
func (m *model) fit() []float64 {
	n := m.players()
	tW, tD := m.thetas()
	gamma := make([]float64, n)
	next := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}

	for range mmMaxSteps {
		for p := n - 1; p >= 0; p-- {
			var a, b float64
			gp := gamma[p]
			for k := len(m.recs[p]) - 1; k >= 0; k-- {
				r := &m.recs[p][k]
				// Opponents after p were already updated in this sweep;
				// using their new values is what makes bayeselo converge
				// in the number of sweeps it does.
				og := gamma[r.opp]
				if r.opp > p {
					og = next[r.opp]
				}
				a += float64(r.whiteWin + r.whiteDraw + r.blackWin + r.blackDraw)
				b += float64(r.whiteDraw+r.whiteWin)*tW/(tW*gp+tD*og) +
					float64(r.whiteDraw+r.whiteLoss)*tD*tW/(tD*tW*gp+og) +
					float64(r.blackDraw+r.blackLoss)*tD/(tW*og+tD*gp) +
					float64(r.blackDraw+r.blackWin)/(tD*tW*og+gp)
			}
			next[p] = a / b
		}
		gamma, next = next, gamma

		diff := 0.0
		for i := n - 1; i >= 0; i-- {
			if d := math.Abs(gamma[i]-next[i]) / (gamma[i] + next[i]); d > diff {
				diff = d
			}
		}
		if diff < mmEpsilon {
			break
		}
	}

	// Without a prior, a player who never scored has gamma 0 and rating
	// -Inf; centring on the finite ratings keeps the others usable.
	elo := make([]float64, n)
	total, finite := 0.0, 0
	for i := n - 1; i >= 0; i-- {
		elo[i] = math.Log10(gamma[i]) * 400
		if !math.IsInf(elo[i], 0) && !math.IsNaN(elo[i]) {
			total += elo[i]
			finite++
		}
	}
	if finite > 0 {
		offset := -total / float64(finite)
		for i := range elo {
			elo[i] += offset
		}
	}
	return elo
}

func probability(eloDelta float64) float64 {
	// 10^(d/400) as e^(d·ln10/400): math.Pow is several times slower than
	// math.Exp, and this is the inner loop of exactdist.
	return 1 / (1 + math.Exp(eloDelta*(math.Ln10/400)))
}

// The probabilities take White's rating minus Black's.
func (m *model) winP(delta float64) float64  { return probability(-delta - m.adv + m.drawElo) }
func (m *model) lossP(delta float64) float64 { return probability(delta + m.adv + m.drawElo) }

// logLikelihood of player p's games (prior included) when p is rated
// eloP and its opponents oppElo(o).
func (m *model) logLikelihood(p int, eloP float64, oppElo func(int) float64) float64 {
	res := 0.0
	for k := len(m.recs[p]) - 1; k >= 0; k-- {
		r := &m.recs[p][k]
		d := eloP - oppElo(r.opp)
		res = m.addLogLikelihood(res, d, r.whiteWin, r.whiteDraw, r.whiteLoss)
		res = m.addLogLikelihood(res, -d, r.blackLoss, r.blackDraw, r.blackWin)
	}
	return res
}

// addLogLikelihood adds to sum, term by term in bayeselo's order, the
// log-likelihood of games where White, ahead by delta, won win, drew draw
// and lost loss of them. Empty counts are skipped rather than multiplied,
// since their probability may be 0.
func (m *model) addLogLikelihood(sum, delta float64, win, draw, loss float32) float64 {
	if win == 0 && draw == 0 && loss == 0 {
		return sum
	}
	pw, pl := m.winP(delta), m.lossP(delta)
	if win > 0 {
		sum += float64(win) * math.Log(pw)
	}
	if draw > 0 {
		sum += float64(draw) * math.Log(1-pw-pl)
	}
	if loss > 0 {
		sum += float64(loss) * math.Log(pl)
	}
	return sum
}

// averageOpponent is the mean rating of p's opponents weighted by real
// games.
func (m *model) averageOpponent(p int, elo []float64) float64 {
	total, games := 0.0, 0
	for k := len(m.recs[p]) - 1; k >= 0; k-- {
		r := &m.recs[p][k]
		total += float64(r.games) * elo[r.opp]
		games += r.games
	}
	if games == 0 {
		return 0
	}
	return total / float64(games)
}
