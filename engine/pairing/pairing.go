// Package pairing groups the rounds of a tournament that depend on the
// results before them: by rating (the ITPW method) or like a Swiss system
// (see plan.Later). Every grouping is a pure function of the plan and the
// results, so a resumed run groups a round the same way again.
package pairing

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Pairing is how one round was grouped, as written to rounds/<round>.json
// for review: the groups and, per bot, what the rule went by.
type Pairing struct {
	Round int `json:"round"`
	// Rule is the pairing rule's name ("rating" or "swiss"), or
	// "playoff".
	Rule string `json:"rule"`
	// Stage names the stage whose field this is (rule "stage"; its
	// groups are the stage's pools).
	Stage   string       `json:"stage,omitempty"`
	Groups  [][]string   `json:"groups"`
	Basis   []PairBasis  `json:"basis,omitempty"`
	Picks   []PairPick   `json:"picks,omitempty"`
	Matches []plan.Match `json:"matches"`
}

// PairBasis is a bot's standing when a round was paired.
type PairBasis struct {
	Bot string `json:"bot"`
	// Elo (rule "rating") or Score (rule "swiss": pairwise points).
	Elo   float64 `json:"elo,omitempty"`
	Score float64 `json:"score,omitempty"`
	// Unrated (rule "rating") is a bot without a rated game so far: it
	// has no Elo, and is placed below every bot that has one.
	Unrated bool `json:"unrated,omitempty"`
}

// PairPick is one opponent chosen for a group's leader, and why.
type PairPick struct {
	Leader   string `json:"leader"`
	Opponent string `json:"opponent"`
	// Met is how many matches the two have played together.
	Met int `json:"met"`
	// Gain is the variance of the leader's rating (Elo²) that games
	// against the opponent are expected to remove (rule "rating").
	Gain float64 `json:"gain,omitempty"`
	// Apart (rule "rating", plans of pairing revision 1 on) says that no
	// chain of games links the two bots' ratings, so their difference is
	// unknown and the gain unbounded: such a pick has no gain in JSON
	// (nor has one whose opponent is unrated, PairBasis.Unrated).
	Apart bool `json:"apart,omitempty"`
}

// quantum rounds the numbers pairing compares, so that the last bits of
// a floating-point computation (which may differ between CPUs that fuse
// multiply-adds and those that do not) do not change a pairing.
func quantum(x float64) float64 {
	if math.IsInf(x, 0) {
		return x
	}
	return math.Round(x*1e6) / 1e6
}

// meetings counts, for every pair of bots, the finished matches in which
// both sat.
func meetings(results []stats.Result) map[[2]string]int {
	met := map[[2]string]int{}
	for _, r := range results {
		for i, a := range r.Seats {
			for _, b := range r.Seats[i+1:] {
				met[[2]string{a.Bot, b.Bot}]++
				met[[2]string{b.Bot, a.Bot}]++
			}
		}
	}
	return met
}

// simulatedPrior is how many virtual games at the Elo-expected score the
// head-to-head record of two bots is blended with.
const simulatedPrior = 4

