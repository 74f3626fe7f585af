package bricks

import (
	"math/rand/v2"
	"testing"
)

// The house bots keep an index of the board's moves (index.go) so that a
// move costs them little on a large board. These are their moves as they
// were chosen before, from every legal move listed afresh: the index must
// not change a single choice.

// listedRandom is random's move from the list of every legal move.
func listedRandom(rng *rand.Rand, b *Board) Move {
	moves := b.Moves()
	return moves[rng.IntN(len(moves))]
}

// listedKeeper is keeper's move from the list of every legal move.
func listedKeeper(k *keeper, b *Board) Move {
	k.limit = k.tried + keeperBudget
	moves := b.Moves()
	if m, ok := listedMirror(b, moves); ok {
		return m
	}
	if places, ok := floodedRegions(b); ok {
		if m, ok := listedSolve(k, places); ok {
			return m
		}
	}
	best, bestN := []Move(nil), -1
	for _, m := range moves {
		switch n := freeAround(b, m); {
		case n > bestN:
			best, bestN = []Move{m}, n
		case n == bestN:
			best = append(best, m)
		}
	}
	return best[k.rng.IntN(len(best))]
}

// listedMirror counts the cells that differ from their image and tries
// every legal move.
func listedMirror(b *Board, moves []Move) (Move, bool) {
	n := b.N
	filled := func(c Cell) bool { return !b.Free(c) }
	mirror := func(c Cell) Cell { return Cell{X: n - 1 - c.X, Y: n - 1 - c.Y} }
	asym := 0
	for i := range n * n {
		if c := (Cell{X: i % n, Y: i / n}); filled(c) != filled(mirror(c)) {
			asym++
		}
	}
	if asym > 4 {
		return Move{}, false
	}
	center := Cell{X: n / 2, Y: n / 2}
	for _, m := range moves {
		a := asym
		for _, c := range m {
			mc := mirror(c)
			if mc == m[0] || mc == m[1] {
				a = -1
				break
			}
			if filled(mc) {
				a -= 2
			} else {
				a += 2
			}
		}
		if a != 0 {
			continue
		}
		if filled(center) || centreDead(b, center, m) {
			return m, true
		}
	}
	return Move{}, false
}

// centreDead says no free cell beside the centre is left once m is
// played.
func centreDead(b *Board, center Cell, m Move) bool {
	for _, nb := range neighbours(center) {
		if b.Free(nb) && nb != m[0] && nb != m[1] {
			return false
		}
	}
	return true
}

// floodedRegions floods every region whole before it judges its size.
func floodedRegions(b *Board) ([]place, bool) {
	n := b.N
	seen := make([]bool, n*n)
	var out []place
	for i := range n * n {
		start := Cell{X: i % n, Y: i / n}
		if seen[i] || !b.Free(start) {
			continue
		}
		cells := []Cell{}
		seen[i] = true
		for stack := []Cell{start}; len(stack) > 0; {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cells = append(cells, c)
			for _, nb := range neighbours(c) {
				if b.Free(nb) && !seen[nb.Y*n+nb.X] {
					seen[nb.Y*n+nb.X] = true
					stack = append(stack, nb)
				}
			}
		}
		if len(cells) < 2 {
			continue
		}
		minX, minY, maxX, maxY := n, n, -1, -1
		for _, c := range cells {
			minX, minY, maxX, maxY = min(minX, c.X), min(minY, c.Y), max(maxX, c.X), max(maxY, c.Y)
		}
		w, h := maxX-minX+1, maxY-minY+1
		if w*h > 64 {
			return nil, false
		}
		var mask uint64
		for _, c := range cells {
			mask |= 1 << ((c.Y-minY)*w + c.X - minX)
		}
		out = append(out, place{r: region{w: uint8(w), h: uint8(h), mask: mask}, x0: minX, y0: minY})
	}
	return out, true
}

// TestIndexedChoicesAsListed plays seeded duels, keeper against random,
// on boards of many sizes and fillings, symmetric ones among them (where
// keeper mirrors), twice at once: once with the bots as they are, once
// with their moves chosen from the list of every legal move. Every move
// must be the same. The 41×41 boards are there for the order in which
// keeper values its regions (regionSet.sortPending): only on a board that
// large does its budget run out midway through them, so that another
// order memoises other regions and changes a later move (duel 26 there).
func TestIndexedChoicesAsListed(t *testing.T) {
	for _, n := range []int{3, 4, 5, 7, 9, 11, 15, 21, 31, 41} {
		for g := range 40 {
			cells := seededCells(n, g)
			fast, slow := NewBoard(n, cells), NewBoard(n, cells)
			fk := &keeper{rng: rand.New(rand.NewPCG(uint64(g), 1)), memo: map[region]uint8{}}
			sk := &keeper{rng: rand.New(rand.NewPCG(uint64(g), 1)), memo: map[region]uint8{}}
			fr, sr := random{rng: rand.New(rand.NewPCG(uint64(g), 2))}, rand.New(rand.NewPCG(uint64(g), 2))
			for turn := 0; slow.HasMove(); turn++ {
				var got, want Move
				if turn%2 == g%2 {
					got, want = fk.choose(fast), listedKeeper(sk, slow)
				} else {
					got, want = fr.choose(fast), listedRandom(sr, slow)
				}
				if got != want {
					t.Fatalf("%d×%d board %v, duel %d, move %d: chose %v, listing every move chooses %v", n, n, cells, g, turn+1, got, want)
				}
				fast.Place(got)
				slow.Place(want)
			}
			if fast.HasMove() {
				t.Fatalf("%d×%d, duel %d: the indexed board still has a move", n, n, g)
			}
		}
	}
}

// seededCells fills the g-th board of side n: none, a symmetric pattern
// (keeper mirrors there), or cells at random.
func seededCells(n, g int) []Cell {
	rng := rand.New(rand.NewPCG(uint64(g), uint64(n)))
	var cells []Cell
	switch g % 4 {
	case 0:
	case 1:
		for range rng.IntN(n) {
			c := Cell{X: rng.IntN(n), Y: rng.IntN(n)}
			cells = append(cells, c, Cell{X: n - 1 - c.X, Y: n - 1 - c.Y})
		}
	default:
		for range rng.IntN(3 * n) {
			cells = append(cells, Cell{X: rng.IntN(n), Y: rng.IntN(n)})
		}
	}
	return cells
}

// listedSolve evaluates every region afresh (memo aside).
func listedSolve(k *keeper, places []place) (Move, bool) {
	gs := make([]uint8, len(places))
	total := uint8(0)
	for i, p := range places {
		g, ok := k.grundy(p.r)
		if !ok {
			return Move{}, false
		}
		gs[i] = g
		total ^= g
	}
	if total == 0 {
		return Move{}, false
	}
	for i, p := range places {
		if m, found, more := k.winIn(p, total^gs[i]); found || !more {
			return m, found
		}
	}
	return Move{}, false
}
