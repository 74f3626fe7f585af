package rating

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// near reports whether got is within rel (relative) of want, the way
// fastchess's tests compare (doctest::Approx(want).epsilon(rel)).
func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*max(math.Abs(got), math.Abs(want))
}

// The rows are fastchess's own tests (app/tests/elo_test.cpp); the first
// is the check of issue 5. Values are those fastchess prints, rounded to
// two decimals, so the tolerance is half a unit of the last digit.
func TestEstimateFastchess(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name          string
		got           Estimate
		elo, err      float64
		nElo, nEloErr float64
		los, score    float64
	}{
		{"wdl 76-123-89", WDL{W: 76, D: 123, L: 89}.Estimate(), -15.69, 30.46, -20.76, 40.13, 15.53, 0.477},
		{"wdl 136-111-96", WDL{W: 136, D: 111, L: 96}.Estimate(), 40.70, 30.43, 49.77, 36.77, 99.60, 0.558},
		{"wdl 34-0-356", WDL{W: 34, D: 0, L: 356}.Estimate(), nan, nan, -508.44, 34.48, nan, 0.087},
		{"penta 1", Penta{LL: 34, LD: 54, WL: 31, DD: 32, WD: 64, WW: 75}.Estimate(), 55.58, 27.65, 57.94, 28.28, 100.00, 0.579},
		{"penta 2", Penta{LL: 332, LD: 433, WL: 457, DD: 41, WD: 333, WW: 334}.Estimate(), -8.64, 10.33, -9.17, 10.96, 5.05, 0.488},
		{"penta 3", Penta{LL: 7895, LD: 8757, WL: 5485, DD: 200, WD: 568, WW: 9999}.Estimate(), -21.04, 2.95, -19.01, 2.65, 0.00, 0.470},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.got
			check := func(what string, got, want, tol float64) {
				if math.IsNaN(want) {
					return // fastchess's test does not check it
				}
				if math.Abs(got-want) > tol {
					t.Errorf("%s = %.4f, want %.2f", what, got, want)
				}
			}
			check("Elo", e.Elo, tt.elo, 0.005)
			check("Elo error", e.EloError, tt.err, 0.005)
			check("nElo", e.NElo, tt.nElo, 0.005)
			check("nElo error", e.NEloError, tt.nEloErr, 0.005)
			check("LOS %", 100*e.LOS, tt.los, 0.005)
			check("score", e.Score, tt.score, 0.0005)
		})
	}
}

func TestPentaAdd(t *testing.T) {
	tests := []struct {
		name string
		a, b Result
		want Penta
	}{
		{"won both", WhiteWins, WhiteWins, Penta{WW: 1}},
		{"won one, drew one", Draw, WhiteWins, Penta{WD: 1}},
		{"won one, lost one", BlackWins, WhiteWins, Penta{WL: 1}},
		{"drew both", Draw, Draw, Penta{DD: 1}},
		{"lost one, drew one", BlackWins, Draw, Penta{LD: 1}},
		{"lost both", BlackWins, BlackWins, Penta{LL: 1}},
	}
	for _, tt := range tests {
		var p Penta
		p.Add(tt.a, tt.b)
		if p != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, p, tt.want)
		}
	}
	p := Penta{LL: 1, LD: 2, WL: 3, DD: 4, WD: 5, WW: 6}
	if got, want := p.WDL(), (WDL{W: 12 + 5 + 3, D: 5 + 8 + 2, L: 3 + 2 + 2}); got != want {
		t.Errorf("WDL() = %+v, want %+v", got, want)
	}
}

func TestEstimateJSONWithoutGames(t *testing.T) {
	b, err := json.Marshal(WDL{}.Estimate())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"trinomial","n":0,"score":null,"elo":null,"elo_error":null,"nelo":null,"nelo_error":null,"los":null}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	// A clean sweep has an infinite Elo: null, not an encoding error.
	if _, err := json.Marshal(WDL{W: 10}.Estimate()); err != nil {
		t.Error(err)
	}
}

