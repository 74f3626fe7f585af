package stop_test

import (
	"fmt"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/tournament"
)

// duel is a plan of n swapped pairs of a against b, and the results in
// which a wins every match.
func duel(n int, deal tournament.DealMode, rule *plan.Stop) (*plan.Plan, map[string]*stats.Result) {
	p := &plan.Plan{Players: 2, Seats: tournament.Swap, Deal: deal, Rounds: n, Stop: rule,
		Bots: []plan.Bot{{Name: "a"}, {Name: "b"}}}
	done := map[string]*stats.Result{}
	for r := 1; r <= n; r++ {
		for s, seats := range [][]string{{"a", "b"}, {"b", "a"}} {
			m := plan.Match{ID: fmt.Sprintf("r%03d-g01-s%d", r, s+1), Round: r, Group: 1, Shift: s + 1, Seats: seats}
			p.Matches = append(p.Matches, m)
			res := &stats.Result{Match: m.ID, Round: r, Group: 1}
			for _, b := range seats {
				score := 0.0
				if b == "a" {
					score = 1
				}
				res.Seats = append(res.Seats, stats.SeatResult{Bot: b, SeatResult: drivers.SeatResult{Score: score}})
			}
			done[m.ID] = res
		}
	}
	return p, done
}

func TestNoRuleNeverStops(t *testing.T) {
	p, done := duel(3, tournament.PerMatch, nil)
	if st := stop.New(p).Advance(p, done); st != nil {
		t.Errorf("a plan without a stop block stopped: %+v", st)
	}
}

func TestMaxMatchesCountsThePrefix(t *testing.T) {
	p, done := duel(5, tournament.PerMatch, &plan.Stop{MaxMatches: 4})
	delete(done, "r001-g01-s2")
	s := stop.New(p)
	if st := s.Advance(p, done); st != nil {
		t.Fatalf("stopped with the second match unfinished: %+v", st)
	}
	_, all := duel(5, tournament.PerMatch, nil)
	st := s.Advance(p, all)
	if st == nil || st.Rule != "max_matches" || st.Matches != 4 || st.Last != "r002-g01-s2" {
		t.Errorf("stop %+v, want max_matches after 4 matches at r002-g01-s2", st)
	}
}

// TestSPRTCountsPairsOnASharedDeal: swapped seats on one deal are tested
// as pairs (pentanomial), on a deal per match game by game.
func TestSPRTCountsPairsOnASharedDeal(t *testing.T) {
	for _, tt := range []struct {
		deal  tournament.DealMode
		penta bool
	}{{tournament.PerGroup, true}, {tournament.PerMatch, false}} {
		rule := &plan.Stop{SPRT: &plan.SPRT{Candidate: "a", Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}
		p, done := duel(200, tt.deal, rule)
		st := stop.New(p).Advance(p, done)
		if st == nil || st.Rule != "sprt" || st.SPRT.Decision != rating.AcceptH1 {
			t.Fatalf("%v: stop %+v, want the SPRT to accept H1", tt.deal, st)
		}
		if (st.SPRT.Penta != nil) != tt.penta || st.SPRT.WDL.W != st.Matches || st.SPRT.WDL.L != 0 {
			t.Errorf("%v: pentanomial %v, W/D/L %+v after %d matches", tt.deal, st.SPRT.Penta, st.SPRT.WDL, st.Matches)
		}
	}
}
