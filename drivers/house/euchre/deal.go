package euchre

import (
	"math/rand/v2"

	"github.com/arbiter-contests/arbiter/drivers/shuffle"
)

// dealStream tells Euchre's shuffles apart from other games' streams of the
// same seed. Changing it changes every hand ever dealt.
const dealStream = 0x6575636872650000 // "euchre"

// Deal is one hand's cards: Hands[p] belongs to position p, in the order
// dealt, and Upcard is the card turned up.
type Deal struct {
	Hands  [4][]Card
	Upcard Card
}

// DealHand shuffles the deck for hand number hand (0-based, counting hands
// thrown in) of a match with seed, and deals five cards to each player,
// starting left of dealer; the next card is the upcard.
//
// The deal depends only on seed, hand and dealer, never on the bots, so two
// matches with the same seed and first dealer get the same sequence of
// deals: the duplicate pairing swaps the teams' seats over the same cards.
// The shuffle is written out rather than taken from math/rand/v2, whose
// Shuffle may change between Go releases; only the specified PCG generator
// is borrowed.
func DealHand(seed uint64, hand, dealer int) Deal {
	pack := make([]Card, deckSize)
	for i := range pack {
		pack[i] = Card(i)
	}
	src := rand.NewPCG(seed, shuffle.Splitmix(dealStream^uint64(hand)))
	shuffle.Slice(src, pack)
	var d Deal
	for i := range 4 {
		p := (dealer + 1 + i) % 4
		d.Hands[p] = append([]Card(nil), pack[5*i:5*i+5]...)
	}
	d.Upcard = pack[20]
	return d
}
