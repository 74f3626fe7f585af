package euchre

import (
	"math/bits"
	"math/rand/v2"
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
	src := rand.NewPCG(seed, splitmix(dealStream^uint64(hand)))
	for i := len(pack) - 1; i > 0; i-- {
		j := below(src, uint64(i)+1)
		pack[i], pack[j] = pack[j], pack[i]
	}
	var d Deal
	for i := range 4 {
		p := (dealer + 1 + i) % 4
		d.Hands[p] = append([]Card(nil), pack[5*i:5*i+5]...)
	}
	d.Upcard = pack[20]
	return d
}

// below draws uniformly from [0, n) (Lemire's multiply-and-reject).
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

// splitmix scrambles the hand number, so that neighbouring hands start the
// generator from unrelated states.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
