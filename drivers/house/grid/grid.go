// Package grid is the cell of a board game's board, shared by the
// configuration's board block (drivers/board) and the house bots of the
// games that use it, which must not import the configuration language
// (see drivers/house).
package grid

import (
	"cmp"
	"encoding/json"
	"fmt"
)

// Cell is one cell of a board: X is the column (left to right), Y the row
// (top to bottom), both from 0. In JSON and HCL it is the pair [x, y].
type Cell struct{ X, Y int }

func (c Cell) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{c.X, c.Y}) }

func (c *Cell) UnmarshalJSON(b []byte) error {
	var xy [2]int
	if err := json.Unmarshal(b, &xy); err != nil {
		return fmt.Errorf("a cell is a pair [x, y]: %w", err)
	}
	c.X, c.Y = xy[0], xy[1]
	return nil
}

// String is "(x, y)", for messages.
func (c Cell) String() string { return fmt.Sprintf("(%d, %d)", c.X, c.Y) }

// Compare orders cells row by row, then by column.
func Compare(a, b Cell) int {
	return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
}
