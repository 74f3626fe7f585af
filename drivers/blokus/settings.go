package blokus

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-contests/arbiter/drivers/board"
)

// Settings is a decoded blokus game, as the plan records it: the board and
// the stone set, both complete, so a plan replays without the config files
// (a stones file is read once, when the config is decoded).
type Settings struct {
	Board  board.Spec `json:"board"`
	Stones []Stone    `json:"stones"`
}

// Rules prepares the rules of one match played with seed: the board's
// filled cells are drawn for it (see Filled).
func (s Settings) Rules(seed uint64) (*Rules, error) {
	if err := s.Board.Validate(); err != nil {
		return nil, err
	}
	return NewRules(s.Board.Rows, s.Board.Cols, s.Filled(seed), s.Stones)
}

// Filled is the filled cells of a match played with seed. Random cells are
// drawn as if the two start cells were filled too, so that a draw never
// takes a start corner and still fills exactly Random cells.
func (s Settings) Filled(seed uint64) []Cell {
	spec := s.Board
	starts := []board.Cell{{X: 0, Y: spec.Rows - 1}, {X: spec.Cols - 1, Y: 0}}
	if spec.Random > 0 {
		spec.Filled = slices.Clone(spec.Filled)
		for _, st := range starts {
			if !slices.Contains(spec.Filled, st) {
				spec.Filled = append(spec.Filled, st)
			}
		}
	}
	var out []Cell
	for _, c := range spec.Cells(seed) {
		if spec.Random > 0 && slices.Contains(starts, c) && !slices.Contains(s.Board.Filled, c) {
			continue
		}
		out = append(out, Cell{Row: c.Y, Col: c.X})
	}
	return out
}

// Validate checks settings that did not come from a decoded block (a plan
// read back), with the checks the decoder makes.
func (s Settings) Validate() error {
	if err := s.Board.Validate(); err != nil {
		return err
	}
	if free := s.Board.Rows*s.Board.Cols - len(s.Board.Filled) - 2; s.Board.Random > 0 && s.Board.Random > free {
		return fmt.Errorf("random is %d, but the board has only %d free cells besides the start cells", s.Board.Random, free)
	}
	if _, err := s.Rules(0); err != nil {
		return err
	}
	if p := startProblems(s); len(p) > 0 {
		return errors.New(p[0].detail)
	}
	return nil
}