// groupByRating groups the field for round r by the ITPW method: the
// ratings are BayesElo over every pairwise game so far (in plan order),
// with their covariance matrix C (Elo²). The top-rated unassigned bot A
// leads the next group; every unassigned B is scored by how much playing
// this round's g games against A (g = the seat design's seatings, one
// pairwise game each) would shrink the variance of A's rating:
//
//	p    = (4·E + s) / (4 + n)     expected score of A against B: E from the
//	                               Elo difference, 1/(1+10^((R_B−R_A)/400)),
//	                               blended with their head-to-head record,
//	                               s points in n games
//	I    = g · (ln10/400)² · p(1−p)  Fisher information of those games
//	                               about R_A − R_B
//	gain = I·(C_AA − C_AB)² / (1 + I·(C_AA + C_BB − 2·C_AB))
//
// which is the drop of C_AA when the information I on the difference
// A − B is added to the posterior precision (Sherman–Morrison). Close
// ratings make p(1−p) large; many past meetings make C_AB large and the
// difference A − B already well known, so both shrink the gain. A takes
// the size−1 unassigned bots with the largest gain (ties: fewer meetings,
// closer rating, name), and the next group starts from the top-rated bot
// still unassigned.
//
// Two bots that no chain of games links (they are in different parts
// of the game graph, as every duel is after one round of duels) have a
// difference that nothing has measured: the fit can shift the parts
// against each other freely. Revision 1 of the rules (plan.Later.Revision)
// gives such a pair an unbounded gain, the limit of a shift of each part
// with a prior variance that grows without bound, which leaves the gains
// within a part as they are; so a leader takes a bot of another part
// before any of its own (the closest rated first), and the parts join. A
// plan of revision 0 rates each part alone with no covariance between
// parts, as rating.Covariance does, under which the difference of two
// bots that met is the least certain and they meet again.
//
// A bot without a rated game has no rating: the prior alone would put it
// at 0, mid-table, and its infinite variance would make it every
// leader's best opponent, so that a bot that has shown nothing would
// meet the top. It is placed below every rated bot (by name among such
// bots), as standings ranked by Elo place it, and a leader takes it only
// when no rated bot is left to take.
func groupByRating(p *plan.Plan, results []stats.Result) (*Pairing, error) {
	f, err := rateField(p, results)
	if err != nil {
		return nil, err
	}
	unassigned := stats.Field(p)
	slices.SortStableFunc(unassigned, func(a, b string) int {
		// NaN, an unrated bot's key, compares below every number.
		return cmp.Or(cmp.Compare(f.key(b), f.key(a)), cmp.Compare(a, b))
	})
	pr := &Pairing{Rule: tournament.ByRating.String()}
	for _, b := range unassigned {
		pr.Basis = append(pr.Basis, PairBasis{Bot: b, Elo: f.elo(b), Unrated: !f.rated(b)})
	}
	g := float64(len(p.Seats.Seatings(p.Players)))
	for _, size := range tournament.GroupSizes(len(unassigned), p.Players) {
		a, rest := unassigned[0], unassigned[1:]
		cands := make([]ratingCand, len(rest))
		for k, b := range rest {
			cands[k] = ratingCand{b, !f.rated(b), quantum(f.gain(a, b, g)), f.met[[2]string{a, b}], math.Abs(f.key(a) - f.key(b)), f.apart(a, b)}
		}
		slices.SortStableFunc(cands, func(x, y ratingCand) int {
			return cmp.Or(compareBool(x.unrated, y.unrated), cmp.Compare(y.gain, x.gain),
				cmp.Compare(x.met, y.met), cmp.Compare(x.dist, y.dist), cmp.Compare(x.bot, y.bot))
		})
		group := []string{a}
		for _, x := range cands[:size-1] {
			group = append(group, x.bot)
			gain := x.gain
			if math.IsInf(gain, 0) {
				// JSON has no infinity: the pick has no gain, and Apart
				// (or the opponent's Unrated in the basis) says why.
				gain = 0
			}
			pr.Picks = append(pr.Picks, PairPick{Leader: a, Opponent: x.bot, Met: x.met, Gain: gain, Apart: x.apart})
		}
		pr.Groups = append(pr.Groups, group)
		unassigned = slices.DeleteFunc(rest, func(b string) bool { return slices.Contains(group, b) })
	}
	return pr, nil
}

// ratingCand is a bot a group's leader may take, with what decides it.
type ratingCand struct {
	bot     string
	unrated bool
	gain    float64
	met     int
	dist    float64
	apart   bool
}

