package stages

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// TiedCuts are the cuts of the picks of places (places(), top(),
// winners()) of every stage of p made so far (listed, or made, with
// matches in p or without: p.Made) that fell between two bots the picked
// stage's rating left tied, and its playoffs did not separate (identical
// bots, bots that could not play, ties the game cannot seat, a stage
// ranked by a rating without playoffs): Elo, then name, decided which one
// the pick took. A cut that bounds several picks is one TiedCut naming
// them all. Once every match of p has
// its result and no stage is to come, the ties left in the last stage,
// which order the final ranking (and so the grades), are listed too,
// with the pick "the final ranking". They come in the order of the
// picked stages, then group, then place.
func TiedCuts(p *plan.Plan, results []stats.Result) ([]stats.TiedCut, error) {
	made := madeStages(p)
	var out []stats.TiedCut
	for k := range p.Stages {
		if k >= p.ListedStages() && !made[p.Stages[k].Name] {
			continue
		}
		cuts, err := StageCuts(p, k, results)
		if err != nil {
			return nil, err
		}
		out = mergeCuts(out, cuts)
	}
	last, err := lastStageTies(p, results)
	if err != nil {
		return nil, err
	}
	out = append(out, last...)
	slices.SortStableFunc(out, func(a, b stats.TiedCut) int {
		return cmp.Or(cmp.Compare(p.StageIndex(a.Stage), p.StageIndex(b.Stage)), cmp.Compare(a.Group, b.Group), cmp.Compare(a.Place, b.Place))
	})
	return out, nil
}

// FinalRanking is the pick a tie of the last stage decides.
const FinalRanking = "the final ranking"

// lastStageTies are the ties left in the last stage of p (each pair of
// bots beside each other in a group that share its rank), once every
// match of p has its result and no stage is to come; none for a gate.
func lastStageTies(p *plan.Plan, results []stats.Result) ([]stats.TiedCut, error) {
	k := len(p.Stages) - 1
	if k < 0 || p.Stages[k].Gate != nil || len(ToCome(p, results)) > 0 {
		return nil, nil
	}
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	made := k < p.ListedStages()
	for _, m := range p.Matches {
		if !done[m.ID] {
			return nil, nil
		}
		made = made || m.Stage == p.Stages[k].Name
	}
	if !made {
		return nil, nil
	}
	tables, err := poolStandings(p, k, results)
	if err != nil {
		return nil, err
	}
	dq := stats.Disqualified(p, results)
	var out []stats.TiedCut
	for _, t := range tables {
		for place := 1; place < len(t.Standings); place++ {
			if c, ok := tiedCut(&p.Stages[k], t, dq, place); ok {
				c.Picks = []string{FinalRanking}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// mergeCuts adds cuts to out, a cut that out holds (the same stage,
// group and place) adding its picks to it: one cut bounding several
// picks is one cut, said once.
func mergeCuts(out, cuts []stats.TiedCut) []stats.TiedCut {
	for _, c := range cuts {
		i := slices.IndexFunc(out, func(o stats.TiedCut) bool {
			return o.Stage == c.Stage && o.Group == c.Group && o.Place == c.Place
		})
		if i < 0 {
			out = append(out, c)
		} else {
			out[i].Picks = append(slices.Clone(out[i].Picks), c.Picks...)
		}
	}
	return out
}

// StageCuts are the tied cuts (TiedCuts) of the picks of stage k, which
// results must be able to make (every result of the stages before it):
// for each pick of places k..m, the cut above place k and the one below
// place m of every group of the picked stage, counted as Field counts
// them (the bots disqualified before stage k left out), where the two
// bots beside the cut shared a rank of the picked stage's rating. A cut
// that bounds several of the picks is one cut naming them all, so the
// run warns of it once.
func StageCuts(p *plan.Plan, k int, results []stats.Result) ([]stats.TiedCut, error) {
	var dq map[string]*stats.Disqualification
	if k >= p.ListedStages() {
		dq = stats.Disqualified(p, before(p, k, results))
	}
	var out []stats.TiedCut
	for _, pick := range p.Stages[k].Bots {
		if pick.Stage == "" || pick.Admitted {
			continue
		}
		s := p.StageIndex(pick.Stage)
		tables, err := poolStandings(p, s, results)
		if err != nil {
			return nil, err
		}
		what := fmt.Sprintf("%s for stage %s", pickText(pick), p.Stages[k].Name)
		for _, t := range tables {
			for _, place := range []int{pick.From - 1, pick.To} {
				if c, ok := tiedCut(&p.Stages[s], t, dq, place); ok {
					c.Picks = []string{what}
					out = mergeCuts(out, []stats.TiedCut{c})
				}
			}
		}
	}
	return out, nil
}

// tiedCut is the cut of table t (of stage st) between its places place
// and place+1, the bots in dq left out, when its rating left them tied.
func tiedCut(st *plan.Stage, t stats.StageTable, dq map[string]*stats.Disqualification, place int) (stats.TiedCut, bool) {
	var rows []int
	for i, s := range t.Standings {
		if dq[s.Bot] == nil {
			rows = append(rows, i)
		}
	}
	if place < 1 || place >= len(rows) {
		return stats.TiedCut{}, false
	}
	a, b := rows[place-1], rows[place]
	if t.Tie[a] != t.Tie[b] {
		return stats.TiedCut{}, false
	}
	c := stats.TiedCut{Stage: t.Stage, Group: t.Group, Place: place, Above: t.Standings[a].Bot, Below: t.Standings[b].Bot,
		Tied: tiedHow(st, t, a, b), DecidedBy: "name"}
	if cmp.Compare(stats.EloKey(t.Standings[a].Elo), stats.EloKey(t.Standings[b].Elo)) != 0 {
		c.DecidedBy = "Elo"
	}
	return c, true
}

// tiedHow says how rows a and b of table t (of stage st) are tied, and
// why no playoff separated them: "on mean place and in 3 playoffs", "on
// mean place; they could not play, so they were not played off", "on
// mean place; not played off (the game cannot seat them)".
func tiedHow(st *plan.Stage, t stats.StageTable, a, b int) string {
	switch {
	case !st.Rating.Playoffs():
		return "when ranked " + st.Rating.Describe()
	case !st.Playoffs:
		return "on mean place (this plan's stages play no playoffs)"
	case len(t.Unplayed) > b && (t.Unplayed[a] || t.Unplayed[b]):
		return "on mean place; they could not play, so they were not played off"
	}
	if n := min(t.PlayedOff[a], t.PlayedOff[b]); n > 0 {
		return fmt.Sprintf("on mean place and in %d playoff(s)", n)
	}
	return "on mean place; not played off (the game cannot seat them)"
}

// pickText is a pick of places as a stage's bots write it.
func pickText(pick plan.Pick) string {
	switch {
	case pick.From == 1 && pick.To == 1:
		return fmt.Sprintf("winners(stage.%s)", pick.Stage)
	case pick.From == 1:
		return fmt.Sprintf("top(stage.%s, %d)", pick.Stage, pick.To)
	}
	return fmt.Sprintf("places(stage.%s, %d, %d)", pick.Stage, pick.From, pick.To)
}
