package blokus

import (
	"io"

	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/blokus"
)

// The board, the stones, the rules and the house bots live in
// drivers/house/blokus, which the house bots' processes run without this
// package's configuration language (see drivers/house). These are their
// names here.
type (
	// Cell is a board cell; row 0 is the top row, column 0 the left column.
	Cell = core.Cell
	// Mask is a set of board cells, a word a row.
	Mask = core.Mask
	// Rules is a game's board and stone set with everything the placement
	// search precomputes from them.
	Rules = core.Rules
	// Placement is a stone of shape Shape in rotation Orient whose
	// normalised cell (0, 0) lies on board cell (Row, Col).
	Placement = core.Placement
	// Position is a game in progress.
	Position = core.Position
	// Point is one cell of a stone: X is the column offset, Y the row offset.
	Point = core.Point
	// Stone is a named set of cells, normalised.
	Stone = core.Stone
	// FileStone is a stone read from a stones file, with its line.
	FileStone = core.FileStone
)

// MaxSide is the most rows or columns a board may have.
const MaxSide = core.MaxSide

// FormatCells writes cells the way play and gen_move carry them: "row,col"
// separated by spaces.
func FormatCells(cells []Cell) string { return core.FormatCells(cells) }

// ParseCells reads cells written as "row,col" separated by spaces.
func ParseCells(text string) ([]Cell, error) { return core.ParseCells(text) }

// NewRules prepares rules for a rows × cols board with blocked cells and
// a stone set. Its errors are the config's validation, as sentences that
// say how to fix them; the decoder reports them with source ranges first.
func NewRules(rows, cols int, blocked []Cell, stones []Stone) (*Rules, error) {
	return core.NewRules(rows, cols, blocked, stones)
}

// NewPosition is the empty board of r, its filled cells filled.
func NewPosition(r *Rules) *Position { return core.NewPosition(r) }

// Normalise moves cells so that the least x and y are 0 and sorts them by
// (y, x). It returns a new slice.
func Normalise(cells []Point) []Point { return core.Normalise(cells) }

// Rotate turns cells by a quarter turn and normalises them.
func Rotate(cells []Point) []Point { return core.Rotate(cells) }

// Mirror flips cells left to right and normalises them: the one move the
// rules forbid.
func Mirror(cells []Point) []Point { return core.Mirror(cells) }

// Rotations lists the distinct rotations of cells (1, 2 or 4 of them),
// normalised, the unrotated shape first.
func Rotations(cells []Point) [][]Point { return core.Rotations(cells) }

// Size is the stone's extent: width (columns) and height (rows).
func Size(norm []Point) (w, h int) { return core.Size(norm) }

// CheckCells reports what makes cells unfit to be a stone: none at all, a
// cell given twice, or cells that are not joined edge to edge.
func CheckCells(cells []Point) error { return core.CheckCells(cells) }

// ParseArt reads a stone drawn in ASCII: '#' is a cell, '.' (or a space)
// is empty, one text line per row.
func ParseArt(art string) ([]Point, error) { return core.ParseArt(art) }

// ParseStonesFile reads a stones file of the course: one stone per
// non-empty line, whitespace-separated integers x1 y1 x2 y2 ..., '#'
// starting a comment. Every malformed line is reported.
func ParseStonesFile(r io.Reader) ([]FileStone, error) { return core.ParseStonesFile(r) }

// FormatStone writes a stone the way set_stones sends it: cells "x,y"
// joined by ';'.
func FormatStone(cells []Point) string { return core.FormatStone(cells) }

// ParseStone reads a stone as set_stones sends it.
func ParseStone(s string) ([]Point, error) { return core.ParseStone(s) }

// HouseBots lists the bots built into arbiter for Blokus, sorted by name.
func HouseBots() []drivers.HouseBot { return core.HouseBots() }
