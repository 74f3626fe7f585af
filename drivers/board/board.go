// Package board decodes the `board` block that board games put in their
// game body: the board's size and the cells filled before a match, given
// as a list, drawn as an ASCII map, or drawn at random from a seed.
//
//	board {
//	  size   = 5                  # square; or rows = 10  cols = 12
//	  filled = [[2, 3], [4, 0]]   # [x, y] = [column, row], 0-based
//	  # or: map = <<-EOT          # '#' filled, '.' empty, one line per row
//	  #   .#...
//	  #   .....
//	  #   EOT
//	  random = 3                  # plus that many cells drawn at random
//	  seed   = 42                 # the draw's seed (default: the match seed)
//	}
//
// The package checks what holds for every board (sizes, cells on the
// board, no duplicates, enough free cells for the draw); what a particular
// game needs (Bricks: square and odd; Blokus: free start corners) is the
// driver's to check. It knows nothing of moves or players.
package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/drivers/house/grid"
)

// MaxSide is the longest side a board may have: enough for any game we
// know (Bricks goes to 999) while keeping a random draw's memory bounded.
const MaxSide = 1000

// Cell is one cell of a board: X is the column (left to right), Y the row
// (top to bottom), both from 0. In JSON and HCL it is the pair [x, y]. It
// is grid.Cell, which the house bots use without this package.
type Cell = grid.Cell

// Compare orders cells row by row, then by column.
func Compare(a, b Cell) int { return grid.Compare(a, b) }

// Spec is a decoded board block; it is also the board's JSON form in a
// plan's settings.
type Spec struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	// Filled are the cells filled in every match (from filled or map),
	// sorted in reading order.
	Filled []Cell `json:"filled,omitempty"`
	// Random is how many more cells are drawn at random for a match, among
	// the cells Filled leaves free.
	Random int `json:"random,omitempty"`
	// Seed, when set, is the seed of the random draw, so every match gets
	// the same board; when nil the draw uses the match's seed.
	Seed *uint64 `json:"seed,omitempty"`
}

// Cells returns the filled cells of a match played with seed, sorted in
// reading order: the fixed cells, plus Random cells drawn from the free
// ones with a PCG source seeded by Spec.Seed if set, else by seed. The
// same spec and seed give the same cells on every machine.
func (s Spec) Cells(seed uint64) []Cell {
	out := slices.Clone(s.Filled)
	if s.Random > 0 {
		if s.Seed != nil {
			seed = *s.Seed
		}
		taken := make([]bool, s.Rows*s.Cols)
		for _, c := range s.Filled {
			taken[c.Y*s.Cols+c.X] = true
		}
		free := make([]int32, 0, len(taken)-len(s.Filled))
		for i, t := range taken {
			if !t {
				free = append(free, int32(i))
			}
		}
		// A partial Fisher-Yates shuffle: the first Random entries are a
		// uniform sample. Written out rather than rand.Shuffle so that the
		// draw can never change with the standard library.
		rng := rand.New(rand.NewPCG(seed, streamBoard))
		for i := 0; i < s.Random && i < len(free); i++ {
			j := i + int(rng.Uint64N(uint64(len(free)-i)))
			free[i], free[j] = free[j], free[i]
			out = append(out, Cell{X: int(free[i]) % s.Cols, Y: int(free[i]) / s.Cols})
		}
	}
	slices.SortFunc(out, Compare)
	return out
}

// streamBoard is the PCG stream of board draws ("board" in ASCII), so that
// a game drawing other things from the same seed uses other numbers.
const streamBoard = 0x626f617264

// Validate checks a spec read back from a plan's JSON: the checks Decode
// makes, for settings that did not come from a decoded block.
func (s Spec) Validate() error {
	if s.Rows < 1 || s.Cols < 1 || s.Rows > MaxSide || s.Cols > MaxSide {
		return fmt.Errorf("board of %d rows by %d columns: each side must be from 1 to %d", s.Rows, s.Cols, MaxSide)
	}
	seen := map[Cell]bool{}
	for _, c := range s.Filled {
		if !s.On(c) {
			return fmt.Errorf("filled cell %s is off the %d×%d board", c, s.Cols, s.Rows)
		}
		if seen[c] {
			return fmt.Errorf("filled cell %s is listed twice", c)
		}
		seen[c] = true
	}
	if s.Random < 0 || s.Random > s.Rows*s.Cols-len(s.Filled) {
		return fmt.Errorf("random is %d, but the board has %d free cells", s.Random, s.Rows*s.Cols-len(s.Filled))
	}
	return nil
}

