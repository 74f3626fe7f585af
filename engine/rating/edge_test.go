package rating

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// Expected outputs in this file come from bayeselo v0057 on the same
// games.

func mustFit(t *testing.T, names []string, games []Game, opt Options) *Ratings {
	t.Helper()
	r, err := Fit(names, games, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func tableString(t *testing.T, r *Ratings, plus, minus []float64) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteTable(&b, plus, minus); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func losString(t *testing.T, r *Ratings) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteLOS(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// An undefeated player (finite thanks to the prior), names with spaces and
// a name shorter than the LOS column header.
func TestOnlyWinsAndSpacedNames(t *testing.T) {
	names := []string{"Deep Blue", "Stockfish 16", "x"}
	games := []Game{
		{0, 1, WhiteWins}, {1, 0, BlackWins}, {0, 2, WhiteWins},
		{2, 1, Draw}, {1, 2, WhiteWins},
	}
	r := mustFit(t, names, games, DefaultOptions())
	if e := r.Elo[0]; math.IsInf(e, 0) || math.IsNaN(e) || e <= r.Elo[1] {
		t.Errorf("undefeated player's Elo = %v, want finite and on top", e)
	}

	plus, minus := r.ExactDist()
	want := "" +
		"Rank Name           Elo    +    - games score oppo. draws \n" +
		"   1 Deep Blue      142  250  171     3  100%   -60    0% \n" +
		"   2 Stockfish 16   -38  148  157     4   38%    19   25% \n" +
		"   3 x             -104  162  194     3   17%    22   33% \n"
	if got := tableString(t, r, plus, minus); got != want {
		t.Errorf("exactdist table:\n%s\nwant:\n%s", got, want)
	}

	plus, minus = r.CovarianceIntervals()
	want = "" +
		"Rank Name           Elo    +    - games score oppo. draws \n" +
		"   1 Deep Blue      142  190  190     3  100%   -60    0% \n" +
		"   2 Stockfish 16   -38  146  146     4   38%    19   25% \n" +
		"   3 x             -104  173  173     3   17%    22   33% \n"
	if got := tableString(t, r, plus, minus); got != want {
		t.Errorf("covariance table:\n%s\nwant:\n%s", got, want)
	}

	want = "" +
		"              De St  x\n" +
		"Deep Blue        88 92\n" +
		"Stockfish 16  11    69\n" +
		"x              7 30   \n"
	if got := losString(t, r); got != want {
		t.Errorf("los:\n%s\nwant:\n%s", got, want)
	}
}

func TestDegenerateInputs(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		games []Game
		table string
		los   string
	}{
		{
			name:  "nothing",
			table: "Rank Name   Elo    +    - games score oppo. draws \n",
			los:   "  \n",
		},
		{
			name:  "no games",
			names: []string{"A", "Bee"},
			table: "Rank Name   Elo    +    - games score oppo. draws \n",
			los:   "    \n",
		},
		{
			name:  "single player",
			names: []string{"Solo player"},
			table: "Rank Name          Elo    +    - games score oppo. draws \n",
			los:   "            \n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustFit(t, tt.names, tt.games, DefaultOptions())
			plus, minus := r.ExactDist()
			if got := tableString(t, r, plus, minus); got != tt.table {
				t.Errorf("table = %q, want %q", got, tt.table)
			}
			if got := losString(t, r); got != tt.los {
				t.Errorf("los = %q, want %q", got, tt.los)
			}
			for i := range tt.names {
				if r.Elo[i] != 0 || r.Rated(i) {
					t.Errorf("player %d: Elo %v, rated %v; want 0, false", i, r.Elo[i], r.Rated(i))
				}
				if !math.IsInf(plus[i], 1) || !math.IsInf(r.Variance(i), 1) {
					t.Errorf("player %d: interval %v, variance %v; want +Inf", i, plus[i], r.Variance(i))
				}
			}
		})
	}
}

// Players without games must not disturb the others: the result is
// bayeselo's after `pack`.
func TestUnratedPlayersAreLeftOut(t *testing.T) {
	games := []Game{{0, 1, WhiteWins}, {1, 0, Draw}, {0, 1, BlackWins}, {1, 0, WhiteWins}}
	packed := mustFit(t, []string{"Ann", "Cid"}, games, DefaultOptions())

	spread := []Game{{0, 2, WhiteWins}, {2, 0, Draw}, {0, 2, BlackWins}, {2, 0, WhiteWins}}
	r := mustFit(t, []string{"Ann", "Bob", "Cid"}, spread, DefaultOptions())
	if r.Elo[0] != packed.Elo[0] || r.Elo[2] != packed.Elo[1] || r.Elo[1] != 0 {
		t.Errorf("Elo = %v, want %v with 0 for Bob", r.Elo, packed.Elo)
	}
	p1, _ := packed.ExactDist()
	p2, _ := r.ExactDist()
	if p2[0] != p1[0] || p2[2] != p1[1] || !math.IsInf(p2[1], 1) {
		t.Errorf("exactdist plus = %v, want %v with +Inf for Bob", p2, p1)
	}
	if got, want := tableString(t, r, p2, p2), tableString(t, packed, p1, p1); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	if los := r.LOS(); los[1][0] != 0.5 || los[0][1] != 0.5 || los[1][1] != 0 {
		t.Errorf("LOS with unrated player = %v", los)
	}
}

// Two groups that never met: bayeselo's covariance would be NaN.
func TestDisconnectedGroups(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	games := []Game{{0, 1, WhiteWins}, {1, 0, Draw}, {2, 3, BlackWins}, {3, 2, Draw}, {2, 3, WhiteWins}}
	r := mustFit(t, names, games, DefaultOptions())
	cov := r.Covariance()
	for i := range cov {
		for j := range cov[i] {
			if math.IsNaN(cov[i][j]) || math.IsInf(cov[i][j], 0) {
				t.Fatalf("Covariance[%d][%d] = %v", i, j, cov[i][j])
			}
		}
		if v := r.Variance(i); v != cov[i][i] || v <= 0 {
			t.Errorf("Variance(%d) = %v, Covariance = %v", i, v, cov[i][i])
		}
	}
	if cov[0][2] != 0 {
		t.Errorf("covariance across groups = %v, want 0", cov[0][2])
	}
	los := r.LOS()
	if los[0][2] != 0.5 || los[3][1] != 0.5 {
		t.Errorf("LOS across groups = %v, %v; want 0.5", los[0][2], los[3][1])
	}
	if s := los[0][1] + los[1][0]; math.Abs(s-1) > 1e-12 {
		t.Errorf("LOS[0][1] + LOS[1][0] = %v, want 1", s)
	}
}

// Without a prior a player who never scored has no finite rating; the
// others must still be usable.
func TestNoPriorWinless(t *testing.T) {
	opt := DefaultOptions()
	opt.Prior = 0
	games := []Game{{0, 1, WhiteWins}, {1, 0, BlackWins}, {0, 2, Draw}, {2, 0, WhiteWins}, {2, 1, WhiteWins}}
	r := mustFit(t, []string{"a", "b", "c"}, games, opt)
	if !math.IsInf(r.Elo[1], -1) {
		t.Errorf("winless Elo = %v, want -Inf", r.Elo[1])
	}
	for _, i := range []int{0, 2} {
		if math.IsInf(r.Elo[i], 0) || math.IsNaN(r.Elo[i]) {
			t.Errorf("Elo[%d] = %v, want finite", i, r.Elo[i])
		}
	}
	// Must not panic.
	plus, minus := r.ExactDist()
	tableString(t, r, plus, minus)
	losString(t, r)
}

func TestFitErrors(t *testing.T) {
	names := []string{"a", "b"}
	bad := func(f func(*Options)) Options {
		o := DefaultOptions()
		f(&o)
		return o
	}
	tests := []struct {
		name  string
		games []Game
		opt   Options
		is    error
	}{
		{"self play", []Game{{1, 1, Draw}}, DefaultOptions(), ErrSelfPlay},
		{"index", []Game{{0, 2, Draw}}, DefaultOptions(), nil},
		{"negative index", []Game{{-1, 0, Draw}}, DefaultOptions(), nil},
		{"result", []Game{{0, 1, 0.25}}, DefaultOptions(), nil},
		{"zero options", nil, Options{}, nil},
		{"negative prior", nil, bad(func(o *Options) { o.Prior = -1 }), nil},
		{"confidence", nil, bad(func(o *Options) { o.Confidence = 1 }), nil},
		{"NaN advantage", nil, bad(func(o *Options) { o.Advantage = math.NaN() }), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Fit(names, tt.games, tt.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func TestStats(t *testing.T) {
	names, games := readRef(t)
	r := mustFit(t, names, games, DefaultOptions())
	st := r.Stats()
	alpha := st[0]
	if alpha.Games != 16 || alpha.Wins != 12 || alpha.Draws != 1 || alpha.Losses != 3 {
		t.Errorf("Alpha stats = %+v", alpha)
	}
	if alpha.Points != 12.5 || alpha.Score != 12.5/16 || alpha.DrawRate != 1.0/16 {
		t.Errorf("Alpha score = %v %v %v", alpha.Points, alpha.Score, alpha.DrawRate)
	}
	if got := roundHalfAway(alpha.Opponent); got != -47 {
		t.Errorf("Alpha opponents' Elo = %v, want -47 as bayeselo prints", alpha.Opponent)
	}
	sum := 0.0
	for _, e := range r.Elo {
		sum += e
	}
	if math.Abs(sum) > 1e-9 {
		t.Errorf("ratings sum to %v, want 0", sum)
	}
}

func TestReadPGN(t *testing.T) {
	const pgn = `% escape line [White "Nope"]
[Event "Test"]
[White "Deep Thought 2"]
[Black "Hal \"9000\""]
[Result "1-0"]
[WhiteElo "2500"]

1. e4 {a comment [White "x"] here} e5 2. Nf3 ; comment [Black "y"]
Nc6 3. Bb5 (3. Bc4 Bc5) a6 $1 1-0

[White "Zed"]
[Black "Deep Thought 2"]
[Result "*"]

1. d4 *

[White "Alpha Beta"]
[Black "Zed"]
[Result "1/2-1/2"]
1. c4 c5 1/2-1/2
[White "Hal \"9000\""][Black "Zed"][Result "0-1"] 0-1
[White "Yes"][Black "NoResultTag"] 1. e4 (1. d4 1-0) 1/2-1/2

[White "Castler"]
[Black "Alpha Beta"]
[Result "0-1"]

1. e4 e5 2. O-O 0-0 3. a3 0-1
`
	names, games, rep, err := ReadPGN(strings.NewReader(pgn))
	if err != nil {
		t.Fatal(err)
	}
	// What bayeselo's `players` and `results` list for this file, but
	// for the game without a Result tag, which takes its termination
	// marker (not the one inside its variation).
	wantNames := []string{"Deep Thought 2", `Hal "9000"`, "Alpha Beta", "Zed", "Yes", "NoResultTag", "Castler"}
	wantGames := []Game{{0, 1, WhiteWins}, {2, 3, Draw}, {1, 3, BlackWins}, {4, 5, Draw}, {6, 2, BlackWins}}
	if want := (PGNReport{Games: 6, Rated: 5, Unknown: 1}); !reflect.DeepEqual(rep, want) {
		t.Errorf("report = %+v, want %+v", rep, want)
	}
	if strings.Join(names, "|") != strings.Join(wantNames, "|") {
		t.Errorf("names = %q, want %q", names, wantNames)
	}
	if len(games) != len(wantGames) {
		t.Fatalf("games = %v, want %v", games, wantGames)
	}
	for i := range games {
		if games[i] != wantGames[i] {
			t.Errorf("game %d = %v, want %v", i, games[i], wantGames[i])
		}
	}

	var out bytes.Buffer
	if err := WritePGN(&out, names, games); err != nil {
		t.Fatal(err)
	}
	n2, g2, _, err := ReadPGN(&out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(n2, "|") != strings.Join(names, "|") || len(g2) != len(games) {
		t.Errorf("round trip changed the games: %q %v", n2, g2)
	}
}

// ReadPGN counts every game, and says of each game it leaves out which
// one it is, where, and why; a game without a player's name is an error.
func TestReadPGNReport(t *testing.T) {
	for _, tc := range []struct {
		name, pgn string
		want      PGNReport
		err       string
	}{
		{"an empty file has no game", "", PGNReport{}, ""},
		{"bytes without a tag have no game", "\x00\xff garbage 1-0 ]", PGNReport{}, ""},
		{"a missing Result tag takes the termination marker",
			"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 0-1\n",
			PGNReport{Games: 2, Rated: 2}, ""},
		{"an unknown result is ignored", `[White "A"][Black "B"][Result "*"] *`, PGNReport{Games: 1, Unknown: 1}, ""},
		{"a marker that disagrees with the Result tag skips the game",
			"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 0-1\n",
			PGNReport{Games: 1, Skipped: 1, Warnings: []string{`game 1 (line 1): Result "1-0" at line 3 disagrees with the termination marker 0-1 at line 5 (PGN wants them equal)`}}, ""},
		{"a result that is not PGN's skips the game",
			"[White \"A\"][Black \"B\"][Result \"1:0\"]\n1. e4\n[White \"A\"][Black \"B\"][Result \"1-0\"] 1-0",
			PGNReport{Games: 2, Rated: 1, Skipped: 1, Warnings: []string{`game 1 (line 1): Result "1:0" at line 1 is not 1-0, 0-1, 1/2-1/2 or *`}}, ""},
		{"no result at all skips the game", `[White "A"][Black "B"] 1. e4`,
			PGNReport{Games: 1, Skipped: 1, Warnings: []string{"game 1 (line 1): no Result tag and no termination marker (1-0, 0-1, 1/2-1/2 or *) ending its movetext"}}, ""},
		{"an unclosed comment is named where it opens",
			"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 {unterminated comment\n\n[White \"A\"]\n[Black \"C\"]\n[Result \"0-1\"]\n\n0-1\n",
			PGNReport{Games: 1, Skipped: 1, Warnings: []string{"game 1 (line 1): the comment opened at line 5 is never closed: it runs to the end of the file, so no game after it is read"}}, ""},
		{"an unclosed variation skips its game",
			"[White \"A\"][Black \"B\"][Result \"1-0\"]\n1. e4 (1. d4 1-0\n[White \"A\"][Black \"C\"][Result \"0-1\"] 0-1",
			PGNReport{Games: 2, Rated: 1, Skipped: 1, Warnings: []string{"game 1 (line 1): the variation opened at line 2 is never closed"}}, ""},
		{"castling in zeros is a move", `[White "A"][Black "B"][Result "0-1"] 1. e4 e5 2. 0-0 0-0 0-1`, PGNReport{Games: 1, Rated: 1}, ""},
		{"a missing White tag is an error", "[White \"A\"][Black \"B\"][Result \"1-0\"] 1-0\n\n[Black \"B\"]\n[Result \"1-0\"] 1-0",
			PGNReport{}, "rating: game 2 (line 3): no White tag: every rated game names both players"},
		{"an empty name is an error", "[White \"\"]\n[Black \"B\"][Result \"1-0\"] 1-0",
			PGNReport{}, "rating: game 1 (line 1): the White tag at line 1 has an empty name: every rated game names both players"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, rep, err := ReadPGN(strings.NewReader(tc.pgn))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep, tc.want) {
				t.Errorf("report = %#v, want %#v", rep, tc.want)
			}
		})
	}
}

// Fit refuses options outside their ranges, naming the option and the
// range, rather than printing a fit that means nothing.
func TestOptionRanges(t *testing.T) {
	names, games := []string{"a", "b"}, []Game{{0, 1, WhiteWins}, {1, 0, Draw}}
	for _, tc := range []struct {
		name string
		set  func(*Options)
		err  string
	}{
		{"a huge draw Elo", func(o *Options) { o.DrawElo = 1e6 }, "rating: drawelo 1e+06: must be above 0 and at most 1000"},
		{"no draw Elo", func(o *Options) { o.DrawElo = 0 }, "rating: drawelo 0: must be above 0 and at most 1000"},
		{"a huge advantage", func(o *Options) { o.Advantage = 2000 }, "rating: advantage 2000: must be from -1000 to 1000"},
		{"a NaN advantage", func(o *Options) { o.Advantage = math.NaN() }, "rating: advantage NaN: must be from -1000 to 1000"},
		{"an infinite prior", func(o *Options) { o.Prior = math.Inf(1) }, "rating: prior +Inf: must be a finite number, 0 or more"},
		{"the largest values fit", func(o *Options) { o.Advantage, o.DrawElo = -1000, 1000 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultOptions()
			tc.set(&opt)
			r, err := Fit(names, games, opt)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if err := r.checkFit(); err != nil {
					t.Error(err)
				}
				return
			}
			if err == nil || err.Error() != tc.err {
				t.Errorf("error = %v, want %q", err, tc.err)
			}
		})
	}
}
