package planowanie

import (
	"math/bits"
	"math/rand/v2"
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
	src := rand.NewPCG(seed, splitmix(dealStream^uint64(deal)))
	for i := len(pack) - 1; i > 0; i-- {
		j := below(src, uint64(i)+1)
		pack[i], pack[j] = pack[j], pack[i]
	}
	hands := make([][]Card, players)
	for p := range hands {
		h := make([]Card, cards)
		copy(h, pack[p*cards:])
		d.Sort(h)
		hands[p] = h
	}
	return hands
}

// below draws uniformly from [0, n) (Lemire's multiply-and-reject), so no
// card is likelier than another in any place.
func below(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// splitmix scrambles the deal index, so that neighbouring deals start the
// generator from unrelated states.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
