package bricks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/house/grid"
)

// Sizes a Bricks board may have: odd, from MinSize to MaxSize.
const (
	MinSize = 3
	MaxSize = 999
)

// Cell is a board cell, X the column and Y the row, from 0.
type Cell = grid.Cell

// Move is a domino: two cells, in the order the player wrote them.
type Move [2]Cell

// String is the move in the protocol's form, "AxB_CxD" in decimal.
func (m Move) String() string {
	return fmt.Sprintf("%dx%d_%dx%d", m[0].X, m[0].Y, m[1].X, m[1].Y)
}

// ParseMove reads "AxB_CxD". Numbers are decimal and may carry a sign, so
// that "-1x0_0x0" is a move off the board (illegal) rather than gibberish
// (a protocol fault). ok is false when text is not of that form.
func ParseMove(text string) (m Move, ok bool) {
	a, b, found := strings.Cut(text, "_")
	if !found {
		return m, false
	}
	if m[0], ok = parseCell(a); !ok {
		return m, false
	}
	m[1], ok = parseCell(b)
	return m, ok
}

func parseCell(s string) (Cell, bool) {
	xs, ys, found := strings.Cut(s, "x")
	if !found {
		return Cell{}, false
	}
	x, ok1 := parseInt(xs)
	y, ok2 := parseInt(ys)
	return Cell{X: x, Y: y}, ok1 && ok2
}

// parseInt accepts an optional sign and decimal digits, nothing else
// (no spaces, no underscores, no hex), within ±10^9.
func parseInt(s string) (int, bool) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || len(digits) > 9 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Board is the state of a game: which cells are filled.
type Board struct {
	N      int
	filled []bool
	// scan is where HasMove starts looking: no domino can start at an
	// earlier cell, and since cells only ever fill, none ever will. This
	// keeps a whole game's checks linear in the cells, not quadratic,
	// which matters on a 999×999 board.
	scan int
	// idx is the house bots' move index, nil until they ask (index.go).
	idx *moveIndex
	// rs is keeper's regions, nil until it asks (regions.go).
	rs *regionSet
}

// NewBoard is an n×n board with cells filled. The cells must be on the
// board (the decoder checked).
func NewBoard(n int, cells []Cell) *Board {
	b := &Board{N: n, filled: make([]bool, n*n)}
	for _, c := range cells {
		b.filled[c.Y*n+c.X] = true
	}
	return b
}

// Message is the board message of the protocol: the size, then each
// filled cell, "7_2x3_4x5".
func Message(n int, cells []Cell) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(n))
	for _, c := range cells {
		fmt.Fprintf(&sb, "_%dx%d", c.X, c.Y)
	}
	return sb.String()
}

// On reports whether c is on the board.
func (b *Board) On(c Cell) bool { return c.X >= 0 && c.Y >= 0 && c.X < b.N && c.Y < b.N }

// Free reports whether c is on the board and empty.
func (b *Board) Free(c Cell) bool { return b.On(c) && !b.filled[c.Y*b.N+c.X] }

// Check says why m may not be played now, or returns "" when it may.
func (b *Board) Check(m Move) string {
	for _, c := range m {
		if !b.On(c) {
			return fmt.Sprintf("cell %dx%d is off the %d×%d board", c.X, c.Y, b.N, b.N)
		}
	}
	for _, c := range m {
		if !b.Free(c) {
			return fmt.Sprintf("cell %dx%d is already filled", c.X, c.Y)
		}
	}
	dx, dy := abs(m[0].X-m[1].X), abs(m[0].Y-m[1].Y)
	switch {
	case dx == 0 && dy == 0:
		return fmt.Sprintf("both halves are the same cell %dx%d", m[0].X, m[0].Y)
	case dx+dy != 1:
		return fmt.Sprintf("cells %dx%d and %dx%d are not side by side, so they are not a domino", m[0].X, m[0].Y, m[1].X, m[1].Y)
	}
	return ""
}

// Place fills the cells of m, which must be legal.
func (b *Board) Place(m Move) {
	for _, c := range m {
		b.filled[c.Y*b.N+c.X] = true
	}
	for _, c := range m {
		if b.idx != nil {
			b.idx.placed(b, c)
		}
		if b.rs != nil {
			b.rs.placed(b, c)
		}
	}
}

// HasMove reports whether any domino can still be placed.
func (b *Board) HasMove() bool {
	for ; b.scan < b.N*b.N; b.scan++ {
		x, y := b.scan%b.N, b.scan/b.N
		if b.Free(Cell{X: x, Y: y}) && (b.Free(Cell{X: x + 1, Y: y}) || b.Free(Cell{X: x, Y: y + 1})) {
			return true
		}
	}
	return false
}

// Moves lists every legal move, in reading order of the first cell,
// horizontal before vertical; the first cell is the left or upper one.
func (b *Board) Moves() []Move {
	var out []Move
	for y := 0; y < b.N; y++ {
		for x := 0; x < b.N; x++ {
			c := Cell{X: x, Y: y}
			if !b.Free(c) {
				continue
			}
			if r := (Cell{X: x + 1, Y: y}); b.Free(r) {
				out = append(out, Move{c, r})
			}
			if d := (Cell{X: x, Y: y + 1}); b.Free(d) {
				out = append(out, Move{c, d})
			}
		}
	}
	return out
}

// Clone is an independent copy.
func (b *Board) Clone() *Board {
	return &Board{N: b.N, filled: append([]bool(nil), b.filled...)}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// neighbours are the four cells beside c, on the board or not.
func neighbours(c Cell) [4]Cell {
	return [4]Cell{{X: c.X + 1, Y: c.Y}, {X: c.X - 1, Y: c.Y}, {X: c.X, Y: c.Y + 1}, {X: c.X, Y: c.Y - 1}}
}

// OriginalProblem is why the original referee rejects m, in its words
// (game.Rules.validateAddingRectangle): each cell in turn, off the board
// ("DataCell(x;y) is outside data matrix NxN.") or filled ("Cell(x;y)
// already has a value of true."), then the pair ("Blocks (x;y) and (x;y)
// are not neighbours!"). The original let through pairs whose columns or
// rows differ by one even when they are not side by side (0x0_1x1,
// 0x0_1x2); Check rejects them as the rules say, and this gives them the
// sentence the original gives the other pairs that are not dominoes.
func (b *Board) OriginalProblem(m Move) string {
	for _, c := range m {
		if !b.On(c) {
			return fmt.Sprintf("DataCell(%d;%d) is outside data matrix %dx%d.", c.X, c.Y, b.N, b.N)
		}
		if !b.Free(c) {
			return fmt.Sprintf("Cell(%d;%d) already has a value of true.", c.X, c.Y)
		}
	}
	return fmt.Sprintf("Blocks (%d;%d) and (%d;%d) are not neighbours!", m[0].X, m[0].Y, m[1].X, m[1].Y)
}
