package bricks

import (
	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/bricks"
)

// The board, the moves and the house bots live in drivers/house/bricks,
// which the house bots' processes run without this package's
// configuration language (see drivers/house). These are their names here.

// Sizes a Bricks board may have: odd, from MinSize to MaxSize.
const (
	MinSize = core.MinSize
	MaxSize = core.MaxSize
)

type (
	// Cell is a board cell, X the column and Y the row, from 0.
	Cell = core.Cell
	// Move is a domino: two cells, in the order the player wrote them.
	Move = core.Move
	// Board is the state of a game: which cells are filled.
	Board = core.Board
)

// ParseMove reads "AxB_CxD"; ok is false when text is not of that form.
func ParseMove(text string) (m Move, ok bool) { return core.ParseMove(text) }

// NewBoard is an n×n board with cells filled. The cells must be on the
// board (the decoder checked).
func NewBoard(n int, cells []Cell) *Board { return core.NewBoard(n, cells) }

// Message is the board message of the protocol: the size, then each
// filled cell, "7_2x3_4x5".
func Message(n int, cells []Cell) string { return core.Message(n, cells) }

// HouseBots lists the bots built into arbiter for Bricks, sorted by name.
func HouseBots() []drivers.HouseBot { return core.HouseBots() }
