package bricks

// moveIndex keeps, as the board fills, what the house bots ask of it at
// every move, so that a move costs them about the square root of the
// board's cells rather than all of them (a whole 301×301 game took them
// minutes when each move listed every legal move): the legal moves, in
// Moves' order, and each one's count of the free cells around it, which
// keeper's fallback maximises; and the cells whose mirror image through
// the centre differs from them, which keeper's mirror strategy counts. A
// board makes its index on first use (NewBoard's callers that only
// referee, arbiter's own, never pay for it) and Place keeps it.
type moveIndex struct {
	// score is, for each move slot (2 per cell: right, then down), the
	// free cells beside the domino, or -1 when the move is not legal.
	score []int8
	// count is the legal moves with each score (0 to 6), per block of
	// blockSlots slots and in all; legalIn the legal moves per block.
	count   [][7]int32
	legalIn []int32
	total   [7]int
	// asym holds the cells that differ from their mirror image; at is
	// each cell's place in it plus one, 0 when not in it.
	asym []int32
	at   []int32
}

// blockSlots is how many move slots a block of the index counts: the
// k-th move is found by skipping whole blocks, then reading one.
const blockSlots = 1024

// index is b's move index, made on first use.
func (b *Board) index() *moveIndex {
	if b.idx != nil {
		return b.idx
	}
	n := b.N
	x := &moveIndex{score: make([]int8, 2*n*n), count: make([][7]int32, (2*n*n+blockSlots-1)/blockSlots), legalIn: make([]int32, (2*n*n+blockSlots-1)/blockSlots), at: make([]int32, n*n)}
	b.idx = x
	for s := range x.score {
		x.score[s] = -1
		x.rescore(b, s)
	}
	for i := range n * n {
		x.reflect(b, i)
	}
	return x
}

// slotMove is the move of slot s: its cell, and the cell right of it or
// below it.
func (b *Board) slotMove(s int) Move {
	c := Cell{X: s / 2 % b.N, Y: s / 2 / b.N}
	if s%2 == 0 {
		return Move{c, {X: c.X + 1, Y: c.Y}}
	}
	return Move{c, {X: c.X, Y: c.Y + 1}}
}

// rescore sets slot s's score from the board.
func (x *moveIndex) rescore(b *Board, s int) {
	m := b.slotMove(s)
	score := int8(-1)
	if b.Free(m[0]) && b.Free(m[1]) {
		score = int8(freeAround(b, m))
	}
	if old := x.score[s]; old != score {
		if old >= 0 {
			x.count[s/blockSlots][old]--
			x.total[old]--
			x.legalIn[s/blockSlots]--
		}
		if score >= 0 {
			x.count[s/blockSlots][score]++
			x.total[score]++
			x.legalIn[s/blockSlots]++
		}
		x.score[s] = score
	}
}

// freeAround is how many free cells are beside the cells of m, m's own
// not counted: the moves m takes from the others, besides its own.
func freeAround(b *Board, m Move) int {
	n := 0
	for _, c := range m {
		for _, nb := range neighbours(c) {
			if b.Free(nb) && nb != m[0] && nb != m[1] {
				n++
			}
		}
	}
	return n
}

// reflect puts cell i in the asymmetric set or takes it out, as the board
// says.
func (x *moveIndex) reflect(b *Board, i int) {
	n := b.N
	c := Cell{X: i % n, Y: i / n}
	differs := b.Free(c) != b.Free(Cell{X: n - 1 - c.X, Y: n - 1 - c.Y})
	switch in := x.at[i] != 0; {
	case differs && !in:
		x.asym = append(x.asym, int32(i))
		x.at[i] = int32(len(x.asym))
	case !differs && in:
		last := x.asym[len(x.asym)-1]
		x.asym[x.at[i]-1] = last
		x.at[last] = x.at[i]
		x.asym = x.asym[:len(x.asym)-1]
		x.at[i] = 0
	}
}

// placed brings the index up to date once c is filled: the moves whose
// cells are c or beside it, so whose first cell is within two steps, and
// c and its mirror image.
func (x *moveIndex) placed(b *Board, c Cell) {
	n := b.N
	for y := max(c.Y-2, 0); y <= min(c.Y+2, n-1); y++ {
		for cx := max(c.X-2, 0); cx <= min(c.X+2, n-1); cx++ {
			x.rescore(b, 2*(y*n+cx))
			x.rescore(b, 2*(y*n+cx)+1)
		}
	}
	x.reflect(b, c.Y*n+c.X)
	x.reflect(b, (n-1-c.Y)*n+n-1-c.X)
}

// legal is how many moves are legal.
func (x *moveIndex) legal() int {
	k := 0
	for _, t := range x.total {
		k += t
	}
	return k
}

// nth is the k-th move (from 0), in Moves' order, among the legal moves
// with the given score, or among all the legal moves when score is -1.
func (x *moveIndex) nth(b *Board, k, score int) Move {
	for blk := range x.count {
		in := int(x.legalIn[blk])
		if score >= 0 {
			in = int(x.count[blk][score])
		}
		if k >= in {
			k -= in
			continue
		}
		for s := blk * blockSlots; ; s++ {
			if got := int(x.score[s]); got >= 0 && (score < 0 || got == score) {
				if k == 0 {
					return b.slotMove(s)
				}
				k--
			}
		}
	}
	panic("bricks: move index out of range")
}

// best is the highest score of a legal move, -1 when none is legal.
func (x *moveIndex) best() int {
	for s := len(x.total) - 1; s >= 0; s-- {
		if x.total[s] > 0 {
			return s
		}
	}
	return -1
}
