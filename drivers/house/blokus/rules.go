package blokus

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Cell is a board cell; row 0 is the top row, column 0 the left column.
type Cell struct{ Row, Col int }

func (c Cell) String() string { return strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col) }

// MarshalJSON writes a cell as [row, col].
func (c Cell) MarshalJSON() ([]byte, error) {
	return []byte("[" + strconv.Itoa(c.Row) + "," + strconv.Itoa(c.Col) + "]"), nil
}

func (c *Cell) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if _, err := fmt.Sscanf(s, "[%d,%d]", &c.Row, &c.Col); err != nil {
		return fmt.Errorf("a cell must be [row,col], not %s", s)
	}
	return nil
}

// FormatCells writes cells the way play and gen_move carry them: "row,col"
// separated by spaces.
func FormatCells(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

// ParseCells reads cells written as "row,col" separated by spaces.
func ParseCells(text string) ([]Cell, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil, errors.New("no cells")
	}
	cells := make([]Cell, len(f))
	for i, w := range f {
		rs, cs, ok := strings.Cut(w, ",")
		r, er := strconv.Atoi(rs)
		c, ec := strconv.Atoi(cs)
		if !ok || er != nil || ec != nil {
			return nil, fmt.Errorf("%q is not a cell row,col", w)
		}
		cells[i] = Cell{r, c}
	}
	return cells, nil
}

// orient is one rotation of a shape, ready to be laid on board rows.
type orient struct {
	cells []Point
	w, h  int
	rows  []uint64 // rows[y]: bit x set for each cell (x, y)
}

// shape is a class of stones that are the same up to rotation: the rules
// do not tell them apart, so neither does the search for placements.
type shape struct {
	key     string
	size    int
	stones  []int // indices of the stones of this shape, in set order
	orients []orient
}

// Rules is a game's board and stone set with everything the placement
// search precomputes from them. It is immutable and shared by positions.
type Rules struct {
	geometry
	stones     []Stone
	blocked    []Cell
	blockMask  Mask
	shapes     []shape
	stoneShape []int // stone index -> shape index
	// byKey finds the shape and rotation of a normalised cell set.
	byKey map[string][2]int
	// mirrored maps the rotations of each chiral shape's mirror image to
	// the shape, to name the fault of a flipped stone.
	mirrored map[string]int
	start    [2]Cell
	total    int // cells of a whole stone set
}

