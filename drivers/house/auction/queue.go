package auction

import (
	"math/rand/v2"
	"strconv"

	"github.com/arbiter-contests/arbiter/drivers/shuffle"
)

// Cell is a square of the board, 0-based; files show it 1-based.
type Cell struct{ Col, Row int }

// String is the cell as the state file writes it: [column,row], 1-based.
func (c Cell) String() string { return "[" + strconv.Itoa(c.Col+1) + "," + strconv.Itoa(c.Row+1) + "]" }

// queueStream tells the auction queue apart from other uses of a match
// seed. Changing it changes every queue ever drawn, which would break the
// promise that a seed replays a game.
const queueStream = 0x61756374696f6e71 // "auctionq"

// Queue is the auction order of all cells for seed: the cells row by row,
// shuffled by Fisher-Yates. The shuffle is written out here rather than
// taken from math/rand/v2, whose Shuffle and IntN may change between Go
// releases; only the PCG generator, which is specified, is borrowed.
func Queue(cols, rows int, seed uint64) []Cell {
	q := make([]Cell, 0, cols*rows)
	for r := range rows {
		for c := range cols {
			q = append(q, Cell{c, r})
		}
	}
	src := rand.NewPCG(seed, queueStream)
	shuffle.Slice(src, q)
	return q
}
