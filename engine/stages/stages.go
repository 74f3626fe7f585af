// Package stages makes the matches of the stages of a tournament played
// in stages (plan.Stage) from the results of the stages before them. Every
// function here is a pure function of the plan and the results, so a
// resumed run, a replay and a job scheduler that runs each stage as a job
// depending on the stages before it all make the same matches.
package stages

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
)

// Rule is the rule name of a stage's record in rounds/.
const Rule = "stage"

// FileName is the name of the record of stage name in rounds/.
func FileName(name string) string { return "stage-" + name + ".json" }

// PlayoffFileName is the name of the record of playoff n of stage name
// in rounds/.
func PlayoffFileName(name string, n int) string { return fmt.Sprintf("playoff-%s-%d.json", name, n) }

// PlayoffsMade is how many playoffs of stage k p holds (matches whose ids
// are a playoff's, of that stage).
func PlayoffsMade(p *plan.Plan, k int) int {
	rounds := map[int]bool{}
	for _, m := range p.Matches {
		if m.Stage == p.Stages[k].Name && stats.IsPlayoff(m.ID) {
			rounds[m.Round] = true
		}
	}
	return len(rounds)
}

// Unseated is a tie of a stage's group that no playoff settles: the game
// cannot seat that many bots in one match.
type Unseated struct {
	Stage, Group string
	Bots         []string
	Problem      error
}

// Playoff makes playoff n (1-based) of stage k from p, which holds the
// stage's matches and its playoffs before n, and their results: in each
// group of the stage, the bots its rating leaves tied on mean place
// (stats.PlacementTies, over the group's matches and playoffs so far:
// bots that could not play are not played off) play a match of their
// own, as a single tournament's playoffs do. It returns nil when the
// stage plays no playoffs (Plan.Stage.Playoffs), n is past
// plan.MaxPlayoffs, or no tie is left that the game can seat; unseated
// are the ties it cannot (seats says whether it can seat a number of
// bots).
func Playoff(p *plan.Plan, k, n int, results []stats.Result, seats func(n int) error) (*pairing.Pairing, []Unseated, error) {
	st := &p.Stages[k]
	if !st.Playoffs || n > plan.MaxPlayoffs {
		return nil, nil, nil
	}
	pools, err := Pools(p, k, results)
	if err != nil {
		return nil, nil, err
	}
	if err := checkPools(p, k, pools); err != nil {
		return nil, nil, err
	}
	ties := make([][][]string, len(pools))
	var groups [][]string
	var unseated []Unseated
	for g, members := range pools {
		sub, res := poolPlan(p, k, g+1, members, results)
		if len(sub.Matches) == 0 {
			continue
		}
		for _, tie := range stats.PlacementTies(sub, res) {
			if seats != nil {
				if err := seats(len(tie)); err != nil {
					unseated = append(unseated, Unseated{Stage: st.Name, Group: plan.PoolName(g + 1), Bots: tie, Problem: err})
					continue
				}
			}
			ties[g] = append(ties[g], tie)
			groups = append(groups, tie)
		}
	}
	if len(groups) == 0 {
		return nil, unseated, nil
	}
	return &pairing.Pairing{Round: st.Rounds + n, Rule: "playoff", Stage: st.Name, Groups: groups,
		Matches: p.StagePlayoffMatches(k, n, ties)}, unseated, nil
}