// compareBool orders false before true.
func compareBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// ratedField is the field's ratings and head-to-head records when a
// round is grouped by rating.
type ratedField struct {
	fit   *rating.Ratings
	cov   [][]float64
	index map[string]int
	// points[i][j] are i's head-to-head points against j in played[i][j]
	// games.
	points, played [][]float64
	met            map[[2]string]int
	// part labels each bot with its part of the game graph (the index
	// of its first member); nil under revision 0, which rates parts
	// alone.
	part []int
}

func rateField(p *plan.Plan, results []stats.Result) (*ratedField, error) {
	names, games := stats.PairwiseGames(p, results)
	fit, err := rating.Fit(names, games, stats.RatingOptions())
	if err != nil {
		return nil, err
	}
	f := &ratedField{fit: fit, cov: fit.Covariance(), index: map[string]int{}, met: meetings(results),
		points: make([][]float64, len(names)), played: make([][]float64, len(names))}
	for i, n := range names {
		f.index[n] = i
		f.points[i], f.played[i] = make([]float64, len(names)), make([]float64, len(names))
	}
	for _, g := range games {
		f.points[g.White][g.Black] += float64(g.Result)
		f.points[g.Black][g.White] += 1 - float64(g.Result)
		f.played[g.White][g.Black]++
		f.played[g.Black][g.White]++
	}
	if p.Later != nil && p.Later.Revision >= 1 {
		f.part = parts(f.played)
	}
	return f, nil
}

// parts labels each bot with the smallest index of the bots its games
// link it to, directly or through others.
func parts(played [][]float64) []int {
	part := make([]int, len(played))
	for i := range part {
		part[i] = -1
	}
	for start := range part {
		if part[start] >= 0 {
			continue
		}
		part[start] = start
		stack := []int{start}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j, n := range played[i] {
				if n > 0 && part[j] < 0 {
					part[j] = start
					stack = append(stack, j)
				}
			}
		}
	}
	return part
}

// apart says whether a and b are both rated and no chain of games links
// them (see groupByRating); false under revision 0.
func (f *ratedField) apart(a, b string) bool {
	return f.part != nil && f.rated(a) && f.rated(b) && f.part[f.index[a]] != f.part[f.index[b]]
}

func (f *ratedField) rated(b string) bool { return f.fit.Rated(f.index[b]) }

// elo is b's rating as rounds/<r>.json shows it (0, omitted, when
// unrated).
func (f *ratedField) elo(b string) float64 {
	if !f.rated(b) {
		return 0
	}
	return quantum(f.fit.Elo[f.index[b]])
}

// key is what orders by rating compare: the whole Elo, as the standings
// do (stats.EloKey), so that the fit's convergence noise decides
// nothing; NaN when unrated.
func (f *ratedField) key(b string) float64 {
	if !f.rated(b) {
		return math.NaN()
	}
	return stats.EloKey(f.fit.Elo[f.index[b]])
}

// gain is how much g games against b would shrink the variance of a's
// rating (see groupByRating); +Inf when either is unrated or, from
// revision 1, when no games link them.
func (f *ratedField) gain(a, b string, g float64) float64 {
	ia, ib := f.index[a], f.index[b]
	vaa, vbb, vab := f.cov[ia][ia], f.cov[ib][ib], f.cov[ia][ib]
	if math.IsInf(vaa, 0) || math.IsInf(vbb, 0) || f.apart(a, b) {
		return math.Inf(1)
	}
	c := math.Ln10 / 400
	e := 1 / (1 + math.Pow(10, (f.fit.Elo[ib]-f.fit.Elo[ia])/400))
	pa := (simulatedPrior*e + f.points[ia][ib]) / (simulatedPrior + f.played[ia][ib])
	info := g * c * c * pa * (1 - pa)
	d := vaa - vab
	return info * d * d / (1 + info*(vaa+vbb-2*vab))
}

