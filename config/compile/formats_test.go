package compile

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/tournament"
)

func factorial(k int) int {
	if k <= 1 {
		return 1
	}
	return k * factorial(k-1)
}

// seatCounts counts, over seatings, how often member m sits in seat i and
// how often member a sits directly before member b.
func seatCounts(seatings [][]int, k int) (seat [][]int, before [][]int) {
	seat, before = make([][]int, k), make([][]int, k)
	for m := range seat {
		seat[m], before[m] = make([]int, k), make([]int, k)
	}
	for _, s := range seatings {
		for i, m := range s {
			seat[m][i]++
			if i+1 < k {
				before[m][s[i+1]]++
			}
		}
	}
	return seat, before
}

// uniform reports whether every entry of c (off the diagonal, when
// offDiagonal) equals want.
func uniform(c [][]int, want int, offDiagonal bool) bool {
	for a := range c {
		for b := range c[a] {
			if offDiagonal && a == b {
				continue
			}
			if c[a][b] != want {
				return false
			}
		}
	}
	return true
}

func TestSeatDesigns(t *testing.T) {
	for k := 2; k <= 7; k++ {
		for _, tt := range []struct {
			design   tournament.SeatDesign
			seatings int
			// everySeat: every member sits in every seat this often (0: not required).
			everySeat int
			// before: every member sits directly before every other this often (0: not required).
			before int
		}{
			{tournament.Fixed, 1, 0, 0},
			{tournament.Swap, 2, 1, 1},
			{tournament.Rotate, k, 1, 0},
			{tournament.Permute, factorial(k), factorial(k - 1), factorial(k - 1)},
			{tournament.Balanced, map[bool]int{true: k, false: 2 * k}[k%2 == 0], map[bool]int{true: 1, false: 2}[k%2 == 0], map[bool]int{true: 1, false: 2}[k%2 == 0]},
		} {
			if tt.design == tournament.Swap && k != 2 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", tt.design, k), func(t *testing.T) {
				s := tt.design.Seatings(k)
				if len(s) != tt.seatings {
					t.Fatalf("%d seatings, want %d", len(s), tt.seatings)
				}
				distinct := map[string]bool{}
				for _, row := range s {
					sorted := slices.Clone(row)
					sort.Ints(sorted)
					for i := range sorted {
						if sorted[i] != i {
							t.Fatalf("seating %v is not an order of the %d members", row, k)
						}
					}
					distinct[fmt.Sprint(row)] = true
				}
				if len(distinct) != len(s) {
					t.Errorf("%d seatings but only %d distinct", len(s), len(distinct))
				}
				seat, before := seatCounts(s, k)
				if tt.everySeat > 0 && !uniform(seat, tt.everySeat, false) {
					t.Errorf("seats are not balanced (member x seat counts %v, want %d each)", seat, tt.everySeat)
				}
				if tt.before > 0 && !uniform(before, tt.before, true) {
					t.Errorf("precedence is not balanced (a-directly-before-b counts %v, want %d each)", before, tt.before)
				}
			})
		}
	}
	// rotate is balanced in seats, but with more than 3 bots a bot always
	// sits before the same neighbour: that is what balanced fixes.
	if _, before := seatCounts(tournament.Rotate.Seatings(4), 4); uniform(before, 1, true) {
		t.Error("rotate of 4 has balanced precedence; the test of balanced proves nothing")
	}
}

var eight = []string{"a", "b", "c", "d", "e", "f", "g", "h"}

const eightBots = `bots = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h]`

// perSeat counts how often each bot sits in each seat over matches.
func perSeat(ms []plan.Match) map[string][]int {
	c := map[string][]int{}
	for _, m := range ms {
		for i, b := range m.Seats {
			if c[b] == nil {
				c[b] = make([]int, len(m.Seats))
			}
			c[b][i]++
		}
	}
	return c
}

