package stats

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Stats are the statistics of a tournament's results.
type Stats struct {
	Tournament string `json:"tournament"`
	Plan       string `json:"plan"` // the plan's hash
	// Rating is the ranking that orders Standings.
	Rating tournament.Rating `json:"rating"`
	// Matches counts finished matches, playoffs included; Planned is the
	// plan's matches without playoffs (rounds that a run pairs from
	// results count once they are paired).
	Matches  int `json:"matches"`
	Playoffs int `json:"playoffs,omitempty"`
	Planned  int `json:"planned"`
	// Standings are in the order of Rating; bots that it does not separate
	// share a rank.
	Standings []Standing `json:"standings"`
	// Crosstable[i][j] counts the pairwise games of Standings[i] against
	// Standings[j] from i's side.
	Crosstable [][]rating.WDL `json:"crosstable"`
	// LOS[i][j] is BayesElo's likelihood that Standings[i] is stronger
	// than Standings[j] (0..1; 0 on the diagonal; NaN, null in JSON, when
	// either has no pairwise game).
	LOS LOSMatrix `json:"los"`
	// Ties are the groups of bots that placement does not separate yet
	// (see PlacementTies); only under the placement ranking.
	Ties [][]string `json:"ties,omitempty"`
	// PlayoffsOver says that no further playoff will break Ties: the
	// most a tournament plays (plan.MaxPlayoffs) have been played.
	PlayoffsOver bool `json:"playoffs_over,omitempty"`
	// Unseated are the groups of bots tied in placement, in a tournament
	// without stages, that its game cannot seat in one match (three bots
	// of a two-player game, say): no playoff is played for them, the run
	// warns "tie not played off", and the tie stands. They are not in
	// Ties (SetUnseated).
	Unseated [][]string `json:"ties_unseated,omitempty"`
	// Stopped are the groups of bots tied in placement in a tournament
	// without stages that its stopping rule ended: a stop ends the
	// tournament, so no playoff is played and the tie stands. They are not
	// in Ties (SetStopped).
	Stopped [][]string `json:"ties_stopped,omitempty"`
	// Ended says that the stopping rule ended the tournament
	// (SetStopped): its rating plays no playoff after it (RankedBy).
	// Not in JSON: ties_stopped and stopped say it there.
	Ended bool `json:"-"`
	// NotPlayedOff are the groups of bots tied in placement that no
	// playoff is played for: none of them could play (couldNotPlay: every
	// regular match a start or build fault, or every answer replaced by
	// the game's default), so a playoff would only repeat the tie. They
	// rank behind the bots of their mean place that played; a group is
	// also one such bot alone, tied only with bots that played. Fill
	// bots, never played off, are in neither list.
	NotPlayedOff [][]string `json:"not_played_off,omitempty"`
	// GateFaults are the failures of a gate's own bot in its matches
	// (package stages), each a match that admitted no one.
	GateFaults []GateFault `json:"gate_faults,omitempty"`
	// StageTables are, in a tournament played in stages, the standings
	// that placed the bots within the stage that ranks them: each pool of
	// those stages (last stage first) by its own matches alone, in the
	// order of the stage's rating. Standings' columns count every stage;
	// these are what decided the order among bots of one stage.
	StageTables []StageTable `json:"stage_tables,omitempty"`
	// TiedCuts are, in a tournament played in stages, the cuts of the
	// picks of the stages made so far (places(), top(), winners()) that
	// fell between two bots the picked stage's rating, and its playoffs,
	// left tied, and the ties left in the last stage once it is over:
	// Elo, then name, decided which of them a pick took.
	TiedCuts []TiedCut `json:"tied_cuts,omitempty"`
	// StagesToCome are, in a tournament played in stages, the stages not
	// made yet, whose matches Planned does not count: they depend on who
	// advances.
	StagesToCome []string `json:"stages_to_come,omitempty"`
	// PlayoffsToCome are, in a tournament played in stages, the stages'
	// placement playoffs made and not finished, or due and not made yet:
	// the ties they are for are not settled (package stages).
	PlayoffsToCome []PlayoffToCome `json:"playoffs_to_come,omitempty"`
	// PlayoffToCome is, in a tournament without stages, the number of its
	// placement playoff to come, 0 when none is (NextPlayoff); Ties are
	// the bots it plays off.
	PlayoffToCome int `json:"playoff_to_come,omitempty"`
	// RoundsToCome are, in a tournament whose later rounds are grouped
	// from results, the first and last of those not made yet, whose
	// matches Planned does not count either (plan.Plan.RoundsToCome).
	RoundsToCome *plan.Coming `json:"rounds_to_come,omitempty"`
}