// On reports whether c lies on the board.
func (s Spec) On(c Cell) bool { return c.X >= 0 && c.Y >= 0 && c.X < s.Cols && c.Y < s.Rows }

// Block is the block header schema to put in a game body's schema.
var Block = hcl.BlockHeaderSchema{Type: "board"}

var schema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "size"}, {Name: "rows"}, {Name: "cols"},
		{Name: "filled"}, {Name: "map"}, {Name: "random"}, {Name: "seed"},
	},
}

// Most is a game's own bound on a board's sides, and the game's rule in
// words ("Bricks is played on an odd size from 3 to 999"): a board over it
// is refused with the rule, not with MaxSide, so that the message names
// the size that will do. The zero Most is MaxSide's.
type Most struct {
	Side int
	Game string // in the error's summary: "Board too large for Blokus"
	Rule string
}

// limit is m with its zero value made MaxSide's, and never over MaxSide.
func (m Most) limit() Most {
	if m.Side <= 0 || m.Side > MaxSide {
		return Most{Side: MaxSide, Rule: fmt.Sprintf("boards have at most %d cells a side", MaxSide)}
	}
	return m
}

// summary is the error's summary for a board over m.
func (m Most) summary() string {
	if m.Game == "" {
		return "Board too large"
	}
	return "Board too large for " + m.Game
}

// Decode decodes a board block, reporting every mistake in it at once. A
// side over most's is refused in the game's words.
func Decode(b *hcl.Block, ctx *hcl.EvalContext, most Most) (Spec, hcl.Diagnostics) {
	most = most.limit()
	var s Spec
	content, diags := b.Body.Content(schema)
	attrs := content.Attributes
	num := func(name string, min int64) number {
		a, ok := attrs[name]
		if !ok {
			return number{}
		}
		n, d := wholeNumber(a, ctx, min)
		diags = append(diags, d...)
		return number{n: n, attr: a, ok: !d.HasErrors()}
	}

	size, rows, cols := num("size", 1), num("rows", 1), num("cols", 1)
	random := num("random", 0)
	s.Random = random.n
	if a, ok := attrs["seed"]; ok {
		if n, d := wholeNumber(a, ctx, 0); d.HasErrors() {
			diags = append(diags, d...)
		} else {
			seed := uint64(n)
			s.Seed = &seed
		}
	}

	sized, d := s.decodeSize(b, size, rows, cols, attrs["map"] != nil, most)
	diags = append(diags, d...)

	filledAttr, mapAttr := attrs["filled"], attrs["map"]
	if filledAttr != nil && mapAttr != nil {
		diags = append(diags, errDiag("Conflicting board cells",
			"The board sets both filled and map. Give the filled cells one way: a list of [x, y] pairs, or a map.", mapAttr.NameRange.Ptr()))
	} else if mapAttr != nil {
		sizeSet := size.attr != nil || rows.attr != nil || cols.attr != nil
		sized, d = s.decodeMapCells(mapAttr, ctx, sizeSet, sized, most)
		diags = append(diags, d...)
	} else if filledAttr != nil {
		diags = append(diags, s.decodeFilled(filledAttr, ctx, sized)...)
	}
	slices.SortFunc(s.Filled, Compare)

	if random.attr != nil && sized && !diags.HasErrors() {
		if free := s.Rows*s.Cols - len(s.Filled); s.Random > free {
			diags = append(diags, errDiag("Too many random cells",
				fmt.Sprintf("random is %d, but the board has only %d free cells. Lower random or enlarge the board.", s.Random, free), random.attr.Expr.Range().Ptr()))
		}
	}
	return s, diags
}

