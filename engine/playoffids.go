package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// playoffIDForm is how the id of a stage's playoff match is written.
const playoffIDForm = "playoff-<stage>-<group>-<playoff>-g<tie>-s<seating>"

// impossibleID says why id, of the form of a stage's playoff match
// (playoff-...) in a plan in stages, names no match that the plan's
// configuration can ever make, whatever the results: no such stage, a
// stage that plays no playoffs, a group, playoff, tie or seating out of
// its range. It returns "" for an id that may yet be made (or is), and
// for any other id: an id the run may still make must not be refused as
// impossible, so every bound is one the configuration alone sets.
func impossibleID(p *plan.Plan, id string) string {
	rest, ok := strings.CutPrefix(id, stats.PlayoffPrefix)
	if !ok || len(p.Stages) == 0 {
		return ""
	}
	k := playoffStage(p, rest)
	if k < 0 {
		names := make([]string, len(p.Stages))
		for i := range p.Stages {
			names[i] = p.Stages[i].Name
		}
		return fmt.Sprintf("it names no stage of this tournament (its stages: %s; a playoff's id is %s)", strings.Join(names, ", "), playoffIDForm)
	}
	st := &p.Stages[k]
	switch {
	case st.Gate != nil:
		return fmt.Sprintf("stage %s is a gate, which plays no playoffs", st.Name)
	case !st.Rating.Playoffs():
		return fmt.Sprintf("stage %s's rating %q plays no playoffs (only \"placement\" does)", st.Name, st.Rating.String())
	case !st.Playoffs:
		return fmt.Sprintf("stage %s plays no playoffs in this plan (written by an arbiter whose stages played none)", st.Name)
	}
	group, n, tie, seating, ok := parsePlayoffID(strings.TrimPrefix(rest, st.Name+"-"))
	if !ok {
		return fmt.Sprintf("it is not of the form %s (like %s)", playoffIDForm, plan.StagePlayoffID(st.Name, 1, 1, 1, 1))
	}
	return playoffOutOfRange(p, k, group, n, tie, seating)
}

// playoffStage is the index of the stage whose playoffs' ids, without
// "playoff-", begin as rest does: a stage's match ids' form (stageOfID).
func playoffStage(p *plan.Plan, rest string) int { return stageOfID(p, rest) }

// parsePlayoffID parses <group>-<playoff>-g<tie>-s<seating>, the tail of
// a stage's playoff id, written as StagePlayoffMatches writes it.
func parsePlayoffID(tail string) (group, n, tie, seating int, ok bool) {
	parts := strings.Split(tail, "-")
	if len(parts) != 4 {
		return 0, 0, 0, 0, false
	}
	for g := 1; g <= 26 && group == 0; g++ {
		if plan.PoolName(g) == parts[0] {
			group = g
		}
	}
	if v, err := strconv.Atoi(parts[0]); group == 0 && err == nil && v > 26 {
		group = v
	}
	n, err1 := strconv.Atoi(parts[1])
	tie, err2 := strconv.Atoi(strings.TrimPrefix(parts[2], "g"))
	seating, err3 := strconv.Atoi(strings.TrimPrefix(parts[3], "s"))
	if group == 0 || err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, 0, 0, false
	}
	return group, n, tie, seating, fmt.Sprintf("%s-%d-g%02d-s%d", plan.PoolName(group), n, tie, seating) == tail
}

// playoffOutOfRange says which of group, playoff n, tie and seating of a
// playoff id of stage k is out of the range the configuration allows,
// "" when none is.
func playoffOutOfRange(p *plan.Plan, k, group, n, tie, seating int) string {
	st := &p.Stages[k]
	field := fieldBound(p, k)
	pools := max(min(st.Pools, field), 1)
	largest := (field + pools - 1) / pools
	seatings := 0
	for t := 2; t <= largest; t++ {
		seatings = max(seatings, len(st.Seats.ForGroup(t).Seatings(t)))
	}
	switch {
	case group > pools:
		return fmt.Sprintf("stage %s has %s, so no group %s", st.Name, groupsText(pools), plan.PoolName(group))
	case n < 1 || n > plan.MaxPlayoffs:
		return fmt.Sprintf("a stage plays at most %d playoffs (1 to %d), so no playoff %d", plan.MaxPlayoffs, plan.MaxPlayoffs, n)
	case largest < 2:
		return fmt.Sprintf("a group of stage %s has at most %d bot, so no tie to play off", st.Name, largest)
	case tie < 1 || tie > largest/2:
		return fmt.Sprintf("a group of stage %s has at most %d bots, so at most %d tie(s) to play off (g01 to g%02d), no tie g%02d", st.Name, largest, largest/2, largest/2, tie)
	case seating < 1 || seating > seatings:
		return fmt.Sprintf("a tie of stage %s (at most %d bots, seats %q) is played in at most %d seating(s) (s1 to s%d), no seating s%d", st.Name, largest, st.Seats.String(), seatings, seatings, seating)
	}
	return ""
}

// groupsText is "1 group (A)", "4 groups (A to D)".
func groupsText(n int) string {
	if n == 1 {
		return "1 group (A)"
	}
	return fmt.Sprintf("%d groups (A to %s)", n, plan.PoolName(n))
}

// fieldBound is the most bots the field of stage k can have, whatever
// the results: one per named bot, the places a pick takes from every
// group of its stage, the most a gate's field has, and never more than
// the tournament's bots.
func fieldBound(p *plan.Plan, k int) int {
	n := 0
	for _, pick := range p.Stages[k].Bots {
		s := p.StageIndex(pick.Stage)
		switch {
		case pick.Bot != "":
			n++
		case s < 0 || s >= k: // refused by validate; no bound from it
			return len(p.Bots)
		case pick.Admitted:
			n += fieldBound(p, s)
		default:
			n += (pick.To - pick.From + 1) * min(p.Stages[s].Pools, fieldBound(p, s))
		}
	}
	return min(n, len(p.Bots))
}
