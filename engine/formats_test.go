package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/fakegame"
)

const formatsBase = `
game "numbers" "g" {
  turns = %d
  max   = 9
  clock { total = "30s" }
}
bot "r1" { house = "numbers/random" }
bot "r2" { house = "numbers/random" }
bot "g1" { house = "numbers/greedy" }
bot "g2" { house = "numbers/greedy" }
bot "r3" { house = "numbers/random" }
tournament "t" {
  game    = game.numbers.g
%s
}
`

// runner compiles a tournament of the fake game numbers (turns turns)
// between house bots and returns a
// Runner for it writing into out.
func runner(t testing.TB, turns int, tournament, out string, jobs int) *engine.Runner {
	t.Helper()
	dir := t.TempDir()
	src := fmt.Sprintf(formatsBase, turns, tournament)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: fakegame.Lookup, DriverNames: fakegame.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &engine.Runner{Plan: p, Drivers: fakegame.Lookup, Root: cfg.Root, Out: out,
		Jobs: jobs, Self: selfPath(t), Log: hclog.NewNullLogger()}
}

func readRounds(t *testing.T, out string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, engine.RoundsDir, "*.json"))
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = string(b)
	}
	return m
}

func outcomesOf(t *testing.T, out string) map[string]string {
	t.Helper()
	_, results, err := engine.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range results {
		var b strings.Builder
		for _, s := range r.Seats {
			fmt.Fprintf(&b, "%s=%v%s ", s.Bot, s.Score, s.Fault)
		}
		m[r.Match] = b.String()
	}
	return m
}

const adaptive = `
  bots    = [bot.r1, bot.r2, bot.g1, bot.g2, bot.r3]
  fill    = [bot.r3]
  players = 2
  seats   = "swap"
  deal    = "per-group"
  rounds  = 4
  format  = "%s"
  %s
`

