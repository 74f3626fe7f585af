// Package stages makes the matches of the stages of a tournament played
// in stages (plan.Stage) from the results of the stages before them. Every
// function here is a pure function of the plan and the results, so a
// resumed run, a replay and a job scheduler that runs each stage as a job
// depending on the stages before it all make the same matches.
package stages

import (
	"fmt"
	"slices"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// Rule is the rule name of a stage's record in rounds/.
const Rule = "stage"

// FileName is the name of the record of stage name in rounds/.
func FileName(name string) string { return "stage-" + name + ".json" }

// Field is the field of stage k in seeding order: its picks resolved
// against the standings of the stages before it, a bot picked twice
// counted at its first pick.
func Field(p *plan.Plan, k int, results []stats.Result) []string {
	var out []string
	for _, pick := range p.Stages[k].Bots {
		var names []string
		switch {
		case pick.Bot != "":
			names = []string{pick.Bot}
		case pick.Admitted:
			names = Admitted(p, p.StageIndex(pick.Stage), results)
		default:
			pools := Standings(p, p.StageIndex(pick.Stage), results)
			for place := pick.From; place <= pick.To; place++ {
				for _, pool := range pools {
					if place <= len(pool) {
						names = append(names, pool[place-1])
					}
				}
			}
		}
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Pools are the pools of stage k: its field split by its rule.
func Pools(p *plan.Plan, k int, results []stats.Result) [][]string {
	return p.SplitPools(k, Field(p, k, results))
}

// Standings are the pools of stage k, each in the order of its ranking
// (the stage's rating; bots it does not separate by Elo, then name). A
// pool that played no match keeps its seeding order.
func Standings(p *plan.Plan, k int, results []stats.Result) [][]string {
	pools := Pools(p, k, results)
	out := make([][]string, len(pools))
	for g, members := range pools {
		sub, res := poolPlan(p, k, g+1, members, results)
		if len(sub.Matches) == 0 {
			out[g] = members
			continue
		}
		st, err := stats.ComputeStats(sub, res)
		if err != nil { // the rating fit does not fail on finite games
			panic(fmt.Sprintf("stages: standings of %s pool %s: %v", p.Stages[k].Name, plan.PoolName(g+1), err))
		}
		for _, s := range st.Standings {
			if slices.Contains(members, s.Bot) {
				out[g] = append(out[g], s.Bot)
			}
		}
	}
	return out
}

// poolPlan is the plan of one pool of stage k alone, for its standings,
// with the results of its matches.
func poolPlan(p *plan.Plan, k, g int, members []string, results []stats.Result) (*plan.Plan, []stats.Result) {
	st := &p.Stages[k]
	sub := &plan.Plan{Tournament: p.Tournament, Hash: p.Hash, Game: p.Game, Seed: p.Seed, Rating: st.Rating, Rounds: st.Rounds}
	names := slices.Clone(members)
	if st.Gate != nil {
		names = append(names, st.Gate.Against...)
	}
	for _, n := range names {
		if b := p.Bot(n); b != nil {
			sub.Bots = append(sub.Bots, *b)
		}
	}
	ids := map[string]bool{}
	for _, m := range p.Matches {
		if m.Stage == st.Name && m.Pool == g {
			sub.Matches = append(sub.Matches, m)
			ids[m.ID] = true
		}
	}
	var res []stats.Result
	for _, r := range results {
		if ids[r.Match] {
			res = append(res, r)
		}
	}
	return sub, res
}

// Admitted are the bots of gate stage k that made no fault in any of
// their gate matches and finished at least one, in the field's order.
func Admitted(p *plan.Plan, k int, results []stats.Result) []string {
	st := &p.Stages[k]
	played, faulted := map[string]bool{}, map[string]bool{}
	for _, r := range stageResults(p, st.Name, results) {
		for _, s := range r.Seats {
			played[s.Bot] = true
			if s.Fault != "" {
				faulted[s.Bot] = true
			}
		}
	}
	var out []string
	for _, b := range Field(p, k, results) {
		if played[b] && !faulted[b] && !slices.Contains(st.Gate.Against, b) {
			out = append(out, b)
		}
	}
	return out
}

func stageResults(p *plan.Plan, name string, results []stats.Result) []stats.Result {
	ids := map[string]bool{}
	for _, m := range p.Matches {
		if m.Stage == name {
			ids[m.ID] = true
		}
	}
	var out []stats.Result
	for _, r := range results {
		if ids[r.Match] {
			out = append(out, r)
		}
	}
	return out
}

// Make makes the matches of stage k from p, whose Matches hold every
// stage before k, and their results. seats says whether the game can
// seat a number of bots; a pool it cannot seat plays no match.
func Make(p *plan.Plan, k int, results []stats.Result, seats func(n int) error) (*pairing.Pairing, error) {
	pools := Pools(p, k, results)
	pr := &pairing.Pairing{Rule: Rule, Stage: p.Stages[k].Name, Groups: pools, Matches: []plan.Match{}}
	ms, err := Matches(p, k, pools, seats)
	if err != nil {
		return nil, err
	}
	pr.Matches = append(pr.Matches, ms...)
	return pr, nil
}

// Matches lists the matches of stage k's pools.
func Matches(p *plan.Plan, k int, pools [][]string, seats func(n int) error) ([]plan.Match, error) {
	var out []plan.Match
	for g, members := range pools {
		rounds, err := p.StagePoolGroups(k, members)
		if err != nil {
			return nil, fmt.Errorf("stage %s pool %s: %w", p.Stages[k].Name, plan.PoolName(g+1), err)
		}
		if len(rounds) > 0 && len(rounds[0]) > 0 && seats != nil && seats(len(rounds[0][0])) != nil {
			continue
		}
		out = append(out, p.StageMatches(k, g+1, rounds)...)
	}
	return out, nil
}

// Final is the final ranking of a tournament played in stages: the bots
// of the last stage reached first, then those that went no further than
// the stage before it, and so on; within a stage by place, then group (all
// group winners, then all runners-up, ...), a gate's admitted bots before
// the others. A stage is reached when it is listed or has been made with
// matches. The gates' own bots, and bots of no stage reached, come last,
// with no stage. stage[i] is the stage that ranks bots[i].
func Final(p *plan.Plan, results []stats.Result) (bots, stage []string) {
	made := map[string]bool{}
	for _, m := range p.Matches {
		made[m.Stage] = true
	}
	placed := map[string]bool{}
	add := func(b, s string) {
		if !placed[b] {
			placed[b] = true
			bots, stage = append(bots, b), append(stage, s)
		}
	}
	against := map[string]bool{}
	for k := len(p.Stages) - 1; k >= 0; k-- {
		st := &p.Stages[k]
		if st.Gate != nil {
			for _, a := range st.Gate.Against {
				against[a] = true
			}
		}
		if k >= p.ListedStages() && !made[st.Name] {
			continue
		}
		if st.Gate != nil {
			admitted := Admitted(p, k, results)
			for _, b := range admitted {
				add(b, st.Name)
			}
			for _, b := range Field(p, k, results) {
				add(b, st.Name)
			}
			continue
		}
		pools := Standings(p, k, results)
		for place := 0; ; place++ {
			more := false
			for _, pool := range pools {
				if place < len(pool) {
					more = true
					add(pool[place], st.Name)
				}
			}
			if !more {
				break
			}
		}
	}
	for _, b := range p.Bots {
		if !against[b.Name] {
			add(b.Name, "")
		}
	}
	for _, b := range p.Bots {
		add(b.Name, "")
	}
	return bots, stage
}

// Rank computes the statistics of a plan's results, ranked by its stages
// when it has any (Final).
func Rank(p *plan.Plan, results []stats.Result) (*stats.Stats, error) {
	s, err := stats.ComputeStats(p, results)
	if err != nil || len(p.Stages) == 0 {
		return s, err
	}
	bots, stage := Final(p, results)
	s.Reorder(p, bots, stage)
	return s, nil
}
