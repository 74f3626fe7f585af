package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Result is White's score in a game.
type Result float64

const (
	BlackWins Result = 0
	Draw      Result = 0.5
	WhiteWins Result = 1
)

// Game is one game; White and Black index the names passed to Fit.
type Game struct {
	White, Black int
	Result       Result
}

// Options are bayeselo's model parameters.
type Options struct {
	Advantage  float64 // Elo advantage of White; 0 for seatless games
	DrawElo    float64 // larger means more draws between equal players
	Prior      float64 // virtual draws per player
	Confidence float64 // level of the reported intervals
}

// DefaultOptions returns bayeselo's defaults.
func DefaultOptions() Options {
	return Options{Advantage: 32.8, DrawElo: 97.3, Prior: 2, Confidence: 0.95}
}

func (o Options) validate() error {
	for _, v := range []float64{o.Advantage, o.DrawElo, o.Prior, o.Confidence} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("rating: non-finite option in %+v", o)
		}
	}
	switch {
	case o.DrawElo <= 0:
		// With no draw margin a draw has probability 0, and the virtual
		// draws of the prior would make the likelihood 0.
		return fmt.Errorf("rating: DrawElo must be positive, got %v", o.DrawElo)
	case o.Prior < 0:
		return fmt.Errorf("rating: Prior must not be negative, got %v", o.Prior)
	case o.Confidence <= 0 || o.Confidence >= 1:
		return fmt.Errorf("rating: Confidence must be in (0, 1), got %v", o.Confidence)
	}
	return nil
}

// Ratings is a fitted model. Elo, and every Elo quantity its methods
// return, is on bayeselo's display scale (see Scale in the package doc);
// players without games have Elo 0. The methods may be called
// concurrently.
type Ratings struct {
	Names []string
	Elo   []float64 // indexed like Names
	// Scale converts the model's ratings to displayed Elo:
	// 4x/(1+x)^2 with x = 10^(-DrawElo/400).
	Scale   float64
	Options Options

	games *tally
	m     *model
	raw   []float64 // unscaled ratings of the fitted players
	orig  []int     // fitted player -> index in Names
	fit   []int     // index in Names -> fitted player, or -1

	covOnce sync.Once
	cov     [][]float64 // unscaled, by fitted player
}

// ErrSelfPlay is returned by Fit for a game of a player against itself,
// which carries no rating information.
var ErrSelfPlay = errors.New("player plays itself")

// Fit runs bayeselo's `mm` on the games.
func Fit(names []string, games []Game, opt Options) (*Ratings, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	t := newTally(len(names))
	for i, g := range games {
		if err := checkGame(names, i, g); err != nil {
			return nil, err
		}
		t.add(g.White, g.Black, g.Result)
	}
	return fitTally(names, t, opt), nil
}

// fitTally is Fit of counted games, whose options are valid.
func fitTally(names []string, t *tally, opt Options) *Ratings {
	hasGames := make([]bool, len(names))
	for _, c := range t.pairs {
		hasGames[c.white] = true
		hasGames[c.black] = true
	}

	r := &Ratings{
		Names:   slices.Clone(names),
		Elo:     make([]float64, len(names)),
		Options: opt,
		games:   t,
		fit:     make([]int, len(names)),
	}
	x := math.Pow(10, -opt.DrawElo/400)
	r.Scale = x * 4 / ((1 + x) * (1 + x))

	// Players without games would make bayeselo's fit NaN; leaving them out
	// while keeping the others in order gives bayeselo's result after
	// `pack`.
	for i, has := range hasGames {
		r.fit[i] = -1
		if has {
			r.fit[i] = len(r.orig)
			r.orig = append(r.orig, i)
		}
	}
	r.m = newModel(len(r.orig), t, r.fit, float32(opt.Prior), opt.Advantage, opt.DrawElo)
	if len(r.orig) > 0 {
		r.raw = r.m.fit()
	}
	for k, i := range r.orig {
		r.Elo[i] = r.Scale * r.raw[k]
	}
	return r
}

// Rated reports whether player i has games and so a fitted rating.
func (r *Ratings) Rated(i int) bool { return r.fit[i] >= 0 }

// PlayerStats are the per-player columns of bayeselo's `ratings`.
type PlayerStats struct {
	Games               int
	Wins, Draws, Losses int
	Points              float64 // wins + draws/2
	Score               float64 // Points / Games
	DrawRate            float64 // Draws / Games
	Opponent            float64 // average Elo of the opponents, per game
}

// Stats returns the statistics of every player, indexed like Names.
func (r *Ratings) Stats() []PlayerStats {
	st := make([]PlayerStats, len(r.Names))
	for _, c := range r.games.pairs {
		w, b := &st[c.white], &st[c.black]
		n, win, draw, loss := int(c.win+c.draw+c.loss), int(c.win), int(c.draw), int(c.loss)
		w.Games += n
		b.Games += n
		w.Wins += win
		w.Draws += draw
		w.Losses += loss
		b.Wins += loss
		b.Draws += draw
		b.Losses += win
	}
	for i := range st {
		s := &st[i]
		s.Points = float64(s.Wins) + float64(s.Draws)/2
		if s.Games > 0 {
			s.Score = s.Points / float64(s.Games)
			s.DrawRate = float64(s.Draws) / float64(s.Games)
		}
		if k := r.fit[i]; k >= 0 {
			s.Opponent = r.Scale * r.m.averageOpponent(k, r.raw)
		}
	}
	return st
}

// order lists the fitted players from the highest rating down. Ties keep
// index order, which is also what bayeselo's std::sort does for up to 16
// players.
func (r *Ratings) order() []int {
	idx := make([]int, len(r.orig))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(r.raw[b], r.raw[a]) })
	return idx
}
