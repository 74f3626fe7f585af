package auction

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// The bots' files are named with path.Join, which is filepath.Join where
// arbiter runs ('/' separates folders): path/filepath comes late in Go's
// order of initialisation, and importing it here would let heavier
// packages initialise before drivers/house/start runs a bot.

// HouseBots lists the bots built into arbiter for Auction, sorted by name:
// the contest's four sample strategies, rewritten. Each runs once per move
// as `arbiter bot auction/NAME <game> <letter>` in the folder that holds
// <game>/, reads <game>/state and prints its bid. Their randomness is
// seeded by ARBITER_SEED, their letter and the state, so a match replays.
func HouseBots() []house.Bot {
	return []house.Bot{
		{Name: "neighbour", Doc: "Like share, but bids twice as much for a cell next to one it owns and half as much otherwise.", Move: move(neighbour)},
		{Name: "random", Doc: "Bids a random number from 0 to 19 (at most its capital).", Move: move(random)},
		{Name: "share", Doc: "Bids its capital times the players over the cells left in the queue, give or take a quarter.", Move: move(share)},
		{Name: "square", Doc: "Picks a square of the board at its first move, keeps it in its own file <prefix>tmp, and bids only for the square's cells.", Move: move(square)},
	}
}

// view is a bot's reading of the game folder.
type view struct {
	game    string // the game folder
	me      int    // our seat
	players int
	cols    int
	rows    int
	owner   []int // by cell, row by row; -1 unsold
	capital []int
	queue   []Cell
	rng     *rand.Rand
	prefix  string
}

func (v *view) at(c Cell) int { return v.owner[c.Row*v.cols+c.Col] }

func move(strategy func(v *view) (int, error)) func(args []string, out io.Writer, env func(string) string) error {
	return func(args []string, out io.Writer, env func(string) string) error {
		if len(args) != 2 || len(args[1]) != 1 || args[1][0] < 'A' || args[1][0] > 'Z' {
			return fmt.Errorf("expected the arguments <game> <letter>, got %q", args)
		}
		state, err := os.ReadFile(path.Join(args[0], "state"))
		if err != nil {
			return err
		}
		v, err := parseState(state)
		if err != nil {
			return fmt.Errorf("%s/state: %w", args[0], err)
		}
		v.game, v.me = args[0], int(args[1][0]-'A')
		if v.me >= v.players {
			return fmt.Errorf("player %s is not in a game of %d players", args[1], v.players)
		}
		v.prefix = env("ARBITER_PREFIX")
		if v.prefix == "" {
			v.prefix = "tym97"
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%s %s\n", env("ARBITER_SEED"), args[1])
		h.Write(state)
		v.rng = rand.New(rand.NewPCG(h.Sum64(), queueStream))
		bid, err := strategy(v)
		if err != nil {
			return err
		}
		bid = max(0, min(bid, v.capital[v.me]))
		_, err = fmt.Fprintln(out, bid)
		return err
	}
}

// parseState reads a state file.
func parseState(b []byte) (*view, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	line := func() (string, error) {
		if !sc.Scan() {
			return "", errors.New("ends early")
		}
		return sc.Text(), nil
	}
	head, err := line()
	if err != nil {
		return nil, err
	}
	v := &view{}
	if _, err := fmt.Sscanf(head, "%d %d %d", &v.players, &v.cols, &v.rows); err != nil {
		return nil, fmt.Errorf("first line %q: %w", head, err)
	}
	for range v.rows {
		row, err := line()
		if err != nil {
			return nil, err
		}
		if len(row) != v.cols {
			return nil, fmt.Errorf("board row %q is not %d wide", row, v.cols)
		}
		for _, ch := range []byte(row) {
			if ch == '.' {
				v.owner = append(v.owner, -1)
			} else {
				v.owner = append(v.owner, int(ch-'A'))
			}
		}
	}
	for range v.players {
		l, err := line()
		if err != nil {
			return nil, err
		}
		_, num, _ := strings.Cut(l, " ")
		c, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("capital line %q", l)
		}
		v.capital = append(v.capital, c)
	}
	q, err := line()
	if err != nil {
		return nil, err
	}
	for _, f := range strings.Fields(q) {
		var c Cell
		if _, err := fmt.Sscanf(f, "[%d,%d];", &c.Col, &c.Row); err != nil {
			return nil, fmt.Errorf("queue entry %q", f)
		}
		c.Col--
		c.Row--
		v.queue = append(v.queue, c)
	}
	if len(v.queue) == 0 {
		return nil, errors.New("the queue is empty")
	}
	return v, nil
}

func random(v *view) (int, error) { return v.rng.IntN(20), nil }

// shareOf is the capital share of one cell, give or take a quarter: the
// money spread over the cells a player can expect to win.
func shareOf(v *view) float64 {
	expected := float64(len(v.queue)) / float64(v.players)
	return float64(v.capital[v.me]) / math.Max(expected, 1) * (0.75 + v.rng.Float64()/2)
}

func share(v *view) (int, error) { return int(shareOf(v)), nil }

func neighbour(v *view) (int, error) {
	c := v.queue[0]
	bid := shareOf(v) / 2
	for _, n := range [4][2]int{{c.Col - 1, c.Row}, {c.Col + 1, c.Row}, {c.Col, c.Row - 1}, {c.Col, c.Row + 1}} {
		if n[0] >= 0 && n[0] < v.cols && n[1] >= 0 && n[1] < v.rows && v.at(Cell{n[0], n[1]}) == v.me {
			bid *= 4
			break
		}
	}
	return int(bid), nil
}

// square keeps "<column> <row> <side>" (0-based corner) in <prefix>tmp.
func square(v *view) (int, error) {
	file := path.Join(v.game, v.prefix+"tmp")
	var col, row, side int
	b, err := os.ReadFile(file)
	if err != nil || len(b) == 0 {
		side = max(1, min(v.cols, v.rows, int(math.Sqrt(float64(v.cols*v.rows)/float64(v.players)))))
		col, row = v.rng.IntN(v.cols-side+1), v.rng.IntN(v.rows-side+1)
		if err := os.WriteFile(file, fmt.Appendf(nil, "%d %d %d\n", col, row, side), 0o644); err != nil {
			return 0, err
		}
	} else if _, err := fmt.Sscanf(string(b), "%d %d %d", &col, &row, &side); err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	inside := func(c Cell) bool { return c.Col >= col && c.Col < col+side && c.Row >= row && c.Row < row+side }
	if !inside(v.queue[0]) {
		return 0, nil
	}
	open := 0
	for _, c := range v.queue {
		if inside(c) {
			open++
		}
	}
	return v.capital[v.me] / max(open, 1) * 3 / 2, nil
}