// AttrRange is the value range of the first of the board block b's
// attributes names that is set, or the block's own range: a game's own
// rule for the board (Bricks' odd size) points at the setting it is
// about, not at "board {".
func AttrRange(b *hcl.Block, names ...string) *hcl.Range {
	content, _, _ := b.Body.PartialContent(schema)
	for _, n := range names {
		if a, ok := content.Attributes[n]; ok {
			return a.Expr.Range().Ptr()
		}
	}
	return b.DefRange.Ptr()
}

// number is a whole-number attribute of the board block: its value, the
// attribute (nil when the block leaves it out), and whether the value is
// valid.
type number struct {
	n    int
	attr *hcl.Attribute
	ok   bool
}

// decodeSize sets the board's rows and cols from size, or rows and cols;
// a board with neither takes its shape from its map (hasMap). It reports
// whether the size is known and valid.
func (s *Spec) decodeSize(b *hcl.Block, size, rows, cols number, hasMap bool, most Most) (bool, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	sized := true
	switch {
	case size.attr != nil && (rows.attr != nil || cols.attr != nil):
		other := rows.attr
		if other == nil {
			other = cols.attr
		}
		diags = append(diags, errDiag("Conflicting board size",
			"The board sets both size and "+other.Name+". Use size for a square board, or rows and cols for a rectangle, not both.", other.NameRange.Ptr()))
		sized = false
	case size.attr != nil:
		s.Rows, s.Cols, sized = size.n, size.n, size.ok
	case rows.attr != nil || cols.attr != nil:
		if rows.attr == nil || cols.attr == nil {
			have, missing := "rows", "cols"
			if rows.attr == nil {
				have, missing = "cols", "rows"
			}
			diags = append(diags, errDiag("Missing board size",
				fmt.Sprintf("The board sets %s but not %s: a rectangular board needs both rows and cols.", have, missing), b.DefRange.Ptr()))
			sized = false
		} else {
			s.Rows, s.Cols, sized = rows.n, cols.n, rows.ok && cols.ok
		}
	default:
		sized = false
		if !hasMap {
			diags = append(diags, errDiag("Missing board size",
				`The board has no size. Add size = 7 for a square board, rows = 10 and cols = 12 for a rectangle, or draw it with map.`, b.DefRange.Ptr()))
		}
	}
	for _, a := range []*hcl.Attribute{size.attr, rows.attr, cols.attr} {
		if a != nil && sized && over(a, s, most.Side) {
			diags = append(diags, errDiag(most.summary(),
				fmt.Sprintf("%s is over %d; %s.", a.Name, most.Side, most.Rule), a.Expr.Range().Ptr()))
			sized = false
			break
		}
	}
	return sized, diags
}

// over reports whether a, the board's size, rows or cols, is the side over
// most: size is both sides.
func over(a *hcl.Attribute, s *Spec, most int) bool {
	switch a.Name {
	case "rows":
		return s.Rows > most
	case "cols":
		return s.Cols > most
	}
	return max(s.Rows, s.Cols) > most
}

// decodeMapCells reads the filled cells from the board's map. A board
// whose size is set (sizeSet) must match the map; one without takes the
// map's shape. It reports whether the size is known and valid, given
// sized, what it was before.
func (s *Spec) decodeMapCells(mapAttr *hcl.Attribute, ctx *hcl.EvalContext, sizeSet, sized bool, most Most) (bool, hcl.Diagnostics) {
	m, diags := decodeMap(mapAttr, ctx)
	if diags.HasErrors() {
		return sized, diags
	}
	switch {
	case sizeSet:
		if sized && (len(m) != s.Rows || len(m[0]) != s.Cols) {
			diags = append(diags, errDiag("Map does not fit the board",
				fmt.Sprintf("The map has %d rows of %d cells, but the board is %d rows by %d columns. Fix the map, or leave out the size: a map gives the board its size.", len(m), len(m[0]), s.Rows, s.Cols),
				mapAttr.Expr.Range().Ptr()))
			sized = false
		}
	case len(m) > most.Side || len(m[0]) > most.Side:
		diags = append(diags, errDiag(most.summary(),
			fmt.Sprintf("The map is %d rows by %d columns; %s.", len(m), len(m[0]), most.Rule), mapAttr.Expr.Range().Ptr()))
	default:
		s.Rows, s.Cols, sized = len(m), len(m[0]), true
	}
	for y, row := range m {
		for x, ch := range row {
			if ch == '#' {
				s.Filled = append(s.Filled, Cell{X: x, Y: y})
			}
		}
	}
	return sized, diags
}