// The first rows are fastchess's tests (app/tests/sprt_test.cpp), which
// check two decimals with a relative tolerance of 1%. The "exact" rows
// were computed independently of fastchess's root finder (see
// testdata/sprt_check.py, which solves the same maximum-likelihood
// equations by bisection to machine precision); they pin this
// implementation's own digits to 1e-3, about the accuracy of fastchess's
// θ tolerance.
func TestSPRTLLR(t *testing.T) {
	sprt := func(elo0, elo1 float64, model string) SPRT {
		return SPRT{Elo0: elo0, Elo1: elo1, Alpha: 0.05, Beta: 0.05, Model: model}
	}
	tests := []struct {
		sprt  SPRT
		wdl   *WDL
		penta *Penta
		want  float64
		rel   float64
	}{
		// fastchess Stats(wins, losses, draws).
		{sprt(0, 2, "normalized"), &WDL{W: 36433, L: 36027, D: 68692}, nil, 0.92, 0.01},
		{sprt(-1.75, 0.25, "normalized"), &WDL{W: 10871, L: 10650, D: 20431}, nil, 2.30, 0.01},
		{sprt(0, 10, "normalized"), &WDL{W: 4250}, nil, 120.56, 0.01},
		{sprt(0.5, 2.5, "logistic"), &WDL{W: 21404, L: 21184, D: 40708}, nil, -1.57, 0.01},
		{sprt(0, 2, "logistic"), &WDL{W: 57433, L: 57030, D: 106593}, nil, -2.59, 0.01},
		{sprt(0, 2, "bayesian"), &WDL{W: 68965, L: 68526, D: 128429}, nil, -1.26, 0.01},
		{sprt(0.5, 2.5, "bayesian"), &WDL{W: 21629, L: 21484, D: 41111}, nil, -1.13, 0.01},
		// fastchess Stats(ll, ld, wl, dd, wd, ww).
		{sprt(0, 2, "normalized"), nil, &Penta{LL: 365, LD: 16618, WL: 36029, DD: 200, WD: 16974, WW: 390}, 2.25, 0.01},
		{sprt(-1.75, 0.25, "normalized"), nil, &Penta{LL: 127, LD: 4883, WL: 10311, DD: 401, WD: 5150, WW: 104}, 3.01, 0.01},
		{sprt(0, 5, "normalized"), nil, &Penta{WW: 5550}, 111.82, 0.01},
		{sprt(0.5, 2.5, "logistic"), nil, &Penta{LL: 223, LD: 9863, WL: 20279, DD: 1000, WD: 10037, WW: 246}, -3.07, 0.01},
		{sprt(0, 2, "logistic"), nil, &Penta{LL: 871, LD: 26175, WL: 55003, DD: 980, WD: 26678, WW: 821}, -4.98, 0.01},
	}
	tests = append(tests, exactLLR...)
	for _, tt := range tests {
		var got float64
		var name string
		if tt.wdl != nil {
			got, name = tt.sprt.LLR(*tt.wdl), fmt.Sprintf("%s %+v", tt.sprt.Model, *tt.wdl)
		} else {
			got, name = tt.sprt.LLRPenta(*tt.penta), fmt.Sprintf("%s %+v", tt.sprt.Model, *tt.penta)
		}
		if !near(got, tt.want, tt.rel) && math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("[%g, %g] %s: LLR = %.6f, want %.6f (±%g relative)", tt.sprt.Elo0, tt.sprt.Elo1, name, got, tt.want, tt.rel)
		}
	}
}

func TestSPRTBoundsAndDecision(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	// ln(0.05/0.95) = -2.944438979...
	if math.Abs(lo+2.9444389791664403) > 1e-12 || math.Abs(hi-2.9444389791664403) > 1e-12 {
		t.Errorf("bounds = (%v, %v), want ±2.9444", lo, hi)
	}
	tests := []struct {
		name string
		c    WDL
		want Decision
	}{
		{"no games", WDL{}, Continue},
		{"even", WDL{W: 50, D: 100, L: 50}, Continue},
		{"much stronger", WDL{W: 400, D: 100, L: 100}, AcceptH1},
		{"much weaker", WDL{W: 100, D: 100, L: 400}, AcceptH0},
	}
	for _, tt := range tests {
		if got := s.Test(tt.c); got.Decision != tt.want {
			t.Errorf("%s: %+v, want %s", tt.name, got, tt.want)
		}
	}
}

