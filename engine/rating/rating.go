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

// The ranges of the options that Fit takes. bayeselo takes any number,
// but beyond these the fit is no longer worth printing: a draw Elo above
// MaxDrawElo shrinks the display scale (Scale) until every rating rounds
// to 0 (and overflows it to 0 far above), and an advantage beyond
// MaxAdvantage puts the ratings of a small file outside the range over
// which exactdist integrates, so that a rating falls outside its own
// interval. Real values are far inside: chess engines' advantage is
// about 30, their draw Elo 100 to 300.
const (
	MaxAdvantage = 1000
	MaxDrawElo   = 1000
)

// OptionRange says which values of an option Fit takes, for messages:
// advantage, drawelo, prior or confidence.
func OptionRange(name string) string {
	switch name {
	case "advantage":
		return fmt.Sprintf("from -%d to %d", MaxAdvantage, MaxAdvantage)
	case "drawelo":
		return fmt.Sprintf("above 0 and at most %d", MaxDrawElo)
	case "prior":
		return "a finite number, 0 or more"
	}
	return "between 0 and 1, both excluded"
}

// OptionOK says whether x is in the range of the option name
// (OptionRange). With no draw margin a draw would have probability 0,
// and the virtual draws of the prior would make the likelihood 0.
func OptionOK(name string, x float64) bool {
	switch name {
	case "advantage":
		return -MaxAdvantage <= x && x <= MaxAdvantage
	case "drawelo":
		return 0 < x && x <= MaxDrawElo
	case "prior":
		return x >= 0 && !math.IsInf(x, 0)
	}
	return 0 < x && x < 1
}

// validate refuses options outside their ranges, naming the option.
func (o Options) validate() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"advantage", o.Advantage}, {"drawelo", o.DrawElo}, {"prior", o.Prior}, {"confidence", o.Confidence}} {
		if !OptionOK(v.name, v.x) {
			return fmt.Errorf("rating: %s %v: must be %s", v.name, v.x, OptionRange(v.name))
		}
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
	return fitTallyChecked(names, t, opt)
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

// ErrNoFit is returned when the fit of the games gives ratings that are
// not numbers (NaN), which options far outside their ranges can cause.
// A rating of ±Inf is a fit: without a prior, a player who lost or won
// every game is infinitely far from the others.
var ErrNoFit = errors.New("the fit gives no ratings (NaN)")

// fitTallyChecked is fitTally, refusing a fit that is not finite.
func fitTallyChecked(names []string, t *tally, opt Options) (*Ratings, error) {
	r := fitTally(names, t, opt)
	if err := r.checkFit(); err != nil {
		return nil, err
	}
	return r, nil
}

// checkFinite refuses ratings that are not numbers, or a display scale
// that makes every rating 0 or NaN.
func (r *Ratings) checkFit() error {
	if r.Scale == 0 || math.IsNaN(r.Scale) || math.IsInf(r.Scale, 0) {
		return fmt.Errorf("rating: %w (draw Elo %v)", ErrNoFit, r.Options.DrawElo)
	}
	for _, v := range r.raw {
		if math.IsNaN(v) {
			return fmt.Errorf("rating: %w (advantage %v, draw Elo %v, prior %v)", ErrNoFit, r.Options.Advantage, r.Options.DrawElo, r.Options.Prior)
		}
	}
	return nil
}
