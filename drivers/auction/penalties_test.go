package auction

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// A seat of mode "slow:D:B" sleeps D, then bids B.
func init() {
	registerSlow()
}

func (r *recorder) overruns() []OverrunEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []OverrunEvent
	for _, e := range r.events {
		if o, ok := e.data.(OverrunEvent); ok {
			out = append(out, o)
		}
	}
	return out
}

// TestOverrunsAreUsedAndCounted: with a move limit of 1 s and 1.5 s of
// tolerated overrun, a bot that answers after 1.5 s has its bids used
// (it buys both cells) and both counted as overruns; a bot that answers
// only after 6 s times out at 2.5 s, bids 0, and both time-outs count
// too; a prompt bot has none. The sleeps are far inside and outside the
// window, so a loaded machine does not change the outcome.
func TestOverrunsAreUsedAndCounted(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"late", "slow:1500ms:2"}, seat{"hung", "slow:6s:3"}, seat{"prompt", "fixed:1"})
	m.Clock.Move = drivers.Duration(time.Second)
	s := testSettings
	s.Overrun = drivers.Duration(1500 * time.Millisecond)
	b := Board{Name: "b", Cols: 2, Rows: 1, Capital: 5}
	out, err := play(context.Background(), m, s, b, NewPosition(b, 3, 1))
	if err != nil {
		t.Fatal(err)
	}
	if end := rec.end(); end.Reason != "sold out" || end.Cells[0] != 2 || end.Left[0] != 1 {
		t.Errorf("end %+v: want the late bot's bids of 2 used, buying both cells", end)
	}
	if got := []int{out.Seats[0].Overruns, out.Seats[1].Overruns, out.Seats[2].Overruns}; fmt.Sprint(got) != "[2 2 0]" {
		t.Errorf("overruns %v, want [2 2 0]", got)
	}
	if out.Seats[0].Defaults != 0 || out.Seats[1].Defaults != 2 {
		t.Errorf("defaults %d %d, want 0 (answers used) and 2 (time-outs)", out.Seats[0].Defaults, out.Seats[1].Defaults)
	}
	for _, d := range rec.defaults() {
		if d.Seat != 1 || d.Kind != drivers.FaultTime {
			t.Errorf("default %+v, want only the hung bot's time-outs", d)
		}
	}
	ov := rec.overruns()
	if len(ov) != 2 {
		t.Fatalf("overrun events %+v, want the late bot's two", ov)
	}
	for _, o := range ov {
		if o.Seat != 0 || o.LimitMS != 1000 || o.UsedMS < 1500 {
			t.Errorf("overrun event %+v, want seat 0 over its 1000 ms after at least 1500 ms", o)
		}
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestOverrunsAgainstTheTotalClock: what counts towards the tolerance is
// lateness against the move limit, Fibot's 1 s, whatever stopped the
// run. Move 1 s, overrun 1.5 s, total 4.2 s, and a bot that never
// answers: round 1 times out at 2.5 s (late: counted); round 2 has the
// 1.7 s left of its clock, past its move limit, and times out when the
// clock ends (late too: counted, said as the clock's end); rounds 3 and 4
// it is not run, its clock used up, and is not late (not counted: it
// pays with its bids of 0). The margins are 0.7 s, so a loaded machine
// does not change the count.
func TestOverrunsAgainstTheTotalClock(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"hung", "slow:6s:3"}, seat{"prompt", "fixed:1"})
	m.Clock = drivers.Clock{Move: drivers.Duration(time.Second), Total: drivers.Duration(4200 * time.Millisecond)}
	s := testSettings
	s.Overrun = drivers.Duration(1500 * time.Millisecond)
	b := Board{Name: "b", Cols: 4, Rows: 1, Capital: 5}
	out, err := play(context.Background(), m, s, b, NewPosition(b, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	if out.Seats[0].Overruns != 2 || out.Seats[0].Defaults != 4 || out.Seats[1].Overruns != 0 {
		t.Errorf("overruns %d and %d, defaults %d; want 2 (rounds 1 and 2) and 0, and 4 defaults",
			out.Seats[0].Overruns, out.Seats[1].Overruns, out.Seats[0].Defaults)
	}
	var details []string
	for _, d := range rec.defaults() {
		if d.Seat != 0 || d.Kind != drivers.FaultTime {
			t.Errorf("default %+v, want only the hung bot's time-outs", d)
		}
		details = append(details, d.Detail)
	}
	if len(details) != 4 || details[1] != "no answer before its clock of 4.2s ran out" || details[3] != "has used up its clock of 4.2s" {
		t.Errorf("defaults %q: want round 2's to say the clock ran out, round 4's that it was used up", details)
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestFileBreachDisqualifies: under breach = "disqualify" a bot over its
// file quota, or writing outside its prefix, reports a breach of the file
// rules (its first, naming the round); a bot within its limits does not;
// under the old rule the same bots only get their defaults.
func TestFileBreachDisqualifies(t *testing.T) {
	for _, rule := range []string{Disqualify, BreachDefault} {
		m, _, mark := newMatch(t, 1, seat{"q", "quota"}, seat{"k", "keeper"}, seat{"o", "outside"})
		s := testSettings
		s.IdleRounds = 2
		s.Files.Breach = rule
		b := Board{Name: "b", Cols: 3, Rows: 3, Capital: 10}
		out, err := play(context.Background(), m, s, b, NewPosition(b, 3, 7))
		if err != nil {
			t.Fatal(err)
		}
		if rule == BreachDefault {
			for i, r := range out.Seats {
				if r.Breach != nil {
					t.Errorf("breach = %q: seat %d reports a breach %+v", rule, i, r.Breach)
				}
			}
			continue
		}
		for i, want := range []string{"over its limit of 10 files", "", "notmine, which does not start with its prefix"} {
			br := out.Seats[i].Breach
			switch {
			case want == "" && br != nil:
				t.Errorf("seat %d reports a breach %+v, want none", i, br)
			case want != "" && (br == nil || br.Rule != FilesKind || !strings.Contains(br.Detail, want) || !strings.Contains(br.Detail, "in round 1")):
				t.Errorf("seat %d breach %+v, want the files rule in round 1 saying %q", i, br, want)
			}
		}
		if out.Seats[0].Defaults != 2 {
			t.Errorf("the quota bot has %d defaults, want 2: its bids still count as 0", out.Seats[0].Defaults)
		}
		proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
	}
}

// TestOutSeatIsNotRun: a bot disqualified before the first match
// (drivers.Seat.Out) is not run: no start fault although its program does
// not exist, no default, bids of 0, an "out" event; the others play.
func TestOutSeatIsNotRun(t *testing.T) {
	m, rec, mark := newMatch(t, 1, seat{"gone", "/nonexistent/bot"}, seat{"p", "fixed:1"})
	m.Seats[0].Out = "over the submission limits"
	b := Board{Name: "b", Cols: 2, Rows: 1, Capital: 5}
	out, err := play(context.Background(), m, testSettings, b, NewPosition(b, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Seats[0]; r.Fault != "" || r.Defaults != 0 || r.Place != 2 {
		t.Errorf("the seat out: %+v, want no fault, no default, last place", r)
	}
	if end := rec.end(); end.Cells[1] != 2 {
		t.Errorf("end %+v: the other bot should buy both cells", end)
	}
	found := false
	for _, e := range rec.events {
		if o, ok := e.data.(OutEvent); ok && o.Seat == 0 && o.Detail == "over the submission limits" {
			found = true
		}
	}
	if !found {
		t.Error("no out event for seat 0")
	}
	proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
}

// TestPenaltyDefaults: a game block without penalty settings gets
// Fibot's (docs/games/auction.md); a plan of an earlier arbiter, whose
// settings have none, keeps its old behaviour (nothing disqualifies).
func TestPenaltyDefaults(t *testing.T) {
	src := `board "a" {
  cols = 2
  rows = 1
  capital = 5
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d, diags := Driver{}.DecodeGame(f.Body, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	g := d.(*Game)
	want := drivers.DisqualifyRules{Overruns: DefaultOverruns, Breaches: true, Submission: true}
	if got := g.DisqualifyRules(); got != want || time.Duration(g.settings.Overrun) != DefaultOverrun {
		t.Errorf("rules %+v, overrun %v; want %+v, %v", got, time.Duration(g.settings.Overrun), want, DefaultOverrun)
	}
	old, err := Driver{}.LoadGame(json.RawMessage(`{"boards":[{"name":"a","cols":2,"rows":1,"capital":5}],"idle_rounds":10,"files":{"count":10,"bytes":10000000},"submission":{"files":10,"bytes":10000000}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := old.(*Game).DisqualifyRules(); got.Active() {
		t.Errorf("an earlier plan's game disqualifies: %+v", got)
	}
}

// registerSlow registers "slow": arguments D B <game> <letter>; it sleeps
// D, then bids B.
func registerSlow() {
	testbot.Register("slow", func(args []string) int {
		d, err := time.ParseDuration(args[0])
		if err != nil {
			return 2
		}
		time.Sleep(d)
		fmt.Println(args[1])
		return 0
	})
}

// An overrun's arrived_ms is recorded for every bid without a line end,
// one that had arrived within its first millisecond too (0 is when it
// came, not "a line"), and only for those.
func TestOverrunArrivedMS(t *testing.T) {
	for _, c := range []struct {
		name  string
		reply proc.Reply
		want  string
	}{
		{"a line", proc.Reply{Line: "5", Used: 1200 * time.Millisecond}, `{"round":3,"seat":1,"used_ms":1200,"limit_ms":1000}`},
		{"no line end, arrived at 0 ms", proc.Reply{Line: "5", Used: 1200 * time.Millisecond, Arrived: 400 * time.Microsecond},
			`{"round":3,"seat":1,"used_ms":1200,"limit_ms":1000,"arrived_ms":0}`},
		{"no line end, arrived at 12 ms", proc.Reply{Line: "5", Used: 1200 * time.Millisecond, Arrived: 12 * time.Millisecond},
			`{"round":3,"seat":1,"used_ms":1200,"limit_ms":1000,"arrived_ms":12}`},
	} {
		b, err := json.Marshal(overrunEvent(3, 1, c.reply, time.Second))
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, b, err, c.want)
		}
	}
}