// TestAdaptiveRoundsResumeToTheSamePairing runs tournaments whose later
// rounds are paired from results (by rating, and Swiss) three ways: at
// once with 3 jobs, with 1 job, and interrupted after its first paired
// round and resumed. All three pair every round the same and play the
// same matches with the same outcomes.
func TestAdaptiveRoundsResumeToTheSamePairing(t *testing.T) {
	for _, tt := range []struct{ format, opts string }{
		{"groups", "groups { random_rounds = 2 }"},
		{"swiss", ""},
	} {
		t.Run(tt.format, func(t *testing.T) {
			tour := fmt.Sprintf(adaptive, tt.format, tt.opts)
			// r3 is the fill bot: 4 field bots, groups of 2.
			tour = strings.Replace(tour, "bot.g2, bot.r3]", "bot.g2]", 1)
			whole := t.TempDir()
			sum, err := runner(t, 3, tour, whole, 3).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if sum.Finished != 4*2*2 {
				t.Errorf("played %d matches, want 16 (4 rounds of 2 groups, 2 seatings)", sum.Finished)
			}
			rounds := readRounds(t, whole)
			want := map[string]bool{"r003.json": true, "r004.json": true}
			if tt.format == "swiss" {
				want["r002.json"] = true
			}
			if len(rounds) != len(want) {
				t.Fatalf("rounds/ holds %v, want %v", keys(rounds), want)
			}
			for name := range want {
				if !strings.Contains(rounds[name], `"groups"`) {
					t.Errorf("rounds/%s has no groups: %s", name, rounds[name])
				}
			}

			serial := t.TempDir()
			if _, err := runner(t, 3, tour, serial, 1).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rounds, readRounds(t, serial)); diff != "" {
				t.Errorf("-j 1 pairs differently from -j 3:\n%s", diff)
			}

			// Interrupt when the first paired round starts, then resume.
			resumed := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			r := runner(t, 3, tour, resumed, 2)
			r.Progress = &cancelOnRound{round: 3 - boolInt(tt.format == "swiss"), cancel: cancel}
			if _, err := r.Run(ctx); !errors.Is(err, engine.ErrInterrupted) {
				t.Fatalf("interrupted run: %v", err)
			}
			if n := len(outcomesOf(t, resumed)); n >= 16 {
				t.Fatalf("the interrupted run finished all %d matches", n)
			}
			sum, err = runner(t, 3, tour, resumed, 2).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if sum.Skipped == 0 {
				t.Error("the resumed run skipped nothing")
			}
			if diff := cmp.Diff(rounds, readRounds(t, resumed)); diff != "" {
				t.Errorf("the resumed run pairs differently:\n%s", diff)
			}
			if diff := cmp.Diff(outcomesOf(t, whole), outcomesOf(t, resumed)); diff != "" {
				t.Errorf("the resumed run's results differ (-whole +resumed):\n%s", diff)
			}

			// A paired round that does not follow from the results is refused.
			path := filepath.Join(resumed, engine.RoundsDir, "r003.json")
			b, _ := os.ReadFile(path)
			os.WriteFile(path, []byte(strings.Replace(string(b), `"rule": "`, `"rule": "edited-`, 1)), 0o644)
			_, err = runner(t, 3, tour, resumed, 2).Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), "r003.json is not the round that the plan and") {
				t.Errorf("an edited round file is accepted: %v", err)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// cancelOnRound cancels the run when a match of round starts.
type cancelOnRound struct {
	round  int
	cancel context.CancelFunc
}

func (c *cancelOnRound) Begin(todo, done int) {}
func (c *cancelOnRound) Started(m *plan.Match) {
	if m.Round >= c.round {
		c.cancel()
	}
}
func (c *cancelOnRound) Finished(*plan.Match, *engine.Result) {}

// TestSPRTStopsAClearlyStrongerBotEarly: greedy against random on long
// games, which greedy wins clearly. The SPRT accepts H1 well before the
// 2000 planned matches; the stop is in stopped.json and the summary, and
// a re-run plays nothing more.
func TestSPRTStopsAClearlyStrongerBotEarly(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1]
  format  = "gauntlet"
  gauntlet { candidates = [bot.g1] }
  players = 2
  seats   = "swap"
  deal    = "per-group"
  rounds  = 1000
  stop {
    sprt {
      elo0 = 0
      elo1 = 50
    }
  }
`
	out := t.TempDir()
	sum, err := runner(t, 13, tour, out, 2).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := sum.Stopped
	if st == nil || st.Rule != "sprt" || st.SPRT == nil || st.SPRT.Decision != "H1" {
		t.Fatalf("stopped = %+v, want an SPRT accepting H1", st)
	}
	if st.Matches >= 400 {
		t.Errorf("the SPRT decided after %d matches; want far fewer than 2000", st.Matches)
	}
	// Matches running when it fired are journaled but not counted.
	if n := len(st.Counted(sum.Plan, sum.Results)); n != st.Matches {
		t.Errorf("the standings count %d results, want the %d the stop was decided on", n, st.Matches)
	}
	if st.SPRT.Penta == nil || st.SPRT.Penta.Pairs() == 0 {
		t.Errorf("swapped seats on one deal should count pairs (pentanomial): %+v", st.SPRT)
	}
	t.Logf("stopped after %d matches: %s", st.Matches, st.Reason)
	saved, err := engine.ReadStopped(out)
	if err != nil || saved == nil || saved.Matches != st.Matches || saved.Last != st.Last {
		t.Fatalf("stopped.json = %+v (%v), want %+v", saved, err, st)
	}
	again, err := runner(t, 13, tour, out, 2).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if again.Finished != 0 || again.Stopped == nil || again.Stopped.Matches != st.Matches {
		t.Errorf("re-run of a stopped tournament played %d matches, stop %+v", again.Finished, again.Stopped)
	}
}

// TestMaxMatchesStopsExactly: the first max_matches matches in plan order
// are played, whatever -j, and no others.
func TestMaxMatchesStopsExactly(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1, bot.r2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  rounds  = 5
  stop { max_matches = 7 }
`
	out := t.TempDir()
	r := runner(t, 2, tour, out, 3)
	sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Finished != 7 || sum.Stopped == nil || sum.Stopped.Rule != "max_matches" || sum.Stopped.Last != r.Plan.Matches[6].ID {
		t.Errorf("played %d, stopped %+v; want the first 7 matches", sum.Finished, sum.Stopped)
	}
}
