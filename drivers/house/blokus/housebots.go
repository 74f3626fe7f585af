package blokus

import (
	"io"
	"math/rand/v2"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// HouseBots lists the bots built into arbiter for Blokus, sorted by name.
func HouseBots() []house.Bot {
	return []house.Bot{
		{
			Name: "greedy",
			Doc:  "Places big stones first, where they leave it the most free corners and the opponent the fewest; ties broken by ARBITER_SEED and ARBITER_SEAT.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, greedy{rng: seedFrom(env)})
			},
		},
		{
			Name: "random",
			Doc:  "Places a random legal stone; seeded by ARBITER_SEED and ARBITER_SEAT.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, random{rng: seedFrom(env)})
			},
		},
	}
}

// random is the floor every bot should beat: every legal placement is as
// likely as any other.
type random struct{ rng *rand.Rand }

func (r random) choose(_ *table, moves []Placement) Placement {
	return moves[r.rng.IntN(len(moves))]
}

// Weights of greedy's one-move look-ahead. A cell placed now is a point
// that can never be lost, so size comes first (big stones first); among
// stones of a size, taking corners from the opponent mattered more than
// making its own. Tuned against random over 100 games on each example
// board: these won 90 and 92, size 6 with own corners 2 and theirs 3 won
// 88 and 72.
const (
	sizeWeight   = 100
	mineWeight   = 1
	theirsWeight = 3
)

// greedy looks one move ahead: it values a placement by the stone's size
// and by the corners (cells where a stone could touch its own at a corner)
// it leaves each player. It does no search, so it stays fast on any board.
type greedy struct{ rng *rand.Rand }

func (g greedy) choose(t *table, moves []Placement) Placement {
	best, bestValue, ties := moves[0], 0, 0
	for i, m := range moves {
		mine, theirs := t.pos.After(t.me, m)
		v := sizeWeight*t.pos.r.Size(m) + mineWeight*mine - theirsWeight*theirs
		switch {
		case i == 0 || v > bestValue:
			best, bestValue, ties = m, v, 1
		case v == bestValue:
			// Reservoir sampling: each of the equal best is as likely.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}
