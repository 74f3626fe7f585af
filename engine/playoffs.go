package engine

import (
	"slices"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// PlayoffPrefix starts the id of every playoff match (see IsPlayoff).
const PlayoffPrefix = "playoff-"

// tiedOnPlace returns the groups of field bots that PlacementTies finds
// tied, fill bots left out: fill bots only complete groups, so a tie of
// theirs is not worth a playoff.
func tiedOnPlace(p *plan.Plan, results []Result) [][]string {
	fill := map[string]bool{}
	for _, f := range p.Fill {
		fill[f] = true
	}
	var ties [][]string
	for _, g := range PlacementTies(p, results) {
		g = slices.DeleteFunc(slices.Clone(g), func(b string) bool { return fill[b] })
		if len(g) > 1 {
			ties = append(ties, g)
		}
	}
	return ties
}
