package stats

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// IsPlayoff reports whether a match is a playoff: a match between bots
// tied in placement, played to break the tie. Playoffs decide only that
// tie; every other statistic leaves them out.
func IsPlayoff(matchID string) bool { return strings.HasPrefix(matchID, PlayoffPrefix) }

// PlayoffPrefix starts the id of every playoff match.
const PlayoffPrefix = "playoff-"

// Places returns each seat's placement in a finished match, 1 = best. A
// driver may set them (SeatResult.Place); when any seat has none, they are
// derived from the scores: seats that faulted come after all others, the
// rest by score, higher first, and tied seats share the mean of the places
// they span (two seats tied for first both get 1.5).
func Places(r *Result) []float64 {
	places := make([]float64, len(r.Seats))
	given := true
	for i, s := range r.Seats {
		places[i] = s.Place
		given = given && s.Place != 0
	}
	if given {
		return places
	}
	better := func(a, b *SeatResult) int { // < 0 when a placed ahead of b
		if fa, fb := a.Fault != "", b.Fault != ""; fa != fb {
			if fa {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.Score, a.Score)
	}
	order := make([]int, len(r.Seats))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return better(&r.Seats[i], &r.Seats[j]) })
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && better(&r.Seats[order[start]], &r.Seats[order[end]]) == 0 {
			end++
		}
		// Places start+1 .. end share their mean.
		mean := float64(start+1+end) / 2
		for _, i := range order[start:end] {
			places[i] = mean
		}
		start = end
	}
	return places
}

// Won reports whether seat s won match r, whose seats are placed at
// places (Places): placed first with no one beside it but its partners
// (SeatResult.Partners), so that its team won alone. Without partners
// that is first place alone (place 1 exactly): a first place shared
// with an opponent is no win. Partners share their team's result, and so
// its first place, which a win of either of them must not be taken from.
func Won(r *Result, places []float64, s int) bool {
	for o, p := range places {
		if o != s && p <= places[s] && !slices.Contains(r.Seats[s].Partners, o) {
			return false
		}
	}
	return true
}

