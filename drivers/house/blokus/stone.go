package blokus

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Point is one cell of a stone: X is the column offset, Y the row offset.
type Point struct{ X, Y int }

// Stone is a named set of cells, normalised so that its least X and Y are 0
// and its cells sorted by (Y, X): two stones of the same shape in the same
// rotation are equal cell for cell.
type Stone struct {
	Name  string  `json:"name"`
	Cells []Point `json:"cells"`
}

// MarshalJSON writes cells as [[x, y], ...], the way the config and the
// course write them.
func (p Point) MarshalJSON() ([]byte, error) {
	return []byte("[" + strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) + "]"), nil
}

func (p *Point) UnmarshalJSON(b []byte) error {
	var xy [2]int
	// Without its white space: an indented plan (plan -json, a results
	// directory's plan.json) writes a cell over four lines.
	s := strings.Join(strings.Fields(string(b)), "")
	if _, err := fmt.Sscanf(s, "[%d,%d]", &xy[0], &xy[1]); err != nil || s != fmt.Sprintf("[%d,%d]", xy[0], xy[1]) {
		return fmt.Errorf("a cell must be [x,y], not %s", s)
	}
	p.X, p.Y = xy[0], xy[1]
	return nil
}

// Normalise moves cells so that the least x and y are 0 and sorts them by
// (y, x). It returns a new slice.
func Normalise(cells []Point) []Point {
	if len(cells) == 0 {
		return nil
	}
	minX, minY := cells[0].X, cells[0].Y
	for _, c := range cells {
		minX, minY = min(minX, c.X), min(minY, c.Y)
	}
	out := make([]Point, len(cells))
	for i, c := range cells {
		out[i] = Point{c.X - minX, c.Y - minY}
	}
	slices.SortFunc(out, func(a, b Point) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
	return out
}

// Rotate turns cells by a quarter turn and normalises them. Four quarter
// turns give back the shape; no quarter turn mirrors it.
func Rotate(cells []Point) []Point {
	out := make([]Point, len(cells))
	for i, c := range cells {
		out[i] = Point{-c.Y, c.X}
	}
	return Normalise(out)
}

// Mirror flips cells left to right and normalises them: the one move the
// rules forbid.
func Mirror(cells []Point) []Point {
	out := make([]Point, len(cells))
	for i, c := range cells {
		out[i] = Point{-c.X, c.Y}
	}
	return Normalise(out)
}

// Rotations lists the distinct rotations of cells (1, 2 or 4 of them),
// normalised, the unrotated shape first.
func Rotations(cells []Point) [][]Point {
	r := Normalise(cells)
	out := [][]Point{r}
	for range 3 {
		r = Rotate(r)
		if !slices.ContainsFunc(out, func(o []Point) bool { return slices.Equal(o, r) }) {
			out = append(out, r)
		}
	}
	return out
}

// shapeKey names a normalised cell set; equal keys are equal shapes in the
// same rotation.
func shapeKey(norm []Point) string {
	var b strings.Builder
	for i, c := range norm {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.Itoa(c.X))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(c.Y))
	}
	return b.String()
}

// classKey names a shape up to rotation: the least key of its rotations.
func classKey(cells []Point) string {
	best := ""
	for i, r := range Rotations(cells) {
		if k := shapeKey(r); i == 0 || k < best {
			best = k
		}
	}
	return best
}

// Size is the stone's extent: width (columns) and height (rows).
func Size(norm []Point) (w, h int) {
	for _, c := range norm {
		w, h = max(w, c.X+1), max(h, c.Y+1)
	}
	return w, h
}

// CheckCells reports what makes cells unfit to be a stone: none at all, a
// cell given twice, or cells that are not joined edge to edge.
func CheckCells(cells []Point) error {
	if len(cells) == 0 {
		return errors.New("the stone has no cells")
	}
	seen := make(map[Point]bool, len(cells))
	for _, c := range cells {
		if seen[c] {
			return fmt.Errorf("cell [%d, %d] is given twice", c.X, c.Y)
		}
		seen[c] = true
	}
	reached := map[Point]bool{cells[0]: true}
	queue := []Point{cells[0]}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range []Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := Point{c.X + d.X, c.Y + d.Y}
			if seen[n] && !reached[n] {
				reached[n] = true
				queue = append(queue, n)
			}
		}
	}
	if len(reached) != len(cells) {
		for _, c := range cells {
			if !reached[c] {
				return fmt.Errorf("cell [%d, %d] is not joined edge to edge to cell [%d, %d]: a stone must be one piece", c.X, c.Y, cells[0].X, cells[0].Y)
			}
		}
	}
	return nil
}

// ParseArt reads a stone drawn in ASCII: '#' is a cell, '.' (or a space) is
// empty, one text line per row. Blank lines before and after the drawing
// and spaces around each line are ignored, so a heredoc may be indented.
func ParseArt(art string) ([]Point, error) {
	lines := strings.Split(strings.ReplaceAll(art, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	var cells []Point
	for y, line := range lines {
		for x, r := range strings.TrimSpace(line) {
			switch r {
			case '#':
				cells = append(cells, Point{x, y})
			case '.', ' ':
			default:
				return nil, fmt.Errorf("line %d of the drawing has %q: draw a cell with '#' and an empty place with '.'", y+1, r)
			}
		}
	}
	return cells, nil
}

// FileStone is a stone read from a stones file, with its line.
type FileStone struct {
	Line  int
	Cells []Point
}

// ParseStonesFile reads a stones file of the course: one stone per
// non-empty line, whitespace-separated integers x1 y1 x2 y2 ..., '#'
// starting a comment. Every malformed line is reported.
func ParseStonesFile(r io.Reader) ([]FileStone, error) {
	var stones []FileStone
	var errs []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f)%2 != 0 {
			errs = append(errs, fmt.Errorf("line %d has %d numbers: a stone is pairs x y, so the count must be even", line, len(f)))
			continue
		}
		st := FileStone{Line: line}
		bad := false
		for i := 0; i < len(f); i += 2 {
			x, ex := strconv.Atoi(f[i])
			y, ey := strconv.Atoi(f[i+1])
			if ex != nil || ey != nil {
				errs = append(errs, fmt.Errorf("line %d: %q %q is not a pair of whole numbers", line, f[i], f[i+1]))
				bad = true
				break
			}
			st.Cells = append(st.Cells, Point{x, y})
		}
		if !bad {
			stones = append(stones, st)
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return stones, errors.Join(errs...)
}

// FormatStone writes a stone the way set_stones sends it: cells "x,y"
// joined by ';'.
func FormatStone(cells []Point) string { return shapeKey(cells) }

// ParseStone reads a stone as set_stones sends it.
func ParseStone(s string) ([]Point, error) {
	var cells []Point
	for _, c := range strings.Split(s, ";") {
		xs, ys, ok := strings.Cut(c, ",")
		x, ex := strconv.Atoi(xs)
		y, ey := strconv.Atoi(ys)
		if !ok || ex != nil || ey != nil {
			return nil, fmt.Errorf("%q is not a cell x,y", c)
		}
		cells = append(cells, Point{x, y})
	}
	return cells, nil
}
