// Package auction referees Auction, the sealed-bid land auction of Fibot 4
// (Masaryk University): every round all players bid at once for the first
// cell of a seeded queue; the single highest bidder buys it; the largest
// connected region wins. Rules and protocol: ../shared/games/auction.md.
//
// Bots are run once per move (proc.RunOnce), all players of a round at the
// same time, each in a private copy of the game folder so that what one bot
// writes never reaches another (see folder.go). A bad answer never ends a
// match: it counts as a bid of 0 and is recorded.
package auction

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Board is one variant of the game: the board's size and every player's
// starting capital.
type Board struct {
	Name    string `json:"name"`
	Cols    int    `json:"cols"`
	Rows    int    `json:"rows"`
	Capital int    `json:"capital"`
}

// Position is the state of a game between rounds.
type Position struct {
	Players    int
	Cols, Rows int
	// Owner is the owning seat of every cell, row by row; -1 when unsold.
	Owner []int
	// Capital is every seat's money left.
	Capital []int
	// Queue is the cells still to auction; Queue[0] is auctioned next.
	Queue []Cell
}

// NewPosition is the start of a game on board b with players players: no
// cell sold, everyone holding the board's capital, and the queue drawn from
// seed. The queue depends on nothing else, so every match of a round with a
// shared seed auctions the cells in the same order.
func NewPosition(b Board, players int, seed uint64) *Position {
	p := &Position{Players: players, Cols: b.Cols, Rows: b.Rows,
		Owner: make([]int, b.Cols*b.Rows), Capital: make([]int, players)}
	for i := range p.Owner {
		p.Owner[i] = -1
	}
	for i := range p.Capital {
		p.Capital[i] = b.Capital
	}
	p.Queue = Queue(b.Cols, b.Rows, seed)
	return p
}

// Letter is the name of seat i in the files: A, B, C, ...
func Letter(i int) byte { return byte('A' + i) }

// MaxPlayers is how many letters there are.
const MaxPlayers = 26

// At is the owner of cell c, or -1.
func (p *Position) At(c Cell) int { return p.Owner[c.Row*p.Cols+c.Col] }

// ParseBid reads a bot's answer: a whole number from 0 to capital, with
// surrounding blanks allowed. problem says why the answer counts as 0, or
// is empty when the bid stands.
func ParseBid(line string, capital int) (bid int, problem string) {
	s := strings.TrimSpace(line)
	switch {
	case s == "":
		return 0, "answered with an empty line"
	case s[0] == '-' && len(s) > 1 && strings.Trim(s[1:], "0") == "":
		// -0 is no negative number, but no bid either.
		return 0, fmt.Sprintf("answered %q: a bid is written without a sign", truncate(s))
	case s[0] == '-' && len(s) > 1 && strings.Trim(s[1:], "0123456789") == "":
		return 0, fmt.Sprintf("bid %s, which is negative", truncate(s))
	case strings.Trim(s, "0123456789") != "" && strings.IndexFunc(s, unicode.IsLetter) >= 0:
		// Words are most often a debug print before the bid.
		return 0, fmt.Sprintf("answered %q, which is not a whole number (only the first line printed is the bid: write debug output to stderr)", truncate(s))
	case strings.Trim(s, "0123456789") != "":
		return 0, fmt.Sprintf("answered %q, which is not a whole number", truncate(s))
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > capital {
		return 0, fmt.Sprintf("bid %s with a capital of %d", truncate(s), capital)
	}
	return n, ""
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Sale is the outcome of one round.
type Sale struct {
	Cell Cell
	// Winner is the seat that bought the cell, or -1 when the highest bid
	// was shared and the cell went to the end of the queue.
	Winner int
	Price  int
}

// Settle auctions the first cell of the queue for bids (one per seat, all
// valid): the single highest bidder gets it and pays its bid; a shared
// highest bid, zero included, sends the cell to the end of the queue.
func (p *Position) Settle(bids []int) Sale {
	cell := p.Queue[0]
	p.Queue = p.Queue[1:]
	best := 0
	for i, b := range bids {
		if b > bids[best] {
			best = i
		}
	}
	count := 0
	for _, b := range bids {
		if b == bids[best] {
			count++
		}
	}
	if count != 1 {
		p.Queue = append(p.Queue, cell)
		return Sale{Cell: cell, Winner: -1}
	}
	p.Owner[cell.Row*p.Cols+cell.Col] = best
	p.Capital[best] -= bids[best]
	return Sale{Cell: cell, Winner: best, Price: bids[best]}
}

// Standing is one seat's result.
type Standing struct {
	Seat int
	// Place is 1 for the best; seats that own nothing share the last
	// places and get the mean of the places they span.
	Place float64
	// Region is the size of the seat's largest edge-connected region,
	// Cells all it owns, First its topmost-leftmost cell (when Cells > 0).
	Region, Cells int
	First         Cell
	Capital       int
}

// Standings ranks the seats by the rules' keys: largest region, more
// first; then cells owned, more first; then the topmost-leftmost owned
// cell, by row then column, earlier first. Seats owning nothing share the
// last places. The result is in placement order (ties by seat).
func (p *Position) Standings() []Standing {
	st := make([]Standing, p.Players)
	for i := range st {
		st[i] = Standing{Seat: i, Capital: p.Capital[i]}
	}
	seen := make([]bool, len(p.Owner))
	var stack []int
	for i, o := range p.Owner {
		if o < 0 {
			continue
		}
		s := &st[o]
		if s.Cells == 0 {
			// Cells are scanned row by row, so the first one met is the
			// topmost-leftmost.
			s.First = Cell{Col: i % p.Cols, Row: i / p.Cols}
		}
		s.Cells++
		if seen[i] {
			continue
		}
		size := 0
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			c, r := j%p.Cols, j/p.Cols
			for _, n := range [4][2]int{{c - 1, r}, {c + 1, r}, {c, r - 1}, {c, r + 1}} {
				if n[0] < 0 || n[0] >= p.Cols || n[1] < 0 || n[1] >= p.Rows {
					continue
				}
				k := n[1]*p.Cols + n[0]
				if !seen[k] && p.Owner[k] == o {
					seen[k] = true
					stack = append(stack, k)
				}
			}
		}
		s.Region = max(s.Region, size)
	}
	slices.SortStableFunc(st, func(a, b Standing) int {
		if (a.Cells == 0) != (b.Cells == 0) {
			if a.Cells == 0 {
				return 1
			}
			return -1
		}
		if a.Cells == 0 {
			return cmp.Compare(a.Seat, b.Seat)
		}
		return cmp.Or(
			cmp.Compare(b.Region, a.Region),
			cmp.Compare(b.Cells, a.Cells),
			cmp.Compare(a.First.Row, b.First.Row),
			cmp.Compare(a.First.Col, b.First.Col),
		)
	})
	owners := 0
	for i := range st {
		if st[i].Cells > 0 {
			owners++
			st[i].Place = float64(i + 1)
		}
	}
	// The rest span places owners+1 .. Players.
	for i := owners; i < len(st); i++ {
		st[i].Place = float64(owners+1+p.Players) / 2
	}
	return st
}
