package bricks

import (
	"io"
	"math/bits"
	"math/rand/v2"

	"github.com/arbiter-contests/arbiter/drivers/house"
	"github.com/arbiter-contests/arbiter/drivers/house/grid"
)

// HouseBots lists the bots built into arbiter for Bricks, sorted by name.
func HouseBots() []house.Bot {
	return []house.Bot{
		{
			Name: "keeper",
			Doc:  "Keeps a won position: mirrors the opponent through the centre when that wins, solves endgames exactly (Sprague-Grundy values of the board's regions), and otherwise takes the move that removes most of the others' moves.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, &keeper{rng: seedFrom(env), memo: map[region]uint8{}})
			},
		},
		{
			Name: "random",
			Doc:  "Places a random legal domino; seeded by ARBITER_SEED and ARBITER_SEAT.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, random{rng: seedFrom(env)})
			},
		},
	}
}

// seedFrom seeds a house bot from its seed (ARBITER_SEED, its own in
// its match: drivers.BotSeed) and seat, so that it
// plays the same duel twice.
func seedFrom(env func(string) string) *rand.Rand {
	seed, seat := house.EnvUint(env, "ARBITER_SEED"), house.EnvUint(env, "ARBITER_SEAT")
	return rand.New(rand.NewPCG(seed, seat+0x627269636b73))
}

// random is the floor every bot should beat.
type random struct{ rng *rand.Rand }

func (random) begin(*Board) {}

// choose draws among the legal moves in Moves' order.
func (r random) choose(b *Board) Move {
	x := b.index()
	return x.nth(b, r.rng.IntN(x.legal()), -1)
}

// keeper plays to win the last move.
type keeper struct {
	rng  *rand.Rand
	memo map[region]uint8
	// tried counts the dominoes its searches have tried (each a split of
	// a region and a look-up or evaluation of its parts); the move being
	// chosen may try them up to limit. A bound on work, not on time, so
	// that a move takes the same work, and makes the same choice, on any
	// machine however loaded.
	tried, limit int
}

// keeperBudget is the dominoes one move may try: some 0.3-0.5 µs of CPU
// each, so that the search of the worst move costs a few milliseconds,
// far inside the original's half-second move limit even on a loaded
// machine (go test ./drivers/house/bricks -run KeeperWorstMove -v
// measures it). Counting only the regions new to the memo, as it once
// did, let a move take 200 ms: each new region tries all its dominoes.
const keeperBudget = 4000

func (k *keeper) begin(*Board) {}

func (k *keeper) choose(b *Board) Move {
	k.limit = k.tried + keeperBudget
	if m, ok := k.mirror(b); ok {
		return m
	}
	if m, ok := k.solve(b); ok {
		return m
	}
	// No known win: take the move that removes the most moves (its own
	// included), which hastens the endgame the solver can read; ties at
	// random, drawn among them in Moves' order.
	x := b.index()
	best := x.best()
	return x.nth(b, k.rng.IntN(x.total[best]), best)
}

// mirror finds a move after which the board is symmetric through its
// centre and no domino can ever cover the centre cell: from there, answering
// every move with its mirror image wins, since a mirrored move is always
// free and the mirror player makes the last move. One domino changes the
// symmetry of its own two cells and of their mirror images, so the board
// must have exactly four cells that differ from their mirror image: two
// free, whose images are filled, and the move fills those two.
func (k *keeper) mirror(b *Board) (Move, bool) {
	x := b.index()
	if len(x.asym) != 4 {
		return Move{}, false
	}
	n := b.N
	var m Move
	free := 0
	for _, i := range x.asym {
		if c := (Cell{X: int(i) % n, Y: int(i) / n}); b.Free(c) {
			m[free] = c
			free++
		}
	}
	if grid.Compare(m[1], m[0]) < 0 {
		m[0], m[1] = m[1], m[0] // Moves' order: the left or upper cell first
	}
	if b.Check(m) != "" || m[0] == (Cell{X: n - 1 - m[1].X, Y: n - 1 - m[1].Y}) {
		return Move{}, false // not a domino, or its own mirror image
	}
	center := Cell{X: n / 2, Y: n / 2}
	if !b.Free(center) {
		return m, true
	}
	for _, nb := range neighbours(center) {
		if b.Free(nb) && nb != m[0] && nb != m[1] {
			return Move{}, false
		}
	}
	return m, true
}

// region is a connected set of free cells within its bounding box of w×h
// cells (w*h <= 64), bit y*w+x set for a free cell.
type region struct {
	w, h uint8
	mask uint64
}

// place is a region of the board with its top-left corner.
type place struct {
	r      region
	x0, y0 int
}

// solve plays a move that leaves a position of Grundy value 0 (lost for
// the player to move), when every region of the board is small enough to
// evaluate within the budget.
func (k *keeper) solve(b *Board) (Move, bool) {
	rs := b.regions()
	if !rs.allSmall(b) {
		return Move{}, false
	}
	// The values not known yet, in the regions' order: the budget may
	// run out on one, and the memo is filled as they are evaluated.
	rs.sortPending()
	for i, id := range rs.pending {
		g, ok := k.grundy(rs.list[id].p.r)
		if !ok {
			rs.pending = rs.pending[i:]
			return Move{}, false
		}
		rs.setG(id, g)
	}
	rs.pending = rs.pending[:0]
	if rs.total == 0 {
		return Move{}, false // lost against perfect play
	}
	var m Move
	found := false
	rs.each(func(r *regionRec) bool {
		var more bool
		m, found, more = k.winIn(r.p, rs.total^r.g)
		return more
	})
	return m, found
}

