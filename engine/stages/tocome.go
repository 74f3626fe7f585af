package stages

import (
	"slices"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// PlayoffsToCome are the placement playoffs of p's stages that are to
// come: made (p holds them) with a match that has no result yet, or due
// and not made yet: every match of p has its result, the stage is one
// whose playoffs may not be over (a listed stage before any later stage
// is made, else the last stage made), and its next playoff (Playoff)
// would seat a tie. seats says whether the game can seat a number of
// bots, as for Playoff (nil: any). Until they are played, the ties they
// are for are not settled: the standings must not say that they are
// final, nor that the game cannot seat them.
func PlayoffsToCome(p *plan.Plan, results []stats.Result, seats func(n int) error) ([]stats.PlayoffToCome, error) {
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	out := madeToCome(p, done)
	if len(out) > 0 || !allDone(p, done) {
		return out, nil
	}
	for _, k := range openStages(p) {
		n := PlayoffsMade(p, k) + 1
		pr, _, err := Playoff(p, k, n, results, seats)
		if err != nil {
			return nil, err
		}
		if pr != nil {
			out = append(out, toCome(p, k, n, pr.Matches, false))
		}
	}
	return out, nil
}

// madeToCome are the playoffs p holds with a match that has no result:
// made, but for those a reader made again from the results whose files
// are missing and none of whose matches was played (p.Unrecorded).
func madeToCome(p *plan.Plan, done map[string]bool) []stats.PlayoffToCome {
	var out []stats.PlayoffToCome
	for k := range p.Stages {
		st := &p.Stages[k]
		for n := 1; n <= PlayoffsMade(p, k); n++ {
			var ms []plan.Match
			open := false
			for _, m := range p.Matches {
				if m.Stage == st.Name && stats.IsPlayoff(m.ID) && m.Round == st.Rounds+n {
					ms = append(ms, m)
					open = open || !done[m.ID]
				}
			}
			if open {
				made := !slices.Contains(p.Unrecorded, PlayoffFileName(st.Name, n))
				out = append(out, toCome(p, k, n, ms, made))
			}
		}
	}
	return out
}

// toCome is playoff n of stage k, of matches ms, as PlayoffsToCome
// lists it: the bots of each tie (the first seating of each), by group.
func toCome(p *plan.Plan, k, n int, ms []plan.Match, made bool) stats.PlayoffToCome {
	pt := stats.PlayoffToCome{Stage: p.Stages[k].Name, Playoff: n, Made: made}
	for _, m := range ms {
		if m.Shift != 1 {
			continue
		}
		tie := stats.StageTie{Bots: slices.Sorted(slices.Values(m.Seats))}
		if p.Stages[k].Pools > 1 {
			tie.Group = plan.PoolName(m.Pool)
		}
		pt.Ties = append(pt.Ties, tie)
	}
	return pt
}

// allDone says whether every match of p has its result.
func allDone(p *plan.Plan, done map[string]bool) bool {
	for _, m := range p.Matches {
		if !done[m.ID] {
			return false
		}
	}
	return true
}

// openStages are the stages whose playoffs may not be over, as the run
// tries them: every listed stage until a later stage is made, then the
// last stage made.
func openStages(p *plan.Plan) []int {
	last := p.ListedStages() - 1
	for k := p.ListedStages(); k < len(p.Stages); k++ {
		if slices.ContainsFunc(p.Matches, func(m plan.Match) bool { return m.Stage == p.Stages[k].Name }) {
			last = k
		}
	}
	if last < p.ListedStages() {
		out := make([]int, 0, last+1)
		for k := 0; k <= last; k++ {
			out = append(out, k)
		}
		return out
	}
	return []int{last}
}
