package bricks

import (
	"strconv"
	"testing"
)

// BenchmarkKeeperFirstMove is the keeper's hardest move on the contest's
// board: the first, with the whole board one region; compare with
// BenchmarkRandomFirstMove.
func BenchmarkKeeperFirstMove(b *testing.B) {
	for b.Loop() {
		k := &keeper{rng: seedFrom(func(string) string { return "1" }), memo: map[region]uint8{}}
		k.choose(NewBoard(5, []Cell{{X: 3, Y: 1}}))
	}
}

func BenchmarkRandomFirstMove(b *testing.B) {
	r := random{rng: seedFrom(func(string) string { return "1" })}
	for b.Loop() {
		r.choose(NewBoard(5, []Cell{{X: 3, Y: 1}}))
	}
}

// BenchmarkDuelBig plays a whole duel, keeper against random, in process
// on a large board: both bots' work over the game, without pipes.
func BenchmarkDuelBig(b *testing.B) {
	for _, n := range []int{51, 101, 201, 301} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for g := 0; b.Loop(); g++ {
				duel(n, g, (*keeper).choose)
			}
		})
	}
}