// decodeFilled reads the filled cells from the board's list of [x, y]
// pairs, refusing negative, duplicate and (when the size is known,
// sized) off-board cells.
func (s *Spec) decodeFilled(filledAttr *hcl.Attribute, ctx *hcl.EvalContext, sized bool) hcl.Diagnostics {
	cells, diags := decodeCells(filledAttr, ctx)
	seen := map[Cell]int{}
	for i, c := range cells {
		rng := elementRange(filledAttr.Expr, i)
		switch {
		case c.X < 0 || c.Y < 0:
			diags = append(diags, errDiag("Negative cell",
				fmt.Sprintf("Cell %s has a negative coordinate: cells are [x, y] with x the column and y the row, both counted from 0.", c), rng))
			continue
		case sized && !s.On(c):
			diags = append(diags, errDiag("Cell off the board",
				fmt.Sprintf("Cell %s is off the %d×%d board: x (the column) goes from 0 to %d and y (the row) from 0 to %d.", c, s.Cols, s.Rows, s.Cols-1, s.Rows-1), rng))
			continue
		}
		if first, dup := seen[c]; dup {
			diags = append(diags, errDiag("Duplicate cell",
				fmt.Sprintf("Cell %s is listed twice (first as element %d). Remove one.", c, first+1), rng))
			continue
		}
		seen[c] = i
		s.Filled = append(s.Filled, c)
	}
	return diags
}

// wholeNumber decodes an attribute holding a whole number >= min.
func wholeNumber(a *hcl.Attribute, ctx *hcl.EvalContext, min int64) (int, hcl.Diagnostics) {
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return 0, diags
	}
	what := "from 1 up"
	if min == 0 {
		what = "from 0 up"
	}
	var n int64
	if err := gocty.FromCtyValue(v, &n); err != nil {
		// Said with the value, not HCL's "a whole number between
		// -9223372036854775808 and 9223372036854775807".
		return 0, hcl.Diagnostics{errDiag("Invalid "+a.Name,
			fmt.Sprintf("%s must be a whole number %s, not %s.", a.Name, what, shown(v)), a.Expr.Range().Ptr())}
	}
	if n < min {
		summary := "Invalid " + a.Name
		if n < 0 {
			summary = "Negative " + a.Name
		}
		return 0, hcl.Diagnostics{errDiag(summary,
			fmt.Sprintf("%s is %d; it must be a whole number %s.", a.Name, n, what), a.Expr.Range().Ptr())}
	}
	if n > 1<<31 {
		return 0, hcl.Diagnostics{errDiag("Invalid "+a.Name,
			fmt.Sprintf("%s is %d, which is far too large.", a.Name, n), a.Expr.Range().Ptr())}
	}
	return int(n), nil
}

// shown is v as a message quotes it: 1.5, "x", or its type.
func shown(v cty.Value) string {
	switch {
	case v.IsNull() || !v.IsKnown():
		return "null"
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('g', -1)
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	}
	return "a " + v.Type().FriendlyName()
}

