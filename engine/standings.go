package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

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
	// Place is the mean place per match (1 = best; tied seats share the
	// mean of the places they span); PlaceCI is the half-width of its 95%
	// confidence interval (Student's t over the bot's matches).
	Place   float64 `json:"place"`
	PlaceCI float64 `json:"place_ci"`
	// Wins are matches won: first place alone (the top score alone, when
	// the driver does not place the seats; a fault loses). NormalWins are
	// wins in matches without a fault.
	Wins       int `json:"wins"`
	NormalWins int `json:"normal_wins"`
	// Faults are the matches the bot lost by its own fault.
	Faults int  `json:"faults"`
	Fill   bool `json:"fill,omitempty"`
}

// MarshalJSON writes the numbers that are not finite (the interval of a
// bot without games, the place interval of a bot with one match) as null.
func (s Standing) MarshalJSON() ([]byte, error) {
	type plain Standing
	return json.Marshal(struct {
		plain
		Elo     *float64 `json:"elo"`
		Plus    *float64 `json:"plus"`
		Minus   *float64 `json:"minus"`
		PlaceCI *float64 `json:"place_ci"`
	}{plain(s), rating.Finite(s.Elo), rating.Finite(s.Plus), rating.Finite(s.Minus), rating.Finite(s.PlaceCI)})
}

// PairwiseGames turns match results into the games BayesElo rates: every
// pair of seats of a match is one game (more points wins, equal points is a
// draw), except in a match that a fault ended, which gives only the faulty
// bots' losses against each of the others. White is the earlier seat.
// Results are taken in plan order, so the games do not depend on the
// order in which matches happened to finish. Playoffs are left out: they
// only break ties in placement.
func PairwiseGames(p *plan.Plan, results []Result) (names []string, games []rating.Game) {
	index := map[string]int{}
	for _, b := range p.Bots {
		index[b.Name] = len(names)
		names = append(names, b.Name)
	}
	for _, r := range inPlanOrder(p, results) {
		if IsPlayoff(r.Match) {
			continue
		}
		for i, a := range r.Seats {
			for j := i + 1; j < len(r.Seats); j++ {
				res, ok := pairResult(&r, i, j)
				if !ok {
					continue
				}
				games = append(games, rating.Game{White: index[a.Bot], Black: index[r.Seats[j].Bot], Result: res})
			}
		}
	}
	return names, games
}

// pairResult is the game between seats i and j of a match, as seat i's
// score; false when the match gives none (both faulted, or a third seat's
// fault ended it).
func pairResult(r *Result, i, j int) (rating.Result, bool) {
	a, b := r.Seats[i], r.Seats[j]
	switch {
	case a.Fault != "" && b.Fault != "":
		return 0, false
	case a.Fault != "":
		return rating.BlackWins, true
	case b.Fault != "":
		return rating.WhiteWins, true
	case r.Faulty():
		return 0, false // two bystanders of someone else's fault
	case a.Score > b.Score:
		return rating.WhiteWins, true
	case a.Score < b.Score:
		return rating.BlackWins, true
	}
	return rating.Draw, true
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

// ComputeStandings ranks the bots of p from results, in the order of the
// plan's Rating (see ComputeStats).
func ComputeStandings(p *plan.Plan, results []Result) ([]Standing, error) {
	s, err := ComputeStats(p, results)
	if err != nil {
		return nil, err
	}
	return s.Standings, nil
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
	if _, err := fmt.Fprintf(w, "Rank  %-*s   Elo    +    -  Games   Score  Matches  Points  Place     ±  Wins  Normal  Faults\n", width, "Bot"); err != nil {
		return err
	}
	for i, s := range st {
		place, ci := "    -", "    -"
		if s.Matches > 0 {
			place = fmt.Sprintf("%5.2f", s.Place)
		}
		if !math.IsInf(s.PlaceCI, 0) && s.Matches > 0 {
			ci = fmt.Sprintf("%5.2f", s.PlaceCI)
		}
		if _, err := fmt.Fprintf(w, "%4d  %-*s  %4d %4d %4d  %5d  %5.1f%%  %7d  %6.2f  %s %s  %4d  %6d  %6d\n",
			s.Rank, width, names[i], round(s.Elo), round(s.Plus), round(s.Minus), s.Games, 100*s.Score, s.Matches, s.Points,
			place, ci, s.Wins, s.NormalWins, s.Faults); err != nil {
			return err
		}
	}
	return nil
}

// WriteStats prints the standings under a line that says how they are
// ordered, then the groups still tied in placement.
func WriteStats(w io.Writer, s *Stats) error {
	how := map[string]string{
		RankBayesElo:  "by BayesElo",
		RankPlacement: "by mean place, ties broken by playoffs",
		RankWins:      "by wins, then normal wins, then fewer fault losses",
		RankPoints:    "by mean points per match",
	}[s.Rating]
	fmt.Fprintf(w, "%s: %d of %d matches finished", s.Tournament, s.Matches-s.Playoffs, s.Planned)
	if s.Playoffs > 0 {
		fmt.Fprintf(w, ", %d playoff(s)", s.Playoffs)
	}
	fmt.Fprintf(w, "; ranked %s\n\n", how)
	if err := WriteStandings(w, s.Standings); err != nil {
		return err
	}
	for _, g := range s.Ties {
		fmt.Fprintf(w, "\nTied in placement, needs a playoff: %s\n", strings.Join(g, ", "))
	}
	return nil
}

// WriteCrosstable prints every bot's pairwise wins-draws-losses against
// every other, rows and columns in standings order.
func WriteCrosstable(w io.Writer, s *Stats) error {
	cells := make([][]string, len(s.Standings))
	width := 3
	for i, row := range s.Crosstable {
		cells[i] = make([]string, len(row))
		for j, c := range row {
			if i == j {
				continue
			}
			cells[i][j] = fmt.Sprintf("%d-%d-%d", c.W, c.D, c.L)
			width = max(width, len(cells[i][j]))
		}
	}
	return writeMatrix(w, s, "Crosstable (pairwise games: wins-draws-losses of the row's bot)", width, cells)
}

// WriteLOS prints the likelihood of superiority in percent, truncated like
// bayeselo's: the row's bot is stronger than the column's with that
// probability.
func WriteLOS(w io.Writer, s *Stats) error {
	cells := make([][]string, len(s.Standings))
	for i, row := range s.LOS {
		cells[i] = make([]string, len(row))
		for j, l := range row {
			if i != j {
				cells[i][j] = fmt.Sprint(int(l * 100))
			}
		}
	}
	return writeMatrix(w, s, "Likelihood of superiority (%, row over column)", 3, cells)
}

func writeMatrix(w io.Writer, s *Stats, title string, width int, cells [][]string) error {
	nameWidth := 0
	for _, st := range s.Standings {
		nameWidth = max(nameWidth, len(st.Bot))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%*s", title, nameWidth+5, "")
	for j := range s.Standings {
		fmt.Fprintf(&b, " %*d", width, j+1)
	}
	b.WriteByte('\n')
	for i, st := range s.Standings {
		line := fmt.Sprintf("%3d  %-*s", i+1, nameWidth, st.Bot)
		for j := range s.Standings {
			line += fmt.Sprintf(" %*s", width, cells[i][j])
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func round(x float64) int {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return int(math.Round(x))
}
