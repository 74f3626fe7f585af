package stats_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/tournament"
)

// match builds a result from "bot:score" seats; "bot:score:fault" adds a
// fault and "bot:score@place" a place set by the driver.
func match(id string, seed uint64, seats ...string) stats.Result {
	r := stats.Result{Match: id, Seed: seed}
	for _, s := range seats {
		var sr stats.SeatResult
		spec, place, _ := strings.Cut(s, "@")
		f := strings.Split(spec, ":")
		sr.Bot = f[0]
		fmt.Sscan(f[1], &sr.Score)
		if len(f) > 2 {
			sr.Fault = f[2]
		}
		if place != "" {
			fmt.Sscan(place, &sr.Place)
		}
		r.Seats = append(r.Seats, sr)
	}
	return r
}

func TestPlaces(t *testing.T) {
	tests := []struct {
		name string
		r    stats.Result
		want []float64
	}{
		{"higher score places first", match("m", 1, "a:10", "b:30", "c:20"), []float64{3, 1, 2}},
		{"tied seats share the mean of their places", match("m", 1, "a:5", "b:9", "c:9", "d:1"), []float64{3, 1.5, 1.5, 4}},
		{"all tied", match("m", 1, "a:0", "b:0", "c:0", "d:0"), []float64{2.5, 2.5, 2.5, 2.5}},
		{"a fault places last whatever the score", match("m", 1, "a:50:crash", "b:10", "c:20"), []float64{3, 2, 1}},
		{"two faults share the last places", match("m", 1, "a:0:time", "b:10", "c:0:crash"), []float64{2.5, 1, 2.5}},
		{"the driver's places are kept", match("m", 1, "a:10@2", "b:30@1", "c:20@3"), []float64{2, 1, 3}},
		{"places from scores when a seat has none", match("m", 1, "a:10@1", "b:30", "c:20@3"), []float64{3, 1, 2}},
	}
	for _, tt := range tests {
		if got := stats.Places(&tt.r); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func testPlan(rating tournament.Rating, bots ...string) *plan.Plan {
	p := &plan.Plan{Tournament: "t", Rating: rating}
	for _, b := range bots {
		p.Bots = append(p.Bots, plan.Bot{Name: b})
	}
	return p
}

func order(st []stats.Standing) string {
	var s []string
	for _, x := range st {
		s = append(s, fmt.Sprintf("%d:%s", x.Rank, x.Bot))
	}
	return strings.Join(s, " ")
}

func TestWinsAndRankings(t *testing.T) {
	// a wins three times normally (once by the driver's place, not by
	// score); b wins twice, once in a match c crashed; c wins once and has
	// a fault; d never wins but scores most points.
	results := []stats.Result{
		match("m1", 1, "a:30", "b:20", "c:10", "d:29"),
		match("m2", 2, "a:30", "b:20", "c:10", "d:29"),
		match("m3", 3, "a:10", "b:30", "c:20", "d:29"),
		match("m4", 4, "a:10", "b:30", "c:5:crash", "d:29"),
		match("m5", 5, "a:10", "b:20", "c:30", "d:29"),
		match("m6", 6, "a:10@1", "b:10@3", "c:10@4", "d:40@2"),
	}
	tests := []struct {
		rating tournament.Rating
		want   string
	}{
		// wins 3, 2, 1, 0.
		{tournament.Wins, "1:a 2:b 3:c 4:d"},
		// mean points: d 30.83, b 21.67, a 16.67, c 14.17.
		{tournament.Points, "1:d 2:b 3:a 4:c"},
	}
	for _, tt := range tests {
		t.Run(tt.rating.String(), func(t *testing.T) {
			s, err := stats.ComputeStats(testPlan(tt.rating, "a", "b", "c", "d"), results)
			if err != nil {
				t.Fatal(err)
			}
			if got := order(s.Standings); got != tt.want {
				t.Errorf("order %s, want %s", got, tt.want)
			}
		})
	}
	s, _ := stats.ComputeStats(testPlan(tournament.Wins, "a", "b", "c", "d"), results)
	for _, want := range []stats.Standing{
		{Bot: "a", Wins: 3, NormalWins: 3},
		{Bot: "b", Wins: 2, NormalWins: 1},
		{Bot: "c", Wins: 1, NormalWins: 1, Faults: 1},
		{Bot: "d", Wins: 0, NormalWins: 0},
	} {
		for _, got := range s.Standings {
			if got.Bot == want.Bot && (got.Wins != want.Wins || got.NormalWins != want.NormalWins || got.Faults != want.Faults) {
				t.Errorf("%s: wins %d, normal %d, faults %d; want %d, %d, %d",
					got.Bot, got.Wins, got.NormalWins, got.Faults, want.Wins, want.NormalWins, want.Faults)
			}
		}
	}
	var p plan.Plan
	if err := json.Unmarshal([]byte(`{"rating": "glicko"}`), &p); err == nil {
		t.Error("a plan with an unknown rating was read")
	}
}

// partners makes each pair of seats of r partners (SeatResult.Partners),
// as a four-bot Euchre match reports them.
func partners(r stats.Result, pairs ...[2]int) stats.Result {
	for _, p := range pairs {
		r.Seats[p[0]].Partners = append(r.Seats[p[0]].Partners, p[1])
		r.Seats[p[1]].Partners = append(r.Seats[p[1]].Partners, p[0])
	}
	return r
}

func TestWon(t *testing.T) {
	tests := []struct {
		name string
		r    stats.Result
		want []bool
	}{
		{"the top score alone wins", match("m", 1, "a:3", "b:1", "c:2"), []bool{true, false, false}},
		{"a first place shared with an opponent is no win", match("m", 1, "a:3", "b:3", "c:2"), []bool{false, false, false}},
		{"a first place shared with the partner is a win of both",
			partners(match("m", 1, "a:1", "b:0", "c:1", "d:0"), [2]int{0, 2}, [2]int{1, 3}), []bool{true, false, true, false}},
		{"a draw between teams is no one's win",
			partners(match("m", 1, "a:0.5", "b:0.5", "c:0.5", "d:0.5"), [2]int{0, 3}, [2]int{1, 2}), []bool{false, false, false, false}},
		{"partners tied with an opponent do not win",
			partners(match("m", 1, "a:1", "b:1", "c:1", "d:0"), [2]int{0, 1}), []bool{false, false, false, false}},
		{"the driver's first place wins", match("m", 1, "a:10@2", "b:30@1", "c:20@3"), []bool{false, true, false}},
		{"a fault loses", match("m", 1, "a:9:crash", "b:1"), []bool{false, true}},
	}
	for _, tt := range tests {
		places := stats.Places(&tt.r)
		for s := range tt.r.Seats {
			if got := stats.Won(&tt.r, places, s); got != tt.want[s] {
				t.Errorf("%s: seat %d (%s) won %v, want %v", tt.name, s, tt.r.Seats[s].Bot, got, tt.want[s])
			}
		}
	}
}

// In Euchre with four bots partners share their team's result: both are
// credited the win, and the wins ranking orders bots by them (it tied
// every bot at rank 1 when a first place shared with a partner was no
// win).
func TestWinsOfPartners(t *testing.T) {
	results := []stats.Result{
		partners(match("m1", 1, "a:0", "b:1", "c:1", "d:0"), [2]int{0, 3}, [2]int{1, 2}),
		partners(match("m2", 2, "a:0", "c:1", "d:0", "e:1"), [2]int{0, 2}, [2]int{1, 3}),
		partners(match("m3", 3, "b:1", "c:1", "d:0", "e:0"), [2]int{0, 1}, [2]int{2, 3}),
		partners(match("m4", 4, "a:0.5", "b:0.5", "d:0.5", "e:0.5"), [2]int{0, 1}, [2]int{2, 3}),
	}
	s, err := stats.ComputeStats(testPlan(tournament.Wins, "a", "b", "c", "d", "e"), results)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := order(s.Standings), "1:c 2:b 3:e 4:a 4:d"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	wins := map[string]int{}
	for _, st := range s.Standings {
		wins[st.Bot] = st.Wins
		if st.NormalWins != st.Wins {
			t.Errorf("%s: %d wins, %d normal, in matches without a fault", st.Bot, st.Wins, st.NormalWins)
		}
	}
	if want := map[string]int{"a": 0, "b": 2, "c": 3, "d": 0, "e": 1}; !reflect.DeepEqual(wins, want) {
		t.Errorf("wins %v, want %v", wins, want)
	}
}

func TestWinsOrderBreaksTiesByNormalWinsThenFaults(t *testing.T) {
	results := []stats.Result{
		match("m1", 1, "a:1", "b:0"),
		match("m2", 2, "a:0", "b:1"),
		match("m3", 3, "c:1", "d:0:crash"),
		match("m4", 4, "c:0:time", "d:1"),
		match("m5", 5, "e:1", "f:0"),
		match("m6", 6, "e:0:time", "f:0:time"),
	}
	s, err := stats.ComputeStats(testPlan(tournament.Wins, "a", "b", "c", "d", "e", "f"), results)
	if err != nil {
		t.Fatal(err)
	}
	// a, b, e: 1 normal win. e has a fault loss, a and b none; c, d: one
	// win each, not normal, one fault loss; f nothing.
	if got, want := order(s.Standings), "1:a 1:b 3:e 4:c 4:d 6:f"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
}

func TestPlacementTiesAndPlayoffs(t *testing.T) {
	p := testPlan(tournament.Placement, "a", "b", "c", "d")
	regular := []stats.Result{
		match("m1", 1, "a:4", "b:3", "c:2", "d:1"),
		match("m2", 1, "a:1", "b:4", "c:3", "d:2"),
		match("m3", 1, "a:2", "b:1", "c:4", "d:3"),
		match("m4", 1, "a:3", "b:2", "c:1", "d:4"),
	}
	// Every bot's mean place is 2.5: one group of four.
	if got, want := stats.PlacementTies(p, regular), [][]string{{"a", "b", "c", "d"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ties %v, want %v", got, want)
	}
	// A playoff of the four puts c first, d last, a and b tied.
	withPlayoff := append(regular, match("playoff-1", 9, "a:5", "b:5", "c:9", "d:0"))
	if got, want := stats.PlacementTies(p, withPlayoff), [][]string{{"a", "b"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the playoff: ties %v, want %v", got, want)
	}
	// A playoff of other bots does not count for a and b; theirs does.
	withPlayoff = append(withPlayoff, match("playoff-2", 9, "a:1", "c:5"))
	if got := stats.PlacementTies(p, withPlayoff); len(got) != 1 {
		t.Fatalf("a playoff of a and c broke the tie of a and b: %v", got)
	}
	withPlayoff = append(withPlayoff, match("playoff-3", 9, "b:1", "a:2"))
	if got := stats.PlacementTies(p, withPlayoff); len(got) != 0 {
		t.Fatalf("ties %v after every playoff", got)
	}
	s, err := stats.ComputeStats(p, withPlayoff)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := order(s.Standings), "1:c 2:a 3:b 4:d"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	// Playoffs change neither the ratings nor the mean places.
	if s.Playoffs != 3 || s.Standings[0].Matches != 4 || s.Standings[0].Place != 2.5 || s.Standings[0].Games != 12 {
		t.Errorf("playoffs leaked into the statistics: %+v, %d playoffs", s.Standings[0], s.Playoffs)
	}
	if s.Ties != nil {
		t.Errorf("Ties = %v", s.Ties)
	}
}

func TestPlaceInterval(t *testing.T) {
	p := testPlan(tournament.Placement, "a", "b")
	results := []stats.Result{
		match("m1", 1, "a:1", "b:0"),
		match("m2", 2, "a:1", "b:0"),
		match("m3", 3, "a:0", "b:1"),
	}
	s, err := stats.ComputeStats(p, results)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Standings[0]
	// Places 1, 1, 2: mean 4/3, sd 1/√3, t(0.975, 2) = 4.3027.
	if a.Bot != "a" || fmt.Sprintf("%.4f ± %.4f", a.Place, a.PlaceCI) != "1.3333 ± 1.4342" {
		t.Errorf("%s: place %.4f ± %.4f, want a: 1.3333 ± 1.4342", a.Bot, a.Place, a.PlaceCI)
	}
	// One match has no interval; JSON says null instead of failing.
	s, err = stats.ComputeStats(testPlan(tournament.BayesElo, "a", "b", "c"), results[:1])
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"place_ci":null`) || !strings.Contains(string(b), `"plus":null`) {
		t.Errorf("JSON without nulls for undefined numbers: %s", b)
	}
	// c played no match: no place, not place 0.
	for _, st := range s.Standings {
		b, _ := json.Marshal(st)
		if st.Bot == "c" && (!strings.Contains(string(b), `"place":null`) || !strings.Contains(string(b), `"place_ci":null`)) {
			t.Errorf("a bot without matches: %s, want place and place_ci null", b)
		}
	}
}

// A bot without games has no Elo and no score, and one without matches
// no points either (JSON null, not 0); under every ranking they come
// after the bots that played, a loser included, sharing the last rank.
func TestBotsWithoutGamesRankLast(t *testing.T) {
	results := []stats.Result{match("m1", 1, "winner:11", "loser:8")}
	for _, r := range []tournament.Rating{tournament.BayesElo, tournament.Placement, tournament.Wins, tournament.Points} {
		s, err := stats.ComputeStats(testPlan(r, "idle1", "loser", "idle2", "winner"), results)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := order(s.Standings), "1:winner 2:loser 3:idle1 3:idle2"; got != want {
			t.Errorf("%s: order %s, want %s", r, got, want)
		}
		for _, st := range s.Standings {
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			null := strings.Contains(string(b), `"elo":null`) && strings.Contains(string(b), `"score":null`) && strings.Contains(string(b), `"points":null`)
			if idle := strings.HasPrefix(st.Bot, "idle"); null != idle {
				t.Errorf("%s: %s: elo, score and points null is %v, want %v", r, b, null, idle)
			}
		}
	}
}

func TestCrosstableAndLOS(t *testing.T) {
	results := []stats.Result{
		match("m1", 1, "a:3", "b:2", "c:1"),
		match("m2", 2, "a:3", "b:3", "c:1"),
		match("m3", 3, "a:1", "b:2", "c:3:crash"),
	}
	s, err := stats.ComputeStats(testPlan(tournament.BayesElo, "a", "b", "c"), results)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, st := range s.Standings {
		idx[st.Bot] = i
	}
	cell := func(x, y string) rating.WDL { return s.Crosstable[idx[x]][idx[y]] }
	if got, want := cell("a", "b"), (rating.WDL{W: 1, D: 1}); got != want {
		t.Errorf("a vs b %+v, want %+v", got, want)
	}
	if got, want := cell("c", "a"), (rating.WDL{L: 3}); got != want {
		t.Errorf("c vs a %+v, want %+v", got, want)
	}
	if got := s.LOS[idx["a"]][idx["c"]] + s.LOS[idx["c"]][idx["a"]]; got < 0.999999 || got > 1.000001 {
		t.Errorf("LOS a>c plus c>a = %v, want 1", got)
	}
	if s.LOS[idx["a"]][idx["c"]] < 0.9 {
		t.Errorf("LOS a>c = %v after 3 wins", s.LOS[idx["a"]][idx["c"]])
	}
}

func TestHeadToHeadPairing(t *testing.T) {
	sprt := rating.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	p := testPlan(tournament.BayesElo, "a", "b", "c")
	paired := []stats.Result{
		match("r1-s1", 11, "a:3", "b:1"),
		match("r1-s2", 11, "b:3", "a:1"), // a lost with b's hand: one win, one loss
		match("r2-s1", 12, "a:2", "b:2"),
		match("r2-s2", 12, "b:1", "a:2"),
		match("r3-s1", 13, "a:1", "c:2"), // not a game of a and b
	}
	h, err := stats.ComputeHeadToHead(p, paired, "a", "b", sprt)
	if err != nil {
		t.Fatal(err)
	}
	if h.Penta == nil || *h.Penta != (rating.Penta{WL: 1, WD: 1}) || h.WDL != (rating.WDL{W: 2, D: 1, L: 1}) {
		t.Errorf("paired: penta %+v, wdl %+v", h.Penta, h.WDL)
	}
	if h.Estimate.Model != "pentanomial" || h.Estimate.N != 2 {
		t.Errorf("estimate %+v, want pentanomial over 2 pairs", h.Estimate)
	}

	// Same seed but the seats not swapped, or a partner missing: games
	// count one by one.
	for name, results := range map[string][]stats.Result{
		"seats not swapped": {match("r1-s1", 11, "a:3", "b:1", "c:0"), match("r1-s2", 11, "c:0", "a:3", "b:1")},
		"partner missing":   paired[:3],
		"other seeds":       {match("r1-s1", 11, "a:3", "b:1"), match("r2-s1", 12, "b:3", "a:1")},
	} {
		h, err := stats.ComputeHeadToHead(p, results, "a", "b", sprt)
		if err != nil {
			t.Fatal(err)
		}
		if h.Penta != nil || h.Estimate.Model != "trinomial" || h.Unpaired == 0 {
			t.Errorf("%s: %+v", name, h)
		}
	}
	if _, err := stats.ComputeHeadToHead(p, paired, "a", "z", sprt); err == nil {
		t.Error("an unknown bot was accepted")
	}
}

// TestHeadToHeadSavedBounds: a plan saved before SPRT bounds beyond
// ±1000 Elo were refused keeps its bounds, and its head-to-head (rank
// -vs) still computes with them; bounds at which the model's LLR cannot
// be a number are refused.
func TestHeadToHeadSavedBounds(t *testing.T) {
	p := testPlan(tournament.BayesElo, "a", "b")
	results := []stats.Result{match("r1-s1", 11, "a:3", "b:1"), match("r2-s1", 12, "b:3", "a:1")}
	for _, model := range []string{rating.ModelNormalized, rating.ModelLogistic} {
		sprt := rating.SPRT{Elo0: 0, Elo1: 1200, Alpha: 0.05, Beta: 0.05, Model: model}
		if _, err := stats.ComputeHeadToHead(p, results, "a", "b", sprt); err != nil {
			t.Errorf("%s model, a saved plan's elo1 = 1200: %v", model, err)
		}
	}
	sprt := rating.SPRT{Elo0: 0, Elo1: 1e6, Alpha: 0.05, Beta: 0.05, Model: rating.ModelLogistic}
	if _, err := stats.ComputeHeadToHead(p, results, "a", "b", sprt); err == nil {
		t.Error("logistic model, elo1 = 1e6 (its expected score rounds to 1): accepted")
	}
}

// TestAllHeadToHeads: the head-to-heads of a whole field, made in one
// pass, are ComputeHeadToHead's of every pair that met, in the order of
// the bots given, and leave out the pairs that never met.
func TestAllHeadToHeads(t *testing.T) {
	sprt := rating.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	p := testPlan(tournament.BayesElo, "a", "b", "c", "d")
	results := []stats.Result{
		match("r1-s1", 11, "a:3", "b:1", "c:2"),
		match("r1-s2", 11, "b:3", "a:1", "c:0"),
		match("r2-s1", 12, "c:2", "b:2"),
		match("r3-s1", 13, "b:1", "c:2"),
		match("r4-s1", 14, "a:3", "b:1", "a:0"), // a bot in two seats: its last
	}
	bots := []string{"c", "a", "b", "d"} // standings order: d met nobody
	all := stats.AllHeadToHeads(p, results, bots, sprt)
	var got []string
	for _, h := range all {
		got = append(got, h.A+"-"+h.B)
		want, err := stats.ComputeHeadToHead(p, results, h.A, h.B, sprt)
		if err != nil {
			t.Fatal(err)
		}
		// Printed, since NaN (no error bar from two games) is not equal
		// to itself.
		show := func(h *stats.HeadToHead) string {
			c, penta := *h, "none"
			if c.Penta != nil {
				penta = fmt.Sprintf("%+v", *c.Penta)
			}
			c.Penta = nil
			return fmt.Sprintf("%+v penta %s", c, penta)
		}
		if show(h) != show(want) {
			t.Errorf("%s vs %s: AllHeadToHeads %s, ComputeHeadToHead %s", h.A, h.B, show(h), show(want))
		}
	}
	if want := "c-a c-b a-b"; strings.Join(got, " ") != want {
		t.Errorf("pairs %q, want %q", strings.Join(got, " "), want)
	}
}

// TestDisqualifiedRanksLast: a disqualified bot ranks after every other
// under each rating, however well it played, and is never tied for a
// playoff; its games in the matches it was disqualified in count as
// losses, while the others' games among themselves stand.
func TestDisqualifiedRanksLast(t *testing.T) {
	results := []stats.Result{
		match("m1", 1, "a:3@1", "b:2@2", "c:1@3"),
		match("m2", 2, "a:3@1", "b:1@2.5", "c:1@2.5"),
		match("m3", 3, "a:3@1", "b:1@2.5", "c:1@2.5"),
	}
	out := &stats.Disqualification{Reason: stats.DQOverruns, Match: "m2", Detail: "6 answers after the time limit"}
	results[1].Seats[0].Disqualified = out
	results[2].Seats[0].Disqualified = out
	for _, r := range []tournament.Rating{tournament.BayesElo, tournament.Placement, tournament.Wins, tournament.Points} {
		p := testPlan(r, "a", "b", "c")
		for _, m := range results {
			p.Matches = append(p.Matches, plan.Match{ID: m.Match, Seed: m.Seed})
		}
		s, err := stats.ComputeStats(p, results)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, st := range s.Standings {
			order = append(order, fmt.Sprint(st.Rank, st.Bot))
		}
		if got := strings.Join(order, " "); !strings.HasSuffix(got, "3a") || s.Standings[2].Disqualified != out {
			t.Errorf("%v: standings %s, want a last (rank 3) with its verdict", r, got)
		}
		if len(s.Ties) != 0 {
			t.Errorf("%v: ties %v", r, s.Ties)
		}
		if s.Standings[0].Bot != "b" || s.Standings[2].Wins != 1 {
			t.Errorf("%v: %+v; want b first, a with only its win before the verdict", r, s.Standings)
		}
	}
	// In m2 and m3 a loses to b and c, and b draws c.
	_, games := stats.PairwiseGames(testPlan(tournament.BayesElo, "a", "b", "c"), results[1:])
	g := func(w, b int, r rating.Result) rating.Game { return rating.Game{White: w, Black: b, Result: r} }
	if fmt.Sprint(games) != fmt.Sprint([]rating.Game{g(0, 1, rating.BlackWins), g(0, 2, rating.BlackWins), g(1, 2, rating.Draw),
		g(0, 1, rating.BlackWins), g(0, 2, rating.BlackWins), g(1, 2, rating.Draw)}) {
		t.Errorf("games %v", games)
	}
	if stats.PlacementTies(testPlan(tournament.Placement, "a", "b", "c"), results) != nil {
		t.Error("a disqualified bot is tied for a playoff")
	}
}

// TestSeatOutsideThePlan: a result seating bots the plan does not have
// gives them no games (they were once all taken for the plan's first bot,
// which then "played itself"), and ComputeStats refuses it.
func TestSeatOutsideThePlan(t *testing.T) {
	p := testPlan(tournament.BayesElo, "a", "b")
	p.Matches = []plan.Match{{ID: "m1", Seed: 1}}
	results := []stats.Result{match("m1", 1, "a:3", "x:2", "y:1", "b:0")}
	_, games := stats.PairwiseGames(p, results)
	if want := []rating.Game{{White: 0, Black: 1, Result: rating.WhiteWins}}; fmt.Sprint(games) != fmt.Sprint(want) {
		t.Errorf("games %v, want only a's win over b %v", games, want)
	}
	if _, err := stats.ComputeStats(p, results); err == nil || !strings.Contains(err.Error(), `match m1 seats "x", which is not a bot of the plan`) {
		t.Errorf("ComputeStats: %v, want a refusal naming x", err)
	}
}

// TestFaultThatDidNotEndTheMatch: a fault ends a match (Planowanie) and
// gives only the faulty bot's losses; in a game that plays on without the
// faulty bot (an Auction, PlayedOut), the others' game stands too.
func TestFaultThatDidNotEndTheMatch(t *testing.T) {
	p := testPlan(tournament.BayesElo, "a", "b", "c")
	ended := match("m1", 1, "a:0:start", "b:2", "c:1")
	played := ended
	played.PlayedOut = true
	g := func(w, b int, r rating.Result) rating.Game { return rating.Game{White: w, Black: b, Result: r} }
	for _, c := range []struct {
		r    stats.Result
		want []rating.Game
	}{
		{ended, []rating.Game{g(0, 1, rating.BlackWins), g(0, 2, rating.BlackWins)}},
		{played, []rating.Game{g(0, 1, rating.BlackWins), g(0, 2, rating.BlackWins), g(1, 2, rating.WhiteWins)}},
	} {
		if _, games := stats.PairwiseGames(p, []stats.Result{c.r}); fmt.Sprint(games) != fmt.Sprint(c.want) {
			t.Errorf("played out %v: games %v, want %v", c.r.PlayedOut, games, c.want)
		}
		pp := testPlan(tournament.Wins, "a", "b", "c")
		pp.Matches = []plan.Match{{ID: "m1", Seed: 1}}
		st, err := stats.ComputeStats(pp, []stats.Result{c.r})
		if err != nil {
			t.Fatal(err)
		}
		if b := st.Standings[0]; b.Bot != "b" || b.Wins != 1 || (b.NormalWins == 1) != c.r.PlayedOut {
			t.Errorf("played out %v: %+v; a normal win only when played out", c.r.PlayedOut, b)
		}
	}
}

// TestPlayoffsOver: a tie that the last playoff did not break is said to
// be final, one before it is not.
func TestPlayoffsOver(t *testing.T) {
	for _, last := range []int{plan.MaxPlayoffs - 1, plan.MaxPlayoffs} {
		p := testPlan(tournament.Placement, "a", "b")
		results := []stats.Result{match("m1", 1, "a:1", "b:1")}
		for k := 1; k <= last; k++ {
			results = append(results, match(fmt.Sprintf("playoff-%d-g01-s1", k), uint64(k+1), "a:1", "b:1"))
		}
		for _, r := range results {
			p.Matches = append(p.Matches, plan.Match{ID: r.Match, Seed: r.Seed})
		}
		s, err := stats.ComputeStats(p, results)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Ties) != 1 || s.PlayoffsOver != (last == plan.MaxPlayoffs) {
			t.Errorf("after %d playoffs: ties %v, over %v", last, s.Ties, s.PlayoffsOver)
		}
		// A match of the last playoff still to play: not over yet.
		p.Matches = append(p.Matches, plan.Match{ID: fmt.Sprintf("playoff-%d-g01-s2", last), Seed: 99})
		if s, err = stats.ComputeStats(p, results); err != nil || s.PlayoffsOver {
			t.Errorf("after %d playoffs, one match to play: over %v (%v)", last, s.PlayoffsOver, err)
		}
	}
}

// TestPlacementTiesOfBotsThatCouldNotPlay: bots that could not play any
// regular match (a start or build fault, or every answer defaulted) are
// not played off when tied: they stay tied, behind the bots of their mean
// place that played, which are played off among themselves.
func TestPlacementTiesOfBotsThatCouldNotPlay(t *testing.T) {
	p := testPlan(tournament.Placement, "a", "b", "nobuild", "nostart", "silent")
	silent := func(r stats.Result) stats.Result {
		r.Seats[len(r.Seats)-1].AllDefaults = true
		return r
	}
	results := []stats.Result{
		// a and b share the first places, the three others the last.
		silent(match("m1", 1, "a:4@1.5", "b:4@1.5", "nobuild:0:build@4", "nostart:0:start@4", "silent:0@4")),
		silent(match("m2", 2, "b:4@1.5", "a:4@1.5", "nostart:0:start@4", "nobuild:0:build@4", "silent:0@4")),
	}
	if got, want := stats.PlacementTies(p, results), [][]string{{"a", "b"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ties %v, want %v: only a and b are played off", got, want)
	}
	s, err := stats.ComputeStats(p, results)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.NotPlayedOff, [][]string{{"nobuild", "nostart", "silent"}}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(s.Ties, [][]string{{"a", "b"}}) {
		t.Errorf("not played off %v, ties %v; want %v, [[a b]]", got, s.Ties, want)
	}
	// A bot that played in one match of its two is played off.
	results[1].Seats[4].AllDefaults = false
	if got, want := stats.PlacementTies(p, results), [][]string{{"a", "b"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ties %v, want %v: silent, which played, is tied with no bot that played", got, want)
	}
	// A bot that played, tied with bots that could not, ranks before them.
	s, err = stats.ComputeStats(p, results)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := order(s.Standings), "1:a 1:b 3:silent 4:nobuild 4:nostart"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	if got, want := s.NotPlayedOff, [][]string{{"nobuild", "nostart"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("not played off %v, want %v", got, want)
	}
}

// TestPlacementTiesOfFillBots: fill bots only complete groups and are
// never played off, so tied fill bots are neither a tie that needs a
// playoff nor one that could not be played off, whether they played or
// could not; the field's tie beside them is reported alone.
func TestPlacementTiesOfFillBots(t *testing.T) {
	for _, c := range []struct {
		name   string
		f1, f2 string // the fill bots' seats in each match
	}{
		{"tied fill bots that played", "f1:1@3.5", "f2:1@3.5"},
		{"tied fill bots that could not play", "f1:0:start@3.5", "f2:0:build@3.5"},
	} {
		p := testPlan(tournament.Placement, "a", "b", "f1", "f2")
		p.Fill = []string{"f1", "f2"}
		results := []stats.Result{
			match("m1", 1, "a:4@1.5", "b:4@1.5", c.f1, c.f2),
			match("m2", 2, "b:4@1.5", "a:4@1.5", c.f2, c.f1),
		}
		if got, want := stats.PlacementTies(p, results), [][]string{{"a", "b"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: placement ties %v, want %v", c.name, got, want)
		}
		s, err := stats.ComputeStats(p, results)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s.Ties, [][]string{{"a", "b"}}) || s.NotPlayedOff != nil {
			t.Errorf("%s: ties %v, not played off %v; want [[a b]] and none", c.name, s.Ties, s.NotPlayedOff)
		}
	}
}

// The LOS matrix writes a figure the results do not give as null, and
// reads it back as NaN.
func TestLOSMatrixJSON(t *testing.T) {
	m := stats.LOSMatrix{{0, 0.75, math.NaN()}, {0.25, 0, math.NaN()}, {math.NaN(), math.NaN(), 0}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[[0,0.75,null],[0.25,0,null],[null,null,0]]`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	var back stats.LOSMatrix
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back[0][1] != 0.75 || !math.IsNaN(back[0][2]) || !math.IsNaN(back[2][1]) || back[2][2] != 0 {
		t.Errorf("read back %v", back)
	}
}

// TestPlacementTieOfOneBotThatCouldNotPlay: a bot that could not play,
// alone at the mean place of bots that played, is ranked behind them
// without a playoff like a group of such bots, and the standings say so
// for it too (not_played_off); alone at its mean place, or beside fill
// bots only, it is tied with no one.
func TestPlacementTieOfOneBotThatCouldNotPlay(t *testing.T) {
	p := testPlan(tournament.Placement, "five", "two", "crash")
	results := []stats.Result{match("m1", 1, "five:2@1", "two:0.5@2.5", "crash:0.5@2.5")}
	results[0].Seats[2].AllDefaults = true
	if got := stats.PlacementTies(p, results); got != nil {
		t.Fatalf("ties %v: two is tied with no bot that played", got)
	}
	s, err := stats.ComputeStats(p, results)
	if err != nil {
		t.Fatal(err)
	}
	if got := order(s.Standings); got != "1:five 2:two 3:crash" {
		t.Errorf("order %s, want 1:five 2:two 3:crash", got)
	}
	if got, want := s.NotPlayedOff, [][]string{{"crash"}}; !reflect.DeepEqual(got, want) || s.Ties != nil {
		t.Errorf("not played off %v, ties %v; want %v, none", got, s.Ties, want)
	}

	// Alone at its mean place: no tie.
	results = []stats.Result{match("m1", 1, "five:2@1", "two:1@2", "crash:0:start@3")}
	if s, err = stats.ComputeStats(p, results); err != nil || s.NotPlayedOff != nil {
		t.Errorf("not played off %v (%v), want none: crash placed last alone", s.NotPlayedOff, err)
	}

	// Beside a fill bot only, which is never played off: no tie.
	p = testPlan(tournament.Placement, "five", "fill", "crash")
	p.Fill = []string{"fill"}
	results = []stats.Result{match("m1", 1, "five:2@1", "fill:0.5@2.5", "crash:0.5:start@2.5")}
	if s, err = stats.ComputeStats(p, results); err != nil || s.NotPlayedOff != nil {
		t.Errorf("not played off %v (%v), want none: crash is tied with a fill bot only", s.NotPlayedOff, err)
	}
}

// TestTiedCutJSONSaysItsSentence: a tied cut's JSON carries its sentence
// as the standings print it, which the results page shows as it is, so
// that the page and `arbiter rank` cannot word a cut differently; its
// fields read back as they were.
func TestTiedCutJSONSaysItsSentence(t *testing.T) {
	c := stats.TiedCut{Stage: "qualification", Group: "A", Place: 4, Above: "tym07", Below: "tym19",
		Tied: "on mean place", DecidedBy: "name", Picks: []string{"top(stage.qualification, 4) for stage final_groups"}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sentence string `json:"sentence"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Sentence != c.String() {
		t.Errorf("sentence %q, want %q", got.Sentence, c.String())
	}
	var back stats.TiedCut
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c) {
		t.Errorf("%s reads back as %+v (%v), want %+v", b, back, err, c)
	}
}