// decodeCells reads a list of [x, y] pairs.
func decodeCells(a *hcl.Attribute, ctx *hcl.EvalContext) ([]Cell, hcl.Diagnostics) {
	var pairs [][]int
	diags := gohcl.DecodeExpression(a.Expr, ctx, &pairs)
	if diags.HasErrors() {
		for _, d := range diags {
			d.Summary = "Invalid filled"
			// HCL's details end without a full stop.
			d.Detail = strings.TrimSuffix(d.Detail, ".") + ". Write filled cells as a list of [x, y] pairs, like [[2, 3], [4, 0]]."
		}
		return nil, diags
	}
	cells := make([]Cell, 0, len(pairs))
	for i, p := range pairs {
		if len(p) != 2 {
			diags = append(diags, errDiag("Invalid cell",
				fmt.Sprintf("Element %d of filled has %d numbers; a cell is a pair [x, y] (column, row).", i+1, len(p)), elementRange(a.Expr, i)))
			continue
		}
		cells = append(cells, Cell{X: p[0], Y: p[1]})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cells, nil
}

// decodeMap reads an ASCII map into its rows. Leading and trailing blank
// lines and each line's surrounding spaces are ignored, so a heredoc may
// be indented.
func decodeMap(a *hcl.Attribute, ctx *hcl.EvalContext) ([]string, hcl.Diagnostics) {
	var text string
	diags := gohcl.DecodeExpression(a.Expr, ctx, &text)
	if diags.HasErrors() {
		return nil, diags
	}
	lines := strings.Split(text, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	last := len(lines)
	for last > first && strings.TrimSpace(lines[last-1]) == "" {
		last--
	}
	if first == last {
		return nil, hcl.Diagnostics{errDiag("Empty map",
			"The map has no rows. Draw the board one line per row, '#' for a filled cell and '.' for an empty one.", a.Expr.Range().Ptr())}
	}
	var rows []string
	for i := first; i < last; i++ {
		row := strings.TrimSpace(lines[i])
		rng := mapRowRange(a.Expr, lines, i)
		if bad := strings.Trim(row, "#."); bad != "" {
			diags = append(diags, errDiag("Unknown map character",
				fmt.Sprintf("Row %d of the map holds %q; a map has only '#' (filled) and '.' (empty).", i-first+1, bad[:1]), rng))
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			diags = append(diags, errDiag("Map rows of unequal length",
				fmt.Sprintf("Row %d of the map has %d cells but row 1 has %d; every row of a board is as long as the others.", i-first+1, len(row), len(rows[0])), rng))
		}
		rows = append(rows, row)
	}
	return rows, diags
}

// mapRowRange is the source range of the row on line i of lines, the
// lines of a map's text, when the map is a heredoc: the row's cells on
// their own line, so that a diagnostic quotes that line and names the
// block it is in. A heredoc's text is one literal whose start and end the
// parser records; each of its lines is its source line less the
// indentation a <<- heredoc strips (where the text starts on its first
// line). When the lines do not add up to the source that way (a template,
// a blank line shorter than the indentation), or the map is a one-line
// string, it is the whole expression: right, if less precise.
func mapRowRange(expr hcl.Expression, lines []string, i int) *hcl.Range {
	whole := expr.Range()
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) != 1 {
		return &whole
	}
	lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.SrcRange.End.Line == lit.SrcRange.Start.Line {
		return &whole
	}
	src := lit.SrcRange
	indent := src.Start.Column - 1 // the first line starts after it
	lineStart := src.Start.Byte - indent
	var row *hcl.Range
	for k, l := range lines {
		if k == len(lines)-1 {
			// The heredoc's closing marker starts the line after its text.
			if l != "" || lineStart != src.End.Byte || src.Start.Line+k != src.End.Line {
				return &whole
			}
			break
		}
		if k == i {
			lead := len(l) - len(strings.TrimLeft(l, " \t"))
			cells := strings.TrimSpace(l)
			col := indent + utf8.RuneCountInString(l[:lead]) + 1
			at := lineStart + indent + lead
			row = &hcl.Range{Filename: src.Filename,
				Start: hcl.Pos{Line: src.Start.Line + k, Column: col, Byte: at},
				End:   hcl.Pos{Line: src.Start.Line + k, Column: col + utf8.RuneCountInString(cells), Byte: at + len(cells)}}
		}
		lineStart += indent + len(l) + 1
	}
	if row == nil {
		return &whole
	}
	return row
}

// elementRange is the range of element i of a list written literally, or
// of the whole expression.
func elementRange(expr hcl.Expression, i int) *hcl.Range {
	if exprs, d := hcl.ExprList(expr); !d.HasErrors() && i < len(exprs) {
		return exprs[i].Range().Ptr()
	}
	return expr.Range().Ptr()
}

func errDiag(summary, detail string, subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject}
}
