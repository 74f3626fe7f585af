package rating

import (
	"cmp"
	"fmt"
	"slices"
)

// tally is a set of games counted by pair of players and colours: all
// that bayeselo's model and the players' statistics need of them, in
// memory that grows with the pairs that met rather than with the games.
type tally struct {
	players int
	games   int
	index   map[uint64]int32 // white<<32 | black -> pairs
	pairs   []pairCount
}

// pairCount is the games that White played against Black with White's
// results, and where the last of them was in the order of the games (the
// slot order of bayeselo's condensed results depends on it).
type pairCount struct {
	white, black    int32
	win, draw, loss int64
	last            int64
}

func newTally(players int) *tally {
	return &tally{players: players, index: map[uint64]int32{}}
}

// add counts a game; players are indices below t.players.
func (t *tally) add(white, black int, res Result) {
	key := uint64(white)<<32 | uint64(black)
	i, ok := t.index[key]
	if !ok {
		i = int32(len(t.pairs))
		t.index[key] = i
		t.pairs = append(t.pairs, pairCount{white: int32(white), black: int32(black)})
	}
	c := &t.pairs[i]
	switch res {
	case WhiteWins:
		c.win++
	case Draw:
		c.draw++
	default:
		c.loss++
	}
	c.last = int64(t.games)
	t.games++
}

// checkGame reports a game Fit cannot rate; i is its number, from 0.
func checkGame(names []string, i int, g Game) error {
	if g.White < 0 || g.White >= len(names) || g.Black < 0 || g.Black >= len(names) {
		return fmt.Errorf("rating: game %d: player index out of range [0, %d)", i, len(names))
	}
	if g.White == g.Black {
		return fmt.Errorf("rating: game %d (%q): %w", i, names[g.White], ErrSelfPlay)
	}
	if g.Result != WhiteWins && g.Result != Draw && g.Result != BlackWins {
		return fmt.Errorf("rating: game %d: result %v is not 0, 0.5 or 1", i, float64(g.Result))
	}
	return nil
}

// slots lists, for each player, its opponents in bayeselo's slot order:
// bayeselo scans the games from last to first and gives each newly met
// opponent the highest free slot, so the slots run in the order of the
// last game against each opponent (of either colour; a player meets one
// opponent a game, so no two opponents of a player share it).
func (t *tally) slots() [][]meeting {
	last := make(map[uint64]int64, len(t.pairs))
	for _, c := range t.pairs {
		key := uint64(min(c.white, c.black))<<32 | uint64(max(c.white, c.black))
		if v, ok := last[key]; !ok || c.last > v {
			last[key] = c.last
		}
	}
	met := make([][]meeting, t.players)
	for key, l := range last {
		a, b := int(key>>32), int(key&(1<<32-1))
		met[a] = append(met[a], meeting{opp: b, last: l})
		met[b] = append(met[b], meeting{opp: a, last: l})
	}
	for p := range met {
		slices.SortFunc(met[p], func(x, y meeting) int { return cmp.Compare(x.last, y.last) })
	}
	return met
}

type meeting struct {
	opp  int
	last int64
}

// count32 is n as bayeselo's float32 counter holds it after n increments:
// exact up to 2^24, where adding 1 no longer changes it.
func count32(n int64) float32 {
	return float32(min(n, 1<<24))
}