// StageTable is one pool of a stage (package stages), ranked by its own
// matches: Members in the stage's order; Standings the same bots' rows,
// ranked 1, 2, ... (none when the pool played no match). Group is the
// pool's name when the stage has several.
type StageTable struct {
	Stage     string     `json:"stage"`
	Group     string     `json:"group,omitempty"`
	RankedBy  string     `json:"ranked_by,omitempty"` // as Stats.RankedBy says it
	Members   []string   `json:"-"`
	Standings []Standing `json:"standings"`
	// Tie is, for each row of Standings, the rank the stage's rating
	// alone gives it: rows it does not separate share one, and are
	// ordered by Elo, then name.
	Tie []int `json:"-"`
	// PlayedOff is, for each row of Standings, how many of the stage's
	// placement playoffs the bot played; Unplayed says the bot could not
	// play its matches, so that it is never played off.
	PlayedOff []int  `json:"-"`
	Unplayed  []bool `json:"-"`
}

// TiedCut is a cut of a stage's pick between two bots of one group that
// the picked stage's rating, and its playoffs, left tied (they shared a
// rank in its table; or a tie in the last stage, which orders the final
// ranking):
// Above, at place Place, was taken before Below, at Place+1, by their
// whole Elo in the group's own matches (DecidedBy "Elo") or, with the
// same whole Elo, by name ("name"). Picks are the picks whose range of
// places the cut bounds, each with the stage that picks
// ("top(stage.qualification, 4) for stage final_groups").
type TiedCut struct {
	Stage     string   `json:"stage"`
	Group     string   `json:"group,omitempty"`
	Place     int      `json:"place"`
	Above     string   `json:"above"`
	Below     string   `json:"below"`
	Tied      string   `json:"tied"` // "on mean place and in 3 playoffs", "when ranked by wins, ...": the rating, and why playoffs did not settle it
	DecidedBy string   `json:"decided_by"`
	Picks     []string `json:"picks"`
}

// String says the cut as the standings and the run's log do: "stage
// qualification, group A: tym07 over tym19: tied on mean place, decided by
// name (places 4 and 5; top(stage.qualification, 4) for stage
// final_groups)".
func (c TiedCut) String() string {
	where := "stage " + c.Stage
	if c.Group != "" {
		where += ", group " + c.Group
	}
	return fmt.Sprintf("%s: %s over %s: tied %s, decided by %s (places %d and %d; %s)",
		where, c.Above, c.Below, c.Tied, c.DecidedBy, c.Place, c.Place+1, strings.Join(c.Picks, "; "))
}

// MarshalJSON writes the cut with its sentence (String) as "sentence":
// the results page shows it as it is, so that the page and the
// standings word a cut alike.
func (c TiedCut) MarshalJSON() ([]byte, error) {
	type fields TiedCut // without this method
	return json.Marshal(struct {
		fields
		Sentence string `json:"sentence"`
	}{fields(c), c.String()})
}

// PlayoffToCome is playoff Playoff of stage Stage, to come: made (Made)
// and not finished, or not made yet; Ties are the bots it plays off.
type PlayoffToCome struct {
	Stage   string     `json:"stage"`
	Playoff int        `json:"playoff"`
	Made    bool       `json:"made,omitempty"`
	Ties    []StageTie `json:"ties"`
}