// placeEqual compares mean placements, which are sums of half-integers
// divided by counts, without trusting the last bit of a division.
func placeEqual(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

// PlacementTies returns the groups of bots whose mean placement over the
// regular matches is equal and that the playoffs played so far do not
// separate, best group first, each sorted by name; fill bots are never
// part of a tie (they only complete groups). The engine plays a
// playoff between the bots of each group. A playoff of a group is a match
// whose id starts with "playoff" and whose bots are exactly the group;
// the group is ordered by the bots' mean placement over its playoffs.
// When a playoff separates only some of a group, the bots still tied form
// a smaller group, which needs a playoff of its own. Bots without regular
// matches are never tied, and bots that could not play (couldNotPlay)
// are not played off: they stay tied behind the bots of their mean place
// that could.
func PlacementTies(p *plan.Plan, results []Result) [][]string {
	t := newTally(p, results)
	var ties [][]string
	for _, g := range t.byPlacement() {
		if t.tie(g) && !t.couldNotPlay(g[0]) {
			ties = append(ties, t.sortedNames(g))
		}
	}
	return ties
}

// NextPlayoff is the placement playoff of p, a tournament without
// stages, that is to come after results, as the run makes it: made (p
// holds it) with a match that has no result, or due: every match of p
// has its result, no round is left to pair, fewer than plan.MaxPlayoffs
// were made and a tie (PlacementTies) is left that seats can seat (nil:
// any). 0 when none is, also while a regular match has no result: the
// ties are not known yet.
func NextPlayoff(p *plan.Plan, results []Result, seats func(n int) error) int {
	if len(p.Stages) > 0 || p.Later == nil || !p.Later.Playoffs {
		return 0
	}
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	made := 0
	for _, m := range p.Matches {
		if IsPlayoff(m.ID) {
			made = max(made, m.Round-p.Rounds)
		}
	}
	for _, m := range p.Matches {
		if !done[m.ID] {
			if IsPlayoff(m.ID) {
				return made
			}
			return 0
		}
	}
	if p.RoundsToCome() != nil || made >= plan.MaxPlayoffs {
		return 0
	}
	for _, g := range PlacementTies(p, results) {
		if seats == nil || seats(len(g)) == nil {
			return made + 1
		}
	}
	return 0
}

// tie says that group g of byPlacement is a tie that a playoff could
// break or that the standings report: two bots or more that played
// matches, neither fill bots (which only complete groups, and are never
// played off) nor disqualified (last whatever their places). Whether the
// bots could play (couldNotPlay) is the caller's to tell apart.
func (t *tally) tie(g []int) bool {
	return len(g) >= 2 && t.matches[g[0]] > 0 && !t.fill[g[0]] && t.dq[g[0]] == nil
}

// byPlacement groups the bots by mean placement, best first, breaking
// ties with playoffs; bots in one group are still tied. Bots without
// regular matches form the last group.
func (t *tally) byPlacement() [][]int {
	var played, idle, dq []int
	for i := range t.names {
		switch {
		case t.dq[i] != nil: // last, and never in a playoff
			dq = append(dq, i)
		case t.matches[i] > 0:
			played = append(played, i)
		default:
			idle = append(idle, i)
		}
	}
	var groups [][]int
	for _, g := range groupBy(played, byKey(t.place)) {
		// Fill bots only complete groups: a tie of the field is played
		// off among the field, and tied fill bots stay behind it.
		field := slices.DeleteFunc(slices.Clone(g), func(i int) bool { return t.fill[i] })
		// Bots that could not play are not played off: they stay tied
		// among themselves, behind those that could.
		unplayed := slices.DeleteFunc(slices.Clone(field), func(i int) bool { return !t.couldNotPlay(i) })
		field = slices.DeleteFunc(field, t.couldNotPlay)
		groups = append(groups, t.playoff(field)...)
		if len(unplayed) > 0 {
			groups = append(groups, unplayed)
		}
		if fill := slices.DeleteFunc(slices.Clone(g), func(i int) bool { return !t.fill[i] }); len(fill) > 0 {
			groups = append(groups, fill)
		}
	}
	if len(idle) > 0 {
		groups = append(groups, idle)
	}
	// Disqualified bots, by mean place among themselves.
	return append(groups, groupBy(dq, byKey(func(i int) float64 {
		if t.matches[i] == 0 {
			return math.Inf(1)
		}
		return t.place(i)
	}))...)
}

// playoff orders a tied group by its playoffs, recursively for the
// groups that they leave tied.
func (t *tally) playoff(group []int) [][]int {
	if len(group) == 0 {
		return nil
	}
	if len(group) < 2 {
		return [][]int{group}
	}
	in := map[string]bool{}
	for _, i := range group {
		in[t.names[i]] = true
	}
	sum := map[int]float64{}
	n := 0
	for k := range t.playoffs {
		r := &t.playoffs[k]
		if len(r.Seats) != len(group) {
			continue
		}
		seen := map[string]bool{}
		for _, s := range r.Seats {
			seen[s.Bot] = true
		}
		exact := len(seen) == len(group)
		for b := range seen {
			exact = exact && in[b]
		}
		if !exact {
			continue
		}
		n++
		for s, place := range Places(r) {
			sum[t.index[r.Seats[s].Bot]] += place
		}
	}
	if n == 0 {
		return [][]int{group}
	}
	sub := groupBy(group, byKey(func(i int) float64 { return sum[i] / float64(n) }))
	if len(sub) == 1 {
		return sub // the playoffs so far tie them all again
	}
	var out [][]int
	for _, g := range sub {
		out = append(out, t.playoff(g)...)
	}
	return out
}

// groupBy sorts items by compare and groups those it finds equal to the
// first of their group.
func groupBy(items []int, compare func(a, b int) int) [][]int {
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, compare)
	var groups [][]int
	for _, i := range sorted {
		if n := len(groups); n > 0 && compare(groups[n-1][0], i) == 0 {
			groups[n-1] = append(groups[n-1], i)
		} else {
			groups = append(groups, []int{i})
		}
	}
	return groups
}

// byKey compares by an ascending key, with placeEqual's tolerance.
func byKey(key func(int) float64) func(a, b int) int {
	return func(a, b int) int {
		ka, kb := key(a), key(b)
		if placeEqual(ka, kb) {
			return 0
		}
		return cmp.Compare(ka, kb)
	}
}
