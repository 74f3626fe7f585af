package engine

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// PlayoffPrefix starts the id of every playoff match.
const PlayoffPrefix = "playoff-"

// seatPlaces is each seat's place in a finished match, 1 = best: the
// driver's (SeatResult.Place) when every seat has one; otherwise seats
// that faulted come after the others, the rest by score, higher first,
// tied seats sharing the mean of the places they span.
func seatPlaces(r *Result) []float64 {
	places := make([]float64, len(r.Seats))
	given := true
	for i, s := range r.Seats {
		places[i] = s.Place
		given = given && s.Place != 0
	}
	if given {
		return places
	}
	better := func(a, b SeatResult) int {
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
	slices.SortStableFunc(order, func(i, j int) int { return better(r.Seats[i], r.Seats[j]) })
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && better(r.Seats[order[start]], r.Seats[order[end]]) == 0 {
			end++
		}
		for _, i := range order[start:end] {
			places[i] = float64(start+1+end) / 2
		}
		start = end
	}
	return places
}

// tiedOnPlace returns the groups of field bots (fill bots left out) that
// tie on mean place over the regular matches and that the playoffs so far
// do not separate, best first, each sorted by name. A playoff counts for
// a group when its bots are exactly the group; the group is then split by
// mean place over those playoffs, and any part still tied is looked at
// again with its own playoffs. This is the rule the standings rank by.
func tiedOnPlace(p *plan.Plan, results []Result) [][]string {
	sum, n := map[string]float64{}, map[string]int{}
	var playoffs []*Result
	for i := range results {
		r := &results[i]
		if strings.HasPrefix(r.Match, PlayoffPrefix) {
			playoffs = append(playoffs, r)
			continue
		}
		for s, place := range seatPlaces(r) {
			sum[r.Seats[s].Bot] += place
			n[r.Seats[s].Bot]++
		}
	}
	var played []string
	for _, b := range field(p) {
		if n[b] > 0 {
			played = append(played, b)
		}
	}
	var ties [][]string
	for _, g := range equalGroups(played, func(b string) float64 { return sum[b] / float64(n[b]) }) {
		for _, sub := range splitByPlayoffs(g, playoffs) {
			if len(sub) > 1 {
				slices.Sort(sub)
				ties = append(ties, sub)
			}
		}
	}
	return ties
}

// splitByPlayoffs orders a tied group by its playoffs, recursively.
func splitByPlayoffs(group []string, playoffs []*Result) [][]string {
	if len(group) < 2 {
		return [][]string{group}
	}
	sum, n := map[string]float64{}, 0
	for _, r := range playoffs {
		bots := map[string]bool{}
		for _, s := range r.Seats {
			bots[s.Bot] = true
		}
		exact := len(r.Seats) == len(group) && len(bots) == len(group)
		for _, b := range group {
			exact = exact && bots[b]
		}
		if !exact {
			continue
		}
		n++
		for s, place := range seatPlaces(r) {
			sum[r.Seats[s].Bot] += place
		}
	}
	if n == 0 {
		return [][]string{group}
	}
	sub := equalGroups(group, func(b string) float64 { return sum[b] / float64(n) })
	if len(sub) == 1 {
		return sub
	}
	var out [][]string
	for _, g := range sub {
		out = append(out, splitByPlayoffs(g, playoffs)...)
	}
	return out
}

// equalGroups sorts bots by an ascending key (ties by name) and groups
// those with equal keys. Mean places are sums of half-integers divided by
// counts, so equal means may differ in the last bit.
func equalGroups(bots []string, key func(string) float64) [][]string {
	equal := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }
	sorted := slices.Clone(bots)
	slices.SortStableFunc(sorted, func(a, b string) int {
		if ka, kb := key(a), key(b); !equal(ka, kb) {
			return cmp.Compare(ka, kb)
		}
		return cmp.Compare(a, b)
	})
	var groups [][]string
	for _, b := range sorted {
		if k := len(groups); k > 0 && equal(key(groups[k-1][0]), key(b)) {
			groups[k-1] = append(groups[k-1], b)
		} else {
			groups = append(groups, []string{b})
		}
	}
	return groups
}
