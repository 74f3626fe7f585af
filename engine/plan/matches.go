package plan

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

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

// walkGroup makes the seatings of one group one at a time into m and
// hands them to yield (false from yield stops the walk, and walkGroup
// returns false): match prefix+"-s<n>", seat i of seating s holding
// members[design[s][i]]. m's Seats are reused from match to match.
func (p *Plan) walkGroup(m *Match, yield func(*Match) bool, prefix []byte, stream uint64, r, g int, members []string, design [][]int, clock drivers.Clock, variant string) bool {
	for s, perm := range design {
		seats := m.Seats[:0]
		if seats == nil {
			seats = make([]string, 0, len(perm))
		}
		for _, i := range perm {
			seats = append(seats, members[i])
		}
		id := appendNum(append(prefix, "-s"...), s+1, 0)
		*m = Match{
			ID:    string(id),
			Round: r, Group: g, Shift: s + 1,
			Seed:    dealSeed(p.Seed, p.Deal, stream, r, g, s+1),
			Seats:   seats,
			Clock:   clock,
			Variant: variant,
		}
		if !yield(m) {
			return false
		}
	}
	return true
}

// appendNum appends n as fmt's %0*d would with width.
func appendNum(b []byte, n, width int) []byte {
	if n < 0 {
		return fmt.Appendf(b, "%0*d", width, n)
	}
	var d [20]byte
	digits := strconv.AppendInt(d[:0], int64(n), 10)
	for range width - len(digits) {
		b = append(b, '0')
	}
	return append(b, digits...)
}

// collect is the matches a walk makes, each copied.
func collect(walk func(m *Match, yield func(*Match) bool)) []Match {
	var out []Match
	var m Match
	walk(&m, func(m *Match) bool {
		c := *m
		c.Seats = slices.Clone(m.Seats)
		out = append(out, c)
		return true
	})
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
	return collect(func(m *Match, yield func(*Match) bool) {
		p.walkRound(m, yield, r, groups, clock, variants)
	})
}

// ListedSeq is the matches of the listed rounds, rounds[i] being round
// i+1's groups, as ListedRound makes them, made one at a time whenever
// the Seq is walked (nil when there are none, like a nil Matches).
func (p *Plan) ListedSeq(rounds [][][]string, clock drivers.Clock, variants []string) Seq {
	if !slices.ContainsFunc(rounds, func(groups [][]string) bool { return len(groups) > 0 }) {
		return nil
	}
	return func(yield func(*Match) bool) {
		var m Match
		for i, groups := range rounds {
			if !p.walkRound(&m, yield, i+1, groups, clock, variants) {
				return
			}
		}
	}
}

// walkRound is walkGroup of each group of round r, in the plan's order
// (tournament.Order): group by group as they are made, or, for any other
// order, the round collected (a round at a time, never the whole plan)
// and sorted; ids and seeds stay those of their group either way.
func (p *Plan) walkRound(m *Match, yield func(*Match) bool, r int, groups [][]string, clock drivers.Clock, variants []string) bool {
	if p.Order == tournament.ByGroup {
		return p.walkGroups(m, yield, r, groups, clock, variants)
	}
	round := collect(func(m *Match, yield func(*Match) bool) {
		p.walkGroups(m, yield, r, groups, clock, variants)
	})
	for _, c := range p.ordered(round) {
		*m = c
		if !yield(m) {
			return false
		}
	}
	return true
}

// walkGroups is walkGroup of each group of round r, group by group.
func (p *Plan) walkGroups(m *Match, yield func(*Match) bool, r int, groups [][]string, clock drivers.Clock, variants []string) bool {
	design := p.Seats.Seatings(p.Players)
	starts := p.fillStarts(r, groups)
	v := variant(variants, r)
	var prefix []byte
	for g, members := range groups {
		if len(members) < p.Players {
			members = p.Complete(members, starts[g])
		}
		prefix = appendNum(append(appendNum(append(prefix[:0], 'r'), r, 3), "-g"...), g+1, 2)
		if !p.walkGroup(m, yield, prefix, streamDeals, r, g+1, members, design, clock, v) {
			return false
		}
	}
	return true
}

// ordered puts a round's matches, listed group by group, in the plan's
// order (tournament.Order).
func (p *Plan) ordered(round []Match) []Match {
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
	return collect(func(m *Match, yield func(*Match) bool) {
		for g, members := range groups {
			prefix := appendNum(append(fmt.Appendf(nil, "playoff-%d", stage), "-g"...), g+1, 2)
			p.walkGroup(m, yield, prefix, streamPlayoffs, r, g+1, members,
				p.Seats.ForGroup(len(members)).Seatings(len(members)), p.Later.Clock, variant(p.Later.Variants, r))
		}
	})
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
