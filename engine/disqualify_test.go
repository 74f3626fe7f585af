package engine

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// verdictPlan is six matches: a and b meet in m1, m3, m5; c and d in m2,
// m4, m6, so the two series interleave in plan order.
func verdictPlan() *plan.Plan {
	p := &plan.Plan{}
	for i := 1; i <= 6; i++ {
		seats := []string{"a", "b"}
		if i%2 == 0 {
			seats = []string{"c", "d"}
		}
		p.Matches = append(p.Matches, plan.Match{ID: fmt.Sprintf("m%d", i), Seats: seats})
	}
	return p
}

// verdictResult is match i's result: a overruns twice a match; d breaks
// a rule in m4.
func verdictResult(p *plan.Plan, i int) *Result {
	m := p.Matches[i]
	res := &Result{Match: m.ID}
	for _, b := range m.Seats {
		s := SeatResult{Bot: b}
		switch {
		case b == "a":
			s.Overruns = 2
		case b == "d" && m.ID == "m4":
			s.Breach = &drivers.Breach{Rule: "files", Detail: "wrote beside its folder"}
		}
		res.Seats = append(res.Seats, s)
	}
	return res
}

// TestVerdictsDoNotDependOnFinishingOrder: whatever order the matches
// finish in (as with -j 6), the journal receives for each bot its matches
// in plan order, and the verdicts are those of plan order: a (3 overruns
// tolerated) is out from m3, where its count reaches 4, d from m4;
// matches before are untouched. A resumed run (the first matches
// journaled, the rest played again) decides the same.
func TestVerdictsDoNotDependOnFinishingOrder(t *testing.T) {
	rules := drivers.DisqualifyRules{Overruns: 3, Breaches: true}
	want := map[string]string{
		"m1": "", "m2": "", "m3": "a:overruns@m3", "m4": "d:files@m4", "m5": "a:overruns@m3", "m6": "d:files@m4",
	}
	orders := [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 0, 5, 1, 4, 3}, {4, 2, 0, 3, 5, 1}}
	for _, order := range orders {
		p := verdictPlan()
		v := newVerdicts(rules, p, nil, nil)
		todo := make([]*plan.Match, len(p.Matches))
		for i := range p.Matches {
			todo[i] = &p.Matches[i]
		}
		v.expect(p, todo)
		var journaled []*Result
		for _, i := range order {
			for _, f := range v.finish(&p.Matches[i], verdictResult(p, i)) {
				journaled = append(journaled, f.res)
			}
		}
		if len(v.held) != 0 || len(journaled) != 6 {
			t.Fatalf("order %v: %d journaled, %d held", order, len(journaled), len(v.held))
		}
		checkVerdicts(t, fmt.Sprint(order), journaled, want)
		// Per bot, the journal is in plan order.
		last := map[string]string{}
		for _, r := range journaled {
			for _, s := range r.Seats {
				if last[s.Bot] > r.Match {
					t.Errorf("order %v: %s journaled after %s for bot %s", order, r.Match, last[s.Bot], s.Bot)
				}
				last[s.Bot] = r.Match
			}
		}
	}
	// Resume: m1..m3 journaled (as JSON, as read back), m4..m6 played now.
	p := verdictPlan()
	var prior []Result
	v := newVerdicts(rules, p, nil, nil)
	for i := range 3 {
		v.expect(p, []*plan.Match{&p.Matches[i]})
		for _, f := range v.finish(&p.Matches[i], verdictResult(p, i)) {
			b, _ := json.Marshal(f.res)
			var r Result
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			prior = append(prior, r)
		}
	}
	v = newVerdicts(rules, p, prior, nil)
	todo := []*plan.Match{&p.Matches[3], &p.Matches[4], &p.Matches[5]}
	v.expect(p, todo)
	var journaled []*Result
	for i := range prior {
		journaled = append(journaled, &prior[i])
	}
	for _, i := range []int{5, 3, 4} {
		for _, f := range v.finish(&p.Matches[i], verdictResult(p, i)) {
			journaled = append(journaled, f.res)
		}
	}
	checkVerdicts(t, "resumed", journaled, want)
}

func checkVerdicts(t *testing.T, run string, results []*Result, want map[string]string) {
	t.Helper()
	for _, r := range results {
		got := ""
		for _, s := range r.Seats {
			if d := s.Disqualified; d != nil {
				got = fmt.Sprintf("%s:%s@%s", s.Bot, d.Reason, d.Match)
			}
		}
		if got != want[r.Match] {
			t.Errorf("%s: %s has verdict %q, want %q", run, r.Match, got, want[r.Match])
		}
	}
}

// TestFlushReleasesWhatAStopLeftWaiting: matches registered but never
// fed (a stopping rule ended the feeding) do not hold the others back
// once the stage is over.
func TestFlushReleasesWhatAStopLeftWaiting(t *testing.T) {
	p := verdictPlan()
	v := newVerdicts(drivers.DisqualifyRules{Overruns: 0}, p, nil, nil)
	todo := make([]*plan.Match, len(p.Matches))
	for i := range p.Matches {
		todo[i] = &p.Matches[i]
	}
	v.expect(p, todo)
	if got := v.finish(&p.Matches[2], verdictResult(p, 2)); len(got) != 0 {
		t.Fatalf("m3 journaled before m1: %v", got)
	}
	got := v.flush()
	if len(got) != 1 || got[0].res.Match != "m3" || got[0].res.Seats[0].Disqualified == nil {
		t.Fatalf("flush released %+v, want m3 with a's verdict", got)
	}
	if d := got[0].res.Seats[0].Disqualified; d.Reason != stats.DQOverruns || d.Match != "m3" {
		t.Errorf("verdict %+v", d)
	}
}

// BenchmarkVerdicts journals a 1,200-match plan whose matches all share
// their bots (one group, as in an Auction tournament), finishing in plan
// order (nothing held: the baseline) or in reverse (every match held
// until the first one finishes: the worst case).
func BenchmarkVerdicts(b *testing.B) {
	p := &plan.Plan{}
	for i := range 1200 {
		p.Matches = append(p.Matches, plan.Match{ID: fmt.Sprintf("m%04d", i), Seats: []string{"a", "b", "c", "d", "e"}})
	}
	res := make([]Result, len(p.Matches))
	for i, m := range p.Matches {
		res[i] = Result{Match: m.ID}
		for _, s := range m.Seats {
			res[i].Seats = append(res[i].Seats, SeatResult{Bot: s})
		}
	}
	todo := make([]*plan.Match, len(p.Matches))
	for i := range p.Matches {
		todo[i] = &p.Matches[i]
	}
	for _, bench := range []struct {
		name    string
		reverse bool
	}{{"in-order", false}, {"reverse", true}} {
		b.Run(bench.name, func(b *testing.B) {
			for range b.N {
				v := newVerdicts(drivers.DisqualifyRules{Overruns: 5}, p, nil, nil)
				v.expect(p, todo)
				n := 0
				for k := range p.Matches {
					i := k
					if bench.reverse {
						i = len(p.Matches) - 1 - k
					}
					r := res[i]
					n += len(v.finish(&p.Matches[i], &r))
				}
				if n != len(p.Matches) {
					b.Fatalf("%d journaled", n)
				}
			}
		})
	}
}