// groupBySwiss groups the field for round r like a Swiss system: bots are
// ordered by their pairwise points so far (ties by round r's random draw);
// the best unassigned bot leads the next group, and each further member is
// the unassigned bot that has met the members so far least often, then has
// the score closest to the leader's, then comes first in that order. That
// greedy grouping can leave the last bots only partners they have met
// when another grouping has fewer such meetings, so the groupings are
// searched in that order of preference, depth first, for the fewest
// meetings within groups: the first found with the fewest is taken (the
// greedy one when nothing has fewer). The search stops after
// swissBudget steps with the best found so far, so a large field whose
// rematches cannot all be avoided does not stall a round. From revision
// 2 of the rules (plan.Later.Revision) duels are paired with no such
// bound (matched): the fewest meetings a round can have are those of a
// minimum-cost perfect matching, which Edmonds' blossom algorithm finds
// in polynomial time, so each leader takes the first candidate in the
// order of preference with which the rest can still pair with that few,
// and the pairing is the one the search would take if it ran to its end.
// Revision 1 keeps the bound, and on a large field paired rematches that
// another pairing avoided (61 bots: from about round 19).
//
// A group short of players is completed by fill bots. Under revision 1
// of the rules (plan.Later.Revision), as a Swiss system gives the bye, a
// bot's matches beside fill bots so far count as meetings of each member
// of a short group, and each group, as it is led, may be a short one
// (a full group is tried first, so the short groups fall as low as their
// cost allows): the fill seats go to the lowest-placed bots that have had
// them least, and a bot that had them plays when another can take them
// at no more meetings. In duels the fill seat, the bye, is given first
// (byeFirst) and the rest paired by the search, which on a large field
// could run out of steps before it tried another place for the short
// group (from revision 2 the fewest meetings each bye leaves are known,
// byeMatched). Revision 0 fixed the sizes, the short groups last,
// so the fill seats went to the last bots whatever they had had.
func groupBySwiss(p *plan.Plan, r int, results []stats.Result) (*Pairing, error) {
	names, games := stats.PairwiseGames(p, results)
	score := map[string]float64{}
	for _, g := range games {
		score[names[g.White]] += float64(g.Result)
		score[names[g.Black]] += 1 - float64(g.Result)
	}
	unassigned := p.DrawOrder(r, stats.Field(p))
	slices.SortStableFunc(unassigned, func(a, b string) int { return cmp.Compare(score[b], score[a]) })
	s := &swissSearch{met: meetings(results), score: score, pos: map[string]int{}, players: p.Players,
		sizes: tournament.GroupSizes(len(unassigned), p.Players)}
	pr := &Pairing{Rule: tournament.ByScore.String()}
	for i, b := range unassigned {
		s.pos[b] = i
		pr.Basis = append(pr.Basis, PairBasis{Bot: b, Score: score[b]})
	}
	if p.Later != nil && p.Later.Revision >= 1 {
		s.fillMet = fillMeetings(s.met, p.Fill)
	}
	s.matching = p.Later != nil && p.Later.Revision >= 2 && p.Players == 2
	var err error
	switch {
	case s.fillMet != nil && p.Players == 2 && len(unassigned)%2 == 1:
		pr.Groups, err = s.byeFirst(unassigned)
	case s.matching && len(unassigned)%2 == 0:
		pr.Groups, err = s.matched(unassigned)
	case len(unassigned) > 0 && len(s.sizes) > 0:
		s.open(unassigned, 0)
		pr.Groups = s.best
	}
	if err != nil {
		return nil, &RoundError{Round: r, Err: err}
	}
	for _, g := range pr.Groups {
		for _, b := range g[1:] {
			pr.Picks = append(pr.Picks, PairPick{Leader: g[0], Opponent: b, Met: s.met[[2]string{g[0], b}]})
		}
	}
	return pr, nil
}

