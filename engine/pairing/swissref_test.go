package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// refMatched, refPartner and refByeMatched are matched, partner and
// byeMatched as revision 2 first paired duels (a full matching for each
// candidate the exchange of partners does not show): the reference the
// faster ones must pair exactly as.
func (s *swissSearch) refMatched(order []string) [][]string {
	var groups [][]string
	target, partners := s.fewest(order)
	for len(order) > 0 {
		var group []string
		group, order, target, partners = s.refPartner(order, target, partners)
		groups = append(groups, group)
	}
	return groups
}

func (s *swissSearch) refPartner(order []string, target int, partners map[string]string) ([]string, []string, int, map[string]string) {
	a, rest := order[0], order[1:]
	met := func(x, y string) int { return s.met[[2]string{x, y}] }
	for _, c := range s.preferred(a, rest, func(b string) int { return met(a, b) }) {
		if met(a, c) > target {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(rest), func(b string) bool { return b == c })
		pa, pc := partners[a], partners[c]
		if pa == c || met(a, c)+target-met(a, pa)-met(c, pc)+met(pa, pc) == target {
			delete(partners, a)
			delete(partners, c)
			if pa != c {
				partners[pa], partners[pc] = pc, pa
			}
			return []string{a, c}, others, target - met(a, c), partners
		}
		if f, fp := s.fewest(others); met(a, c)+f == target {
			return []string{a, c}, others, f, fp
		}
	}
	panic(fmt.Sprintf("pairing: no partner of %s leaves a pairing of %d meetings", a, target))
}

func (s *swissSearch) refByeMatched(order []string, least int) [][]string {
	var rest []string
	bye, fewest, found := "", 0, false
	for _, b := range slices.Backward(order) {
		if s.fillMet[b] != least {
			continue
		}
		without := slices.DeleteFunc(slices.Clone(order), func(x string) bool { return x == b })
		if f, _ := s.fewest(without); !found || f < fewest {
			rest, bye, fewest, found = without, b, f, true
		}
		if fewest == 0 {
			break
		}
	}
	return append(s.refMatched(rest), []string{bye})
}

// refByeFirst is byeFirst of revision 2 by the reference.
func (s *swissSearch) refByeFirst(order []string) [][]string {
	least := s.fillMet[order[0]]
	for _, b := range order {
		least = min(least, s.fillMet[b])
	}
	return s.refByeMatched(order, least)
}

// circleSearch is a Swiss round of n duellists (and a bye when n is odd)
// after k rounds of the circle method on a random order, so that every
// bot has met k others once, with random scores and byes: a field late
// in a large Swiss, where the leaders' first choices have often met.
func circleSearch(rng *rand.Rand, n, k int) (*swissSearch, []string) {
	m := n + n%2
	bots := make([]string, m)
	for i := range bots {
		bots[i] = fmt.Sprintf("b%03d", i)
	}
	rng.Shuffle(len(bots), func(i, j int) { bots[i], bots[j] = bots[j], bots[i] })
	s := &swissSearch{met: map[[2]string]int{}, score: map[string]float64{}, pos: map[string]int{},
		fillMet: map[string]int{}, matching: true, players: 2}
	for r := range k {
		for i := range m / 2 {
			x, y := (r+i)%(m-1), (r+m-1-i)%(m-1)
			if i == 0 {
				y = m - 1
			}
			a, b := bots[x], bots[y]
			if n%2 == 1 && b == bots[m-1] {
				s.fillMet[a]++
				continue
			}
			if n%2 == 1 && a == bots[m-1] {
				s.fillMet[b]++
				continue
			}
			s.met[[2]string{a, b}]++
			s.met[[2]string{b, a}]++
		}
	}
	order := bots[:n]
	if n%2 == 0 {
		order = bots
	}
	for _, b := range order {
		s.score[b] = float64(rng.IntN(k + 1))
	}
	slices.SortStableFunc(order, func(a, b string) int { return int(s.score[b] - s.score[a]) })
	for i, b := range order {
		s.pos[b] = i
	}
	return s, order
}

func benchmarkCircle(b *testing.B, n, k int, ref bool) {
	s, order := circleSearch(rand.New(rand.NewPCG(1, 2)), n, k)
	for b.Loop() {
		switch {
		case n%2 == 1 && ref:
			s.refByeFirst(order)
		case n%2 == 1:
			_, _ = s.byeFirst(order)
		case ref:
			s.refMatched(order)
		default:
			_, _ = s.matched(order)
		}
	}
}

func BenchmarkSwissRef241Bye(b *testing.B)     { benchmarkCircle(b, 241, 30, true) }
func BenchmarkSwissRef240(b *testing.B)        { benchmarkCircle(b, 240, 30, true) }
func BenchmarkSwissMatched241Bye(b *testing.B) { benchmarkCircle(b, 241, 30, false) }
func BenchmarkSwissMatched240(b *testing.B)    { benchmarkCircle(b, 240, 30, false) }

