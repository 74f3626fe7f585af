package tournament

import "fmt"

// SeatDesign is how the members of a group are seated in its matches:
// one match per seating.
type SeatDesign uint8

// The seat designs; Rotate is the default.
const (
	Rotate SeatDesign = iota
	Fixed
	Swap
	Permute
	Balanced
)

// SeatDesigns lists every seat design, the default first.
var SeatDesigns = []SeatDesign{Rotate, Fixed, Swap, Permute, Balanced}

// MaxPermutePlayers caps the permute design: k players give k! seatings.
const MaxPermutePlayers = 6

type seatDesign interface {
	name() string
	seatings(k int) [][]int
	// check says why the design cannot seat groups of that many players.
	check(players int) *Problem
	// forGroup is the design a playoff of k bots plays in.
	forGroup(k int) SeatDesign
	// swapsPairs: a group of two plays both orders, once each.
	swapsPairs() bool
}

var seatDesigns = [...]seatDesign{Rotate: rotate{}, Fixed: fixed{}, Swap: swap{}, Permute: permute{}, Balanced: balanced{}}

func (s SeatDesign) String() string { return seatDesigns[s].name() }

// MarshalText writes the design's name.
func (s SeatDesign) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a design's name.
func (s *SeatDesign) UnmarshalText(b []byte) (err error) {
	*s, err = parse(SeatDesigns, "seat design", string(b))
	return err
}

// Seatings returns the seat design's seatings of a group of k bots: in
// seating s, seat i holds the group's member Seatings[s][i]. Members are
// numbered in the group's order (for a gauntlet, the candidate first).
//
//   - fixed: the group's order only.
//   - swap: both orders of two bots.
//   - rotate: every cyclic shift; seating s puts member (i+s) mod k in
//     seat i, so every bot plays every seat once.
//   - permute: all k! orders, in lexicographic order.
//   - balanced: a Williams design. For even k it is one Latin square whose
//     first row is 0, 1, k-1, 2, k-2, ... and whose row r adds r (mod k)
//     to every entry: every bot plays every seat once, and every bot sits
//     directly before every other bot (in seat order) exactly once. For odd
//     k no single square can do that, so the square's rows are followed by
//     their reverses: 2k seatings, every seat twice, every bot directly
//     before every other bot twice. That is k or 2k seatings where permute
//     needs k!, with the same balance of seats.
func (s SeatDesign) Seatings(k int) [][]int { return seatDesigns[s].seatings(k) }

// Check says why the design cannot seat groups of players bots, or nil.
func (s SeatDesign) Check(players int) *Problem { return seatDesigns[s].check(players) }

// ForGroup is the design a group of k bots plays a playoff in: the same
// design, but rotate where swap needs two bots and balanced where permute
// would be too many.
func (s SeatDesign) ForGroup(k int) SeatDesign { return seatDesigns[s].forGroup(k) }

// PairsGames reports whether the matches of a group come in pairs of the
// same deal with the two bots in swapped seats, which an SPRT counts as
// pairs (pentanomial): two players, swapped seats, a deal shared by the
// group.
func (s SeatDesign) PairsGames(players int, d DealMode) bool {
	return players == 2 && seatDesigns[s].swapsPairs() && d.Shared()
}

type fixed struct{}

func (fixed) name() string            { return "fixed" }
func (fixed) seatings(k int) [][]int  { return [][]int{identity(k)} }
func (fixed) check(int) *Problem      { return nil }
func (fixed) forGroup(int) SeatDesign { return Fixed }
func (fixed) swapsPairs() bool        { return false }

type swap struct{}

func (swap) name() string         { return "swap" }
func (swap) seatings(int) [][]int { return [][]int{{0, 1}, {1, 0}} }
func (swap) swapsPairs() bool     { return true }
func (swap) check(players int) *Problem {
	if players == 2 {
		return nil
	}
	return &Problem{Attr: "seats", Summary: "Swap needs two players",
		Detail: fmt.Sprintf(`seats = "swap" plays both orders of two bots, but players is %d. Use "rotate", "balanced" or "permute" for more players.`, players)}
}
func (swap) forGroup(k int) SeatDesign {
	if k != 2 {
		return Rotate
	}
	return Swap
}

type rotate struct{}

func (rotate) name() string            { return "rotate" }
func (rotate) check(int) *Problem      { return nil }
func (rotate) forGroup(int) SeatDesign { return Rotate }
func (rotate) swapsPairs() bool        { return false }

// seatings: seating s puts member (i+s) mod k in seat i.
func (rotate) seatings(k int) [][]int {
	out := make([][]int, k)
	for s := range out {
		out[s] = make([]int, k)
		for i := range out[s] {
			out[s][i] = (i + s) % k
		}
	}
	return out
}

type permute struct{}

func (permute) name() string           { return "permute" }
func (permute) seatings(k int) [][]int { return permutations(k) }
func (permute) swapsPairs() bool       { return false }
func (permute) check(players int) *Problem {
	if players <= MaxPermutePlayers {
		return nil
	}
	return &Problem{Attr: "seats", Summary: "Too many seatings",
		Detail: fmt.Sprintf(`seats = "permute" plays all %d! orders of a group, too many for %d players (at most %d). Use "balanced", which puts every bot in every seat equally often with %d or %d seatings.`,
			players, players, MaxPermutePlayers, players, 2*players)}
}
func (permute) forGroup(k int) SeatDesign {
	if k > MaxPermutePlayers {
		return Balanced
	}
	return Permute
}

type balanced struct{}

func (balanced) name() string            { return "balanced" }
func (balanced) seatings(k int) [][]int  { return williams(k) }
func (balanced) check(int) *Problem      { return nil }
func (balanced) forGroup(int) SeatDesign { return Balanced }
func (balanced) swapsPairs() bool        { return false }

func identity(k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = i
	}
	return out
}

// permutations lists every order of 0..k-1 in lexicographic order.
func permutations(k int) [][]int {
	var out [][]int
	p := identity(k)
	for {
		out = append(out, append([]int(nil), p...))
		// Next permutation: the longest non-increasing suffix, swap its
		// predecessor with the smallest larger element, reverse the suffix.
		i := k - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return out
		}
		j := k - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		for a, b := i+1, k-1; a < b; a, b = a+1, b-1 {
			p[a], p[b] = p[b], p[a]
		}
	}
}

// williams is the Williams design of k treatments (see Seatings).
func williams(k int) [][]int {
	base := make([]int, k)
	for j := 1; j < k; j++ {
		if j%2 == 1 {
			base[j] = (j + 1) / 2
		} else {
			base[j] = k - j/2
		}
	}
	var out [][]int
	for r := 0; r < k; r++ {
		row := make([]int, k)
		for j, b := range base {
			row[j] = (b + r) % k
		}
		out = append(out, row)
	}
	if k%2 == 1 && k > 1 {
		for r := 0; r < k; r++ {
			rev := make([]int, k)
			for j := range rev {
				rev[j] = out[r][k-1-j]
			}
			out = append(out, rev)
		}
	}
	return out
}