// String says the playoff as the standings' headline does: "playoff 1
// of stage final", "playoff 1" of a tournament without stages.
func (pt PlayoffToCome) String() string {
	if pt.Stage == "" {
		return fmt.Sprintf("playoff %d", pt.Playoff)
	}
	return fmt.Sprintf("playoff %d of stage %s", pt.Playoff, pt.Stage)
}

// StageTie is a tie of a group of a stage (Group: the group's name when
// the stage has several).
type StageTie struct {
	Group string   `json:"group,omitempty"`
	Bots  []string `json:"bots"`
}

// GateFault is a failure of a gate's own bot in a gate match: a fault,
// a disqualification or an answer the game replaced by its default. The
// match tested no one, so no bot is admitted on it.
type GateFault struct {
	Stage   string `json:"stage"`
	Bot     string `json:"bot"`
	Match   string `json:"match"`
	Failure string `json:"failure"`
}

// Finished says how many matches have finished, as `arbiter rank` heads
// its standings: "12 of 12 matches finished, 6 playoff(s)" (playoffs
// apart: Planned does not count them), "16 of 16 matches finished (stage
// final to come)", "16 of 16 matches finished (playoff 1 of stage final
// to come)", "12 of 12 matches finished (playoff 1 to come)".
func (s *Stats) Finished() string {
	out := fmt.Sprintf("%d of %d matches finished", s.Matches-s.Playoffs, s.Planned)
	if s.Playoffs > 0 {
		out += fmt.Sprintf(", %d playoff(s)", s.Playoffs)
	}
	coming := s.PlayoffsToCome
	if s.PlayoffToCome > 0 {
		coming = append(slices.Clip(coming), PlayoffToCome{Playoff: s.PlayoffToCome})
	}
	return out + s.RoundsToCome.String() + Coming(coming, s.StagesToCome)
}

// Coming says which playoffs and stages are to come, after a count of
// matches: " (playoff 1 of stage final to come)", " (playoff 1 of stage
// a, stage b to come)", ToCome(stages) when no playoff is.
func Coming(playoffs []PlayoffToCome, stages []string) string {
	if len(playoffs) == 0 {
		return ToCome(stages)
	}
	var coming []string
	for _, pt := range playoffs {
		coming = append(coming, pt.String())
	}
	switch {
	case len(stages) == 1:
		coming = append(coming, "stage "+stages[0])
	case len(stages) > 1:
		coming = append(coming, "stages "+strings.Join(stages, ", "))
	}
	return " (" + strings.Join(coming, ", ") + " to come)"
}

// ToCome says which stages are to come, after a count of matches that
// leaves them out: " (stage final to come)", " (stages a, b to come)", ""
// when none is.
func ToCome(stages []string) string {
	switch len(stages) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" (stage %s to come)", stages[0])
	}
	return fmt.Sprintf(" (stages %s to come)", strings.Join(stages, ", "))
}

// RankedBy says how Standings are ordered, "by ...": by the rating, or,
// when a tournament in stages was ranked by them (Reorder), by the last
// stage reached.
func (s *Stats) RankedBy() string {
	if len(s.Standings) > 0 && s.Standings[0].Stage != "" {
		return "by the last stage reached, then place in its group (Stage)"
	}
	if s.Ended && s.Playoffs == 0 && s.Rating.Playoffs() {
		return noPlayoffsStopped
	}
	return s.Rating.Describe()
}

// noPlayoffsStopped is RankedBy of a tournament ranked by mean place that
// its stopping rule ended before any playoff: it plays none, so no tie is
// broken by one.
const noPlayoffsStopped = "by mean place (the stopping rule ended the tournament before any playoff)"

// tally sums the per-match statistics of every bot of a plan, indexed
// like the plan's bots. Playoffs are kept apart.
type tally struct {
	names    []string
	index    map[string]int
	regular  []Result // in plan order
	playoffs []Result
	fill     map[int]bool // bots that only complete groups
	dq       map[int]*Disqualification

	matches                  []int
	defaults, defaultMatches []int // answers replaced by defaults, all matches
	firstDefault             map[int]*FirstDefault
	firstFault               map[int]*FirstFault // of the regular matches
	points                   []float64           // sums
	faults, wins, normalWins []int
	placeSum, placeSq        []float64
	// unplayed counts the regular matches in which the bot could not play
	// (couldNotPlay).
	unplayed []int
}

