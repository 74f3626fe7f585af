package engine

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
)

// Standing is one bot's line in the standings.
type Standing struct {
	Rank    int     `json:"rank"`
	Bot     string  `json:"bot"`
	Elo     float64 `json:"elo"`
	Plus    float64 `json:"plus"`  // upper bound of the 95% interval, as a distance from Elo
	Minus   float64 `json:"minus"` // lower bound, likewise
	Games   int     `json:"games"` // pairwise games
	Score   float64 `json:"score"` // fraction of pairwise points, 0..1
	Matches int     `json:"matches"`
	Points  float64 `json:"points"` // mean game points per match
	Faults  int     `json:"faults"`
	Fill    bool    `json:"fill,omitempty"`
}

// PairwiseGames turns match results into the games BayesElo rates: every
// pair of seats of a match is one game (more points wins, equal points is a
// draw), except in a match that a fault ended, which gives only the faulty
// bots' losses against each of the others. White is the earlier seat.
// Results are taken in plan order, so the games do not depend on the
// order in which matches happened to finish.
func PairwiseGames(p *plan.Plan, results []Result) (names []string, games []rating.Game) {
	index := map[string]int{}
	for _, b := range p.Bots {
		index[b.Name] = len(names)
		names = append(names, b.Name)
	}
	for _, r := range inPlanOrder(p, results) {
		for i, a := range r.Seats {
			for j := i + 1; j < len(r.Seats); j++ {
				b := r.Seats[j]
				g := rating.Game{White: index[a.Bot], Black: index[b.Bot]}
				switch {
				case a.Fault != "" && b.Fault != "":
					continue
				case a.Fault != "":
					g.Result = rating.BlackWins
				case b.Fault != "":
					g.Result = rating.WhiteWins
				case r.Faulty():
					continue // two bystanders of someone else's fault
				case a.Score > b.Score:
					g.Result = rating.WhiteWins
				case a.Score < b.Score:
					g.Result = rating.BlackWins
				default:
					g.Result = rating.Draw
				}
				games = append(games, g)
			}
		}
	}
	return names, games
}

func inPlanOrder(p *plan.Plan, results []Result) []Result {
	order := map[string]int{}
	for i, m := range p.Matches {
		order[m.ID] = i
	}
	sorted := append([]Result(nil), results...)
	sort.SliceStable(sorted, func(i, j int) bool { return order[sorted[i].Match] < order[sorted[j].Match] })
	return sorted
}

// RatingOptions are the BayesElo settings for pairwise games between
// seats: bayeselo's defaults but without White's advantage, because the
// seat designs rotate bots through the seats.
func RatingOptions() rating.Options {
	o := rating.DefaultOptions()
	o.Advantage = 0
	return o
}

// ComputeStandings rates the bots of p from results, best first.
func ComputeStandings(p *plan.Plan, results []Result) ([]Standing, error) {
	names, games := PairwiseGames(p, results)
	r, err := rating.Fit(names, games, RatingOptions())
	if err != nil {
		return nil, err
	}
	plus, minus := r.ExactDist()
	fill := map[string]bool{}
	for _, f := range p.Fill {
		fill[f] = true
	}
	st := make([]Standing, len(names))
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
		st[i] = Standing{Bot: n, Elo: r.Elo[i], Plus: plus[i], Minus: minus[i], Fill: fill[n]}
	}
	points := make([]float64, len(names))
	for _, g := range games {
		st[g.White].Games++
		st[g.Black].Games++
		points[g.White] += float64(g.Result)
		points[g.Black] += 1 - float64(g.Result)
	}
	for _, res := range results {
		for _, s := range res.Seats {
			i := index[s.Bot]
			st[i].Matches++
			st[i].Points += s.Score
			if s.Fault != "" {
				st[i].Faults++
			}
		}
	}
	for i := range st {
		if st[i].Games > 0 {
			st[i].Score = points[i] / float64(st[i].Games)
		}
		if st[i].Matches > 0 {
			st[i].Points /= float64(st[i].Matches)
		}
	}
	sort.SliceStable(st, func(i, j int) bool {
		if st[i].Elo != st[j].Elo {
			return st[i].Elo > st[j].Elo
		}
		return st[i].Bot < st[j].Bot
	})
	for i := range st {
		st[i].Rank = i + 1
	}
	return st, nil
}

// WriteStandings prints standings as a table.
func WriteStandings(w io.Writer, st []Standing) error {
	width := len("Bot")
	names := make([]string, len(st))
	for i, s := range st {
		names[i] = s.Bot
		if s.Fill {
			names[i] += " (fill)"
		}
		width = max(width, len(names[i]))
	}
	if _, err := fmt.Fprintf(w, "Rank  %-*s   Elo    +    -  Games  Score  Matches  Points  Faults\n", width, "Bot"); err != nil {
		return err
	}
	for i, s := range st {
		if _, err := fmt.Fprintf(w, "%4d  %-*s  %4d %4d %4d  %5d  %4.1f%%  %7d  %6.2f  %6d\n",
			s.Rank, width, names[i], round(s.Elo), round(s.Plus), round(s.Minus), s.Games, 100*s.Score, s.Matches, s.Points, s.Faults); err != nil {
			return err
		}
	}
	return nil
}

func round(x float64) int {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return int(math.Round(x))
}
