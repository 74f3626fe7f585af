package auction

import (
	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/auction"
)

// The cells, the queue and the house bots live in drivers/house/auction,
// which the house bots' processes run without this package's
// configuration language (see drivers/house). These are their names here.

// Cell is a square of the board, 0-based; files show it 1-based.
type Cell = core.Cell

// Queue is the auction order of all cells for seed: the cells row by row,
// shuffled by Fisher-Yates (core.Queue).
func Queue(cols, rows int, seed uint64) []Cell { return core.Queue(cols, rows, seed) }

// HouseBots lists the bots built into arbiter for Auction, sorted by name.
func HouseBots() []drivers.HouseBot { return core.HouseBots() }