func newTally(p *plan.Plan, results []Result) *tally {
	n := len(p.Bots)
	t := &tally{
		index:   map[string]int{},
		matches: make([]int, n), points: make([]float64, n),
		faults: make([]int, n), wins: make([]int, n), normalWins: make([]int, n),
		placeSum: make([]float64, n), placeSq: make([]float64, n), unplayed: make([]int, n),
		firstFault: map[int]*FirstFault{},
	}
	for i, b := range p.Bots {
		t.names = append(t.names, b.Name)
		t.index[b.Name] = i
	}
	t.fill = map[int]bool{}
	for _, f := range p.Fill {
		if i, ok := t.index[f]; ok {
			t.fill[i] = true
		}
	}
	t.dq = map[int]*Disqualification{}
	for bot, d := range Disqualified(p, results) {
		if i, ok := t.index[bot]; ok {
			t.dq[i] = d
		}
	}
	t.countDefaults(InPlanOrder(p, results))
	for _, r := range InPlanOrder(p, results) {
		if IsPlayoff(r.Match) {
			t.playoffs = append(t.playoffs, r)
		} else {
			t.regular = append(t.regular, r)
		}
	}
	for k := range t.regular {
		r := &t.regular[k]
		places := Places(r)
		for s, seat := range r.Seats {
			i, ok := t.index[seat.Bot]
			if !ok {
				continue
			}
			t.matches[i]++
			t.points[i] += seat.Score
			t.placeSum[i] += places[s]
			t.placeSq[i] += places[s] * places[s]
			if seat.Fault != "" {
				t.faults[i]++
				if t.firstFault[i] == nil {
					t.firstFault[i] = &FirstFault{Match: r.Match, Seat: s, Fault: seat.Fault, Detail: seat.Detail}
				}
			}
			if seat.Fault == drivers.FaultStart || seat.Fault == faultBuild || seat.AllDefaults {
				t.unplayed[i]++
			}
			if Won(r, places, s) && seat.Disqualified == nil {
				t.wins[i]++
				if !r.Faulty() || r.PlayedOut { // won by play, not by a fault
					t.normalWins[i]++
				}
			}
		}
	}
	return t
}

// countDefaults counts every bot's answers replaced by the game's
// defaults over results (in plan order), and keeps the first; the
// matches in which it never started count none (ReplacedAnswers).
func (t *tally) countDefaults(results []Result) {
	bots := len(t.names)
	t.defaults, t.defaultMatches, t.firstDefault = make([]int, bots), make([]int, bots), map[int]*FirstDefault{}
	for _, r := range results {
		for _, seat := range r.Seats {
			i, ok := t.index[seat.Bot]
			n := ReplacedAnswers(seat.SeatResult)
			if !ok || n == 0 {
				continue
			}
			t.defaults[i] += n
			t.defaultMatches[i]++
			if t.firstDefault[i] == nil {
				t.firstDefault[i] = &FirstDefault{Match: r.Match, Detail: seat.DefaultDetail}
			}
		}
	}
}

// place is bot i's mean place over its regular matches.
func (t *tally) place(i int) float64 { return t.placeSum[i] / float64(t.matches[i]) }

// placeCI is the half-width of the 95% confidence interval of the mean
// place: Student's t with n-1 degrees of freedom times the standard error
// s/√n. +Inf below two matches.
func (t *tally) placeCI(i int) float64 {
	n := float64(t.matches[i])
	if n < 2 {
		return math.Inf(1)
	}
	mean := t.placeSum[i] / n
	variance := max(0, (t.placeSq[i]-n*mean*mean)/(n-1))
	return tQuantile(0.975, t.matches[i]-1) * math.Sqrt(variance/n)
}

func (t *tally) sortedNames(g []int) []string {
	names := make([]string, len(g))
	for k, i := range g {
		names[k] = t.names[i]
	}
	slices.Sort(names)
	return names
}

