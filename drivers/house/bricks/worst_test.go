package bricks

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// duel plays keeper against random on the g-th seeded board of side n (up
// to n cells filled), keeper moving first in even duels. Each keeper move
// is made through move, which returns it. won says keeper made the last
// move, which wins.
func duel(n, g int, move func(k *keeper, b *Board) Move) (won bool) {
	rng := rand.New(rand.NewPCG(uint64(g), uint64(n)))
	var cells []Cell
	for range rng.IntN(n) {
		cells = append(cells, Cell{X: rng.IntN(n), Y: rng.IntN(n)})
	}
	b := NewBoard(n, cells)
	k := &keeper{rng: rng, memo: map[region]uint8{}}
	r := random{rng: rng}
	for turn := 0; b.HasMove(); turn++ {
		won = turn%2 == g%2
		if won {
			b.Place(move(k, b))
		} else {
			b.Place(r.choose(b))
		}
	}
	return won
}

// TestKeeperBoundedAndStronger plays keeper against random in 200 seeded
// duels on each size of board: no move's search tries more than
// keeperBudget dominoes (its bound on work, whatever the machine's load),
// and keeper still wins far more duels than random.
func TestKeeperBoundedAndStronger(t *testing.T) {
	for _, tc := range []struct{ n, minWins int }{{5, 175}, {7, 195}, {9, 195}} {
		wins := 0
		for g := range 200 {
			if duel(tc.n, g, func(k *keeper, b *Board) Move {
				before := k.tried
				m := k.choose(b)
				if k.tried-before > keeperBudget {
					t.Fatalf("%d×%d, duel %d: a move tried %d dominoes, more than its budget of %d", tc.n, tc.n, g, k.tried-before, keeperBudget)
				}
				return m
			}) {
				wins++
			}
		}
		if wins < tc.minWins {
			t.Errorf("%d×%d: keeper won %d of 200 duels against random, want at least %d", tc.n, tc.n, wins, tc.minWins)
		}
	}
}

// threadCPU is the CPU time of the calling OS thread, to the nanosecond
// (getrusage counts scheduler ticks of 4 ms).
func threadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

// TestKeeperWorstMoveReport measures, and judges nothing: it plays the
// duels of TestKeeperBoundedAndStronger and logs the worst and mean CPU
// time and work of one keeper move by board size (go test -run
// KeeperWorstMove -v; skipped with -short).
func TestKeeperWorstMoveReport(t *testing.T) {
	if testing.Short() {
		t.Skip("a measurement")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, n := range []int{5, 7, 9, 11} {
		var worst, total time.Duration
		worstWork, work, moves, wins := 0, 0, 0, 0
		for g := range 200 {
			if duel(n, g, func(k *keeper, b *Board) Move {
				start, before := threadCPU(), k.tried
				m := k.choose(b)
				d := threadCPU() - start
				worst, total = max(worst, d), total+d
				worstWork, work = max(worstWork, k.tried-before), work+k.tried-before
				moves++
				return m
			}) {
				wins++
			}
		}
		t.Logf("%d×%d: keeper won %d of 200 against random; %d moves: worst %v CPU, mean %v; worst work %d dominoes, mean %d",
			n, n, wins, moves, worst.Round(time.Microsecond), (total / time.Duration(moves)).Round(time.Microsecond), worstWork, work/moves)
	}
}
