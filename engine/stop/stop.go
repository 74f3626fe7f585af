// Package stop evaluates a tournament's stopping rule (plan.Stop): an
// SPRT of one candidate, a maximum number of matches, or rating intervals
// narrow enough, decided on the finished matches in plan order.
package stop

import (
	"fmt"
	"math"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// Stopped says which stopping rule ended a run, and on what.
type Stopped struct {
	// Rule is "sprt", "max_matches" or "interval_width".
	Rule string `json:"rule"`
	// Matches is the number of matches, in plan order, the decision was
	// taken on; Last is the id of the last of them. Matches that were
	// already running finished and are journaled too.
	Matches int    `json:"matches"`
	Last    string `json:"last"`
	// Reason says it in a sentence.
	Reason string     `json:"reason"`
	SPRT   *SPRTState `json:"sprt,omitempty"`
	// Widest is the widest 95% rating interval (rule interval_width), Elo.
	Widest float64 `json:"widest,omitempty"`
}

// SPRTState is the SPRT of the candidate's games when it decided: the
// test's parameters (elo0, elo1, alpha, beta, model: the stop block's,
// the model spelled out) and its result.
type SPRTState struct {
	Candidate string      `json:"candidate"`
	Test      rating.SPRT `json:"test"`
	rating.SPRTResult
	WDL rating.WDL `json:"wdl"`
	// Penta is set when the test counted pairs of games (two players,
	// swapped seats, the same deal).
	Penta *rating.Penta `json:"penta,omitempty"`
}

// Stopper evaluates a plan's stopping rule on the longest prefix of its
// matches, in plan order, that has finished: the decision depends on the
// results only, never on how many matches ran at once or which finished
// first. The SPRT is checked after every match, interval_width at the end
// of every round (it needs a rating fit), max_matches at its count.
// Playoffs are not subject to the rule.
type Stopper struct {
	rule *plan.Stop
	next int // matches of the prefix already counted
	// prefix holds the results of the counted matches.
	prefix []stats.Result

	usePenta bool
	wdl      rating.WDL
	penta    rating.Penta
	// halves holds a pair's first game until its second finishes.
	halves map[[2]int]rating.Result
}

// New returns the stopper of p's rule, or nil when p has none; a nil
// Stopper never stops.
func New(p *plan.Plan) *Stopper {
	if p.Stop == nil {
		return nil
	}
	return &Stopper{
		rule:     p.Stop,
		usePenta: p.Seats.PairsGames(p.Players, p.Deal),
		halves:   map[[2]int]rating.Result{},
	}
}

// Advance extends the prefix over finished matches and returns the stop,
// or nil while the run goes on. full is the plan with every match known
// so far; done holds the finished results by match id.
func (s *Stopper) Advance(full *plan.Plan, done map[string]*stats.Result) *Stopped {
	if s == nil {
		return nil
	}
	ms := full.Matches
	for s.next < len(ms) {
		m := &ms[s.next]
		res := done[m.ID]
		if res == nil || stats.IsPlayoff(m.ID) {
			return nil
		}
		s.next++
		s.prefix = append(s.prefix, *res)
		if st := s.sprt(m, res); st != nil {
			return s.stopped("sprt", m, fmt.Sprintf("SPRT accepted %s for %s: LLR %.2f reached bound %.2f", st.Decision, st.Candidate, st.LLR, bound(st)), func(x *Stopped) { x.SPRT = st })
		}
		if s.rule.MaxMatches > 0 && s.next >= s.rule.MaxMatches {
			return s.stopped("max_matches", m, fmt.Sprintf("%d matches played, the maximum", s.next), nil)
		}
		endOfRound := s.next == len(ms) || ms[s.next].Round != m.Round
		if s.rule.IntervalWidth > 0 && endOfRound {
			if widest := widestInterval(full, s.prefix); widest < s.rule.IntervalWidth {
				return s.stopped("interval_width", m, fmt.Sprintf("every rating interval is narrower than %g Elo (widest %.1f)", s.rule.IntervalWidth, widest),
					func(x *Stopped) { x.Widest = widest })
			}
		}
	}
	return nil
}

// Ends says whether p's stopping rule ends the tournament on results, as
// the run decides it (Advance, over the matches in plan order): a run
// that stopped makes nothing more, not the placement playoff its
// regular matches would have called for.
func Ends(p *plan.Plan, results []stats.Result) bool {
	s := New(p)
	if s == nil {
		return false
	}
	done := make(map[string]*stats.Result, len(results))
	for i := range results {
		done[results[i].Match] = &results[i]
	}
	return s.Advance(p, done) != nil
}

func bound(st *SPRTState) float64 {
	if st.Decision == rating.AcceptH0 {
		return st.Lower
	}
	return st.Upper
}

func (s *Stopper) stopped(rule string, last *plan.Match, reason string, set func(*Stopped)) *Stopped {
	x := &Stopped{Rule: rule, Matches: s.next, Last: last.ID, Reason: reason + " after " + fmt.Sprint(s.next) + " matches"}
	if set != nil {
		set(x)
	}
	return x
}

// sprt counts the candidate's games of a match and tests; it returns the
// state when the test decided.
func (s *Stopper) sprt(m *plan.Match, res *stats.Result) *SPRTState {
	t := s.rule.SPRT
	if t == nil {
		return nil
	}
	games := candidateGames(res, t.Candidate)
	for _, g := range games {
		switch g {
		case rating.WhiteWins:
			s.wdl.W++
		case rating.Draw:
			s.wdl.D++
		default:
			s.wdl.L++
		}
	}
	test := stats.PlanSPRT(t)
	st := &SPRTState{Candidate: t.Candidate, Test: test, WDL: s.wdl}
	if s.usePenta {
		key := [2]int{m.Round, m.Group}
		if len(games) == 1 {
			if first, ok := s.halves[key]; ok {
				s.penta.Add(first, games[0])
				delete(s.halves, key)
			} else {
				s.halves[key] = games[0]
			}
		}
		penta := s.penta
		st.Penta = &penta
		if penta.Pairs() == 0 {
			return nil
		}
		st.SPRTResult = test.TestPenta(penta)
	} else {
		if s.wdl.Games() == 0 {
			return nil
		}
		st.SPRTResult = test.Test(s.wdl)
	}
	if st.Decision == rating.Continue {
		return nil
	}
	return st
}

// candidateGames are the candidate's pairwise games of a match, as its
// scores (1 win, ½ draw, 0 loss), by the rule of PairwiseGames.
func candidateGames(res *stats.Result, candidate string) []rating.Result {
	var out []rating.Result
	for i, c := range res.Seats {
		if c.Bot != candidate {
			continue
		}
		for j := range res.Seats {
			if g, ok := stats.PairResult(res, i, j); ok && j != i {
				out = append(out, g) // i is White: its score
			}
		}
	}
	return out
}

// widestInterval is the widest 95% BayesElo interval (plus + minus) of the
// field's bots over results; +Inf when a bot has no games.
func widestInterval(p *plan.Plan, results []stats.Result) float64 {
	names, games := stats.PairwiseGames(p, results)
	fit, err := rating.Fit(names, games, stats.RatingOptions())
	if err != nil {
		return math.Inf(1)
	}
	plus, minus := fit.ExactDist()
	inField := map[string]bool{}
	for _, b := range stats.Field(p) {
		inField[b] = true
	}
	widest := 0.0
	for i, n := range names {
		if !inField[n] {
			continue
		}
		w := plus[i] + minus[i]
		if !fit.Rated(i) || math.IsNaN(w) {
			w = math.Inf(1)
		}
		widest = max(widest, w)
	}
	return widest
}

// Counted keeps the results a stopped tournament's statistics count: the
// matches the stop was decided on and the playoffs. Matches that were
// already running when the rule fired are journaled but left out, so the
// standings of a stopped run are the same whatever -j it ran with.
func (st *Stopped) Counted(p *plan.Plan, results []stats.Result) []stats.Result {
	if st == nil {
		return results
	}
	index := make(map[string]int, len(p.Matches))
	for i, m := range p.Matches {
		index[m.ID] = i
	}
	var out []stats.Result
	for _, r := range results {
		if i, ok := index[r.Match]; stats.IsPlayoff(r.Match) || ok && i < st.Matches {
			out = append(out, r)
		}
	}
	return out
}
