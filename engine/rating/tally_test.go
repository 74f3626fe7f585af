package rating

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// modelGameByGame is the model built the way bayeselo builds its condensed
// results, one game at a time, for comparison with newModel's counts.
func modelGameByGame(n int, games []Game, fit []int, prior float32) *model {
	m := &model{recs: make([][]record, n)}
	met := make([]map[int]int, n) // opponent -> order of first meeting, games scanned from last
	meet := func(p, o int) {
		if met[p] == nil {
			met[p] = map[int]int{}
		}
		if _, ok := met[p][o]; !ok {
			met[p][o] = len(met[p])
		}
	}
	for i := len(games) - 1; i >= 0; i-- {
		w, b := fit[games[i].White], fit[games[i].Black]
		meet(w, b)
		meet(b, w)
	}
	slot := func(p, o int) int { return len(met[p]) - 1 - met[p][o] }
	for p := range n {
		m.recs[p] = make([]record, len(met[p]))
		for o := range met[p] {
			m.recs[p][slot(p, o)] = record{opp: o, back: slot(o, p)}
		}
	}
	for _, g := range games {
		gw, gb := fit[g.White], fit[g.Black]
		w, b := &m.recs[gw][slot(gw, gb)], &m.recs[gb][slot(gb, gw)]
		w.games++
		b.games++
		switch g.Result {
		case WhiteWins:
			w.whiteWin++
			b.blackLoss++
		case Draw:
			w.whiteDraw++
			b.blackDraw++
		case BlackWins:
			w.whiteLoss++
			b.blackWin++
		}
	}
	m.addPrior(prior)
	return m
}

// The counts by pair give the same model, slot for slot and bit for bit,
// as counting the games one by one in bayeselo's order.
func TestTallyModelIsGameByGame(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		names, games := randomTournament(rng)
		// Repeat pairs many times over so that slot order depends on
		// which of several games was last.
		for range rng.IntN(300) {
			games = append(games, games[rng.IntN(len(games))])
		}
		r, err := Fit(names, games, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		want := modelGameByGame(len(r.orig), games, r.fit, 2)
		if !reflect.DeepEqual(r.m.recs, want.recs) {
			t.Fatalf("seed %d: model from the tally differs from the game-by-game model:\n%+v\nwant\n%+v", seed, r.m.recs, want.recs)
		}
	}
}

func TestCount32(t *testing.T) {
	var f float32
	for n := int64(0); n <= 1<<24+3; n++ {
		if n >= 1<<24-2 && count32(n) != f {
			t.Fatalf("count32(%d) = %v, a float32 counter holds %v", n, count32(n), f)
		}
		f++
	}
}

// FitPGN gives what ReadPGN then Fit gives, and refuses self play.
func TestFitPGN(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	names, games := randomTournament(rng)
	var pgn bytes.Buffer
	if err := WritePGN(&pgn, names, games); err != nil {
		t.Fatal(err)
	}
	rn, rg, _, err := ReadPGN(bytes.NewReader(pgn.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := mustFit(t, rn, rg, DefaultOptions())
	got, _, err := FitPGN(bytes.NewReader(pgn.Bytes()), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	wp, wm := want.ExactDist()
	gp, gm := got.ExactDist()
	if a, b := tableString(t, got, gp, gm), tableString(t, want, wp, wm); a != b {
		t.Errorf("FitPGN:\n%s\nReadPGN and Fit:\n%s", a, b)
	}
	if !reflect.DeepEqual(got.Stats(), want.Stats()) {
		t.Errorf("stats differ: %+v, want %+v", got.Stats(), want.Stats())
	}

	_, _, err = FitPGN(strings.NewReader(`[White "a"][Black "b"][Result "1-0"] 1-0 [White "a"][Black "a"][Result "0-1"] 0-1`), DefaultOptions())
	if !errors.Is(err, ErrSelfPlay) || !strings.Contains(err.Error(), `game 2 (line 1), White and Black both "a"`) {
		t.Errorf("self play: %v", err)
	}
}

// exactDist's cut of the grid's tails gives the bounds, bit for bit, that evaluating
// every point of the grid gives, for players whose likelihood is narrow
// (thousands of games each) as well as wide.
func TestExactDistCut(t *testing.T) {
	for _, size := range []int{300, 60000} {
		names, games := benchGames(30, size)
		r := mustFit(t, names, games, DefaultOptions())
		plus, minus := r.ExactDist()
		g, n := exactGrid, len(r.orig)
		dist := make([]float64, g.size)
		for k := range n {
			base := r.raw[k]
			for i := range dist {
				v := g.value(i)
				shift := (v - base) / float64(n-1)
				dist[i] = r.m.logLikelihood(k, v, func(o int) float64 { return r.raw[o] - shift })
			}
			logNormalize(dist)
			wm := r.Scale * (base - g.lower(dist, r.Options.Confidence))
			wp := r.Scale * (g.upper(dist, r.Options.Confidence) - base)
			i := r.orig[k]
			if plus[i] != wp || minus[i] != wm {
				t.Errorf("%d games, player %d: +%v -%v, the whole grid gives +%v -%v", size, k, plus[i], minus[i], wp, wm)
			}
		}
	}
}
