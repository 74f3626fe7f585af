package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/fakegame"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// The bad bot's name in every tournament of these tests.
const badBot = "bad"

// configTemplate is a tournament of the fake game numbers (three turns;
// internal/fakegame) between a bad bot and three house bots.
const configTemplate = `
bot "bad" {
  command = [%q, %q]
  env = {
    ENGINE_TEST_RUN  = %q
    FAKEGAME_PIDFILE = %q
  }
}
bot "random1" {
  house = "numbers/random"
  env   = { ENGINE_TEST_RUN = %[3]q }
}
bot "random2" {
  house = "numbers/random"
  env   = { ENGINE_TEST_RUN = %[3]q }
}
bot "greedy" {
  house = "numbers/greedy"
  env   = { ENGINE_TEST_RUN = %[3]q }
}

game "numbers" "short" {
  turns = 3
  max   = 9
  # A bot's first answer is its start too: 8 of the test binary at once
  # (two matches of four) on a loaded host took past 1 s (a load of 45).
  # The slow bot's sleep is at turn 2, the mute bot's time-out 6 s.
  clock {
    total   = "2s"
    move    = "1s"
    startup = "5s"
  }
}

tournament "faults" {
  game    = game.numbers.short
  bots    = [bot.bad, bot.random1, bot.random2, bot.greedy]
  players = 4
  rounds  = 1
  seats   = "rotate"
  # These tests are about fault handling outside the sandbox (the bad
  # bot writes its grandchildren's pids to a file of the test); the
  # sandbox has its own suite in drivers/proc.
  limits { sandbox = false }
}
`

// tournamentRun is one run of a four-match tournament with a bad bot.
type tournamentRun struct {
	plan    *plan.Plan
	summary *engine.Summary
	results []engine.Result // as read back from the results directory
	runID   string          // ENGINE_TEST_RUN of every bot of the run
	pidFile string          // the stubborn bot's grandchildren
	elapsed time.Duration
}

// selfPath is the test binary, which is also every bot.
func selfPath(t testing.TB) string {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	return self
}

// runTournament writes a configuration with the bad bot in mode and three
// house bots, and runs it through config.Load, plan.Compile and
// engine.Runner as the CLI does.
func runTournament(t *testing.T, mode string) *tournamentRun {
	t.Helper()
	self := selfPath(t)
	dir := t.TempDir()
	tr := &tournamentRun{
		runID:   fmt.Sprintf("%d-%s-%d", os.Getpid(), mode, time.Now().UnixNano()),
		pidFile: filepath.Join(t.TempDir(), "grandchildren.pid"),
	}
	src := fmt.Sprintf(configTemplate, self, "-testbot="+mode, tr.runID, tr.pidFile)
	if err := os.WriteFile(filepath.Join(dir, "tournament.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: fakegame.Lookup, DriverNames: fakegame.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatalf("config.Load: %v", diags)
	}
	if len(cfg.Tournaments) != 1 {
		t.Fatalf("config has %d tournaments, want 1", len(cfg.Tournaments))
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatalf("plan.Compile: %v", diags)
	}
	if len(p.Matches) != 4 {
		t.Fatalf("plan has %d matches, want 4 (one per seat of the bad bot)", len(p.Matches))
	}
	tr.plan = p
	out := t.TempDir()
	runner := &engine.Runner{
		Plan: p, Drivers: fakegame.Lookup, Root: cfg.Root, Out: out,
		Jobs: 2, Self: self, Log: hclog.NewNullLogger(),
	}
	start := time.Now()
	sum, err := runner.Run(context.Background())
	tr.elapsed = time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	tr.summary = sum
	_, results, err := engine.ReadDir(out)
	if err != nil {
		t.Fatalf("ReadDir: %v", err)
	}
	tr.results = results
	t.Logf("%s: 4 matches in %v", mode, tr.elapsed.Round(time.Millisecond))
	return tr
}

// assertNoProcessLeft checks, right after a run, that no process of the run
// is alive, that we have no zombie child, and that every grandchild the
// stubborn bot reported is gone.
func assertNoProcessLeft(t *testing.T, tr *tournamentRun) {
	t.Helper()
	proctest.AssertGone(t, "ENGINE_TEST_RUN="+tr.runID)
	proctest.AssertPidFileGone(t, tr.pidFile)
}

// badSeat is the seat of the bad bot in r, or -1.
func badSeat(r *engine.Result) int {
	for i, s := range r.Seats {
		if s.Bot == badBot {
			return i
		}
	}
	return -1
}

// TestBotFaults is the acceptance test for misbehaving bots: each ends its
// match with the right fault on the right seat, every match of the
// tournament is played, and no process is left.
func TestBotFaults(t *testing.T) {
	tests := []struct {
		name  string
		mode  string
		fault string // expected fault of the bad bot; "" for none
		// detail lists what the fault's detail must mention.
		detail []string
		// pids is how many grandchild pids the pid file must list.
		pids int
	}{
		{
			name: "move_over_the_clock_is_a_time_fault", mode: fakegame.ModeSlow,
			fault: drivers.FaultTime, detail: []string{"turn 2"},
		},
		{
			name: "never_answering_is_a_time_fault", mode: fakegame.ModeMute,
			fault: drivers.FaultTime, detail: []string{"turn 1"},
		},
		{
			name: "a_move_the_rules_forbid_is_illegal", mode: fakegame.ModeIllegal,
			fault: drivers.FaultIllegal, detail: []string{"not from 0 to 9", "turn 2"},
		},
		{
			name: "garbage_answer_is_a_protocol_fault", mode: fakegame.ModeGarbage,
			fault: drivers.FaultProtocol, detail: []string{"not a number", "turn 1"},
		},
		{
			name: "crash_mid_game_is_a_crash_fault", mode: fakegame.ModeCrash,
			fault: drivers.FaultCrash, detail: []string{"status 3", "turn 2"},
		},
		{
			name: "stubborn_bot_with_setsid_grandchild_plays_and_is_cleaned_up", mode: fakegame.ModeStubborn,
			fault: "", pids: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := runTournament(t, tt.mode)
			// Checked first, right after the synchronous run.
			assertNoProcessLeft(t, tr)
			if tt.mode == fakegame.ModeCrash {
				crashRun = tr
			}

			if tr.summary.Finished != 4 || len(tr.summary.Results) != 4 {
				t.Errorf("summary: %d finished, %d results; want 4 and 4", tr.summary.Finished, len(tr.summary.Results))
			}
			if len(tr.results) != 4 {
				t.Fatalf("results.jsonl has %d matches, want 4", len(tr.results))
			}
			seatsOfBad := map[int]bool{}
			for _, r := range tr.results {
				bad := badSeat(&r)
				if bad < 0 {
					t.Fatalf("match %s has no seat for %s: %+v", r.Match, badBot, r.Seats)
				}
				seatsOfBad[bad] = true
				t.Logf("match %s: %s in seat %d: fault %q %s", r.Match, badBot, bad, r.Seats[bad].Fault, r.Seats[bad].Detail)
				for i, s := range r.Seats {
					switch {
					case i != bad && s.Fault != "":
						t.Errorf("match %s: seat %d (%s) has fault %q (%s), want none", r.Match, i, s.Bot, s.Fault, s.Detail)
					case i == bad && s.Fault != tt.fault:
						t.Errorf("match %s: the bad bot in seat %d has fault %q (%s), want %q", r.Match, i, s.Fault, s.Detail, tt.fault)
					case i == bad && tt.fault != "" && s.Detail == "":
						t.Errorf("match %s: the bad bot's %s fault has no detail", r.Match, s.Fault)
					case i == bad && s.Fault == tt.fault:
						for _, want := range tt.detail {
							if !strings.Contains(s.Detail, want) {
								t.Errorf("match %s: fault detail %q does not mention %q", r.Match, s.Detail, want)
							}
						}
					}
				}
				if got, want := r.Faulty(), tt.fault != ""; got != want {
					t.Errorf("match %s: Faulty() = %v, want %v", r.Match, got, want)
				}
			}
			if len(seatsOfBad) != 4 {
				t.Errorf("the bad bot sat in seats %v, want every seat once", seatsOfBad)
			}

			b, _ := os.ReadFile(tr.pidFile)
			if got := len(strings.Fields(string(b))); got != tt.pids {
				t.Errorf("pid file lists %d grandchildren, want %d", got, tt.pids)
			}
		})
	}
}