// NewRules prepares rules for a rows × cols board with blocked cells and
// a stone set. Its errors are the config's validation, as sentences that
// say how to fix them; the decoder reports them with source ranges first.
func NewRules(rows, cols int, blocked []Cell, stones []Stone) (*Rules, error) {
	if rows < 1 || cols < 1 || rows > MaxSide || cols > MaxSide {
		return nil, fmt.Errorf("the board is %d × %d: rows and cols must each be from 1 to %d", rows, cols, MaxSide)
	}
	r := &Rules{geometry: newGeometry(rows, cols), stones: stones, blocked: blocked,
		byKey: map[string][2]int{}, mirrored: map[string]int{},
		start: [2]Cell{{rows - 1, 0}, {0, cols - 1}}}
	var errs []error
	for _, c := range blocked {
		if c.Row < 0 || c.Col < 0 || c.Row >= rows || c.Col >= cols {
			errs = append(errs, fmt.Errorf("the filled cell [%d, %d] is outside the %d × %d board", c.Row, c.Col, rows, cols))
			continue
		}
		r.blockMask.set(c)
	}
	for i, st := range r.start {
		if st.Row >= 0 && st.Col >= 0 && st.Row < rows && st.Col < cols && r.blockMask.has(st) {
			errs = append(errs, fmt.Errorf("player %d's start cell [%d, %d] is filled: the start cells (rows-1, 0) and (0, cols-1) must stay free", i+1, st.Row, st.Col))
		}
	}
	if len(stones) == 0 {
		errs = append(errs, errors.New("the stone set is empty: give at least one stone"))
	}
	r.stoneShape = make([]int, len(stones))
	for i, s := range stones {
		if err := CheckCells(s.Cells); err != nil {
			errs = append(errs, fmt.Errorf("stone %s: %w", s.Name, err))
			continue
		}
		norm := Normalise(s.Cells)
		w, h := Size(norm)
		if !(w <= cols && h <= rows) && !(h <= cols && w <= rows) {
			errs = append(errs, fmt.Errorf("stone %s is %d × %d and does not fit on the %d × %d board in any rotation", s.Name, w, h, rows, cols))
			continue
		}
		key := classKey(norm)
		k := slices.IndexFunc(r.shapes, func(sh shape) bool { return sh.key == key })
		if k < 0 {
			k = len(r.shapes)
			sh := shape{key: key, size: len(norm)}
			for _, rot := range Rotations(norm) {
				o := orient{cells: rot}
				o.w, o.h = Size(rot)
				o.rows = make([]uint64, o.h)
				for _, c := range rot {
					o.rows[c.Y] |= 1 << c.X
				}
				r.byKey[shapeKey(rot)] = [2]int{k, len(sh.orients)}
				sh.orients = append(sh.orients, o)
			}
			r.shapes = append(r.shapes, sh)
		}
		r.shapes[k].stones = append(r.shapes[k].stones, i)
		r.stoneShape[i] = k
		r.total += len(norm)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for k, sh := range r.shapes {
		for _, rot := range Rotations(Mirror(sh.orients[0].cells)) {
			// A mirror image that is itself a stone of the set (every
			// symmetric stone, or a set holding both hands of a shape)
			// is that stone, not a fault.
			if key := shapeKey(rot); !hasKey(r.byKey, key) {
				r.mirrored[key] = k
			}
		}
	}
	return r, nil
}

// Rows and Cols are the board's size.
func (r *Rules) Rows() int { return r.rows }
func (r *Rules) Cols() int { return r.cols }

// Stones is the stone set, normalised, in set order.
func (r *Rules) Stones() []Stone { return r.stones }

// Blocked lists the pre-filled cells.
func (r *Rules) Blocked() []Cell { return r.blocked }

// Start is player p's start cell (p = 0 for player 1, 1 for player 2).
func (r *Rules) Start(p int) Cell { return r.start[p] }

// Placement is a stone of shape Shape in rotation Orient whose normalised
// cell (0, 0) lies on board cell (Row, Col).
type Placement struct {
	Shape, Orient, Row, Col int
}

// Cells lists the board cells of a placement, row by row.
func (r *Rules) Cells(pl Placement) []Cell {
	o := &r.shapes[pl.Shape].orients[pl.Orient]
	out := make([]Cell, len(o.cells))
	for i, c := range o.cells {
		out[i] = Cell{pl.Row + c.Y, pl.Col + c.X}
	}
	return out
}

// Size is the number of cells of a placement's stone.
func (r *Rules) Size(pl Placement) int { return r.shapes[pl.Shape].size }

// StoneOf is the first stone of the set with the shape of pl.
func (r *Rules) StoneOf(pl Placement) Stone { return r.stones[r.shapes[pl.Shape].stones[0]] }

func (r *Rules) mask(pl Placement) Mask {
	var m Mask
	o := &r.shapes[pl.Shape].orients[pl.Orient]
	for y, bits := range o.rows {
		m[pl.Row+y] = bits << pl.Col
	}
	return m
}

// Position is a game in progress: whose cells are where and which stones
// each player has used. Players are 0 (player 1) and 1 (player 2).
type Position struct {
	r      *Rules
	own    [2]Mask
	occ    Mask // both players' cells and the filled ones
	used   [2][]bool
	placed [2]int // stones placed
	cells  [2]int // cells placed
}

// NewPosition is the empty board of r, its filled cells filled.
func NewPosition(r *Rules) *Position {
	p := &Position{r: r, occ: r.blockMask}
	for i := range p.used {
		p.used[i] = make([]bool, len(r.stones))
	}
	return p
}

// Clone returns an independent copy of p.
func (p *Position) Clone() *Position {
	q := *p
	for i := range q.used {
		q.used[i] = slices.Clone(p.used[i])
	}
	return &q
}

// Rules are the rules p is played by.
func (p *Position) Rules() *Rules { return p.r }

// Owner is 1 or 2 for a player's cell, -1 for a filled cell, 0 when free.
func (p *Position) Owner(c Cell) int {
	switch {
	case p.own[0].has(c):
		return 1
	case p.own[1].has(c):
		return 2
	case p.occ.has(c):
		return -1
	}
	return 0
}

// Used reports whether player pl has placed stone i.
func (p *Position) Used(pl, i int) bool { return p.used[pl][i] }

// Placed is the number of stones player pl has placed.
func (p *Position) Placed(pl int) int { return p.placed[pl] }

// Done reports whether player pl has placed all its stones.
func (p *Position) Done(pl int) bool { return p.placed[pl] == len(p.r.stones) }

// Score is player pl's score: 20 if it placed all its stones, minus the
// cells of the stones it has not placed.
func (p *Position) Score(pl int) int {
	s := p.cells[pl] - p.r.total
	if p.Done(pl) {
		s += 20
	}
	return s
}

// Left is the number of cells player pl has not placed yet.
func (p *Position) Left(pl int) int { return p.r.total - p.cells[pl] }

// Apply places pl's stone of the placement's shape (the first unused one
// in set order) and returns the stone's index. The placement must be
// legal (see Check, LegalMoves).
func (p *Position) Apply(pl int, m Placement) int {
	stone := -1
	for _, i := range p.r.shapes[m.Shape].stones {
		if !p.used[pl][i] {
			stone = i
			break
		}
	}
	if stone < 0 {
		panic("blokus: Apply with a used stone")
	}
	p.used[pl][stone] = true
	p.placed[pl]++
	p.cells[pl] += p.r.shapes[m.Shape].size
	o := &p.r.shapes[m.Shape].orients[m.Orient]
	for y, bits := range o.rows {
		p.own[pl][m.Row+y] |= bits << m.Col
		p.occ[m.Row+y] |= bits << m.Col
	}
	return stone
}

// forbidden is where pl may not put a cell: taken cells and cells along
// an edge of its own.
func (p *Position) forbidden(pl int) Mask {
	f := p.r.edges(&p.own[pl])
	for y := 0; y < p.r.rows; y++ {
		f[y] |= p.occ[y]
	}
	return f
}

// corners is where a stone of pl must put a cell: free cells diagonal to
// its own and not along an edge of them; before its first stone, its
// start cell if free.
func (p *Position) corners(pl int, forb *Mask) Mask {
	var c Mask
	if p.placed[pl] == 0 {
		if s := p.r.start[pl]; !forb.has(s) {
			c.set(s)
		}
		return c
	}
	c = p.r.diagonals(&p.own[pl])
	for y := 0; y < p.r.rows; y++ {
		c[y] &^= forb[y]
	}
	return c
}

// Corners is the number of cells where player pl could touch its own
// stones at a corner (its start cell before its first stone).
func (p *Position) Corners(pl int) int {
	f := p.forbidden(pl)
	c := p.corners(pl, &f)
	return p.r.count(&c)
}

// shapesLeft lists the shapes of which pl has an unused stone.
func (p *Position) shapesLeft(pl int, buf []int) []int {
	buf = buf[:0]
	for k := range p.r.shapes {
		for _, i := range p.r.shapes[k].stones {
			if !p.used[pl][i] {
				buf = append(buf, k)
				break
			}
		}
	}
	return buf
}

// scan visits pl's legal placements, anchored on its corner cells: every
// legal placement covers at least one corner cell, so trying each cell of
// each rotation of each unused shape on each corner finds them all, and a
// placement found from a corner that covers an earlier corner was already
// found there and is skipped. visit returns false to stop the scan; scan
// reports whether it was stopped.
func (p *Position) scan(pl int, visit func(Placement) bool) bool {
	var buf [64]int
	shapes := p.shapesLeft(pl, buf[:0])
	if len(shapes) == 0 {
		return false
	}
	forb := p.forbidden(pl)
	corners := p.corners(pl, &forb)
	var before Mask // corners already scanned
	rows, cols := p.r.rows, p.r.cols
	for cr := 0; cr < rows; cr++ {
		for word := corners[cr]; word != 0; word &= word - 1 {
			cc := bits.TrailingZeros64(word)
			for _, k := range shapes {
				sh := &p.r.shapes[k]
				for oi := range sh.orients {
					o := &sh.orients[oi]
				anchor:
					for _, a := range o.cells {
						r0, c0 := cr-a.Y, cc-a.X
						if r0 < 0 || c0 < 0 || r0+o.h > rows || c0+o.w > cols {
							continue
						}
						for y, b := range o.rows {
							b <<= c0
							if b&(forb[r0+y]|before[r0+y]) != 0 {
								continue anchor
							}
						}
						if !visit(Placement{k, oi, r0, c0}) {
							return true
						}
					}
				}
			}
			before[cr] |= 1 << cc
		}
	}
	return false
}

// HasMove reports whether player pl can place any stone.
func (p *Position) HasMove(pl int) bool {
	return p.scan(pl, func(Placement) bool { return false })
}

// LegalMoves lists every legal placement of player pl once, stones of one
// shape counted once, in a fixed order (by corner cell row-major, shape
// in set order, rotation, anchor cell).
func (p *Position) LegalMoves(pl int, buf []Placement) []Placement {
	buf = buf[:0]
	p.scan(pl, func(m Placement) bool { buf = append(buf, m); return true })
	return buf
}

// FirstMove returns one legal placement of pl, to name in the fault of a
// pass that was not allowed.
func (p *Position) FirstMove(pl int) (Placement, bool) {
	var found Placement
	ok := p.scan(pl, func(m Placement) bool { found = m; return false })
	return found, ok
}

// Check finds the stone player pl lays on cells and whether the rules
// allow it. problem is empty when the move is legal, else a sentence
// fragment saying why not ("covers 3,4, which is taken").
func (p *Position) Check(pl int, cells []Cell) (m Placement, problem string) {
	r := p.r
	seen := map[Cell]bool{}
	pts := make([]Point, len(cells))
	for i, c := range cells {
		if c.Row < 0 || c.Col < 0 || c.Row >= r.rows || c.Col >= r.cols {
			return m, fmt.Sprintf("placed cell %s, which is outside the %d × %d board", c, r.rows, r.cols)
		}
		if seen[c] {
			return m, fmt.Sprintf("placed cell %s twice", c)
		}
		seen[c] = true
		pts[i] = Point{c.Col, c.Row}
	}
	norm := Normalise(pts)
	key := shapeKey(norm)
	ko, ok := r.byKey[key]
	if !ok {
		if k, mir := r.mirrored[key]; mir {
			return m, fmt.Sprintf("placed stone %s mirrored; stones may be rotated but not flipped", r.stones[r.shapes[k].stones[0]].Name)
		}
		return m, fmt.Sprintf("placed %d cells in a shape that is no stone of the set", len(cells))
	}
	m = Placement{Shape: ko[0], Orient: ko[1], Row: r.rows, Col: r.cols}
	for _, c := range cells {
		m.Row, m.Col = min(m.Row, c.Row), min(m.Col, c.Col)
	}
	sh := &r.shapes[m.Shape]
	if !slices.ContainsFunc(sh.stones, func(i int) bool { return !p.used[pl][i] }) {
		return m, fmt.Sprintf("placed stone %s, but has used every stone of that shape", r.stones[sh.stones[0]].Name)
	}
	for _, c := range cells {
		if p.occ.has(c) {
			whose := "a filled cell"
			switch p.Owner(c) {
			case pl + 1:
				whose = "its own"
			case 2 - pl:
				whose = "the opponent's"
			}
			return m, fmt.Sprintf("covered %s, which is %s", c, whose)
		}
	}
	if p.placed[pl] == 0 {
		if !seen[r.start[pl]] {
			return m, fmt.Sprintf("placed its first stone on %s, which does not cover its start cell %s", cellList(cells), r.start[pl])
		}
		return m, ""
	}
	edges := r.edges(&p.own[pl])
	diag := r.diagonals(&p.own[pl])
	corner := false
	for _, c := range cells {
		if edges.has(c) {
			return m, fmt.Sprintf("placed cell %s along an edge of its own stone", c)
		}
		corner = corner || diag.has(c)
	}
	if !corner {
		return m, fmt.Sprintf("placed a stone on %s, which touches none of its own at a corner", cellList(cells))
	}
	return m, ""
}

// cellList writes cells as a move writes them: "9,0 9,1 8,1".
func cellList(cells []Cell) string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

// After returns the corner counts (see Corners) that player pl and its
// opponent would have once pl made the legal placement m, without
// changing p: what greedy play weighs.
func (p *Position) After(pl int, m Placement) (mine, theirs int) {
	pm := p.r.mask(m)
	var own, occ Mask
	for y := 0; y < p.r.rows; y++ {
		own[y] = p.own[pl][y] | pm[y]
		occ[y] = p.occ[y] | pm[y]
	}
	count := func(who int, own *Mask) int {
		if who != pl && p.placed[who] == 0 {
			if s := p.r.start[who]; !occ.has(s) {
				return 1
			}
			return 0
		}
		e, d := p.r.edges(own), p.r.diagonals(own)
		n := 0
		for y := 0; y < p.r.rows; y++ {
			n += bits.OnesCount64(d[y] &^ (e[y] | occ[y]))
		}
		return n
	}
	return count(pl, &own), count(1-pl, &p.own[1-pl])
}

func hasKey(m map[string][2]int, k string) bool {
	_, ok := m[k]
	return ok
}