// orders group the bots by each rating method, best first; bots in one
// group are not separated by it. elo are the bots' BayesElo ratings (see
// ratedElo: NaN, which cmp.Compare puts before every number and so a
// descending order after, for a bot without games).
var orders = [...]func(t *tally, elo []float64) [][]int{
	tournament.BayesElo: func(t *tally, elo []float64) [][]int {
		return groupBy(t.all(), func(a, b int) int { return cmp.Compare(EloKey(elo[b]), EloKey(elo[a])) })
	},
	tournament.Placement: func(t *tally, _ []float64) [][]int { return t.byPlacement() },
	tournament.Wins: func(t *tally, _ []float64) [][]int {
		return groupBy(t.all(), func(a, b int) int {
			// Bots without matches come last.
			return cmp.Or(cmp.Compare(min(t.matches[b], 1), min(t.matches[a], 1)),
				cmp.Compare(t.wins[b], t.wins[a]), cmp.Compare(t.normalWins[b], t.normalWins[a]),
				cmp.Compare(t.faults[a], t.faults[b]))
		})
	},
	tournament.Points: func(t *tally, _ []float64) [][]int {
		mean := func(i int) float64 { return t.points[i] / float64(max(t.matches[i], 1)) }
		return groupBy(t.all(), func(a, b int) int {
			// Bots without matches come last.
			if c := cmp.Compare(min(t.matches[b], 1), min(t.matches[a], 1)); c != 0 {
				return c
			}
			return byKey(func(i int) float64 { return -mean(i) })(a, b)
		})
	},
}

// disqualifiedLast moves the disqualified bots of each group behind every
// bot that is not, keeping their order among themselves.
func (t *tally) disqualifiedLast(groups [][]int) [][]int {
	var in, out [][]int
	for _, g := range groups {
		if k := slices.DeleteFunc(slices.Clone(g), func(i int) bool { return t.dq[i] != nil }); len(k) > 0 {
			in = append(in, k)
		}
		if k := slices.DeleteFunc(slices.Clone(g), func(i int) bool { return t.dq[i] == nil }); len(k) > 0 {
			out = append(out, k)
		}
	}
	return append(in, out...)
}

// all are the indices of every bot.
// checkBots checks that every seat of results is one of p's bots.
func checkBots(p *plan.Plan, results []Result) error {
	bots := make(map[string]bool, len(p.Bots))
	for _, b := range p.Bots {
		bots[b.Name] = true
	}
	for _, r := range results {
		for _, s := range r.Seats {
			if !bots[s.Bot] {
				return fmt.Errorf("match %s seats %q, which is not a bot of the plan", r.Match, s.Bot)
			}
		}
	}
	return nil
}

func (t *tally) all() []int {
	all := make([]int, len(t.names))
	for i := range all {
		all[i] = i
	}
	return all
}

// ComputeStats computes every statistic of the results of plan p. It
// refuses a result that seats a bot the plan does not have.
func ComputeStats(p *plan.Plan, results []Result) (*Stats, error) {
	if err := checkBots(p, results); err != nil {
		return nil, err
	}
	t := newTally(p, results)
	names, games := PairwiseGames(p, results)
	r, err := rating.Fit(names, games, RatingOptions())
	if err != nil {
		return nil, err
	}
	st := t.standings(p, r)
	cross := crosstable(st, games)
	elo := ratedElo(r)
	groups := t.disqualifiedLast(orders[p.Rating](t, elo))
	order := ranked(st, groups, elo)
	los := r.LOS()
	s := &Stats{
		Tournament: p.Tournament, Plan: p.Hash, Rating: p.Rating,
		Matches: len(results), Playoffs: len(t.playoffs), Planned: RegularMatches(p),
		Standings:  make([]Standing, len(order)),
		Crosstable: make([][]rating.WDL, len(order)),
		LOS:        make(LOSMatrix, len(order)),
	}
	// A stopping rule may end the run before them: then nothing is said.
	if p.Stop == nil {
		s.RoundsToCome = p.RoundsToCome()
	}
	for k, i := range order {
		s.Standings[k] = st[i]
		s.Crosstable[k] = make([]rating.WDL, len(order))
		s.LOS[k] = make([]float64, len(order))
		for l, j := range order {
			s.Crosstable[k][l] = cross[i][j]
			s.LOS[k][l] = los[i][j]
			if k != l && (!r.Rated(i) || !r.Rated(j)) {
				// The results say nothing of a bot without games; the
				// fit's 0.5 would read as a coin toss.
				s.LOS[k][l] = math.NaN()
			}
		}
	}
	defer s.grade(p)
	if len(p.Stages) > 0 {
		return s, nil // ranked by the stages (package stages), not by Rating
	}
	if p.Rating.Playoffs() {
		for _, g := range groups {
			switch {
			case t.couldNotPlay(g[0]) && (t.tie(g) || t.behindPlayers(g)):
				s.NotPlayedOff = append(s.NotPlayedOff, t.sortedNames(g))
			case t.tie(g) && !t.couldNotPlay(g[0]):
				s.Ties = append(s.Ties, t.sortedNames(g))
			}
		}
		s.PlayoffsOver = len(s.Ties) > 0 && lastPlayoffDone(p, results)
	}
	return s, nil
}