// byeFirst groups an odd field of duels (revision 1 on) as a Swiss system
// gives the bye: the fill seat goes first to one of the bots that have
// had it least, the lowest-placed of them whose absence lets the rest
// pair with the fewest meetings, and the rest are paired by the search.
// Those bots are tried from the bottom up until the rest pair with no
// meeting again or swissByeBudget steps have been spent (the first tried
// always gets its whole search); of equal meetings the lower-placed bye
// is taken. The bye's group comes last.
func (s *swissSearch) byeFirst(order []string) ([][]string, error) {
	least := s.fillMet[order[0]]
	for _, b := range order {
		least = min(least, s.fillMet[b])
	}
	if s.matching {
		return s.byeMatched(order, least)
	}
	var best [][]string
	bestCost, steps := 0, 0
	for _, bye := range slices.Backward(order) {
		if s.fillMet[bye] != least {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(order), func(b string) bool { return b == bye })
		t := &swissSearch{met: s.met, score: s.score, pos: s.pos, players: s.players,
			sizes: tournament.GroupSizes(len(rest), s.players)}
		if len(rest) > 0 {
			t.open(rest, 0)
		}
		steps += t.steps
		if best == nil || t.bestCost < bestCost {
			best, bestCost = append(t.best, []string{bye}), t.bestCost
		}
		if bestCost == 0 || steps >= swissByeBudget {
			break
		}
	}
	return best, nil
}

// byeMatched gives the bye as byeFirst does, but knowing (revision 2)
// the fewest meetings each bye leaves from the matching of the rest, so
// with no bound: of the bots that have had the fill seat least, the
// lowest-placed of those whose absence leaves the fewest meetings.
//
// The bye is the partner of a seat of its own (byeSeat) that those bots
// meet at no cost and the others at more than every pairing costs: the
// matching of the field with it has the fewest meetings a bye leaves,
// and the seat takes, as a leader does (take), the first of those bots
// from the bottom up whose absence leaves that few; so one matching and
// the exchanges of partners most often tell, where one matching per bot
// tried did (a field of 241 with rematches everywhere took seconds).
func (s *swissSearch) byeMatched(order []string, least int) ([][]string, error) {
	var candidates []string
	for _, b := range slices.Backward(order) {
		if s.fillMet[b] == least {
			candidates = append(candidates, b)
		}
	}
	t := *s
	t.met = maps.Clone(s.met)
	far := 1
	for i, a := range order {
		for _, b := range order[i+1:] {
			far += s.met[[2]string{a, b}]
		}
	}
	for _, b := range order {
		cost := far
		if s.fillMet[b] == least {
			cost = 0
		}
		t.met[[2]string{byeSeat, b}], t.met[[2]string{b, byeSeat}] = cost, cost
	}
	target, partners := t.fewest(append([]string{byeSeat}, order...))
	group, rest, target, partners, err := t.take(byeSeat, candidates, order, target, partners)
	if err != nil {
		return nil, err
	}
	groups, err := s.matchedFrom(rest, target, partners)
	return append(groups, group[1:]), err
}

// byeSeat is the seat byeMatched pairs the bye with: no bot's name.
const byeSeat = "\x00bye"

// fillMeetings counts, for every bot, its meetings with fill bots.
func fillMeetings(met map[[2]string]int, fill []string) map[string]int {
	out := map[string]int{}
	for pair, n := range met {
		if slices.Contains(fill, pair[1]) && !slices.Contains(fill, pair[0]) {
			out[pair[0]] += n // a sum: the order of the map does not matter
		}
	}
	return out
}

// swissBudget bounds the steps of a Swiss round's search (see
// groupBySwiss).
const swissBudget = 20000

// swissByeBudget bounds the steps spent on trying byes (see byeFirst).
const swissByeBudget = 4 * swissBudget

// swissSearch looks for the Swiss grouping with the fewest meetings.
type swissSearch struct {
	met   map[[2]string]int
	score map[string]float64
	pos   map[string]int
	// fillMet are the bots' meetings with fill bots; nil under revision
	// 0, whose sizes are taken in order.
	fillMet map[string]int
	// matching says that duels are paired by matched, exactly (revision
	// 2), rather than by the bounded search.
	matching bool
	players  int
	sizes    []int      // of the groups still to make, largest first
	groups   [][]string // complete so far
	best     [][]string
	bestCost int
	steps    int
}

