package tournament

import (
	"cmp"
	"slices"
)

// Order is the order in which a round's matches are listed, and so
// numbered and started.
type Order uint8

// The orders; ByGroup is the default of every game that states none.
const (
	// ByGroup: a group's seatings one after the other, group by group.
	ByGroup Order = iota
	// BySeat: the round's matches sorted by the field's order of the bot
	// in the first seat, then of the bot in the second, and so on: a
	// two-player round robin runs through each first player's opponents
	// in turn, as the original Bricks referee does.
	BySeat
)

// Orders lists every order, the default first.
var Orders = []Order{ByGroup, BySeat}

type order interface {
	name() string
	describe() string
	// sort orders a round's matches, given each match's seats and the
	// position of each bot in the field.
	sort(seats [][]string, pos map[string]int) []int
}

var orders = [...]order{ByGroup: byGroup{}, BySeat: bySeat{}}

func (o Order) String() string { return orders[o].name() }

// MarshalText writes the order's name.
func (o Order) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an order's name.
func (o *Order) UnmarshalText(b []byte) (err error) {
	*o, err = parse(Orders, "order", string(b))
	return err
}

// Describe says in a sentence how o orders a round's matches ("" for the
// default).
func (o Order) Describe() string { return orders[o].describe() }

// Sort returns the positions of a round's matches, given as their seats
// in the order a format lists them (group by group), in the order o
// plays them. field is the tournament's bots in the configuration's
// order; a bot it does not name (a fill bot) sorts after those it does.
func (o Order) Sort(seats [][]string, field []string) []int {
	pos := make(map[string]int, len(field))
	for i, b := range field {
		pos[b] = i
	}
	return orders[o].sort(seats, pos)
}

type byGroup struct{}

func (byGroup) name() string                                  { return "by-group" }
func (byGroup) describe() string                              { return "" }
func (byGroup) sort(seats [][]string, _ map[string]int) []int { return identity(len(seats)) }

type bySeat struct{}

func (bySeat) name() string { return "by-seat" }
func (bySeat) describe() string {
	return "Order by-seat: each round's matches sorted by the field's order of the first seat's bot, then the second's."
}
func (bySeat) sort(seats [][]string, pos map[string]int) []int {
	at := func(b string) int {
		if p, ok := pos[b]; ok {
			return p
		}
		return len(pos)
	}
	idx := identity(len(seats))
	slices.SortStableFunc(idx, func(a, b int) int {
		for k := range min(len(seats[a]), len(seats[b])) {
			if c := cmp.Compare(at(seats[a][k]), at(seats[b][k])); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(seats[a]), len(seats[b]))
	})
	return idx
}