func TestBalancedIsSmallerThanPermuteWithTheSameSeatBalance(t *testing.T) {
	balanced := compile(t, eight, eightBots+"\nplayers = 4\nrounds = 3\nseats = \"balanced\"")
	permute := compile(t, eight, eightBots+"\nplayers = 4\nrounds = 3\nseats = \"permute\"")
	if len(balanced.Matches) != 3*2*4 || len(permute.Matches) != 3*2*24 {
		t.Fatalf("balanced %d matches, permute %d; want 24 and 144", len(balanced.Matches), len(permute.Matches))
	}
	for _, p := range []*plan.Plan{balanced, permute} {
		per := len(p.Matches) / len(eight) // matches per bot per seat: every bot in every seat equally often
		for bot, c := range perSeat(p.Matches) {
			for i, n := range c {
				if n != per {
					t.Errorf("%s: %s sits in seat %d %d times, want %d", p.Seats, bot, i, n, per)
				}
			}
		}
		// The groups are the same: the seat design does not change the draw.
		for i, m := range balanced.Matches {
			if i%4 == 0 {
				pm := permute.Match(fmt.Sprintf("r%03d-g%02d-s1", m.Round, m.Group))
				if !slices.Equal(sortedCopy(m.Seats), sortedCopy(pm.Seats)) {
					t.Errorf("group %s differs between designs: %v vs %v", m.ID, m.Seats, pm.Seats)
				}
			}
		}
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}

func TestRoundRobinSwapPlaysEveryOrderedPairOnce(t *testing.T) {
	p := compile(t, []string{"a", "b", "c", "d"}, `bots = [bot.a, bot.b, bot.c, bot.d]
		format = "round-robin"
		players = 2
		seats = "swap"
		deal = "per-group"`)
	pairs := map[string]int{}
	for _, m := range p.Matches {
		pairs[strings.Join(m.Seats, "-")]++
	}
	if len(p.Matches) != 12 || len(pairs) != 12 {
		t.Fatalf("%d matches, %d distinct ordered pairs, want 12 and 12: %v", len(p.Matches), len(pairs), pairs)
	}
	for _, a := range []string{"a", "b", "c", "d"} {
		for _, b := range []string{"a", "b", "c", "d"} {
			if a != b && pairs[a+"-"+b] != 1 {
				t.Errorf("%s before %s plays %d times, want 1", a, b, pairs[a+"-"+b])
			}
		}
	}
	// Duplicate play: both orders of a pair get the same deal.
	for _, m := range p.Matches {
		if m.Shift == 2 {
			first := p.Match(strings.TrimSuffix(m.ID, "-s2") + "-s1")
			if first.Seed != m.Seed {
				t.Errorf("%s and %s: the two orders of a pair play different deals", first.ID, m.ID)
			}
		}
	}
}

func TestRoundRobinOfThreePlaysEveryCombination(t *testing.T) {
	p := compile(t, []string{"a", "b", "c", "d", "e"}, `bots = [bot.a, bot.b, bot.c, bot.d, bot.e]
		format = "round-robin"
		players = 3
		rounds = 2
		seats = "rotate"`)
	// C(5,3) = 10 groups, 3 seatings each, 2 rounds.
	if len(p.Matches) != 60 {
		t.Fatalf("%d matches, want 60", len(p.Matches))
	}
	groups := map[string]int{}
	for _, m := range p.Matches {
		if m.Round == 1 {
			groups[strings.Join(sortedCopy(m.Seats), "")]++
		}
	}
	if len(groups) != 10 {
		t.Errorf("%d distinct groups in round 1, want 10: %v", len(groups), groups)
	}
	for g, n := range groups {
		if n != 3 {
			t.Errorf("group %s plays %d seatings, want 3", g, n)
		}
	}
	if c := perSeat(p.Matches); c["a"][0] != c["a"][1] || c["a"][1] != c["a"][2] {
		t.Errorf("a's seats are not balanced: %v", c["a"])
	}
}

func TestGauntletPlaysCandidatesAgainstTheRest(t *testing.T) {
	p := compile(t, []string{"x", "y", "a", "b", "c"}, `bots = [bot.a, bot.x, bot.b, bot.y, bot.c]
		format = "gauntlet"
		gauntlet { candidates = [bot.x, bot.y] }
		players = 2
		rounds = 2
		seats = "swap"`)
	if len(p.Matches) != 2*2*3*2 {
		t.Fatalf("%d matches, want 24", len(p.Matches))
	}
	pairs := map[string]int{}
	for _, m := range p.Matches {
		pairs[strings.Join(m.Seats, "-")]++
	}
	for _, c := range []string{"x", "y"} {
		for _, o := range []string{"a", "b", "c"} {
			if pairs[c+"-"+o] != 2 || pairs[o+"-"+c] != 2 {
				t.Errorf("%s-%s %d times, %s-%s %d times, want 2 each (2 rounds)", c, o, pairs[c+"-"+o], o, c, pairs[o+"-"+c])
			}
		}
	}
	if pairs["x-y"]+pairs["y-x"] > 0 {
		t.Error("candidates play each other")
	}
	if !slices.Equal(p.Candidates, []string{"x", "y"}) {
		t.Errorf("plan candidates %v", p.Candidates)
	}
}

func TestGauntletOfFourFillsWithFillBots(t *testing.T) {
	p := compile(t, []string{"x", "a", "f1", "f2"}, `bots = [bot.x, bot.a]
		fill = [bot.f1, bot.f2]
		format = "gauntlet"
		gauntlet { candidates = [bot.x] }
		players = 4
		seats = "balanced"`)
	if len(p.Matches) != 4 {
		t.Fatalf("%d matches, want 4", len(p.Matches))
	}
	for bot, c := range perSeat(p.Matches) {
		if !slices.Equal(c, []int{1, 1, 1, 1}) {
			t.Errorf("%s seats %v", bot, c)
		}
	}
}

func TestAdaptiveFormatsListOnlyTheFixedRounds(t *testing.T) {
	groups := compile(t, eight, eightBots+`
		players = 4
		rounds = 5
		groups { random_rounds = 2 }`)
	if n := len(groups.Matches); n != 2*2*4 {
		t.Errorf("groups lists %d matches, want the 16 of 2 random rounds", n)
	}
	if l := groups.Later; l == nil || l.Pairing != tournament.ByRating || l.From != 3 || l.Clock.Total == 0 {
		t.Errorf("groups later = %+v, want rating pairing from round 3 with the game's clock", l)
	}
	// The random rounds are those of a tournament grouped at random throughout.
	random := compile(t, eight, eightBots+`
		players = 4
		rounds = 5`)
	for _, m := range groups.Matches {
		if rm := random.Match(m.ID); rm == nil || !slices.Equal(rm.Seats, m.Seats) || rm.Seed != m.Seed {
			t.Errorf("%s differs from the all-random tournament", m.ID)
		}
	}
	if random.Later != nil {
		t.Errorf("an all-random tournament has later matches: %+v", random.Later)
	}
	swiss := compile(t, eight, eightBots+`
		format = "swiss"
		players = 2
		seats = "swap"
		rounds = 4`)
	if n := len(swiss.Matches); n != 8 {
		t.Errorf("swiss lists %d matches, want the 8 of round 1", n)
	}
	if l := swiss.Later; l == nil || l.Pairing != tournament.ByScore || l.From != 2 {
		t.Errorf("swiss later = %+v", l)
	}
	// Paired rounds get the same ids and seeds as listed ones.
	var round3 []plan.Match
	var groups3 [][]string
	for _, m := range random.Matches {
		if m.Round == 3 {
			round3 = append(round3, m)
			if m.Shift == 1 {
				groups3 = append(groups3, m.Seats)
			}
		}
	}
	got := groups.RoundMatches(3, groups3)
	if len(got) != len(round3) {
		t.Fatalf("paired round 3 has %d matches, listed %d", len(got), len(round3))
	}
	for i, m := range got {
		if want := round3[i]; m.ID != want.ID || m.Seed != want.Seed || !slices.Equal(m.Seats, want.Seats) || m.Clock != want.Clock {
			t.Errorf("paired %+v, listed %+v", m, want)
		}
	}
}

// fillSeats counts the seats each fill bot takes in ms.
func fillSeats(ms []plan.Match, fill []string) map[string]int {
	n := map[string]int{}
	for _, m := range ms {
		for _, s := range m.Seats {
			if slices.Contains(fill, s) {
				n[s]++
			}
		}
	}
	return n
}

// ITPW's field of 9 with three fill bots: before, every group got f1.
func TestFillBotsTakeTurns(t *testing.T) {
	nine := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	fill := []string{"f1", "f2", "f3"}
	for _, tt := range []struct {
		field  []string
		rounds int
		want   int // seats of each fill bot
	}{
		{nine, 4, 4},              // 3 groups of 3 + 1 each round: 12 seats
		{append(nine, "j"), 3, 2}, // groups of 4, 3, 3: 2 seats a round, 6 in all
	} {
		bots := "bots = [" + strings.Join(prefixed("bot.", tt.field), ", ") + "]"
		p := compile(t, append(append([]string{}, tt.field...), fill...), bots+`
			fill = [bot.f1, bot.f2, bot.f3]
			players = 4
			seats = "fixed"
			rounds = `+fmt.Sprint(tt.rounds))
		got := fillSeats(p.Matches, fill)
		for _, f := range fill {
			if got[f] != tt.want {
				t.Errorf("%d bots, %d rounds: fill seats %v, want %d each", len(tt.field), tt.rounds, got, tt.want)
				break
			}
		}
	}
	// Two seats to fill in a group take two different fill bots.
	p := compile(t, []string{"a", "b", "c", "d", "e", "f1", "f2", "f3"}, `bots = [bot.a, bot.b, bot.c, bot.d, bot.e]
		fill = [bot.f1, bot.f2, bot.f3]
		players = 4
		seats = "fixed"
		rounds = 3`)
	for _, m := range p.Matches {
		distinct := map[string]bool{}
		for _, s := range m.Seats {
			if distinct[s] {
				t.Errorf("%s seats %s twice: %v", m.ID, s, m.Seats)
			}
			distinct[s] = true
		}
	}
	if got := fillSeats(p.Matches, fill); got["f1"] != 3 || got["f2"] != 3 || got["f3"] != 3 {
		t.Errorf("5 bots in groups of 3+2, 3 rounds: fill seats %v, want 3 each", got)
	}
}

// A round grouped during the run takes the fill bots where a listed round
// would.
func TestPairedRoundTakesFillBotsInTurn(t *testing.T) {
	bots := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "f1", "f2"}
	body := `bots = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.g, bot.h, bot.i]
		fill = [bot.f1, bot.f2]
		players = 4
		rounds = 4`
	rated := compile(t, bots, body+"\ngroups { random_rounds = 1 }")
	random := compile(t, bots, body)
	for r := 2; r <= 4; r++ {
		var listed []plan.Match
		var groups [][]string
		for _, m := range random.Matches {
			if m.Round != r {
				continue
			}
			listed = append(listed, m)
			if m.Shift == 1 {
				groups = append(groups, slices.DeleteFunc(slices.Clone(m.Seats), func(s string) bool { return s == "f1" || s == "f2" }))
			}
		}
		got := rated.RoundMatches(r, groups)
		for i, m := range got {
			if !slices.Equal(m.Seats, listed[i].Seats) {
				t.Errorf("round %d: paired %v, listed %v", r, m.Seats, listed[i].Seats)
			}
		}
	}
}

