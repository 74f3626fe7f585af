// Package shuffle is the seeded shuffle that the card and auction games
// deal with. It is written out rather than taken from math/rand/v2, whose
// Shuffle and IntN may change between Go releases; only the PCG generator,
// which is specified, is borrowed. Changing anything here changes every
// deal and queue ever made from a seed.
package shuffle

import (
	"math/bits"
	"math/rand/v2"
)

// Slice shuffles s in place by Fisher-Yates, from the last element down,
// drawing each swap with Below.
func Slice[T any](src *rand.PCG, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := Below(src, uint64(i)+1)
		s[i], s[j] = s[j], s[i]
	}
}

// Below draws uniformly from [0, n) (Lemire's multiply-and-reject), so no
// element is likelier than another in any place.
func Below(src *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// Splitmix scrambles x (the SplitMix64 finaliser), so that neighbouring
// numbers, like the indexes of a game's deals, start a generator from
// unrelated states.
func Splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
