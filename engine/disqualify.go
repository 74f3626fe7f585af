package engine

import (
	"fmt"
	"slices"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// verdicts decides the disqualifications of a game whose rules disqualify
// (drivers.Disqualifier), in plan order, so that they do not depend on
// how many matches ran at once or which finished first.
//
// A bot is disqualified in the first match, in plan order, whose result
// pushes it over: a breach (drivers.SeatResult.Breach), or overruns
// beyond the tolerated number counted over its matches up to that one.
// Its result in that match and in every later one is the verdict
// (stats.SeatResult.Disqualified). To write that verdict into each
// line, a finished match is held back until every earlier match (in plan
// order) that shares a bot with it is journaled; so the journal only ever
// holds, for each bot, a prefix of its matches in plan order, and a
// resumed run, which replays the held matches a kill lost, decides the
// same verdicts.
type verdicts struct {
	rules    drivers.DisqualifyRules
	index    map[string]int // plan index by match id
	indexed  int            // how many of the session's plan's matches index holds
	overruns map[string]int
	dq       map[string]*stats.Disqualification
	// waiting lists per bot the plan indices of the matches fed to the
	// workers and not yet journaled, ascending.
	waiting map[string][]int
	held    map[int]finished
}

// finished is a match and its result, ready to journal.
type finished struct {
	m   *plan.Match
	res *Result
}

// verdictsFor is the verdicts of game when its rules can disqualify, or
// nil.
func verdictsFor(game drivers.Game, known *plan.Plan, prior []Result, out map[string]string) *verdicts {
	dq, ok := game.(drivers.Disqualifier)
	if !ok || !dq.DisqualifyRules().Active() {
		return nil
	}
	return newVerdicts(dq.DisqualifyRules(), known, prior, out)
}

// newVerdicts starts from the results of known (the plan with the rounds
// paired so far) already journaled, in plan order; out are the bots
// disqualified before the first match. It sets the verdicts in prior.
func newVerdicts(rules drivers.DisqualifyRules, known *plan.Plan, prior []Result, out map[string]string) *verdicts {
	v := &verdicts{rules: rules, index: map[string]int{}, overruns: map[string]int{},
		dq: map[string]*stats.Disqualification{}, waiting: map[string][]int{}, held: map[int]finished{}}
	for bot, why := range out {
		v.dq[bot] = &stats.Disqualification{Reason: stats.DQSubmission, Detail: why}
	}
	for i, m := range known.Matches {
		v.index[m.ID] = i
	}
	order := make([]int, len(prior))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return v.index[prior[a].Match] - v.index[prior[b].Match] })
	for _, i := range order {
		v.apply(&prior[i])
	}
	return v
}

// expect registers matches about to be fed to the workers; p is the
// session's plan, whose matches are those of known and then more.
func (v *verdicts) expect(p *plan.Plan, todo []*plan.Match) {
	for i := v.indexed; i < len(p.Matches); i++ {
		v.index[p.Matches[i].ID] = i
	}
	v.indexed = len(p.Matches)
	for _, m := range todo {
		k := v.index[m.ID]
		for _, bot := range bots(m) {
			v.waiting[bot] = append(v.waiting[bot], k)
		}
	}
}

// bots are a match's bots, each once.
func bots(m *plan.Match) []string {
	out := slices.Clone(m.Seats)
	slices.Sort(out)
	return slices.Compact(out)
}

// finish holds a finished match and returns the held matches that may
// be journaled now, their verdicts set: for each bot in plan order.
func (v *verdicts) finish(m *plan.Match, res *Result) []finished {
	k := v.index[m.ID]
	v.held[k] = finished{m, res}
	return v.release([]int{k})
}