// winIn looks in the region at p for a move after which the region's
// value is want; more says to look on in the next region: no move was
// found and the budget is not spent.
func (k *keeper) winIn(p place, want uint8) (m Move, found, more bool) {
	ok := p.r.dominoes(func(a, c int) bool {
		x, ok := k.after(p.r, a, c)
		if !ok {
			return false
		}
		if x == want {
			w := int(p.r.w)
			m, found = Move{{X: p.x0 + a%w, Y: p.y0 + a/w}, {X: p.x0 + c%w, Y: p.y0 + c/w}}, true
			return false
		}
		return true
	})
	return m, found, !found && (ok || k.tried < k.limit)
}

// after is the Grundy value of region r once cells a and c are filled;
// ok is false when the budget ran out first. Each call is one unit of
// the budget: it splits a region and looks up (or evaluates) its parts.
func (k *keeper) after(r region, a, c int) (uint8, bool) {
	if k.tried >= k.limit {
		return 0, false
	}
	k.tried++
	x := uint8(0)
	var buf [8]region // on the stack: the search makes no garbage
	for _, part := range split(buf[:0], r.w, r.h, r.mask&^(1<<a|1<<c)) {
		g, ok := k.grundy(part)
		if !ok {
			return 0, false
		}
		x ^= g
	}
	return x, true
}

// grundy is the Sprague-Grundy value of a region; ok is false when the
// budget ran out first.
func (k *keeper) grundy(r region) (uint8, bool) {
	if g, ok := k.memo[r]; ok {
		return g, true
	}
	var seen uint64
	failed := false
	r.dominoes(func(a, c int) bool {
		x, ok := k.after(r, a, c)
		if !ok {
			failed = true
			return false
		}
		seen |= 1 << (x & 63)
		return true
	})
	if failed {
		return 0, false
	}
	g := uint8(bits.TrailingZeros64(^seen))
	k.memo[r] = g
	return g, true
}

// dominoes calls f for every domino of r, as two bit indexes, until f
// returns false; it reports whether f never did.
func (r region) dominoes(f func(a, c int) bool) bool {
	w := int(r.w)
	for m := r.mask; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if i%w+1 < w && r.mask&(1<<(i+1)) != 0 && !f(i, i+1) {
			return false
		}
		if i+w < w*int(r.h) && r.mask&(1<<(i+w)) != 0 && !f(i, i+w) {
			return false
		}
	}
	return true
}

// split cuts a mask of free cells in a w×h box into its connected regions
// of two cells or more, each in its own bounding box, appended to out.
func split(out []region, w, h uint8, mask uint64) []region {
	W := int(w)
	for mask != 0 {
		seed := uint64(1) << bits.TrailingZeros64(mask)
		comp := seed
		for {
			grow := comp | (comp<<1)&^colMask(W, 0) | (comp>>1)&^colMask(W, W-1) | comp<<W | comp>>W
			grow &= mask
			if grow == comp {
				break
			}
			comp = grow
		}
		mask &^= comp
		if bits.OnesCount64(comp) < 2 {
			continue
		}
		out = append(out, normalize(W, comp))
	}
	return out
}

// colMask is the bits of column x in rows of width w.
func colMask(w, x int) uint64 {
	var m uint64
	for i := x; i < 64; i += w {
		m |= 1 << i
	}
	return m
}

// normalize moves a component of a width-w box into its bounding box.
func normalize(w int, comp uint64) region {
	minX, minY, maxX, maxY := 64, 64, -1, -1
	for m := comp; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		x, y := i%w, i/w
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	nw := maxX - minX + 1
	var out uint64
	for m := comp; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		out |= 1 << ((i/w-minY)*nw + i%w - minX)
	}
	return region{w: uint8(nw), h: uint8(maxY - minY + 1), mask: out}
}

// flood finds the regions of a board's free cells, one at a time.
type flood struct {
	b *Board
	// seen marks the cells of the current flood: those equal to gen.
	seen         []uint32
	gen          uint32
	stack, cells []Cell
}

// region floods the free cells connected to start, which it marks seen,
// and returns them as a place and their number; ok is false as soon as
// the cells flooded span a box of more than 64 cells, as the whole
// region then does.
func (f *flood) region(start Cell) (p place, size int, ok bool) {
	n := f.b.N
	f.gen++
	f.seen[start.Y*n+start.X] = f.gen
	f.stack, f.cells = append(f.stack[:0], start), f.cells[:0]
	minX, minY, maxX, maxY := start.X, start.Y, start.X, start.Y
	for len(f.stack) > 0 {
		c := f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
		f.cells = append(f.cells, c)
		minX, minY, maxX, maxY = min(minX, c.X), min(minY, c.Y), max(maxX, c.X), max(maxY, c.Y)
		if (maxX-minX+1)*(maxY-minY+1) > 64 {
			return place{}, 0, false
		}
		for _, nb := range neighbours(c) {
			if f.b.Free(nb) && f.seen[nb.Y*n+nb.X] != f.gen {
				f.seen[nb.Y*n+nb.X] = f.gen
				f.stack = append(f.stack, nb)
			}
		}
	}
	w := maxX - minX + 1
	var mask uint64
	for _, c := range f.cells {
		mask |= 1 << ((c.Y-minY)*w + c.X - minX)
	}
	return place{r: region{w: uint8(w), h: uint8(maxY - minY + 1), mask: mask}, x0: minX, y0: minY}, len(f.cells), true
}

// Keeper is the house bot keeper in process, for a conformance check that
// plays against it.
type Keeper struct{ k *keeper }

// NewKeeper is keeper drawing its random choices from rng.
func NewKeeper(rng *rand.Rand) Keeper { return Keeper{&keeper{rng: rng, memo: map[region]uint8{}}} }

// Choose is keeper's move on b, which must have one.
func (k Keeper) Choose(b *Board) Move { return k.k.choose(b) }