// crashRun is the crash tournament of TestBotFaults, kept for the
// standings test (which runs its own when TestBotFaults did not run).
var crashRun *tournamentRun

// TestStandingsAfterFaults checks that a bot that crashes every match is
// ranked last, and that each of its matches gives only its 3 losses.
func TestStandingsAfterFaults(t *testing.T) {
	tr := crashRun
	if tr == nil {
		tr = runTournament(t, fakegame.ModeCrash)
		assertNoProcessLeft(t, tr)
	}
	if len(tr.results) != 4 {
		t.Fatalf("%d results, want 4", len(tr.results))
	}

	names, games := stats.PairwiseGames(tr.plan, tr.results)
	if len(games) != 4*3 {
		t.Errorf("%d pairwise games from 4 faulty matches, want 12 (3 losses of the faulty bot per match)", len(games))
	}
	for _, g := range games {
		white, black := names[g.White], names[g.Black]
		var loser string
		switch g.Result {
		case rating.WhiteWins:
			loser = black
		case rating.BlackWins:
			loser = white
		default:
			t.Errorf("game %s-%s is a draw (%v), want a loss of %s", white, black, g.Result, badBot)
			continue
		}
		if loser != badBot || (white != badBot && black != badBot) {
			t.Errorf("game %s-%s: %s lost, want only losses of %s", white, black, loser, badBot)
		}
	}

	st, err := stats.ComputeStandings(tr.plan, tr.results)
	if err != nil {
		t.Fatalf("ComputeStandings: %v", err)
	}
	if len(st) != 4 {
		t.Fatalf("%d standings, want 4: %+v", len(st), st)
	}
	last := st[len(st)-1]
	if last.Bot != badBot || last.Rank != 4 {
		t.Errorf("last is %s (rank %d), want %s: %+v", last.Bot, last.Rank, badBot, st)
	}
	for _, s := range st[:3] {
		if !(s.Elo > last.Elo) {
			t.Errorf("%s has Elo %.1f, not above the faulty bot's %.1f", s.Bot, s.Elo, last.Elo)
		}
		if s.Faults != 0 || s.Games != 4 || s.Score != 1 {
			t.Errorf("%s: %d faults, %d games, score %.2f; want 0, 4 wins over %s, 1.00", s.Bot, s.Faults, s.Games, s.Score, badBot)
		}
	}
	if last.Faults != 4 || last.Matches != 4 || last.Games != 12 || last.Score != 0 {
		t.Errorf("%s: %d faults in %d matches, %d games, score %.2f; want 4 in 4, 12, 0.00", badBot, last.Faults, last.Matches, last.Games, last.Score)
	}
}
