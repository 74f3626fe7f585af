package bricks

import (
	"math/bits"
	"slices"
)

// regionSet keeps the board's regions of free cells that fit in 64 cells
// (keeper's solver reads only those) as the board fills, so that keeper's
// solver, which reads them all at every move of an endgame, does not
// flood the whole board at every move: a move changes only the region it
// is played in. A cell is in a known region, or known to be alone (no
// region), or not known yet: then its region, flooded when the solver
// asks, may be too big. Regions are listed by their first cell in reading
// order, as a flood of the board in reading order finds them.
type regionSet struct {
	// of is, for each cell, its region's index in list plus one; 0 when
	// it is not known, -1 when it is known to be alone or filled.
	of   []int32
	list []regionRec
	// first has a bit set for the first cell of each region in list.
	first []uint64
	// scan is where the cells not known yet begin: every cell before it
	// is filled or known.
	scan int
	// pending are the regions whose Grundy value is not known yet.
	pending []int32
	// total is the xor of the Grundy values known.
	total uint8
	f     flood
}

// regionRec is one region: where it is, and its Grundy value once known.
type regionRec struct {
	p     place
	first int32
	g     uint8
	hasG  bool
	dead  bool
}

// regions is b's region set, made on first use.
func (b *Board) regions() *regionSet {
	if b.rs == nil {
		b.rs = &regionSet{of: make([]int32, b.N*b.N), first: make([]uint64, (b.N*b.N+63)/64),
			f: flood{b: b, seen: make([]uint32, b.N*b.N)}}
	}
	return b.rs
}

// allSmall floods the cells not known yet, in reading order, and reports
// whether every region fits in 64 cells. It stops at the first that does
// not (early in a game, the first cell's region), leaving it not known.
func (rs *regionSet) allSmall(b *Board) bool {
	for ; rs.scan < b.N*b.N; rs.scan++ {
		c := Cell{X: rs.scan % b.N, Y: rs.scan / b.N}
		if rs.of[rs.scan] != 0 || !b.Free(c) {
			continue
		}
		if !rs.add(c) {
			return false
		}
	}
	return true
}

// add floods the region of free cell c and keeps it; ok is false when it
// does not fit in 64 cells.
func (rs *regionSet) add(c Cell) bool {
	p, size, ok := rs.f.region(c)
	if !ok {
		return false
	}
	n := rs.f.b.N
	mark := int32(-1)
	if size >= 2 {
		rs.list = append(rs.list, regionRec{p: p, first: int32(rs.f.cells[0].Y*n + rs.f.cells[0].X)})
		mark = int32(len(rs.list))
		rs.pending = append(rs.pending, mark-1)
	}
	first := n * n
	for _, d := range rs.f.cells {
		i := d.Y*n + d.X
		rs.of[i] = mark
		first = min(first, i)
	}
	if mark > 0 {
		rs.list[mark-1].first = int32(first)
		rs.first[first/64] |= 1 << (first % 64)
	}
	return true
}

// placed updates the set once c is filled: c's region, when known, is
// gone, and what is left of it is flooded again into the regions it
// splits into.
func (rs *regionSet) placed(b *Board, c Cell) {
	n := b.N
	id := rs.of[c.Y*n+c.X]
	rs.of[c.Y*n+c.X] = -1
	if id <= 0 {
		return
	}
	r := &rs.list[id-1]
	r.dead = true
	rs.first[r.first/64] &^= 1 << (r.first % 64)
	if r.hasG {
		rs.total ^= r.g
	}
	w := int(r.p.r.w)
	for m := r.p.r.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		rs.of[(r.p.y0+i/w)*n+r.p.x0+i%w] = 0
	}
	rs.of[c.Y*n+c.X] = -1
	for m := r.p.r.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if d := (Cell{X: r.p.x0 + i%w, Y: r.p.y0 + i/w}); rs.of[d.Y*n+d.X] == 0 && b.Free(d) {
			rs.add(d) // a part of a small region is small
		}
	}
}

// sortPending orders the regions whose value is not known by their first
// cell, the order in which a flood of the board finds them, and drops
// those gone.
func (rs *regionSet) sortPending() {
	rs.pending = slices.DeleteFunc(rs.pending, func(id int32) bool { return rs.list[id].dead || rs.list[id].hasG })
	slices.SortFunc(rs.pending, func(a, b int32) int { return int(rs.list[a].first - rs.list[b].first) })
}

// setG records region id's Grundy value.
func (rs *regionSet) setG(id int32, g uint8) {
	rs.list[id].g, rs.list[id].hasG = g, true
	rs.total ^= g
}

// each calls f for every region in order of their first cells, until f
// returns false.
func (rs *regionSet) each(f func(r *regionRec) bool) {
	for w, word := range rs.first {
		for ; word != 0; word &= word - 1 {
			i := w*64 + bits.TrailingZeros64(word)
			if !f(&rs.list[rs.of[i]-1]) {
				return
			}
		}
	}
}