// open starts the next group, led by unassigned[0], in each size a group
// may still have: the largest first, and only it under revision 0.
func (s *swissSearch) open(unassigned []string, cost int) {
	for k, size := range s.sizes {
		if k > 0 && (s.fillMet == nil || size == s.sizes[k-1]) {
			continue
		}
		s.sizes = slices.Delete(s.sizes, k, k+1)
		s.add([]string{unassigned[0]}, size, unassigned[1:], cost+s.fillCost(unassigned[0], size))
		s.sizes = slices.Insert(s.sizes, k, size)
	}
}

// fillCost is what b's place in a group of size adds to the meetings:
// its meetings with fill bots when the group is short (always 0 under
// revision 0).
func (s *swissSearch) fillCost(b string, size int) int {
	if size < s.players {
		return s.fillMet[b]
	}
	return 0
}

// add grows group, the next group, to size from unassigned; cost is the
// meetings within the groups so far.
func (s *swissSearch) add(group []string, size int, unassigned []string, cost int) {
	if s.best != nil && (cost >= s.bestCost || s.steps >= swissBudget) {
		return
	}
	s.steps++
	if len(group) == size {
		s.groups = append(s.groups, group)
		if len(unassigned) == 0 {
			s.best, s.bestCost = slices.Clone(s.groups), cost
		} else {
			s.open(unassigned, cost)
		}
		s.groups = s.groups[:len(s.groups)-1]
		return
	}
	metGroup := func(b string) int {
		n := s.fillCost(b, size)
		for _, m := range group {
			n += s.met[[2]string{m, b}]
		}
		return n
	}
	for _, c := range s.preferred(group[0], unassigned, metGroup) {
		rest := slices.DeleteFunc(slices.Clone(unassigned), func(b string) bool { return b == c })
		s.add(append(slices.Clone(group), c), size, rest, cost+metGroup(c))
	}
}

// preferred orders the bots a group led by a may take next: fewest
// meetings with the group (metGroup), then the score closest to a's, then
// the place.
func (s *swissSearch) preferred(a string, unassigned []string, metGroup func(string) int) []string {
	candidates := slices.Clone(unassigned)
	slices.SortFunc(candidates, func(x, y string) int {
		return cmp.Or(cmp.Compare(metGroup(x), metGroup(y)),
			cmp.Compare(math.Abs(s.score[x]-s.score[a]), math.Abs(s.score[y]-s.score[a])),
			cmp.Compare(s.pos[x], s.pos[y]))
	})
	return candidates
}

// fewest is the fewest meetings that the duels of an even field can
// have, the cost of a minimum-cost perfect matching, and that matching
// (each bot's partner).
func (s *swissSearch) fewest(field []string) (int, map[string]string) {
	mate, n := minCostMatching(len(field), func(i, j int) int { return s.met[[2]string{field[i], field[j]}] })
	partners := make(map[string]string, len(field))
	for i, j := range mate {
		partners[field[i]] = field[j]
	}
	return n, partners
}

// matched pairs an even field of duels (revision 2) as the search would
// with no bound on its steps: of the pairings with the fewest meetings,
// the first in the order of preference. Each leader takes the first
// candidate (preferred) with which the rest can still pair with the
// fewest meetings, as the matching of the rest shows.
func (s *swissSearch) matched(order []string) ([][]string, error) {
	target, partners := s.fewest(order)
	return s.matchedFrom(order, target, partners)
}