func TestSPRTValidate(t *testing.T) {
	tests := []struct {
		name string
		s    SPRT
		ok   bool
	}{
		{"fishtest bounds", SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05}, true},
		{"elo0 not below elo1", SPRT{Elo0: 2, Elo1: 2, Alpha: 0.05, Beta: 0.05}, false},
		{"alpha 0", SPRT{Elo0: 0, Elo1: 2, Alpha: 0, Beta: 0.05}, false},
		{"beta 1", SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 1}, false},
		{"alpha+beta 1", SPRT{Elo0: 0, Elo1: 2, Alpha: 0.5, Beta: 0.5}, false},
		{"unknown model", SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: "gsprt"}, false},
		// As a stop { sprt } block takes them (rank -sprt took these).
		{"alpha 0.7", SPRT{Elo0: 0, Elo1: 10, Alpha: 0.7, Beta: 0.05}, false},
		{"elo1 infinite", SPRT{Elo0: 0, Elo1: math.Inf(1), Alpha: 0.05, Beta: 0.05}, false},
		{"elo0 NaN", SPRT{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{"elo1 beyond the models", SPRT{Elo0: 0, Elo1: 1e30, Alpha: 0.05, Beta: 0.05}, false},
		{"elo0 beyond the models", SPRT{Elo0: -1000.5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, false},
		{"the widest bounds", SPRT{Elo0: -1000, Elo1: 1000, Alpha: 0.05, Beta: 0.05}, true},
	}
	for _, tt := range tests {
		if err := tt.s.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v", tt.name, err)
		}
	}
}

// Finite gives JSON 0 for a negative zero, whose sign means nothing.
func TestFiniteNegativeZero(t *testing.T) {
	if p := Finite(math.Copysign(0, -1)); p == nil || math.Signbit(*p) {
		t.Errorf("Finite(-0) = %v, want 0", p)
	}
	if Finite(math.Inf(-1)) != nil || Finite(math.NaN()) != nil {
		t.Error("Finite of an infinity or NaN is not nil")
	}
}

// Within the bounds Validate takes, every model's LLR is a number, for
// trinomial and pentanomial counts alike: far from 0 the normalized
// model's fixed point from the uniform distribution cannot start (its
// LLR was NaN, and an SPRT on it went on for ever), and bounds at the
// limit must not make any model's NaN either.
func TestSPRTLLRIsANumberWithinBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	count := func(n int) int { return r.IntN(2) * r.IntN(n) }
	bounds := [][2]float64{{0, 250}, {-MaxSPRTElo, MaxSPRTElo}, {MaxSPRTElo - 0.01, MaxSPRTElo}, {-MaxSPRTElo, 1 - MaxSPRTElo}, {0, 5}}
	for range 300 {
		e0 := (r.Float64()*2 - 1) * MaxSPRTElo
		bounds = append(bounds, [2]float64{e0, e0 + r.Float64()*(MaxSPRTElo-e0)})
	}
	for i, b := range bounds {
		c := WDL{W: count(300), D: count(300), L: count(300)}
		p := Penta{WW: count(100), WD: count(100), WL: count(100), DD: count(100), LD: count(100), LL: count(100)}
		for _, m := range []string{ModelNormalized, ModelLogistic, ModelBayesian} {
			s := SPRT{Elo0: b[0], Elo1: b[1], Alpha: 0.05, Beta: 0.05, Model: m}
			if err := s.Validate(); err != nil {
				t.Fatalf("%d: %v", i, err)
			}
			if v := s.LLR(c); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s [%g, %g] %+v: LLR = %v", m, b[0], b[1], c, v)
			}
			if v := s.LLRPenta(p); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s [%g, %g] %+v: LLR = %v", m, b[0], b[1], p, v)
			}
		}
	}
}