// SetStopped moves every group of Ties into Stopped: the tournament's
// stopping rule ended it, which plays no playoff (docs/formats.md).
func (s *Stats) SetStopped() {
	s.Stopped = append(s.Stopped, s.Ties...)
	s.Ties = nil
	s.Ended = true
	s.PlayoffsOver = false
}

// SetUnseated moves out of Ties, into Unseated, the groups that seats
// (the game's Seats; nil: any number) refuses, which the run never plays
// off (engine makeLater): their tie stands. PlayoffsOver then speaks of
// the ties left.
func (s *Stats) SetUnseated(seats func(n int) error) {
	if seats == nil {
		return
	}
	var ties [][]string
	for _, g := range s.Ties {
		if seats(len(g)) != nil {
			s.Unseated = append(s.Unseated, g)
		} else {
			ties = append(ties, g)
		}
	}
	s.Ties = ties
	s.PlayoffsOver = s.PlayoffsOver && len(ties) > 0
}

// faultBuild is the verdict of a seat whose bot's build failed
// (engine.FaultBuild, which this package cannot import).
const faultBuild = "build"

// couldNotPlay says that bot i played none of its regular matches: in
// each it could not be started or built, or the game replaced every
// answer it was asked for by its default (drivers.SeatResult.AllDefaults).
// Such bots tied in placement are not played off: they would only play
// alike again.
func (t *tally) couldNotPlay(i int) bool { return t.matches[i] > 0 && t.unplayed[i] == t.matches[i] }

// behindPlayers says that group g of byPlacement, bots that could not
// play, is one bot alone at the mean place of bots that played (neither
// fill bots nor disqualified): tied with them, it is ranked behind them
// unplayed, as a group of such bots is, and the standings must say so
// for one bot as for several.
func (t *tally) behindPlayers(g []int) bool {
	i := g[0]
	if len(g) != 1 || t.fill[i] || t.dq[i] != nil {
		return false
	}
	for j := range t.names {
		if j != i && t.matches[j] > 0 && !t.fill[j] && t.dq[j] == nil && !t.couldNotPlay(j) && placeEqual(t.place(i), t.place(j)) {
			return true
		}
	}
	return false
}

// ratedElo are the bots' ratings, indexed like r.Names, NaN for a bot
// without games: the prior alone puts it at 0, which its results do not
// bound, and which would rank it above every bot that played and lost.
func ratedElo(r *rating.Ratings) []float64 {
	elo := slices.Clone(r.Elo)
	for i := range elo {
		if !r.Rated(i) {
			elo[i] = math.NaN()
		}
	}
	return elo
}

