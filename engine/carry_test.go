package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/fakegame"
)

// carrying is the numbers game carrying its bots' state: before playing,
// a match appends its id to every seat's State/log, so that each bot's
// log lists the matches it was in, in the order they handed it on.
type carryingDriver struct{ drivers.Driver }

func (d carryingDriver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	g, err := d.Driver.LoadGame(raw)
	return carryingGame{g}, err
}

type carryingGame struct{ drivers.Game }

func (carryingGame) CarriesState() bool { return true }

// playing counts the carrying matches being played, and the most at once.
var playing struct {
	sync.Mutex
	now, most int
}

func (g carryingGame) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	playing.Lock()
	playing.now++
	playing.most = max(playing.most, playing.now)
	playing.Unlock()
	defer func() {
		playing.Lock()
		playing.now--
		playing.Unlock()
	}()
	for _, s := range m.Seats {
		log, err := os.ReadFile(filepath.Join(s.State, "log"))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(s.State, "log"), append(log, m.ID+"\n"...), 0o644); err != nil {
			return nil, err
		}
	}
	return g.Game.Play(ctx, m)
}

func carryingLookup(name string) (drivers.Driver, bool) {
	if name == fakegame.Name {
		return carryingDriver{fakegame.Driver{}}, true
	}
	return fakegame.Lookup(name)
}

// carryRunner is a round robin of the carrying numbers game, two rounds
// of every pair of five bots in both seatings, into out.
func carryRunner(t *testing.T, out string, jobs int) *engine.Runner {
	t.Helper()
	dir := t.TempDir()
	src := fmt.Sprintf(formatsBase, 2, `  bots    = [bot.r1, bot.r2, bot.g1, bot.g2, bot.r3]
  format  = "round-robin"
  players = 2
  rounds  = 2
  seed    = 3`)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: carryingLookup, DriverNames: fakegame.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &engine.Runner{Plan: p, Drivers: carryingLookup, Root: cfg.Root, Out: out,
		Jobs: jobs, Self: selfPath(t), Log: hclog.NewNullLogger()}
}

// checkChain checks that every bot's state went from each of its matches
// to its next in plan order: the log its k-th match left lists its first
// k matches, and the copy of what it brought in the first k-1.
func checkChain(t *testing.T, p *plan.Plan, out string) {
	t.Helper()
	seen := map[string][]string{}
	for _, m := range p.Matches {
		for _, bot := range m.Seats {
			state := filepath.Join(out, engine.MatchesDir, m.ID, engine.StateDir, bot)
			in, _ := os.ReadFile(filepath.Join(state+".in", "log"))
			if want := strings.Join(seen[bot], ""); string(in) != want {
				t.Errorf("%s brought %q into %s, want %q", bot, in, m.ID, want)
			}
			seen[bot] = append(seen[bot], m.ID+"\n")
			got, _ := os.ReadFile(filepath.Join(state, "log"))
			if want := strings.Join(seen[bot], ""); string(got) != want {
				t.Errorf("%s left %q after %s, want %q", bot, got, m.ID, want)
			}
		}
	}
}

// A game that carries its bots' state has each bot's matches played in
// plan order, each starting from what the previous one left, at any -j,
// also when the run is cancelled and resumed; a replay starts from the
// recorded state, and a match whose bots' earlier matches are not played
// is refused.
func TestCarriedStateInPlanOrder(t *testing.T) {
	for _, jobs := range []int{1, 3} {
		out := t.TempDir()
		r := carryRunner(t, out, jobs)
		playing.Lock()
		playing.most = 0
		playing.Unlock()
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		// Matches of other bots do not wait: at -j 3 some ran at once.
		playing.Lock()
		if most := playing.most; jobs > 1 && most < 2 || most > jobs {
			t.Errorf("-j %d played at most %d matches at once", jobs, most)
		}
		playing.Unlock()
		if len(r.Plan.Matches) != 40 {
			t.Fatalf("%d matches, want 40", len(r.Plan.Matches))
		}
		checkChain(t, r.Plan, out)
	}

	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	r := carryRunner(t, out, 3)
	r.Progress = &totals{cancelAt: 7, cancel: cancel}
	if _, err := r.Run(ctx); !errors.Is(err, engine.ErrInterrupted) {
		t.Fatalf("cancelled run: %v", err)
	}
	r = carryRunner(t, out, 3)
	sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped < 7 || sum.Skipped+sum.Finished != 40 {
		t.Errorf("resumed run: %d finished before, %d now", sum.Skipped, sum.Finished)
	}
	checkChain(t, r.Plan, out)

	last := r.Plan.Matches[len(r.Plan.Matches)-1]
	replay := carryRunner(t, t.TempDir(), 2)
	replay.Only = []string{last.ID}
	// (The numbers game's end event holds the seats' times, which a
	// replay does not reproduce: the Euchre tests compare transcripts.)
	if replayed, err := replay.Replay(context.Background(), out); err != nil || len(replayed) != 1 {
		t.Fatalf("replay: %+v, %v", replayed, err)
	}
	for _, bot := range last.Seats {
		for _, f := range []string{bot + ".in", bot} {
			want, _ := os.ReadFile(filepath.Join(out, engine.MatchesDir, last.ID, engine.StateDir, f, "log"))
			got, err := os.ReadFile(filepath.Join(replay.Out, engine.MatchesDir, last.ID, engine.StateDir, f, "log"))
			if err != nil || !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("replay's %s/log: %q (%v), the run's %q", f, got, err, want)
			}
		}
	}

	alone := carryRunner(t, t.TempDir(), 2)
	alone.Only = []string{last.ID}
	if _, err := alone.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "which has not been played") {
		t.Errorf("a match without its bots' earlier ones: %v", err)
	}
}
