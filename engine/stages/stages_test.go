package stages_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/tournament"
)

func compileDir(t *testing.T, dir string) *plan.Plan {
	t.Helper()
	cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return p
}

// play "plays" every match of stage k: seats place in the order of
// strength, the strongest first, with no tie.
func play(p *plan.Plan, k int, strength map[string]int) []stats.Result {
	var ms []plan.Match
	for _, m := range p.Matches {
		if m.Stage == p.Stages[k].Name {
			ms = append(ms, m)
		}
	}
	return playMatches(ms, strength)
}

// playMatches "plays" ms as play does.
func playMatches(ms []plan.Match, strength map[string]int) []stats.Result {
	var out []stats.Result
	for _, m := range ms {
		r := stats.Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for _, b := range m.Seats {
			r.Seats = append(r.Seats, stats.SeatResult{Bot: b, SeatResult: drivers.SeatResult{Score: float64(strength[b])}})
		}
		out = append(out, r)
	}
	return out
}

// runStages makes and plays every stage after the listed ones, and the
// playoffs of each, with playoff's strengths when not nil.
func runStages(t *testing.T, p *plan.Plan, strength, playoff map[string]int) []stats.Result {
	if playoff == nil {
		playoff = strength
	}
	var results []stats.Result
	for k := range p.Stages {
		if k >= p.ListedStages() {
			pr, err := stages.Make(p, k, results, nil)
			if err != nil {
				t.Fatal(err)
			}
			p.Matches = append(p.Matches, pr.Matches...)
		}
		results = append(results, play(p, k, strength)...)
		for n := 1; ; n++ {
			pr, _, err := stages.Playoff(p, k, n, results, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pr == nil {
				break
			}
			p.Matches = append(p.Matches, pr.Matches...)
			results = append(results, playMatches(pr.Matches, playoff)...)
		}
	}
	return results
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// byStrength is bots, strongest first.
func byStrength(bots []string, strength map[string]int) []string {
	s := slices.Clone(bots)
	sort.SliceStable(s, func(i, j int) bool { return strength[s[i]] > strength[s[j]] })
	return s
}

// TestFibotSeason checks examples/fibot against section 3 of Fibot 4's
// rules (the contest's seed document, not needed here): 4 qualification groups of
// 6; their 4 best go to the final tournament, their 5th places play for
// the 2 last places, their winners play the qualification final; the
// final tournament is 3 groups of 6 seeded by the qualification, whose 2
// best make the final of 6.
func TestFibotSeason(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p) // an order unrelated to the names
	results := runStages(t, p, strength, nil)
	pools := func(name string) [][]string {
		t.Helper()
		pools, err := stages.Pools(p, p.StageIndex(name), results)
		if err != nil {
			t.Fatal(err)
		}
		return pools
	}

	qual := pools("qualification")
	if len(qual) != 4 {
		t.Fatalf("qualification has %d groups, want 4", len(qual))
	}
	var all []string
	var fourBest, fifths, winners []string
	for g, pool := range qual {
		if len(pool) != 6 {
			t.Errorf("qualification group %d has %d teams, want 6", g+1, len(pool))
		}
		all = append(all, pool...)
		ranked := byStrength(pool, strength)
		fourBest = append(fourBest, ranked[:4]...)
		fifths = append(fifths, ranked[4])
		winners = append(winners, ranked[0])
	}
	if len(sorted(slices.Compact(sorted(all)))) != 24 {
		t.Errorf("the qualification groups hold %d distinct teams, want 24", len(slices.Compact(sorted(all))))
	}
	fifth := pools("fifth")
	if len(fifth) != 1 || !slices.Equal(sorted(fifth[0]), sorted(fifths)) {
		t.Errorf("the group of 5th places is %v, want %v", fifth, fifths)
	}
	qf := pools("qual_final")
	if len(qf) != 1 || !slices.Equal(sorted(qf[0]), sorted(winners)) {
		t.Errorf("the qualification final is %v, want the group winners %v", qf, winners)
	}
	finalists := append(slices.Clone(fourBest), byStrength(fifths, strength)[:2]...)
	fg := pools("final_groups")
	var inFinalGroups []string
	for g, pool := range fg {
		if len(pool) != 6 {
			t.Errorf("final tournament group %d has %d teams, want 6", g+1, len(pool))
		}
		inFinalGroups = append(inFinalGroups, pool...)
	}
	if len(fg) != 3 || !slices.Equal(sorted(inFinalGroups), sorted(finalists)) {
		t.Errorf("the final tournament's groups are %v, want the 16 best and the 2 best fifths %v", fg, sorted(finalists))
	}
	// Seeded by the qualification: the qualification final's order, then
	// the other 2nd, 3rd, 4th places; snake-wise into 3 groups, so the
	// qualification's best team is in group A and its next two in B and C.
	seedOrder := byStrength(winners, strength)
	if len(fg) == 3 && (fg[0][0] != seedOrder[0] || fg[1][0] != seedOrder[1] || fg[2][0] != seedOrder[2] || fg[2][1] != seedOrder[3]) {
		t.Errorf("final groups %v are not seeded snake-wise from the qualification final's order %v", fg, seedOrder)
	}
	var top2 []string
	for _, pool := range fg {
		top2 = append(top2, byStrength(pool, strength)[:2]...)
	}
	final := pools("final")
	if len(final) != 1 || len(final[0]) != 6 || !slices.Equal(sorted(final[0]), sorted(top2)) {
		t.Errorf("the final is %v, want the 2 best of each final group %v", final, top2)
	}
	bots, stage, err := stages.Final(p, results)
	if err != nil {
		t.Fatal(err)
	}
	if want := byStrength(top2, strength)[0]; bots[0] != want || stage[0] != "final" {
		t.Errorf("the season's winner is %s (%s), want %s", bots[0], stage[0], want)
	}
}

// TestGate checks examples/blokus/gate: only the bots that played their
// gate games without a fault enter the round robin.
func TestGate(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	if p.ListedStages() != 1 || p.Stages[0].Gate == nil {
		t.Fatalf("the gate is not the listed first stage: %+v", p.Stages)
	}
	var results []stats.Result
	for _, m := range p.Matches {
		r := stats.Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for _, b := range m.Seats {
			s := stats.SeatResult{Bot: b}
			if b == "quitter" || b == "corners" && m.Round == 2 && m.Shift == 2 { // corners errs once
				s.Fault = "crash"
			}
			r.Seats = append(r.Seats, s)
		}
		results = append(results, r)
		if len(m.Seats) != 2 || !slices.Contains(m.Seats, "course") || m.Seats[0] == m.Seats[1] {
			t.Errorf("gate match %s does not play against the course's bot: %v", m.ID, m.Seats)
		}
	}
	if got, err := stages.Admitted(p, 0, results); err != nil || !slices.Equal(got, []string{"random", "greedy"}) {
		t.Errorf("admitted %v (%v), want [random greedy]", got, err)
	}
	pr, err := stages.Make(p, 1, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range pr.Matches {
		ids = append(ids, m.ID+":"+strings.Join(m.Seats, "-"))
	}
	if want := []string{"tournament-A-r001-g01-s1:random-greedy", "tournament-A-r001-g01-s2:greedy-random",
		"tournament-A-r002-g01-s1:random-greedy", "tournament-A-r002-g01-s2:greedy-random"}; !slices.Equal(ids, want) {
		t.Errorf("round robin of the admitted:\n got %v\nwant %v", ids, want)
	}
}

// TestGateRanking checks the final ranking of examples/blokus/gate and its
// grades: the round robin's bots first, then those the gate turned away,
// the course's own bot last and ungraded; of the 3 bots of the round robin
// only the first is in the top 40 %.
func TestGateRanking(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	strength := map[string]int{"greedy": 4, "corners": 3, "random": 2, "quitter": 1, "course": 5}
	got := gateThenTournament(t, p, strength, "quitter")
	want := []string{"1 greedy tournament +1 point", "2 corners tournament ", "3 random tournament ", "4 quitter brute ", "5 course  "}
	if !slices.Equal(got, want) {
		t.Errorf("final ranking:\n got %q\nwant %q", got, want)
	}
}

// TestRankWithoutEarlierStages ranks a plan made up to examples/fibot's
// stage "fifth" from the results of that stage alone, as a shard of it
// holds them: the qualification they would be picked from has no result,
// so the fifth places are not the bots the stage seats. Ranking refuses,
// naming the stage, rather than rating other bots' games (which once
// panicked: "player plays itself").
func TestRankWithoutEarlierStages(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	k := p.StageIndex("fifth")
	results := play(p, 0, strength)
	pr, err := stages.Make(p, k, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Matches = append(p.Matches, pr.Matches...)
	own := play(p, k, strength)[:1] // the shard's one match
	if _, err := stages.Rank(p, own, nil); err == nil || !strings.Contains(err.Error(), "stage fifth: match fifth-A-") ||
		!strings.Contains(err.Error(), "needs every result of the stages before it") {
		t.Errorf("ranking stage fifth from its own results only: %v, want an error naming the stage", err)
	}
	// With the results of the stages before it, the same result ranks.
	if _, err := stages.Rank(p, append(results, own...), nil); err != nil {
		t.Errorf("ranking with every earlier result: %v", err)
	}
}

// TestTieByName checks that bots the stage's rating does not separate,
// with identical records, are ordered by name and not by the last digits
// of their BayesElo fits: in examples/blokus/gate's round robin random,
// greedy and corners each win the match they start against one another
// and every match against quitter, so their fitted Elos differ only by the
// fit's convergence noise.
func TestTieByName(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	results := play(p, 0, map[string]int{"course": 1}) // every bot passes the gate
	pr, err := stages.Make(p, 1, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Matches = append(p.Matches, pr.Matches...)
	for _, m := range pr.Matches {
		r := stats.Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for i, b := range m.Seats {
			score := 0.0
			if i == 0 && !slices.Contains(m.Seats, "quitter") || slices.Contains(m.Seats, "quitter") && b != "quitter" {
				score = 1
			}
			r.Seats = append(r.Seats, stats.SeatResult{Bot: b, SeatResult: drivers.SeatResult{Score: score}})
		}
		results = append(results, r)
	}
	pools, err := stages.Standings(p, 1, results)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"corners", "greedy", "random", "quitter"}; len(pools) != 1 || !slices.Equal(pools[0], want) {
		t.Errorf("round robin standings %v, want the tied bots by name: %v", pools, want)
	}
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	var elos []string
	for _, st := range s.Standings {
		elos = append(elos, fmt.Sprintf("%s %.6f", st.Bot, st.Elo))
	}
	if s.Standings[0].Bot != "corners" {
		t.Errorf("final ranking %v, want corners first", elos)
	}
}

// TestGateAdmitsCleanPlayOnly checks who passes examples/blokus/gate:
// a bot passes when none of its gate seats has a fault, a
// disqualification or an answer the game replaced by its default
// (Auction records a crash so, not as a fault), and at least one of its
// gate matches was played without a failure of the gate's own bot. Here
// random has one defaulted answer, greedy is disqualified in one match,
// corners plays cleanly, and the course's bot crashes in every match of
// quitter (who therefore never played a real game).
func TestGateAdmitsCleanPlayOnly(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	var results []stats.Result
	var courseFaults []string
	for _, m := range p.Matches {
		r := stats.Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for _, b := range m.Seats {
			s := stats.SeatResult{Bot: b}
			switch {
			case b == "random" && m.Round == 2 && m.Shift == 1:
				s.Defaults = 1
			case b == "greedy" && m.Round == 1 && m.Shift == 2:
				s.Disqualified = &stats.Disqualification{Reason: "files", Match: m.ID}
			case b == "course" && slices.Contains(m.Seats, "quitter"):
				s.Fault, s.Detail = "crash", "exited"
				courseFaults = append(courseFaults, m.ID)
			}
			r.Seats = append(r.Seats, s)
		}
		results = append(results, r)
	}
	if got, err := stages.Admitted(p, 0, results); err != nil || !slices.Equal(got, []string{"corners"}) {
		t.Errorf("admitted %v (%v), want [corners]", got, err)
	}
	var got []string
	for _, f := range stages.GateFaults(p, results) {
		if f.Stage != "brute" || f.Bot != "course" || f.Failure != "crash: exited" {
			t.Errorf("gate fault %+v, want course's crash in stage brute", f)
		}
		got = append(got, f.Match)
	}
	if len(courseFaults) != 4 || !slices.Equal(got, courseFaults) {
		t.Errorf("gate faults in %v, want %v", got, courseFaults)
	}
}

// TestGateFailureOfUnstartedBot: a gate's own bot that could not be
// started has its start fault as its failure, and not the answers the
// game's defaults stood in for (stats.ReplacedAnswers): it gave none. A
// bot that ran and had answers replaced has them counted.
func TestGateFailureOfUnstartedBot(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	for _, tt := range []struct {
		name string
		seat drivers.SeatResult
		want string
	}{
		{"not started", drivers.SeatResult{Fault: drivers.FaultStart, Detail: "could not be started", Defaults: 24}, "start: could not be started"},
		{"not built", drivers.SeatResult{Fault: "build", Detail: "make failed", Defaults: 3}, "build: make failed"},
		{"ran", drivers.SeatResult{Defaults: 2}, "2 answer(s) replaced by the game's default"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := p.Matches[0]
			r := stats.Result{Match: m.ID}
			for _, b := range m.Seats {
				s := stats.SeatResult{Bot: b}
				if b == "course" {
					s.SeatResult = tt.seat
				}
				r.Seats = append(r.Seats, s)
			}
			got := stages.MatchGateFaults(p, m.Stage, &r)
			if len(got) != 1 || got[0].Failure != tt.want {
				t.Errorf("gate faults %+v, want course's failure %q", got, tt.want)
			}
		})
	}
}

// TestDisqualifiedDoNotAdvance plays examples/fibot with the best team
// disqualified in the qualification final: a disqualification is from the
// whole tournament (Fibot's rule), so it advances neither as a place of
// the qualification final nor as its qualification group's winner, and
// the next team of that group takes its place in the final tournament.
// It ranks last.
func TestDisqualifiedDoNotAdvance(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	best := byStrength(stats.Field(p), strength)[0]
	var results []stats.Result
	for k := range p.Stages {
		if k >= p.ListedStages() {
			pr, err := stages.Make(p, k, results, nil)
			if err != nil {
				t.Fatal(err)
			}
			p.Matches = append(p.Matches, pr.Matches...)
		}
		for _, r := range play(p, k, strength) {
			for i := range r.Seats {
				if r.Seats[i].Bot == best && p.Stages[k].Name == "qual_final" {
					r.Seats[i].Disqualified = &stats.Disqualification{Reason: "files", Match: r.Match}
				}
			}
			results = append(results, r)
		}
	}
	qual, err := stages.Standings(p, p.StageIndex("qualification"), results)
	if err != nil {
		t.Fatal(err)
	}
	var group []string
	for _, pool := range qual {
		if slices.Contains(pool, best) {
			group = pool
		}
	}
	fg, err := stages.Field(p, p.StageIndex("final_groups"), results)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(fg, best) {
		t.Errorf("the final tournament %v seats %s, disqualified in the qualification final", fg, best)
	}
	if len(group) != 6 || group[0] != best || !slices.Contains(fg, group[4]) {
		t.Errorf("the fifth of %s's qualification group %v does not take its place in the final tournament %v", best, group, fg)
	}
	bots, _, err := stages.Final(p, results)
	if err != nil {
		t.Fatal(err)
	}
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last := s.Standings[len(s.Standings)-1]; last.Bot != best || slices.Contains(bots[:6], best) {
		t.Errorf("%s is not ranked last: %v", best, bots)
	}
}

// TestGradesOfTheLastStage: the grades reward places in the tournament
// (B3B33ALP: "hráči, kteří se umístí v top 40%"), so their bands are
// percentages of the bots that reached the last stage, not of every bot
// the gate saw: of 8 submissions, 2 turned away, the top 40 % are ranks
// 1-2 (40 % of 6), not 1-3 (of 8), and the top 20 % is rank 1.
func TestGradesOfTheLastStage(t *testing.T) {
	dir := t.TempDir()
	hcl := `bot "keeper" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 2
    rows    = 2
    capital = 20
  }
}
tournament "t" {
  game   = game.auction.g
  bots   = [bot.b1, bot.b2, bot.b3, bot.b4, bot.b5, bot.b6, bot.b7, bot.b8]
  seats  = "fixed"
  rating = "wins"
  seed   = 1
  stage "gate" {
    gate {
      against = [bot.keeper]
    }
  }
  stage "tournament" {
    bots    = [admitted(stage.gate)]
    players = 2
  }
  grades {
    grade "+2" { top = "20%" }
    grade "+1" { top = "40%" }
  }
}
`
	strength := map[string]int{"keeper": 100}
	for i := 1; i <= 8; i++ {
		b := fmt.Sprintf("b%d", i)
		hcl += fmt.Sprintf("bot %q { house = \"auction/random\" }\n", b)
		strength[b] = 10 - i
	}
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	p := compileDir(t, dir)
	got := gateThenTournament(t, p, strength, "b7", "b8")
	want := []string{"1 b1 tournament +2", "2 b2 tournament +1", "3 b3 tournament ", "4 b4 tournament ", "5 b5 tournament ",
		"6 b6 tournament ", "7 b7 gate ", "8 b8 gate ", "9 keeper  "}
	if !slices.Equal(got, want) {
		t.Errorf("final ranking:\n got %q\nwant %q", got, want)
	}
}

// gateThenTournament plays p's gate (stage 0) with the crashing bots
// faulting every gate match, then the tournament it admits to (stage 1),
// and returns the final ranking as "rank bot stage grade" lines.
func gateThenTournament(t *testing.T, p *plan.Plan, strength map[string]int, crashing ...string) []string {
	t.Helper()
	var results []stats.Result
	for _, r := range play(p, 0, strength) {
		for i := range r.Seats {
			if slices.Contains(crashing, r.Seats[i].Bot) {
				r.Seats[i].Fault = "crash"
			}
		}
		results = append(results, r)
	}
	pr, err := stages.Make(p, 1, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Matches = append(p.Matches, pr.Matches...)
	results = append(results, play(p, 1, strength)...)
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range s.Standings {
		got = append(got, fmt.Sprintf("%d %s %s %s", st.Rank, st.Bot, st.Stage, st.Grade))
	}
	return got
}

// TestTiedCutsAreFlagged plays examples/fibot with the 4th and 5th of
// qualification group A equally strong, in the playoffs too: tied on mean
// place, with the same record, after the 3 playoffs they play, so the
// name alone decides which of them goes to the final tournament and which
// to the group of 5th places. Rank names that cut, with both picks it
// bounds, and no other.
func TestTiedCutsAreFlagged(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	pools, err := stages.Pools(p, p.StageIndex("qualification"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ranked := byStrength(pools[0], strength)
	strength[ranked[4]] = strength[ranked[3]]
	results := runStages(t, p, strength, nil)
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	above, below := min(ranked[3], ranked[4]), max(ranked[3], ranked[4])
	fifth, err := stages.Field(p, p.StageIndex("fifth"), results)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fifth, below) || slices.Contains(fifth, above) {
		t.Fatalf("the name did not decide: stage fifth is %v (tied: %s, %s)", fifth, above, below)
	}
	want := fmt.Sprintf("stage qualification, group A: %s over %s: tied on mean place and in 3 playoff(s), decided by name (places 4 and 5; "+
		"places(stage.qualification, 5, 5) for stage fifth; top(stage.qualification, 4) for stage final_groups)", above, below)
	var got []string
	for _, c := range s.TiedCuts {
		got = append(got, c.String())
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf("tied cuts:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestPlayoffDecidesCut plays examples/fibot with the 4th and 5th of
// qualification group A equally strong in the group's matches, and the
// one whose name comes last stronger in their playoff: the playoff, not
// the name, decides which goes to the final tournament, after one
// playoff, and no cut is named.
func TestPlayoffDecidesCut(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	k := p.StageIndex("qualification")
	pools, err := stages.Pools(p, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	ranked := byStrength(pools[0], strength)
	strength[ranked[4]] = strength[ranked[3]]
	above, below := min(ranked[3], ranked[4]), max(ranked[3], ranked[4])
	playoff := maps.Clone(strength)
	playoff[below]++
	results := runStages(t, p, strength, playoff)
	var ids []string
	for _, m := range p.Matches {
		if stats.IsPlayoff(m.ID) {
			ids = append(ids, m.ID)
		}
	}
	if want := []string{"playoff-qualification-A-1-g01-s1"}; !slices.Equal(ids, want) {
		t.Errorf("playoffs %v, want %v", ids, want)
	}
	fifth, err := stages.Field(p, p.StageIndex("fifth"), results)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fifth, above) || slices.Contains(fifth, below) {
		t.Errorf("the playoff did not decide: stage fifth is %v (%s won the playoff over %s)", fifth, below, above)
	}
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.TiedCuts) > 0 {
		t.Errorf("tied cuts %v, want none: the playoff settled the tie", s.TiedCuts)
	}
	if s.Playoffs != 1 {
		t.Errorf("%d playoff(s) counted, want 1", s.Playoffs)
	}
}

// TestUnplayedNotPlayedOff plays examples/fibot with the two weakest of
// qualification group A unable to start in any match: tied on mean place
// at places 5 and 6, they are not played off (a playoff would only play
// them alike again), and the cut of places(stage.qualification, 5, 5)
// between them is named, saying why.
func TestUnplayedNotPlayedOff(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	k := p.StageIndex("qualification")
	pools, err := stages.Pools(p, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	ranked := byStrength(pools[0], strength)
	dead := []string{ranked[4], ranked[5]}
	results := play(p, k, strength)
	for i := range results {
		for s := range results[i].Seats {
			if slices.Contains(dead, results[i].Seats[s].Bot) {
				results[i].Seats[s].Fault, results[i].Seats[s].Score = drivers.FaultStart, 0
			}
		}
	}
	pr, _, err := stages.Playoff(p, k, 1, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pr != nil {
		t.Errorf("playoff of %v, want none: the tied bots could not play", pr.Groups)
	}
	cuts, err := stages.StageCuts(p, p.StageIndex("fifth"), results)
	if err != nil {
		t.Fatal(err)
	}
	above, below := min(dead[0], dead[1]), max(dead[0], dead[1])
	want := fmt.Sprintf("stage qualification, group A: %s over %s: tied on mean place; they could not play, so they were not played off, decided by name (places 5 and 6; places(stage.qualification, 5, 5) for stage fifth)", above, below)
	if len(cuts) != 1 || cuts[0].String() != want {
		t.Errorf("cuts %v, want:\n%s", cuts, want)
	}
}

// TestUnseatedTieNamed plays examples/fibot with the 4th and 5th of
// qualification group A equally strong and a game that cannot seat two
// bots: their tie is not played off, it is returned as unseated, and the
// cut between them is named, saying why.
func TestUnseatedTieNamed(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	strength := spreadStrength(p)
	k := p.StageIndex("qualification")
	pools, err := stages.Pools(p, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	ranked := byStrength(pools[0], strength)
	strength[ranked[4]] = strength[ranked[3]]
	results := play(p, k, strength)
	pr, unseated, err := stages.Playoff(p, k, 1, results, func(n int) error { return fmt.Errorf("%d bots cannot play", n) })
	if err != nil {
		t.Fatal(err)
	}
	above, below := min(ranked[3], ranked[4]), max(ranked[3], ranked[4])
	if pr != nil || len(unseated) != 1 || !slices.Equal(unseated[0].Bots, []string{above, below}) || unseated[0].Group != "A" {
		t.Fatalf("playoff %v, unseated %+v: want none, and the tie of group A unseated", pr, unseated)
	}
	cuts, err := stages.StageCuts(p, p.StageIndex("fifth"), results)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("stage qualification, group A: %s over %s: tied on mean place; not played off (the game cannot seat them), decided by name (places 4 and 5; places(stage.qualification, 5, 5) for stage fifth)", above, below)
	if len(cuts) != 1 || cuts[0].String() != want {
		t.Errorf("cuts %v, want:\n%s", cuts, want)
	}
}

// spreadStrength gives p's bots strengths spread over 0-23 by their
// order in the plan, the same each time: a field of distinct strengths
// with some equal, as the fibot tests want.
func spreadStrength(p *plan.Plan) map[string]int {
	strength := map[string]int{}
	for i, b := range p.Bots {
		strength[b.Name] = (i*7 + 3) % 24
	}
	return strength
}

// TestLastStagePlayoffToCome plays examples/fibot to the end of its
// final's matches, its two best tied there: until their playoff is
// played, it is to come (the headline says so, and no cut is said to
// order the final ranking, nor the tie to be one the game cannot seat),
// made or not; only a game that cannot seat them leaves the tie to the
// name, and says why.
func TestLastStagePlayoffToCome(t *testing.T) {
	p := compileDir(t, "../../examples/fibot")
	results := runStages(t, p, spreadStrength(p), nil)
	k := p.StageIndex("final")
	if n := stages.PlayoffsMade(p, k); n != 0 {
		t.Fatalf("the final played %d playoff(s) before its tie was made", n)
	}
	top, err := stages.Standings(p, k, results)
	if err != nil {
		t.Fatal(err)
	}
	a, b := top[0][0], top[0][1]
	strength := spreadStrength(p)
	for i := range results {
		if !strings.HasPrefix(results[i].Match, "final-") {
			continue
		}
		for s := range results[i].Seats {
			if results[i].Seats[s].Bot == a {
				results[i].Seats[s].Score = float64(strength[b]) // as strong as b in the final
			}
		}
	}
	tie := sorted([]string{a, b})
	rankWith := func(seats func(int) error) *stats.Stats {
		t.Helper()
		s, err := stages.Rank(p, results, seats)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := rankWith(nil)
	want := []stats.PlayoffToCome{{Stage: "final", Playoff: 1, Ties: []stats.StageTie{{Bots: tie}}}}
	if !slices.EqualFunc(s.PlayoffsToCome, want, playoffToComeEqual) {
		t.Errorf("playoffs to come %+v, want %+v", s.PlayoffsToCome, want)
	}
	if !strings.HasSuffix(s.Finished(), "(playoff 1 of stage final to come)") {
		t.Errorf("headline %q does not say the final's playoff is to come", s.Finished())
	}
	for _, c := range s.TiedCuts {
		t.Errorf("cut %s named while the tie's playoff is to come", c)
	}
	unseatable := rankWith(func(n int) error { return fmt.Errorf("%d bots cannot play", n) })
	if len(unseatable.PlayoffsToCome) != 0 {
		t.Errorf("playoffs to come %+v of a game that cannot seat the tie", unseatable.PlayoffsToCome)
	}
	cut := fmt.Sprintf("stage final: %s over %s: tied on mean place; not played off (the game cannot seat them)", tie[0], tie[1])
	if len(unseatable.TiedCuts) != 1 || !strings.HasPrefix(unseatable.TiedCuts[0].String(), cut) {
		t.Errorf("cuts %v of a game that cannot seat the tie, want one: %s", unseatable.TiedCuts, cut)
	}
	pr, _, err := stages.Playoff(p, k, 1, results, nil)
	if err != nil || pr == nil {
		t.Fatalf("playoff 1 of the final: %v, %v", pr, err)
	}
	p.Matches = append(p.Matches, pr.Matches...)
	want[0].Made = true
	if s := rankWith(nil); !slices.EqualFunc(s.PlayoffsToCome, want, playoffToComeEqual) || len(s.TiedCuts) != 0 {
		t.Errorf("made and not played: playoffs to come %+v, cuts %v; want %+v and none", s.PlayoffsToCome, s.TiedCuts, want)
	}
}

func playoffToComeEqual(a, b stats.PlayoffToCome) bool {
	return a.Stage == b.Stage && a.Playoff == b.Playoff && a.Made == b.Made &&
		slices.EqualFunc(a.Ties, b.Ties, func(x, y stats.StageTie) bool { return x.Group == y.Group && slices.Equal(x.Bots, y.Bots) })
}

// TestEmptyStageMadeNotToCome: a gate that admits one bot makes the next
// stage without a match. Until it is made (an interrupted run), it is to
// come; once made (plan.Plan.Made names it), it is not, though the plan
// holds no match of it, and the standings name no stage to come and
// rank the bot it admitted by it.
func TestEmptyStageMadeNotToCome(t *testing.T) {
	p := compileDir(t, "../../examples/blokus/gate")
	var results []stats.Result
	for _, m := range p.Matches {
		r := stats.Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for _, b := range m.Seats {
			s := stats.SeatResult{Bot: b}
			if b != "corners" && b != "course" {
				s.Fault = "crash"
			}
			r.Seats = append(r.Seats, s)
		}
		results = append(results, r)
	}
	if got, err := stages.Admitted(p, 0, results); err != nil || !slices.Equal(got, []string{"corners"}) {
		t.Fatalf("admitted %v (%v), want [corners]", got, err)
	}
	if got := stages.ToCome(p, results); !slices.Equal(got, []string{"tournament"}) {
		t.Errorf("before the stage is made, to come: %v, want [tournament]", got)
	}
	pr, err := stages.Make(p, 1, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Matches) != 0 {
		t.Fatalf("a stage of one bot has matches: %v", pr.Matches)
	}
	p.Matches = append(p.Matches, pr.Matches...)
	p.Made = append(p.Made, pr.Stage)
	if got := stages.ToCome(p, results); len(got) != 0 {
		t.Errorf("made without a match, to come: %v, want none", got)
	}
	s, err := stages.Rank(p, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.StagesToCome) != 0 || len(s.PlayoffsToCome) != 0 {
		t.Errorf("standings: stages to come %v, playoffs %v, want none", s.StagesToCome, s.PlayoffsToCome)
	}
	// The admitted bot reached the stage, which ranks it: the Stage
	// column says so (it once said the gate, as if it had gone no
	// further), while the bots turned away stay the gate's.
	for _, row := range s.Standings {
		want := "brute"
		switch row.Bot {
		case "corners":
			want = "tournament"
		case "course":
			want = ""
		}
		if row.Stage != want {
			t.Errorf("standings: %s in stage %q, want %q", row.Bot, row.Stage, want)
		}
	}
}

// TestPoolErrorNamesStage: a pool of a stage whose matches cannot be
// listed (a format that pairs rounds from results, in an edited plan) is
// a *stages.PoolError naming the stage and the pool, so that a message
// naming the stage already can name the pool alone.
func TestPoolErrorNamesStage(t *testing.T) {
	dir := t.TempDir()
	cfg := `bot "a" { house = "auction/random" }
bot "b" { house = "auction/square" }
bot "c" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
tournament "t" {
  game   = game.auction.g
  bots   = [bot.a, bot.b, bot.c]
  rating = "placement"
  stage "qualify" {}
  stage "final" {
    bots = [top(stage.qualify, 2)]
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	p := compileDir(t, dir)
	p.Stages[1].Format, p.Stages[1].Rounds = tournament.Swiss, 3
	results := play(p, 0, map[string]int{"a": 3, "b": 2, "c": 1})
	_, err := stages.Make(p, 1, results, nil)
	var pe *stages.PoolError
	if !errors.As(err, &pe) || pe.Stage != "final" || pe.Pool != 1 {
		t.Fatalf("Make of a swiss stage: %v; want a PoolError of stage final pool A", err)
	}
	if want := "stage final pool A: format swiss pairs rounds from results, which a stage does not"; err.Error() != want {
		t.Errorf("Make: %q; want %q", err, want)
	}
}
