package plan

// MaxPermutePlayers caps the "permute" design: k players give k! seatings.
const MaxPermutePlayers = 6

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
func Seatings(design string, k int) [][]int {
	switch design {
	case "fixed":
		return [][]int{identity(k)}
	case "swap":
		return [][]int{{0, 1}, {1, 0}}
	case "rotate":
		out := make([][]int, k)
		for s := range out {
			out[s] = make([]int, k)
			for i := range out[s] {
				out[s][i] = (i + s) % k
			}
		}
		return out
	case "permute":
		return permutations(k)
	case "balanced":
		return williams(k)
	}
	panic("plan: unknown seat design " + design)
}

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
