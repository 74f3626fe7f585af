package blokus

import "math/bits"

// MaxSide is the most rows or columns a board may have: a board row is one
// uint64, bit c being column c, so that testing a stone against a row of
// the board is one shift and one AND.
const MaxSide = 64

// Mask is a set of board cells: bit c of word r is the cell (r, c). Words
// past the board's rows and bits past its columns are always zero.
type Mask [MaxSide]uint64

// geometry is the board's size, which every mask operation needs.
type geometry struct {
	rows, cols int
	full       uint64 // the bits of one row's columns
}

func newGeometry(rows, cols int) geometry {
	full := ^uint64(0)
	if cols < 64 {
		full = 1<<cols - 1
	}
	return geometry{rows: rows, cols: cols, full: full}
}

// edges is the set of cells that share an edge with a cell of m.
func (g geometry) edges(m *Mask) Mask {
	var out Mask
	for r := 0; r < g.rows; r++ {
		v := m[r]<<1 | m[r]>>1
		if r > 0 {
			v |= m[r-1]
		}
		if r+1 < g.rows {
			v |= m[r+1]
		}
		out[r] = v & g.full
	}
	return out
}

// diagonals is the set of cells that share a corner, and no edge, with a
// cell of m (the cells of m's own edges may still be among them).
func (g geometry) diagonals(m *Mask) Mask {
	var out Mask
	for r := 0; r < g.rows; r++ {
		var v uint64
		if r > 0 {
			v |= m[r-1]<<1 | m[r-1]>>1
		}
		if r+1 < g.rows {
			v |= m[r+1]<<1 | m[r+1]>>1
		}
		out[r] = v & g.full
	}
	return out
}

// count is the number of cells in m.
func (g geometry) count(m *Mask) int {
	n := 0
	for r := 0; r < g.rows; r++ {
		n += bits.OnesCount64(m[r])
	}
	return n
}

func (m *Mask) set(c Cell)      { m[c.Row] |= 1 << c.Col }
func (m *Mask) has(c Cell) bool { return m[c.Row]>>c.Col&1 != 0 }
