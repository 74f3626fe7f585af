package engine

import (
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
)

// Rank ranks the results of plan p as `arbiter rank`, the standings of a
// run and the results page do: by its stages when it has any
// (stages.Rank, seats the game's: nil seats any number); a shard's (sp
// not nil) by its own matches alone.
//
// A shard cannot rank the tournament: a stage ranks each group on all its
// matches, and the stages after the first are made from, and ranked by,
// the results of every stage before them (docs/stages.md), which only the
// merged directory holds; the playoffs, the stopping rules and the grades
// are the merge's too. So a shard's standings are those of its slice, a
// results directory of its own (docs/distributed.md): its matches and
// results, the bots it seats ranked by the plan's rating, without stage,
// ties or grades.
func Rank(p *plan.Plan, results []stats.Result, sp *ShardPlan, seats func(n int) error) (*stats.Stats, error) {
	if sp == nil {
		return stages.Rank(p, results, seats)
	}
	own := make(map[string]bool, len(sp.Matches))
	for _, id := range sp.Matches {
		own[id] = true
	}
	slice := *p
	slice.Bots, slice.Matches, slice.Grades = nil, nil, nil
	seated := map[string]bool{}
	for _, m := range p.Matches {
		if own[m.ID] {
			slice.Matches = append(slice.Matches, m)
			for _, b := range m.Seats {
				seated[b] = true
			}
		}
	}
	for _, b := range p.Bots {
		if seated[b.Name] {
			slice.Bots = append(slice.Bots, b)
		}
	}
	var res []stats.Result
	for _, r := range results {
		if own[r.Match] {
			res = append(res, r)
		}
	}
	st, err := stats.ComputeStats(&slice, res)
	if err != nil {
		return nil, err
	}
	st.Ties, st.PlayoffsOver, st.NotPlayedOff = nil, false, nil
	if shardStops(p, results, sp) {
		st.SetStopped()
	}
	return st, nil
}

// shardStops says whether the stopping rule of p, a tournament without
// stages, is sure to end it with the stage of shard sp, as the merge will
// decide it: the shard's own results hold a prefix, in plan order, on
// which the rule ends it (the merge's prefix holds that one too), or the
// stage's matches reach max_matches (StageMatches plays none after it).
// Its standings then say, as the run's do, that no playoff is played,
// rather than that ties are broken by playoffs.
func shardStops(p *plan.Plan, results []stats.Result, sp *ShardPlan) bool {
	if p.Stop == nil || len(p.Stages) > 0 {
		return false
	}
	if stop.Ends(p, results) {
		return true
	}
	if p.Stop.MaxMatches == 0 || sp.Shard.Stage > len(sp.Paired) {
		return false
	}
	n := listedMatches(p, sp.Paired)
	for _, pr := range sp.Paired[:sp.Shard.Stage] {
		for _, m := range pr.Matches {
			if stats.IsPlayoff(m.ID) {
				// The rule counts no match after a playoff.
				return false
			}
			n++
		}
	}
	return n >= p.Stop.MaxMatches
}

// listedMatches is the number of the listed matches of p, those of its
// stage 0: p, as the run and readDir know it, holds after them the
// matches of the later stages paired, which are not counted again.
func listedMatches(p *plan.Plan, paired []*pairing.Pairing) int {
	later := map[string]bool{}
	for _, pr := range paired {
		for _, m := range pr.Matches {
			later[m.ID] = true
		}
	}
	n := 0
	for _, m := range p.Matches {
		if !later[m.ID] {
			n++
		}
	}
	return n
}

// RankDir ranks the results of the results directory dir (Rank): a
// shard's, if dir is one (sp), by its own matches. drv finds the game's
// driver (like drivers/all.Driver), whose game says which ties of a
// plan that plays playoffs can be played off; nil when there is none.
func RankDir(dir string, p *plan.Plan, results []stats.Result, drv func(string) (drivers.Driver, bool)) (st *stats.Stats, sp *ShardPlan, err error) {
	if sp, err = ReadShard(dir); err != nil {
		return nil, nil, err
	}
	seats, err := GameSeats(p, drv)
	if err != nil {
		return nil, nil, err
	}
	st, err = Rank(p, results, sp, seats)
	return st, sp, err
}

// GameSeats is the Seats of the game of p, rebuilt with its driver (drv,
// like drivers/all.Driver); nil (any number) without drv. A plan without
// stages is ranked without its game, which only tells its ties the game
// cannot seat (stats.Stats.Unseated) from those a playoff is to break:
// when its game does not load, its seats are nil too, as they were
// before they told that.
func GameSeats(p *plan.Plan, drv func(string) (drivers.Driver, bool)) (func(n int) error, error) {
	if drv == nil {
		return nil, nil
	}
	game, err := (&Runner{Plan: p, Drivers: drv}).loadGameSettings()
	switch {
	case err != nil && len(p.Stages) == 0:
		return nil, nil
	case err != nil:
		return nil, err
	}
	return game.Seats, nil
}