// standings are every bot's per-match statistics and rating, indexed like
// the plan's bots; Rank, Games and Score are left to fill. A figure that
// the bot's results do not give is NaN or infinite (JSON null, "-" in the
// table): without games, its Elo and interval; without matches, its
// Points and Place.
func (t *tally) standings(p *plan.Plan, r *rating.Ratings) []Standing {
	plus, minus := r.ExactDist()
	elo := ratedElo(r)
	fill := map[string]bool{}
	for _, f := range p.Fill {
		fill[f] = true
	}
	st := make([]Standing, len(t.names))
	for i, n := range t.names {
		st[i] = Standing{Bot: n, Elo: elo[i], Plus: plus[i], Minus: minus[i], Fill: fill[n], Disqualified: t.dq[i],
			Matches: t.matches[i], Faults: t.faults[i], Wins: t.wins[i], NormalWins: t.normalWins[i],
			Defaults: t.defaults[i], DefaultMatches: t.defaultMatches[i], FirstDefault: t.firstDefault[i],
			FirstFault: t.firstFault[i]}
		if t.matches[i] > 0 {
			st[i].Points = t.points[i] / float64(t.matches[i])
			st[i].Place = t.place(i)
			st[i].PlaceCI = t.placeCI(i)
		} else { // no points or place yet (JSON null; 0 would be a figure)
			st[i].Points, st[i].Place, st[i].PlaceCI = math.NaN(), math.NaN(), math.Inf(1)
		}
	}
	return st
}

// crosstable counts the pairwise games of every bot against every other,
// and sets the standings' Games and Score (NaN without games).
func crosstable(st []Standing, games []rating.Game) [][]rating.WDL {
	cross := make([][]rating.WDL, len(st))
	for i := range cross {
		cross[i] = make([]rating.WDL, len(st))
	}
	points := make([]float64, len(st))
	for _, g := range games {
		st[g.White].Games++
		st[g.Black].Games++
		points[g.White] += float64(g.Result)
		points[g.Black] += 1 - float64(g.Result)
		w, b := &cross[g.White][g.Black], &cross[g.Black][g.White]
		switch g.Result {
		case rating.WhiteWins:
			w.W++
			b.L++
		case rating.BlackWins:
			w.L++
			b.W++
		default:
			w.D++
			b.D++
		}
	}
	for i := range st {
		st[i].Score = math.NaN()
		if st[i].Games > 0 {
			st[i].Score = points[i] / float64(st[i].Games)
		}
	}
	return cross
}

// EloKey is the Elo that decisions compare: the whole Elo, as the
// standings print it. BayesElo's fit stops when it has converged to a
// small fraction of an Elo, so bots with identical records get ratings
// that differ in the third decimal place by the order of the games alone
// (192.029556 and 192.026003); comparing the fitted values would let that
// noise decide an order. Bots whose whole Elo is the same are not
// separated by it.
func EloKey(elo float64) float64 {
	if math.IsInf(elo, 0) || math.IsNaN(elo) {
		return elo
	}
	return math.Round(elo)
}

// ranked sets the standings' ranks from the ranking's groups and returns
// the display order. Within a group (bots the ranking does not separate)
// the display order is by Elo (EloKey), then name; the rank is shared.
func ranked(st []Standing, groups [][]int, elo []float64) []int {
	var order []int
	for _, g := range groups {
		rank := len(order) + 1
		g = slices.Clone(g)
		slices.SortStableFunc(g, func(a, b int) int {
			return cmp.Or(cmp.Compare(EloKey(elo[b]), EloKey(elo[a])), cmp.Compare(st[a].Bot, st[b].Bot))
		})
		for _, i := range g {
			st[i].Rank = rank
			order = append(order, i)
		}
	}
	return order
}

// RegularMatches counts the plan's matches that are not playoffs (Planned).
func RegularMatches(p *plan.Plan) int {
	n := 0
	for _, m := range p.Matches {
		if !IsPlayoff(m.ID) {
			n++
		}
	}
	return n
}

