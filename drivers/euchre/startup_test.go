package euchre

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// A bot "slowruns" FILE N D NAME counts its runs in FILE (outside its
// memory folder, so every position of its seat counts in one file); its
// first N runs sleep D before answering. It answers as the rules bot.
func init() {
	testbot.Register("slowruns", func(args []string) int {
		in, _ := io.ReadAll(os.Stdin)
		n, _ := strconv.Atoi(args[1])
		d, err := time.ParseDuration(args[2])
		if err != nil {
			return 2
		}
		old, _ := os.ReadFile(args[0])
		runs := len(old) + 1
		if err := os.WriteFile(args[0], append(old, '.'), 0o644); err != nil {
			return 1
		}
		if runs <= n {
			time.Sleep(d)
		}
		if err := houseRun("rules")(bytes.NewReader(in), os.Stdout, os.Getenv); err != nil {
			return 1
		}
		return 0
	})
}

// slowRuns is the command of a bot whose first n runs in the match take
// d, counting its runs in a file of dir; it returns the file too.
func slowRuns(tb testing.TB, dir, name string, n int, d time.Duration) ([]string, string) {
	file := filepath.Join(dir, name+".runs")
	return testbot.Argv(tb, "slowruns", file, strconv.Itoa(n), d.String(), name), file
}

// startupClock is the clock of these tests: decisions of 1.5 s and, when
// on, 4 s more for each bot's first one. The slow runs take 2.5 s, a
// second or more from each limit, so a loaded machine does not change
// the outcome.
func startupClock(on bool) drivers.Clock {
	c := drivers.Clock{Move: drivers.Duration(1500 * time.Millisecond)}
	if on {
		c.Startup = drivers.Duration(4 * time.Second)
	}
	return c
}

// timeouts lists the default events of rec as "seat S", checking that each
// is a time-out at the 1.5 s move limit.
func timeouts(t *testing.T, rec *events) []string {
	var out []string
	for _, e := range rec.of("default") {
		d := e.(DefaultEvent)
		if !strings.Contains(d.Reason, "time: no answer within its move limit of 1.5s") {
			t.Errorf("default %+v, want a time-out at the 1.5 s move limit", d)
		}
		out = append(out, fmt.Sprint("seat ", d.Seat))
	}
	return out
}

// TestStartupAllowanceTeams: a team's bot whose first two decisions take
// 2.5 s against a 1.5 s move limit has the first answered with the 4 s
// start-up allowance and times out on the second (whichever of its two
// positions makes it); without the allowance both time out.
func TestStartupAllowanceTeams(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		want string
	}{{true, "seat 1"}, {false, "seat 1, seat 1"}} {
		t.Run(fmt.Sprint("startup=", tc.on), func(t *testing.T) {
			g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: DefaultMove}}
			g.settings.MaxHands = 1
			cmd, runs := slowRuns(t, t.TempDir(), "slow", 2, 2500*time.Millisecond)
			m, marker := processMatch(t, 31, house(t, "rules"), cmd)
			m.Clock = startupClock(tc.on)
			rec := &events{}
			m.Record = rec
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			proctest.AssertNoEnv(t, marker)
			if got := strings.Join(timeouts(t, rec), ", "); got != tc.want {
				t.Errorf("time-outs: %s; want %s", got, tc.want)
			}
			if n, _ := os.ReadFile(runs); len(n) < 3 {
				t.Errorf("the slow bot ran %d times, want its two slow runs and more", len(n))
			}
			if tc.on && out.Seats[1].TimeMS < 2500+1500 {
				t.Errorf("the slow bot is charged %d ms, want the real time of its slow runs, at least 4000", out.Seats[1].TimeMS)
			}
		})
	}
}

// TestStartupAllowanceFourBots: with four bots, one a position, each
// bot's first decision gets the allowance: four bots that each take 2.5 s
// over their first decision only get no default with it; without it each
// times out once.
func TestStartupAllowanceFourBots(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		want int
	}{{true, 0}, {false, 4}} {
		t.Run(fmt.Sprint("startup=", tc.on), func(t *testing.T) {
			g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: DefaultMove}}
			g.settings.MaxHands = 1
			dir := t.TempDir()
			var cmds [][]string
			var files []string
			for i := range 4 {
				cmd, f := slowRuns(t, dir, fmt.Sprint("slow", i), 1, 2500*time.Millisecond)
				cmds, files = append(cmds, cmd), append(files, f)
			}
			m, marker := processMatch(t, 31, cmds...)
			m.Clock = startupClock(tc.on)
			rec := &events{}
			m.Record = rec
			if _, err := g.Play(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			proctest.AssertNoEnv(t, marker)
			got := timeouts(t, rec)
			if len(got) != tc.want {
				t.Errorf("time-outs: %v; want %d", got, tc.want)
			}
			for i, f := range files {
				if n, _ := os.ReadFile(f); len(n) < 2 {
					t.Errorf("seat %d's bot ran %d times, want its slow first run and more", i, len(n))
				}
			}
		})
	}
}

// TestStartupDecoded: clock { startup } is the match clock's allowance
// (none by default: the challenge granted none), and a value that is not
// a positive duration is a diagnostic at its line.
func TestStartupDecoded(t *testing.T) {
	for _, tc := range []struct {
		body    string
		startup time.Duration
		line    int // of the diagnostic, or 0
	}{
		{"", 0, 0},
		{"clock {\n  move = \"2s\"\n}", 0, 0},
		{"clock {\n  move = \"2s\"\n  startup = \"3s\"\n}", 3 * time.Second, 0},
		{"clock {\n  startup = \"3s\"\n}", 3 * time.Second, 0},
		{"target = 5\nclock {\n  startup = \"later\"\n}", 0, 3},
		{"clock {\n  startup = \"0s\"\n}", 0, 2},
	} {
		f, diags := hclparse.NewParser().ParseHCL([]byte(tc.body+"\n"), "t.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		d, diags := Driver{}.DecodeGame(f.Body, nil)
		if tc.line != 0 {
			if len(diags) != 1 || diags[0].Subject == nil || diags[0].Subject.Start.Line != tc.line || !strings.Contains(diags[0].Detail, "startup") {
				t.Errorf("%q: diagnostics %v, want one naming startup at line %d", tc.body, diags, tc.line)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%q: %v", tc.body, diags)
			continue
		}
		if c := d.(*Game).Clock(); time.Duration(c.Startup) != tc.startup || c.Move == 0 {
			t.Errorf("%q: clock %+v, want startup %v", tc.body, c, tc.startup)
		}
	}
}