func BenchmarkSwissRef241ByeLate(b *testing.B) { benchmarkCircle(b, 241, 250, true) }
func BenchmarkSwissRef240Late(b *testing.B)    { benchmarkCircle(b, 240, 250, true) }
func BenchmarkSwissRef241ByeAll(b *testing.B)  { benchmarkCircle(b, 241, 241, true) }

// swissGroups is groupBySwiss's pairing of round r; an error fails t.
func swissGroups(t *testing.T, p *plan.Plan, r int, results []stats.Result) *Pairing {
	t.Helper()
	pr, err := groupBySwiss(p, r, results)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func BenchmarkSwissMatched241ByeLate(b *testing.B) { benchmarkCircle(b, 241, 250, false) }
func BenchmarkSwissMatched241ByeAll(b *testing.B)  { benchmarkCircle(b, 241, 241, false) }

// TestMatchedPairsAsReference: revision 2's duels and byes pair exactly
// as the reference (refMatched, refByeFirst) pairs them, so that a run
// begun by an earlier arbiter resumes as it began: random fields of up
// to 40 bots with random meetings, scores and byes, and circle-method
// fields late in a Swiss, where rematches and byes had are everywhere.
func TestMatchedPairsAsReference(t *testing.T) {
	for seed := range uint64(600) {
		rng := rand.New(rand.NewPCG(seed, 29))
		var s *swissSearch
		var order []string
		if seed%2 == 0 {
			n := 1 + rng.IntN(40)
			s, order = circleSearch(rng, n, rng.IntN(2*n+1))
		} else {
			s, order = randomSearch(rng)
		}
		want, got, err := s.refMatched, s.matched, error(nil)
		var ref, new [][]string
		if len(order)%2 == 1 {
			ref = s.refByeFirst(order)
			new, err = s.byeFirst(order)
		} else {
			ref = want(order)
			new, err = got(order)
		}
		if err != nil || !slices.EqualFunc(ref, new, slices.Equal) {
			t.Errorf("seed %d: the reference paired %v, now %v (%v)", seed, ref, new, err)
		}
	}
}

// randomSearch is a Swiss round of up to 40 duellists of random
// meetings (few values, many ties), scores and byes had.
func randomSearch(rng *rand.Rand) (*swissSearch, []string) {
	n := 1 + rng.IntN(40)
	s := &swissSearch{met: map[[2]string]int{}, score: map[string]float64{}, pos: map[string]int{},
		fillMet: map[string]int{}, matching: true, players: 2}
	order := make([]string, n)
	density, spread := rng.Float64(), 1+rng.IntN(4)
	for i := range order {
		order[i] = fmt.Sprintf("b%02d", i)
		s.score[order[i]] = float64(rng.IntN(1 + n/4))
		s.fillMet[order[i]] = rng.IntN(2)
		for _, a := range order[:i] {
			if rng.Float64() < density {
				m := 1 + rng.IntN(spread)
				s.met[[2]string{a, order[i]}], s.met[[2]string{order[i], a}] = m, m
			}
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return int(s.score[b] - s.score[a]) })
	for i, b := range order {
		s.pos[b] = i
	}
	return s, order
}

// TestMatchedWrongMatchingIsAnError: were the matching ever wrong (here
// a target of 0 meetings for four bots that have all met), the round is
// not paired and the error names the leader; the arbiter panicked.
func TestMatchedWrongMatchingIsAnError(t *testing.T) {
	s := &swissSearch{met: map[[2]string]int{}, score: map[string]float64{}, pos: map[string]int{}, matching: true, players: 2}
	order := []string{"a", "b", "c", "d"}
	for i, a := range order {
		s.pos[a] = i
		for _, b := range order[i+1:] {
			s.met[[2]string{a, b}], s.met[[2]string{b, a}] = 1, 1
		}
	}
	_, err := s.matchedFrom(order, 0, map[string]string{"a": "b", "b": "a", "c": "d", "d": "c"})
	if err == nil || !strings.Contains(err.Error(), "no partner of a leaves a pairing of 0 meetings") {
		t.Errorf("a wrong matching gave %v", err)
	}
}

// TestByeSeatWrongMatchingIsAnError: were the matching of the field with
// the bye's seat ever wrong (here a target of 0 meetings, where the bye
// of a, the only bot that may take it, leaves b and c, who have met),
// the error says no bye was found; it named the seat, a NUL byte and
// "bye".
func TestByeSeatWrongMatchingIsAnError(t *testing.T) {
	s := &swissSearch{met: map[[2]string]int{{"b", "c"}: 1, {"c", "b"}: 1}, matching: true, players: 2}
	partners := map[string]string{byeSeat: "b", "b": byeSeat, "a": "c", "c": "a"}
	_, _, _, _, err := s.take(byeSeat, []string{"a"}, []string{"a", "b", "c"}, 0, partners)
	if err == nil || err.Error() != "no bye leaves a pairing of 0 meetings, as the matching of the field said one does (an arbiter's fault)" {
		t.Errorf("a wrong matching of the bye gave %q", err)
	}
}