// flush gives up waiting for matches that were registered but will not
// finish in this stage (a stopping rule ended the feeding): every held
// match is released. Only for a stage that ended without being
// cancelled; a cancelled run drops what is held, to play again.
func (v *verdicts) flush() []finished {
	v.waiting = map[string][]int{}
	keys := make([]int, 0, len(v.held))
	for k := range v.held {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, bot := range bots(v.held[k].m) {
			v.waiting[bot] = append(v.waiting[bot], k)
		}
	}
	return v.release(keys)
}

// release journals the held matches among candidates that no earlier
// unjournaled match shares a bot with, and then those that releasing them
// frees, in plan order. A match can only be freed by an earlier one of
// its bots, so only the next waiting match of each bot of a released
// match is a new candidate.
func (v *verdicts) release(candidates []int) []finished {
	var out []finished
	var order []int
	for len(candidates) > 0 {
		k := candidates[len(candidates)-1]
		candidates = candidates[:len(candidates)-1]
		f, ok := v.held[k]
		if !ok {
			continue
		}
		bs := bots(f.m)
		ready := true
		for _, bot := range bs {
			ready = ready && len(v.waiting[bot]) > 0 && v.waiting[bot][0] == k
		}
		if !ready {
			continue
		}
		delete(v.held, k)
		v.apply(f.res)
		out, order = append(out, f), append(order, k)
		for _, bot := range bs {
			if v.waiting[bot] = v.waiting[bot][1:]; len(v.waiting[bot]) > 0 {
				candidates = append(candidates, v.waiting[bot][0])
			}
		}
	}
	// Each bot's matches were released in plan order; sorting keeps it.
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return order[a] - order[b] })
	sorted := make([]finished, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// apply counts a result, the next in plan order for each of its bots,
// and sets the verdict of every disqualified seat.
func (v *verdicts) apply(res *Result) {
	for k := range res.Seats {
		seat := &res.Seats[k]
		if seat.Disqualified != nil && v.dq[seat.Bot] == nil {
			v.dq[seat.Bot] = seat.Disqualified // as journaled
		}
		if d := v.dq[seat.Bot]; d != nil {
			seat.Disqualified = d
			continue
		}
		v.overruns[seat.Bot] += seat.Overruns
		var d *stats.Disqualification
		switch n := v.overruns[seat.Bot]; {
		case seat.Breach != nil:
			d = &stats.Disqualification{Reason: seat.Breach.Rule, Detail: seat.Breach.Detail}
		case v.rules.Overruns >= 0 && n > v.rules.Overruns:
			d = &stats.Disqualification{Reason: stats.DQOverruns,
				Detail: fmt.Sprintf("%d times over the time limit (an answer late, or none in time) in its matches so far, %d tolerated", n, v.rules.Overruns)}
		}
		if d != nil {
			d.Match = res.Match
			v.dq[seat.Bot] = d
			seat.Disqualified = d
		}
	}
}

// unplayedBefore refuses a selection of matches (run -match) that leaves
// out, unplayed, an earlier match in plan order of one of its bots: the
// verdicts are decided in plan order, so a bot's matches are journaled in
// that order, and a later match played first would be counted out of it.
func (v *verdicts) unplayedBefore(p *plan.Plan, todo []*plan.Match, done map[string]*Result) error {
	selected := make(map[string]bool, len(todo))
	for _, m := range todo {
		selected[m.ID] = true
	}
	first := map[string]string{} // bot -> its first match in plan order neither played nor selected
	for i := range p.Matches {
		m := &p.Matches[i]
		if selected[m.ID] {
			for _, bot := range bots(m) {
				if before, ok := first[bot]; ok {
					return &UnplayedError{Need: before, Msg: fmt.Sprintf("match %s of bot %s comes after its match %s, which has not been played: "+
						"the game's rules disqualify, which is decided in plan order, so a bot's matches are played in that order (run %s too)",
						m.ID, bot, before, before)}
				}
			}
			continue
		}
		if done[m.ID] == nil {
			for _, bot := range bots(m) {
				if _, ok := first[bot]; !ok {
					first[bot] = m.ID
				}
			}
		}
	}
	return nil
}
