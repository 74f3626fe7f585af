package auction

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// A bot "slowfirst" D B <game> <letter> sleeps D in the first round (its
// game log still empty), then bids B; in later rounds it bids B at once.
func init() {
	testbot.Register("slowfirst", func(args []string) int {
		d, err := time.ParseDuration(args[0])
		if err != nil {
			return 2
		}
		if log, err := os.ReadFile(filepath.Join(args[2], "log")); err == nil && len(log) == 0 {
			time.Sleep(d)
		}
		fmt.Println(args[1])
		return 0
	})
}

// TestStartupAllowance: with a move limit of 1.5 s, no tolerated overrun
// and a start-up allowance of 4 s, a bot that takes 2.5 s over its first
// run only has every bid used and no overrun; a bot that takes 2.5 s over
// every run has its first bid used and times out (an overrun) in round 2.
// Without the allowance both time out in round 1. The time charged is the
// real time taken. The sleeps are a second or more from every limit.
func TestStartupAllowance(t *testing.T) {
	for _, tc := range []struct {
		startup   time.Duration
		overruns  string // per seat: slow first, slow always, prompt
		cells     string
		timeouts  string
		firstUsed bool
	}{
		{4 * time.Second, "[0 1 0]", "[1 1 0]", "seat 1 round 2", true},
		{0, "[1 2 0]", "[1 0 1]", "seat 0 round 1, seat 1 round 1, seat 1 round 2", false},
	} {
		t.Run(fmt.Sprint("startup=", tc.startup), func(t *testing.T) {
			m, rec, mark := newMatch(t, 1, seat{"first", "fixed:0"}, seat{"always", "slow:2500ms:3"}, seat{"prompt", "fixed:1"})
			m.Seats[0].Command = testbot.Argv(t, "slowfirst", "2500ms", "2")
			m.Clock = drivers.Clock{Move: drivers.Duration(1500 * time.Millisecond), Startup: drivers.Duration(tc.startup)}
			s := testSettings
			s.Overrun = 0
			b := Board{Name: "b", Cols: 2, Rows: 1, Capital: 5}
			out, err := play(context.Background(), m, s, b, NewPosition(b, 3, 1))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint([]int{out.Seats[0].Overruns, out.Seats[1].Overruns, out.Seats[2].Overruns}); got != tc.overruns {
				t.Errorf("overruns %s, want %s", got, tc.overruns)
			}
			if end := rec.end(); end.Reason != "sold out" || fmt.Sprint(end.Cells) != tc.cells {
				t.Errorf("end %+v: want sold out, cells %s", end, tc.cells)
			}
			var timeouts []string
			for _, d := range rec.defaults() {
				if d.Kind != drivers.FaultTime || !strings.Contains(d.Detail, "within its move limit of 1.5s") {
					t.Errorf("default %+v, want a time-out at the 1.5 s move limit", d)
				}
				timeouts = append(timeouts, fmt.Sprintf("seat %d round %d", d.Seat, d.Round))
			}
			if got := strings.Join(timeouts, ", "); got != tc.timeouts {
				t.Errorf("time-outs: %s; want %s", got, tc.timeouts)
			}
			if ov := rec.overruns(); len(ov) != 0 {
				t.Errorf("overrun events %+v, want none (no answer came after its limit)", ov)
			}
			if tc.firstUsed && out.Seats[0].TimeMS < 2500 {
				t.Errorf("the slow starter is charged %d ms, want its real time of at least 2500", out.Seats[0].TimeMS)
			}
			proctest.AssertNoEnv(t, "AUCTION_MARK="+mark)
		})
	}
}

// TestStartupDecoded: clock { startup } is the match clock's allowance,
// and a value that is not a positive duration is a diagnostic at its
// line.
func TestStartupDecoded(t *testing.T) {
	board := "board \"a\" {\n  cols = 2\n  rows = 1\n  capital = 5\n}\n"
	decode := func(clock string) (*Game, hcl.Diagnostics) {
		f, diags := hclsyntax.ParseConfig([]byte(board+clock), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		d, diags := Driver{}.DecodeGame(f.Body, nil)
		g, _ := d.(*Game)
		return g, diags
	}
	g, diags := decode("clock {\n  move = \"1s\"\n  startup = \"3s\"\n}\n")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if c := g.Clock(); c.Startup != drivers.Duration(3*time.Second) || c.Move != drivers.Duration(time.Second) {
		t.Errorf("clock %+v, want move 1s and startup 3s", c)
	}
	if g, _ := decode(""); g.Clock().Startup != 0 {
		t.Errorf("no clock block: startup %v, want none (Fibot granted none)", g.Clock().Startup)
	}
	for _, bad := range []string{`"soon"`, `"0s"`, `"-1s"`} {
		_, diags := decode("clock {\n  startup = " + bad + "\n}\n")
		if !diags.HasErrors() || diags[0].Subject == nil || diags[0].Subject.Start.Line != 7 || !strings.Contains(diags[0].Detail, "startup") {
			t.Errorf("startup = %s: %v, want an error at line 7 naming startup", bad, diags)
		}
	}
}
