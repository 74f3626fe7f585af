package planowanie

import (
	"math/rand/v2"

	"github.com/arbiter-contests/arbiter/drivers/shuffle"
)

// dealStream tells the shuffles of one game's deals apart. Changing it
// changes every hand ever dealt, which would break the promise that a seed
// replays a round.
const dealStream = 0x706c616e6f77616e // "planowan"

// Hands deals one deal: players hands of cards cards, hands[i] belonging to
// seat i, each sorted by Deck.Compare. deal is the 0-based index of the deal
// in the game.
//
// The hands depend only on the arguments, never on the bots, so every match
// of a round sees the same hands from the same seats. The shuffle is written
// out here rather than taken from math/rand/v2, whose Shuffle and IntN may
// change between Go releases; only the PCG generator, which is specified, is
// borrowed. Hands panics if the deck is too small; Settings.Validate rules
// that out.
func Hands(d Deck, seed uint64, deal int, players, cards int) [][]Card {
	if players*cards > d.Size() {
		panic("planowanie: deck too small for the deal")
	}
	pack := d.Cards()
	src := rand.NewPCG(seed, shuffle.Splitmix(dealStream^uint64(deal)))
	shuffle.Slice(src, pack)
	hands := make([][]Card, players)
	for p := range hands {
		h := make([]Card, cards)
		copy(h, pack[p*cards:])
		d.Sort(h)
		hands[p] = h
	}
	return hands
}