func prefixed(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}

// formats.md: fill bots are not drawn with the field, as the ITPW
// original's house bots are: 5 entrants in groups of 4 are always 3 + 2,
// each topped up with fill bots. Put in bots, the house bots are drawn
// with the entrants, as the original's pool of 8 is: now and then four
// entrants meet and the fifth plays three house bots.
func TestFillIsNotDrawnWithTheField(t *testing.T) {
	entrants := []string{"a", "b", "c", "d", "e"}
	perGroup := func(p *plan.Plan) map[int][]int { // round: entrants per group
		n := map[int][]int{}
		for _, m := range p.Matches {
			if m.Shift != 1 {
				continue
			}
			k := 0
			for _, s := range m.Seats {
				if slices.Contains(entrants, s) {
					k++
				}
			}
			n[m.Round] = append(n[m.Round], k)
		}
		return n
	}
	filled := compile(t, []string{"a", "b", "c", "d", "e", "f1", "f2"}, `bots = [bot.a, bot.b, bot.c, bot.d, bot.e]
		fill = [bot.f1, bot.f2]
		players = 4
		rounds = 30`)
	for r, k := range perGroup(filled) {
		if !slices.Equal(k, []int{3, 2}) {
			t.Errorf("fill: round %d has groups of %v entrants, want always 3 and 2", r, k)
		}
	}
	pooled := compile(t, []string{"a", "b", "c", "d", "e", "h1", "h2", "h3"}, `bots = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.h1, bot.h2, bot.h3]
		players = 4
		rounds = 30`)
	uneven := 0
	for _, k := range perGroup(pooled) {
		if slices.Contains(k, 4) {
			uneven++
		}
	}
	if uneven == 0 {
		t.Errorf("house bots in bots: no round of 30 has four entrants together, want about one in 7")
	}
}