// Field is the field of stage k in seeding order: its picks resolved
// against the standings of the stages before it, a bot picked twice
// counted at its first pick. results must hold every result of the stages
// before k (see Standings).
//
// A disqualification is from the whole tournament: a stage made from
// results (k >= p.ListedStages()) leaves out every bot disqualified in a
// stage before it, named or picked, and a pick of places skips them, so
// that the next bot takes the place (top(stage.q, 2) of a group whose
// winner was disqualified is its second and third). A stage listed before
// the run cannot: its disqualified bots lose their matches there.
func Field(p *plan.Plan, k int, results []stats.Result) ([]string, error) {
	var dq map[string]*stats.Disqualification
	if k >= p.ListedStages() {
		dq = stats.Disqualified(p, before(p, k, results))
	}
	keep := func(names []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(b string) bool { return dq[b] != nil })
	}
	var out []string
	for _, pick := range p.Stages[k].Bots {
		var names []string
		switch {
		case pick.Bot != "":
			names = []string{pick.Bot}
		case pick.Admitted:
			var err error
			if names, err = Admitted(p, p.StageIndex(pick.Stage), results); err != nil {
				return nil, err
			}
		default:
			pools, err := Standings(p, p.StageIndex(pick.Stage), results)
			if err != nil {
				return nil, err
			}
			for i := range pools {
				pools[i] = keep(pools[i])
			}
			for place := pick.From; place <= pick.To; place++ {
				for _, pool := range pools {
					if place <= len(pool) {
						names = append(names, pool[place-1])
					}
				}
			}
		}
		for _, n := range keep(names) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// before are the results of the matches of the stages before stage k.
func before(p *plan.Plan, k int, results []stats.Result) []stats.Result {
	ids := map[string]bool{}
	for _, m := range p.Matches {
		if i := p.StageIndex(m.Stage); i >= 0 && i < k {
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

// Pools are the pools of stage k: its field split by its rule.
func Pools(p *plan.Plan, k int, results []stats.Result) ([][]string, error) {
	field, err := Field(p, k, results)
	if err != nil {
		return nil, err
	}
	return p.SplitPools(k, field), nil
}

// Standings are the pools of stage k, each in the order of its ranking
// (the stage's rating, ties on mean place broken by the stage's playoffs
// that p holds; bots still tied by Elo, then name). A pool that played no
// match keeps its seeding order.
//
// The pools are made again from results, so results must hold every
// result of the stages before k, as the run or the merge that made stage
// k had them; a results directory that holds only some of them (a shard's)
// cannot rank stage k. When the pools they make are not those of the
// stage's matches in p (a match seats a bot outside its pool), Standings
// says so and ranks nothing.
func Standings(p *plan.Plan, k int, results []stats.Result) ([][]string, error) {
	tables, err := poolStandings(p, k, results)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(tables))
	for g, t := range tables {
		out[g] = t.Members
	}
	return out, nil
}

// stageRanking says how stage st orders the bots of a pool: its rating,
// with its playoffs when it plays them (ties they leave go by Elo).
func stageRanking(st *plan.Stage) string {
	if st.Rating.Playoffs() && !st.Playoffs {
		return "by mean place"
	}
	return st.Rating.Describe()
}

// poolStandings are the pools of stage k (see Standings), each with the
// standings of its own matches, its members' rows only, ranked 1, 2, ...
// in the stage's order; a pool that played no match has none.
func poolStandings(p *plan.Plan, k int, results []stats.Result) ([]stats.StageTable, error) {
	pools, err := Pools(p, k, results)
	if err != nil {
		return nil, err
	}
	if err := checkPools(p, k, pools); err != nil {
		return nil, err
	}
	out := make([]stats.StageTable, len(pools))
	for g, members := range pools {
		out[g] = stats.StageTable{Stage: p.Stages[k].Name, Members: members}
		if len(pools) > 1 {
			out[g].Group = plan.PoolName(g + 1)
		}
		sub, res := poolPlan(p, k, g+1, members, results)
		if len(sub.Matches) == 0 {
			continue
		}
		st, err := stats.ComputeStats(sub, res)
		if err != nil {
			return nil, fmt.Errorf("standings of stage %s group %s: %w", p.Stages[k].Name, plan.PoolName(g+1), err)
		}
		out[g].Members, out[g].RankedBy = nil, stageRanking(&p.Stages[k])
		playedOff, unplayed := playoffsPlayed(sub, res), map[string]bool{}
		for _, tie := range st.NotPlayedOff {
			for _, b := range tie {
				unplayed[b] = true
			}
		}
		for _, s := range st.Standings {
			if slices.Contains(members, s.Bot) {
				out[g].PlayedOff = append(out[g].PlayedOff, playedOff[s.Bot])
				out[g].Unplayed = append(out[g].Unplayed, unplayed[s.Bot])
				out[g].Tie = append(out[g].Tie, s.Rank)
				s.Rank = len(out[g].Members) + 1
				out[g].Members = append(out[g].Members, s.Bot)
				out[g].Standings = append(out[g].Standings, s)
			}
		}
	}
	return out, nil
}

// playoffsPlayed counts, for each bot, the playoffs of sub (rounds of
// playoff matches) it played in res.
func playoffsPlayed(sub *plan.Plan, res []stats.Result) map[string]int {
	round := map[string]int{}
	for _, m := range sub.Matches {
		if stats.IsPlayoff(m.ID) {
			round[m.ID] = m.Round
		}
	}
	seen := map[string]map[int]bool{}
	for _, r := range res {
		rd, ok := round[r.Match]
		if !ok {
			continue
		}
		for _, s := range r.Seats {
			if seen[s.Bot] == nil {
				seen[s.Bot] = map[int]bool{}
			}
			seen[s.Bot][rd] = true
		}
	}
	out := map[string]int{}
	for b, rounds := range seen {
		out[b] = len(rounds)
	}
	return out
}

// checkPools checks that pools, made again from some results, are the
// pools stage k was made with: every match of the stage in p is of one of
// them and seats only its bots (and a gate's own).
func checkPools(p *plan.Plan, k int, pools [][]string) error {
	st := &p.Stages[k]
	for _, m := range p.Matches {
		if m.Stage != st.Name {
			continue
		}
		if m.Pool < 1 || m.Pool > len(pools) {
			return fmt.Errorf("stage %s: match %s is of group %s, but the results given make %d group(s): ranking a stage needs every result of the stages before it",
				st.Name, m.ID, plan.PoolName(m.Pool), len(pools))
		}
		for _, b := range m.Seats {
			if !slices.Contains(pools[m.Pool-1], b) && (st.Gate == nil || !slices.Contains(st.Gate.Against, b)) {
				return fmt.Errorf("stage %s: match %s seats %s, who is not in group %s as the results given make it (%s): ranking a stage needs every result of the stages before it",
					st.Name, m.ID, b, plan.PoolName(m.Pool), strings.Join(pools[m.Pool-1], ", "))
			}
		}
	}
	return nil
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

// Admitted are the bots of gate stage k that passed it, in the field's
// order: a bot is admitted when every seat it had in the gate's matches
// is clean (Clean: no fault, no disqualification, no answer the game
// replaced by its default) and at least one of those matches counts,
// one in which every seat of the gate's own bots is clean too. A match
// in which the gate's bot failed (GateFaults) tested nobody, so it admits
// no one, though it still turns away a bot that failed in it.
func Admitted(p *plan.Plan, k int, results []stats.Result) ([]string, error) {
	st := &p.Stages[k]
	field, err := Field(p, k, results)
	if err != nil {
		return nil, err
	}
	if err := checkPools(p, k, p.SplitPools(k, field)); err != nil {
		return nil, err
	}
	passed, failed := map[string]bool{}, map[string]bool{}
	for _, r := range stageResults(p, st.Name, results) {
		counts := true
		for _, s := range r.Seats {
			if slices.Contains(st.Gate.Against, s.Bot) && !Clean(s) {
				counts = false
			}
		}
		for _, s := range r.Seats {
			if !Clean(s) {
				failed[s.Bot] = true
			} else if counts {
				passed[s.Bot] = true
			}
		}
	}
	var out []string
	for _, b := range field {
		if passed[b] && !failed[b] && !slices.Contains(st.Gate.Against, b) {
			out = append(out, b)
		}
	}
	return out, nil
}

// Clean says whether a seat played its match without a fault (time,
// crash, illegal move, ...), a disqualification, or an answer that the
// game replaced by its default (Auction's crash, time-out or invalid bid,
// which do not end the match and are not faults).
func Clean(s stats.SeatResult) bool {
	return s.Fault == "" && s.Disqualified == nil && s.Defaults == 0 && s.Breach == nil
}

// GateFaults are the failures of the gates' own bots (their seats that
// are not Clean) in the matches of the gate stages, in plan order: each
// such match admits no one.
func GateFaults(p *plan.Plan, results []stats.Result) []stats.GateFault {
	stage := map[string]string{}
	for _, m := range p.Matches {
		if k := p.StageIndex(m.Stage); k >= 0 && p.Stages[k].Gate != nil {
			stage[m.ID] = m.Stage
		}
	}
	var out []stats.GateFault
	for _, r := range stats.InPlanOrder(p, results) {
		if name, ok := stage[r.Match]; ok {
			out = append(out, MatchGateFaults(p, name, &r)...)
		}
	}
	return out
}

// MatchGateFaults are the failures of the gate's own bots in r, a match
// of stage name (none when the stage is not a gate).
func MatchGateFaults(p *plan.Plan, name string, r *stats.Result) []stats.GateFault {
	k := p.StageIndex(name)
	if k < 0 || p.Stages[k].Gate == nil {
		return nil
	}
	var out []stats.GateFault
	for _, s := range r.Seats {
		if slices.Contains(p.Stages[k].Gate.Against, s.Bot) && !Clean(s) {
			out = append(out, stats.GateFault{Stage: name, Bot: s.Bot, Match: r.Match, Failure: failure(s)})
		}
	}
	return out
}

// failure says how a seat that is not Clean failed. The defaults that
// stood in for a bot that never started or was never built are not
// answers it gave (stats.ReplacedAnswers): its fault says it all.
func failure(s stats.SeatResult) string {
	var what []string
	if s.Fault != "" {
		what = append(what, strings.TrimSpace(s.Fault+": "+s.Detail))
	}
	if n := stats.ReplacedAnswers(s.SeatResult); n > 0 {
		what = append(what, fmt.Sprintf("%d answer(s) replaced by the game's default", n))
	}
	if s.Breach != nil {
		what = append(what, fmt.Sprintf("broke the %s rules: %s", s.Breach.Rule, s.Breach.Detail))
	}
	if s.Disqualified != nil && s.Breach == nil {
		what = append(what, "disqualified ("+s.Disqualified.Reason+")")
	}
	return strings.Join(what, "; ")
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
	pools, err := Pools(p, k, results)
	if err != nil {
		return nil, err
	}
	pr := &pairing.Pairing{Rule: Rule, Stage: p.Stages[k].Name, Groups: pools, Matches: []plan.Match{}}
	ms, err := Matches(p, k, pools, seats)
	if err != nil {
		return nil, err
	}
	pr.Matches = append(pr.Matches, ms...)
	return pr, nil
}

// PoolError is a failure to list the matches of pool Pool (1: A) of stage
// Stage: Err says why, without naming the stage, so that a message that
// names it already (a resumed run's "stage final cannot be made from
// ...") can name the pool alone.
type PoolError struct {
	Stage string
	Pool  int
	Err   error
}

func (e *PoolError) Error() string {
	return fmt.Sprintf("stage %s pool %s: %v", e.Stage, plan.PoolName(e.Pool), e.Err)
}

func (e *PoolError) Unwrap() error { return e.Err }

// Matches lists the matches of stage k's pools; a pool whose matches
// cannot be listed is a *PoolError.
func Matches(p *plan.Plan, k int, pools [][]string, seats func(n int) error) ([]plan.Match, error) {
	var out []plan.Match
	for g, members := range pools {
		rounds, err := p.StagePoolGroups(k, members)
		if err != nil {
			return nil, &PoolError{Stage: p.Stages[k].Name, Pool: g + 1, Err: err}
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
// the others. A stage is reached when it is listed or has been made, with
// matches or without (p.Made). The gates' own bots, and bots of no stage
// reached, come last, with no stage. stage[i] is the stage that ranks bots[i]. results must
// hold every result of the stages reached but the last (see Standings).
func Final(p *plan.Plan, results []stats.Result) (bots, stage []string, err error) {
	bots, stage, _, err = final(p, results)
	return bots, stage, err
}

// final is Final, with the standings of the pools that placed bots
// (stats.StageTable), from the last stage reached to the first.
func final(p *plan.Plan, results []stats.Result) (bots, stage []string, tables []stats.StageTable, err error) {
	made := madeStages(p)
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
			admitted, err := Admitted(p, k, results)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, b := range admitted {
				add(b, st.Name)
			}
			field, err := Field(p, k, results)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, b := range field {
				add(b, st.Name)
			}
			continue
		}
		pools, err := poolStandings(p, k, results)
		if err != nil {
			return nil, nil, nil, err
		}
		ranks := false // some bot of the stage is ranked by it
		for place := 0; ; place++ {
			more := false
			for _, pool := range pools {
				if place < len(pool.Members) {
					more = true
					if !placed[pool.Members[place]] {
						ranks = true
					}
					add(pool.Members[place], st.Name)
				}
			}
			if !more {
				break
			}
		}
		if ranks {
			for _, pool := range pools {
				if len(pool.Standings) > 0 {
					tables = append(tables, pool)
				}
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
	return bots, stage, tables, nil
}

// Rank computes the statistics of a plan's results, ranked by its stages
// when it has any (Final). seats says whether the game can seat a number
// of bots (nil: any), which tells a tie whose playoff is to come
// (PlayoffsToCome, PlayoffToCome, Ties) from one the game cannot seat
// (Unseated).
func Rank(p *plan.Plan, results []stats.Result, seats func(n int) error) (*stats.Stats, error) {
	s, err := stats.ComputeStats(p, results)
	if err != nil {
		return s, err
	}
	if len(p.Stages) == 0 {
		s.PlayoffToCome = NextPlayoff(p, results, seats)
		s.SetUnseated(seats)
		if stop.Ends(p, results) {
			s.SetStopped()
		}
		return s, nil
	}
	bots, stage, tables, err := final(p, results)
	if err != nil {
		return nil, err
	}
	s.Reorder(p, bots, stage)
	s.GateFaults = GateFaults(p, results)
	s.StageTables = tables
	if s.TiedCuts, err = TiedCuts(p, results); err != nil {
		return nil, err
	}
	if s.PlayoffsToCome, s.StagesToCome, err = Coming(p, results, seats); err != nil {
		return nil, err
	}
	if len(s.PlayoffsToCome) > 0 {
		// A tie still to be played off orders no final ranking yet.
		s.TiedCuts = slices.DeleteFunc(s.TiedCuts, func(c stats.TiedCut) bool { return slices.Equal(c.Picks, []string{FinalRanking}) })
	}
	return s, nil
}

// NextPlayoff is stats.NextPlayoff of p, a tournament without stages,
// after results: 0 when its stopping rule ended it on them (stop.Ends),
// which leaves a tie in placement reported, not played off.
func NextPlayoff(p *plan.Plan, results []stats.Result, seats func(n int) error) int {
	if stop.Ends(p, results) {
		return 0
	}
	return stats.NextPlayoff(p, results, seats)
}

// Coming are what is to come of p, a plan in stages, after results: the
// playoffs (PlayoffsToCome) and the stages not made yet (ToCome); with a
// playoff to come, every stage after its stage that is not made.
// seats is as for PlayoffsToCome. The standings' headline and an
// interrupted run's last line say them (stats.Coming).
func Coming(p *plan.Plan, results []stats.Result, seats func(n int) error) ([]stats.PlayoffToCome, []string, error) {
	playoffs, err := PlayoffsToCome(p, results, seats)
	if err != nil || len(playoffs) == 0 {
		return playoffs, ToCome(p, results), err
	}
	return playoffs, unmade(p, p.StageIndex(playoffs[0].Stage)+1), nil
}

// ToCome are the later stages of p, which holds the stages made so far,
// that are not made yet: their matches, which depend on who advances,
// are not in p and not counted in its matches. A stage is made once p
// holds a match of it or names it (p.Made: made without a match). While
// a match of p has no result, every later stage not made; once all
// have, the stages after the last one made: the next is due, and a run
// interrupted before it made it says so, as rank, which makes it, does.
func ToCome(p *plan.Plan, results []stats.Result) []string {
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	from := p.ListedStages()
	for _, m := range p.Matches {
		if !done[m.ID] {
			return unmade(p, p.ListedStages())
		}
		from = max(from, p.StageIndex(m.Stage)+1)
	}
	for _, name := range p.Made {
		from = max(from, p.StageIndex(name)+1)
	}
	return unmade(p, from)
}

// madeStages are the names of the stages p holds a match of or names in
// Made (made without a match), and "" when it holds a match of no stage.
func madeStages(p *plan.Plan) map[string]bool {
	made := map[string]bool{}
	for _, m := range p.Matches {
		made[m.Stage] = true
	}
	for _, name := range p.Made {
		made[name] = true
	}
	return made
}

// unmade are the stages of p from the from-th on that are not made (p
// holds no match of them and does not name them in Made), in order.
func unmade(p *plan.Plan, from int) []string {
	made := madeStages(p)
	var out []string
	for k := from; k < len(p.Stages); k++ {
		if name := p.Stages[k].Name; !made[name] {
			out = append(out, name)
		}
	}
	return out
}
