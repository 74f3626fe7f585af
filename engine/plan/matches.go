package plan

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Streams of the random source: each decision draws from its own stream,
// so changing how one is made never shifts another.
const (
	streamGroups   = 1
	streamDeals    = 2
	streamPlayoffs = 3
	streamStages   = 4
)

// Complete fills a group up to Players seats with the plan's fill bots,
// taking them in turn from fill bot number start (counted from 0, modulo
// the number of fill bots), so a group never holds the same fill bot
// twice while there are enough of them.
func (p *Plan) Complete(members []string, start int) []string {
	out := append([]string(nil), members...)
	for i := start; len(out) < p.Players; i++ {
		out = append(out, p.Fill[i%len(p.Fill)])
	}
	return out
}

// fillStarts is where each group of round r starts taking fill bots: the
// fill bots are used in turn through the whole tournament, so each plays
// its share of the seats to fill. The seats filled before round r are
// counted as r-1 rounds like this one (a format's groups have the same
// sizes every round), so a round paired during the run starts where a
// listed one would.
func (p *Plan) fillStarts(r int, groups [][]string) []int {
	starts := make([]int, len(groups))
	if len(p.Fill) == 0 {
		return starts
	}
	perRound := 0
	for _, g := range groups {
		perRound += max(p.Players-len(g), 0)
	}
	at := (r - 1) * perRound
	for i, g := range groups {
		starts[i] = at % len(p.Fill)
		at += max(p.Players-len(g), 0)
	}
	return starts
}

// groupMatches lists the seatings of one group: match id+"-s<n>", seat i
// of seating s holding members[design[s][i]].
func (p *Plan) groupMatches(id string, stream uint64, r, g int, members []string, design [][]int, clock drivers.Clock, variant string) []Match {
	out := make([]Match, 0, len(design))
	for s, perm := range design {
		seats := make([]string, len(perm))
		for i, m := range perm {
			seats[i] = members[m]
		}
		out = append(out, Match{
			ID:    fmt.Sprintf("%s-s%d", id, s+1),
			Round: r, Group: g, Shift: s + 1,
			Seed:    dealSeed(p.Seed, p.Deal, stream, r, g, s+1),
			Seats:   seats,
			Clock:   clock,
			Variant: variant,
		})
	}
	return out
}

// RoundMatches lists the matches of a round r that the engine grouped
// (Later.Pairing): each group in seat order of its first seating, filled
// with fill bots in turn, played in the plan's seat design. Ids and seeds follow
// the listed rounds' scheme, so a round's seeds are the same whether it
// was listed or paired.
func (p *Plan) RoundMatches(r int, groups [][]string) []Match {
	return p.ListedRound(r, groups, p.Later.Clock, p.Later.Variants)
}

// ListedRound is RoundMatches with the clock and variants given, for the
// rounds a compiler lists before it knows whether the plan has Later.
func (p *Plan) ListedRound(r int, groups [][]string, clock drivers.Clock, variants []string) []Match {
	design := p.Seats.Seatings(p.Players)
	starts := p.fillStarts(r, groups)
	var out []Match
	for g, members := range groups {
		out = append(out, p.groupMatches(fmt.Sprintf("r%03d-g%02d", r, g+1), streamDeals, r, g+1, p.Complete(members, starts[g]), design, clock, variant(variants, r))...)
	}
	return p.ordered(out)
}

// ordered puts a round's matches, listed group by group, in the plan's
// order (tournament.Order); ids and seeds stay those of their group.
func (p *Plan) ordered(round []Match) []Match {
	if p.Order == tournament.ByGroup {
		return round
	}
	seats := make([][]string, len(round))
	for i, m := range round {
		seats[i] = m.Seats
	}
	field := make([]string, len(p.Bots))
	for i, b := range p.Bots {
		field[i] = b.Name
	}
	out := make([]Match, len(round))
	for i, j := range p.Order.Sort(seats, field) {
		out[i] = round[j]
	}
	return out
}

// PlayoffMatches lists the matches of playoff stage (1-based) between
// groups of tied bots: each group plays alone, with as many seats as it
// has bots, in the plan's seat design for that many (rotate where swap
// needs two bots, balanced where permute would be too many). Ids are
// playoff-<stage>-g<group>-s<seating>; seeds come from their own stream,
// so a playoff never repeats a round's deals; their round is
// Rounds+stage.
func (p *Plan) PlayoffMatches(stage int, groups [][]string) []Match {
	r := p.Rounds + stage
	var out []Match
	for g, members := range groups {
		out = append(out, p.groupMatches(fmt.Sprintf("playoff-%d-g%02d", stage, g+1), streamPlayoffs, r, g+1, members,
			p.Seats.ForGroup(len(members)).Seatings(len(members)), p.Later.Clock, variant(p.Later.Variants, r))...)
	}
	return out
}

// DrawOrder is the order of the bots for round r's random draw (see
// drawOrder); later rounds use it to break ties.
func (p *Plan) DrawOrder(r int, names []string) []string {
	return drawOrder(p.Seed, r, names)
}

// drawOrder is the field in a random order for round r: every bot draws a
// number from a stream seeded by the tournament seed, the round and its
// name. Sorting by the draws, rather than shuffling the list, keeps the
// order of the other bots when one is added or removed, and makes the order
// of the bots list irrelevant.
func drawOrder(seed uint64, r int, bots []string) []string {
	type draw struct {
		bot string
		key uint64
	}
	draws := make([]draw, len(bots))
	for i, b := range bots {
		h := fnv.New64a()
		h.Write([]byte(b))
		draws[i] = draw{b, rand.NewPCG(seed^h.Sum64(), mix(streamGroups, uint64(r), 0, 0)).Uint64()}
	}
	sort.Slice(draws, func(i, j int) bool {
		if draws[i].key != draws[j].key {
			return draws[i].key < draws[j].key
		}
		return draws[i].bot < draws[j].bot
	})
	order := make([]string, len(bots))
	for i, d := range draws {
		order[i] = d.bot
	}
	return order
}

// dealSeed derives a match's seed from the tournament seed and its place,
// never from anything else, so adding rounds or matches leaves the seeds of
// the others alone. Seeds stay below 2^53 so JSON readers in any language
// keep them exact.
func dealSeed(seed uint64, deal tournament.DealMode, stream uint64, round, group, shift int) uint64 {
	group, shift = deal.Coordinates(group, shift)
	src := rand.NewPCG(seed, mix(stream, uint64(round), uint64(group), uint64(shift)))
	return src.Uint64() >> 11
}

// mix packs a stream number and a match's coordinates into the PCG's
// second seed word.
func mix(stream, round, group, shift uint64) uint64 {
	return stream<<60 ^ round<<32 ^ group<<16 ^ shift
}

// variant is round r's variant: they take turns, round by round.
func variant(variants []string, r int) string {
	if len(variants) == 0 {
		return ""
	}
	return variants[(r-1)%len(variants)]
}
