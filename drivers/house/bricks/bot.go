package bricks

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// strategy chooses a move for a house bot. b is the board before the
// move, with at least one legal move.
type strategy interface {
	// begin is called once the board is known.
	begin(b *Board)
	// choose returns a legal move.
	choose(b *Board) Move
}

// serve plays one duel of the protocol over in and out: the board message
// and OK, then START or the opponent's moves, until STOP or the end of
// the input.
func serve(in io.Reader, out io.Writer, st strategy) error {
	r := bufio.NewScanner(in)
	r.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	say := func(s string) error {
		if _, err := w.WriteString(s + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	var b *Board
	for r.Scan() {
		line := strings.TrimSpace(r.Text())
		switch {
		case line == "":
			continue
		case line == "STOP":
			return nil
		case b == nil:
			var err error
			if b, err = parseBoardMessage(line); err != nil {
				return err
			}
			st.begin(b)
			if err := say("OK"); err != nil {
				return err
			}
			continue
		case line != "START":
			m, ok := ParseMove(line)
			if !ok || b.Check(m) != "" {
				return fmt.Errorf("the referee sent %q, which is no legal move here", line)
			}
			b.Place(m)
		}
		if !b.HasMove() {
			return fmt.Errorf("asked to move with no legal move left")
		}
		m := st.choose(b)
		b.Place(m)
		if err := say(m.String()); err != nil {
			return err
		}
	}
	return r.Err()
}

// ParseMessage reads a board message ("7_2x3_4x5"), as a player does.
func ParseMessage(line string) (*Board, error) { return parseBoardMessage(line) }

// parseBoardMessage reads "7_2x3_4x5".
func parseBoardMessage(line string) (*Board, error) {
	parts := strings.Split(line, "_")
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 1 || n > MaxSize {
		return nil, fmt.Errorf("board message %q: bad size", line)
	}
	var cells []Cell
	for _, p := range parts[1:] {
		c, ok := parseCell(p)
		if !ok || c.X < 0 || c.Y < 0 || c.X >= n || c.Y >= n {
			return nil, fmt.Errorf("board message %q: bad cell %q", line, p)
		}
		cells = append(cells, c)
	}
	return NewBoard(n, cells), nil
}