// TestTopShortOnlyWherePoolsCanBeShort: a seeded stage records the rule
// for which pools are short (top_short) only when its pools can differ in
// size, so that a plan whose stages have one pool, or a field of named
// bots that divides by its pools, hashes as it did before the rule and a
// run begun then resumes with its usual command.
func TestTopShortOnlyWherePoolsCanBeShort(t *testing.T) {
	p := compile(t, eight, eightBots+`
		players = 2
		stage "single"  { split = "seeded" }
		stage "even"    {
			bots   = [bot.a, bot.b, bot.c, bot.d]
			split  = "seeded"
			groups = 2
		}
		stage "uneven"  {
			bots   = [bot.a, bot.b, bot.c, bot.d, bot.e]
			split  = "seeded"
			groups = 2
		}
		stage "final"   { bots = [top(stage.single, 2)] }
		stage "later"   {
			bots   = [top(stage.single, 4)]
			groups = 2
		}`)
	want := map[string]bool{"single": false, "even": false, "uneven": true, "final": false, "later": true}
	for _, st := range p.Stages {
		if st.TopShort != want[st.Name] {
			t.Errorf("stage %s (%d pools, split %s): top_short %v, want %v", st.Name, st.Pools, st.Split, st.TopShort, want[st.Name])
		}
	}
}

// TestPairingRevisionOnlyWhereItChanges: a plan is made with the latest
// revision of the pairing rules that changed how its rounds are paired.
// Revision 2 changed only Swiss duels, so a plan paired by rating, or a
// Swiss in groups of four, is of revision 1 as the arbiter before it made
// it, and its configuration compiled again resumes that arbiter's results.
func TestPairingRevisionOnlyWhereItChanges(t *testing.T) {
	for _, c := range []struct {
		body string
		want int
	}{
		{"players = 4\nrounds = 5\ngroups { random_rounds = 2 }", 1},
		{"players = 2\nseats = \"swap\"\nrounds = 5\ngroups { random_rounds = 2 }", 1},
		{"format = \"swiss\"\nplayers = 4\nrounds = 4", 1},
		{"format = \"swiss\"\nplayers = 2\nseats = \"swap\"\nrounds = 4", plan.PairingRevision},
	} {
		p := compile(t, eight, eightBots+"\n"+c.body)
		if p.Later == nil || p.Later.Revision != c.want {
			t.Errorf("%s: later = %+v, want revision %d", c.body, p.Later, c.want)
		}
	}
}