// matchedFrom pairs order as matched does, target being the fewest
// meetings it can pair with and partners such a pairing.
func (s *swissSearch) matchedFrom(order []string, target int, partners map[string]string) ([][]string, error) {
	var groups [][]string
	for len(order) > 0 {
		a := order[0]
		candidates := s.preferred(a, order[1:], func(b string) int { return s.met[[2]string{a, b}] })
		group, rest, left, pairs, err := s.take(a, candidates, order[1:], target, partners)
		if err != nil {
			return nil, err
		}
		groups, order, target, partners = append(groups, group), rest, left, pairs
	}
	return groups, nil
}

// take pairs a with the first of candidates (bots of rest) with which
// the rest can still pair with target meetings in all, partners being
// such a pairing of a and rest, and returns the pair, the bots left, the
// fewest meetings they can pair with and a pairing of them with that
// few.
//
// Some candidate always is one, as long as the matching is right:
// partners pairs a with one (a leader's candidates are all of rest, and
// the bye's seat meets the others at more than target). Were the
// matching ever wrong, the round is not paired (an error), rather than
// paired otherwise than its plan's revision pairs it or the arbiter
// stopped mid-run.
func (s *swissSearch) take(a string, candidates, rest []string, target int, partners map[string]string) ([]string, []string, int, map[string]string, error) {
	met := func(x, y string) int { return s.met[[2]string{x, y}] }
	for _, c := range candidates {
		if met(a, c) > target {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(rest), func(b string) bool { return b == c })
		// The rest cannot pair with fewer than target−met(a, c) (a
		// with c and that would be fewer than target), so partners
		// with a's and c's partners paired together, if no more,
		// show it is the fewest without a matching.
		pa, pc := partners[a], partners[c]
		if pa == c || met(a, c)+target-met(a, pa)-met(c, pc)+met(pa, pc) == target {
			delete(partners, a)
			delete(partners, c)
			if pa != c {
				partners[pa], partners[pc] = pc, pa
			}
			return []string{a, c}, others, target - met(a, c), partners, nil
		}
		if f, fp := s.fewest(others); met(a, c)+f == target {
			return []string{a, c}, others, f, fp, nil
		}
	}
	what := "partner of " + a
	if a == byeSeat {
		what = "bye" // the seat is no bot's name: the message says what it is
	}
	return nil, nil, 0, nil, fmt.Errorf("no %s leaves a pairing of %d meetings, as the matching of the field said one does (an arbiter's fault)", what, target)
}

// rules group the field for round r by each pairing rule.
var rules = [...]func(p *plan.Plan, r int, results []stats.Result) (*Pairing, error){
	tournament.ByRating: func(p *plan.Plan, r int, results []stats.Result) (*Pairing, error) {
		pr, err := groupByRating(p, results)
		if err != nil {
			return nil, &RoundError{Round: r, Err: fmt.Errorf("rating the field: %w", err)}
		}
		return pr, nil
	},
	tournament.ByScore: func(p *plan.Plan, r int, results []stats.Result) (*Pairing, error) {
		return groupBySwiss(p, r, results)
	},
}

// RoundError is a failure to pair round Round: Err says why, without
// naming the round, so that a message that names it already (a resumed
// run's "round 3 cannot be made from ...") can say Err alone.
type RoundError struct {
	Round int
	Err   error
}

func (e *RoundError) Error() string { return fmt.Sprintf("pairing round %d: %v", e.Round, e.Err) }

func (e *RoundError) Unwrap() error { return e.Err }

// Round groups round r by the plan's pairing rule and lists its
// matches; a failure of the rule is a *RoundError.
func Round(p *plan.Plan, r int, results []stats.Result) (*Pairing, error) {
	rule := rules[p.Later.Pairing]
	if rule == nil {
		return nil, fmt.Errorf("the plan pairs no rounds, but round %d was to be paired", r)
	}
	pr, err := rule(p, r, results)
	if err != nil {
		return nil, err
	}
	pr.Round = r
	pr.Matches = p.RoundMatches(r, pr.Groups)
	return pr, nil
}
