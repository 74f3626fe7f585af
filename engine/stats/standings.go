package stats

import (
	"encoding/json"
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
	Score   float64 `json:"score"` // fraction of pairwise points, 0..1; NaN without games, as Elo
	Matches int     `json:"matches"`
	Points  float64 `json:"points"` // mean game points per match; NaN without matches
	// Place is the mean place per match (1 = best; tied seats share the
	// mean of the places they span); PlaceCI is the half-width of its 95%
	// confidence interval (Student's t over the bot's matches).
	Place   float64 `json:"place"`
	PlaceCI float64 `json:"place_ci"`
	// Wins are matches won: first place with no one but the bot's
	// partners beside it (see Won; the top score alone, when the driver
	// does not place the seats; a fault loses). NormalWins are wins in
	// matches without a fault.
	Wins       int `json:"wins"`
	NormalWins int `json:"normal_wins"`
	// Faults are the matches the bot lost by its own fault.
	Faults int  `json:"faults"`
	Fill   bool `json:"fill,omitempty"`
	// Stage is, in a tournament played in stages, the last stage the bot
	// played in, which ranks it; Grade its grade (Plan.Grades).
	Stage string `json:"stage,omitempty"`
	Grade string `json:"grade,omitempty"`
	// Disqualified is set when the bot is out of the tournament (the
	// first verdict in plan order); it ranks after every bot that is not.
	Disqualified *Disqualification `json:"disqualified,omitempty"`
	// Defaults are the answers the game replaced by its defaults, in
	// DefaultMatches matches (playoffs included); games such as Auction
	// and Euchre play on with a default rather than end the match, so
	// these are not Faults. FirstDefault is the first of them in plan
	// order, its match and why (SeatResult.DefaultDetail).
	Defaults       int           `json:"defaults,omitempty"`
	DefaultMatches int           `json:"default_matches,omitempty"`
	FirstDefault   *FirstDefault `json:"first_default,omitempty"`
	// FirstFault is the first of the Faults in plan order: its match,
	// the bot's seat there, its kind and detail.
	FirstFault *FirstFault `json:"first_fault,omitempty"`
}

// FirstFault is where a bot first lost a match by its own fault, and why.
type FirstFault struct {
	Match  string `json:"match"`
	Seat   int    `json:"seat"`
	Fault  string `json:"fault"`
	Detail string `json:"detail,omitempty"`
}

// FirstDefault is where a bot first got a default answer, and why.
type FirstDefault struct {
	Match  string `json:"match"`
	Detail string `json:"detail,omitempty"`
}

// MarshalJSON writes the numbers that are not finite (the Elo, interval
// and score of a bot without games, the points and place of a bot
// without matches, the place interval of a bot with one) as null.
func (s Standing) MarshalJSON() ([]byte, error) {
	type plain Standing
	return json.Marshal(struct {
		plain
		Elo     *float64 `json:"elo"`
		Plus    *float64 `json:"plus"`
		Minus   *float64 `json:"minus"`
		Score   *float64 `json:"score"`
		Points  *float64 `json:"points"`
		Place   *float64 `json:"place"`
		PlaceCI *float64 `json:"place_ci"`
	}{plain(s), rating.Finite(s.Elo), rating.Finite(s.Plus), rating.Finite(s.Minus), rating.Finite(s.Score), rating.Finite(s.Points),
		rating.Finite(s.Place), rating.Finite(s.PlaceCI)})
}

// PairwiseGames turns match results into the games BayesElo rates: every
// pair of seats of a match is one game (more points wins, equal points is a
// draw), except in a match that a fault ended, which gives only the faulty
// bots' losses against each of the others. White is the earlier seat.
// Results are taken in plan order, so the games do not depend on the
// order in which matches happened to finish. Playoffs are left out: they
// only break ties in placement. A seat whose bot is not one of the plan's
// gives no game: its games are no other bot's (ComputeStats refuses such
// results).
func PairwiseGames(p *plan.Plan, results []Result) (names []string, games []rating.Game) {
	names = EachPairwiseGame(p, results, func(_ *Result, g rating.Game) {
		games = append(games, g)
	})
	return names, games
}

// EachPairwiseGame hands each of PairwiseGames' games, in its order, to
// game with the match it was played in, and returns the bots' names the
// games' indices stand for (the plan's).
func EachPairwiseGame(p *plan.Plan, results []Result, game func(r *Result, g rating.Game)) (names []string) {
	index := map[string]int{}
	for _, b := range p.Bots {
		index[b.Name] = len(names)
		names = append(names, b.Name)
	}
	for _, r := range InPlanOrder(p, results) {
		if IsPlayoff(r.Match) {
			continue
		}
		for i, a := range r.Seats {
			white, known := index[a.Bot]
			if !known {
				continue
			}
			for j := i + 1; j < len(r.Seats); j++ {
				black, known := index[r.Seats[j].Bot]
				if !known {
					continue
				}
				if res, ok := PairResult(&r, i, j); ok {
					game(&r, rating.Game{White: white, Black: black, Result: res})
				}
			}
		}
	}
	return names
}

// PairResult is the game between seats i and j of a match, as seat i's
// score; false when the match gives none (both faulted, or a third seat's
// fault ended it: not in a match the game played out, Result.PlayedOut). A disqualified seat loses like a faulty one, but the
// others' games stand.
func PairResult(r *Result, i, j int) (rating.Result, bool) {
	a, b := r.Seats[i], r.Seats[j]
	lostA, lostB := a.Fault != "" || a.Disqualified != nil, b.Fault != "" || b.Disqualified != nil
	switch {
	case lostA && lostB:
		return 0, false
	case lostA:
		return rating.BlackWins, true
	case lostB:
		return rating.WhiteWins, true
	case r.Faulty() && !r.PlayedOut:
		return 0, false // two bystanders of a fault that ended the match
	case a.Score > b.Score:
		return rating.WhiteWins, true
	case a.Score < b.Score:
		return rating.BlackWins, true
	}
	return rating.Draw, true
}

// Field is the plan's bots that are not fill.
func Field(p *plan.Plan) []string {
	fill := map[string]bool{}
	for _, f := range p.Fill {
		fill[f] = true
	}
	var out []string
	for _, b := range p.Bots {
		if !fill[b.Name] {
			out = append(out, b.Name)
		}
	}
	return out
}

// InPlanOrder returns a copy of results in the order of their matches in
// p.
func InPlanOrder(p *plan.Plan, results []Result) []Result {
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