// Reorder puts the standings in the order of bots (every bot of the
// standings, once), each ranked alone, with stage[i] the stage that ranks
// bots[i]; the crosstable and LOS follow, grades are given again.
func (s *Stats) Reorder(p *plan.Plan, bots, stage []string) {
	at := map[string]int{}
	for i, st := range s.Standings {
		at[st.Bot] = i
	}
	st := make([]Standing, len(bots))
	cross := make([][]rating.WDL, len(bots))
	los := make(LOSMatrix, len(bots))
	// A disqualified bot ranks after every bot that is not, whatever stage
	// it reached; the bots of no stage (a gate's own) stay last.
	bots = slices.Clone(bots)
	stage = slices.Clone(stage)
	idx := make([]int, len(bots))
	for k := range idx {
		idx[k] = k
	}
	last := func(k int) int {
		switch {
		case stage[k] == "":
			return 2
		case s.Standings[at[bots[k]]].Disqualified != nil:
			return 1
		}
		return 0
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(last(a), last(b)) })
	bots, stage = permute(bots, idx), permute(stage, idx)
	for k, b := range bots {
		i := at[b]
		st[k] = s.Standings[i]
		st[k].Rank, st[k].Stage = k+1, stage[k]
		cross[k] = make([]rating.WDL, len(bots))
		los[k] = make([]float64, len(bots))
		for l, c := range bots {
			cross[k][l] = s.Crosstable[i][at[c]]
			los[k][l] = s.LOS[i][at[c]]
		}
	}
	s.Standings, s.Crosstable, s.LOS, s.Ties = st, cross, los, nil
	s.grade(p)
}

func permute(s []string, idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = s[i]
	}
	return out
}

// lastPlayoffDone says the last playoff a tournament plays
// (plan.MaxPlayoffs) has results, and every match of it that p lists.
func lastPlayoffDone(p *plan.Plan, results []Result) bool {
	prefix := fmt.Sprintf("%s%d-", PlayoffPrefix, plan.MaxPlayoffs)
	done := map[string]bool{}
	for _, r := range results {
		if strings.HasPrefix(r.Match, prefix) {
			done[r.Match] = true
		}
	}
	if len(done) == 0 {
		return false
	}
	for _, m := range p.Matches {
		if strings.HasPrefix(m.ID, prefix) && !done[m.ID] {
			return false
		}
	}
	return true
}

// grade gives every ranked bot of the field its grade: the plan's
// narrowest grade whose band holds its rank. The bands are percentages of
// the field's bots (fill bots aside) or, in a tournament in stages, of
// the bots that played past its gates: the grades reward places in the
// tournament, and the bots a gate turned away (whose last stage is the
// gate) did not play it. Fill bots, a gate's own bots and disqualified
// bots get no grade.
func (s *Stats) grade(p *plan.Plan) {
	if len(p.Grades) == 0 {
		return
	}
	counted := func(st *Standing) bool {
		k := p.StageIndex(st.Stage)
		return !st.Fill && (len(p.Stages) == 0 || k >= 0 && p.Stages[k].Gate == nil)
	}
	n := 0
	for i := range s.Standings {
		if counted(&s.Standings[i]) {
			n++
		}
	}
	for i := range s.Standings {
		st := &s.Standings[i]
		st.Grade = ""
		if counted(st) && st.Disqualified == nil {
			st.Grade = p.GradeOf(st.Rank, n)
		}
	}
}

// LOSMatrix is the LOS matrix of the standings; in JSON a figure that
// the results do not give (NaN) is null.
type LOSMatrix [][]float64

// MarshalJSON writes NaN as null.
func (m LOSMatrix) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	rows := make([][]*float64, len(m))
	for i, row := range m {
		rows[i] = make([]*float64, len(row))
		for j, x := range row {
			rows[i][j] = rating.Finite(x)
		}
	}
	return json.Marshal(rows)
}

// UnmarshalJSON reads null as NaN.
func (m *LOSMatrix) UnmarshalJSON(b []byte) error {
	var rows [][]*float64
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	if rows == nil {
		*m = nil
		return nil
	}
	*m = make(LOSMatrix, len(rows))
	for i, row := range rows {
		(*m)[i] = make([]float64, len(row))
		for j, x := range row {
			(*m)[i][j] = math.NaN()
			if x != nil {
				(*m)[i][j] = *x
			}
		}
	}
	return nil
}
