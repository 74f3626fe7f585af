package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/fakegame"
)

// seedBot is a bot of the fake game numbers, a real process, that writes
// the ARBITER_SEED it was given to its stderr and answers 0 every turn.
const seedBot = `#!/bin/sh
echo "seed=$ARBITER_SEED" >&2
while read cmd arg; do
  case $cmd in
    turn) echo 0 ;;
    quit) exit 0 ;;
  esac
done
`

const seedConfig = `
game "numbers" "g" {
  turns = 1
  max   = 9
  clock { total = "30s" }
}
bot "a" { command = ["./seed.sh"] }
bot "b" { command = ["./seed.sh"] }
tournament "t" {
  game    = game.numbers.g
  bots    = [bot.a, bot.b]
  players = 2
  seats   = "swap"
  seed    = 2009
  limits { sandbox = false }
}
`

// seedsGiven runs the tournament of seedConfig into a new results
// directory and returns, for each match of its plan, the match's deal
// seed and the ARBITER_SEED each seat's bot printed.
func seedsGiven(t *testing.T, dir string) map[string][]string {
	t.Helper()
	cfg, diags := config.Load(dir, config.Options{Driver: fakegame.Lookup, DriverNames: fakegame.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := t.TempDir()
	r := &engine.Runner{Plan: p, Drivers: fakegame.Lookup, Root: cfg.Root, Out: out,
		Jobs: 2, Self: selfPath(t), Log: hclog.NewNullLogger()}
	sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Results) != 2 {
		t.Fatalf("%d results, want 2", len(sum.Results))
	}
	got := map[string][]string{}
	for _, m := range p.Matches {
		row := []string{strconv.FormatUint(m.Seed, 10)}
		for i, bot := range m.Seats {
			path := filepath.Join(out, engine.MatchesDir, m.ID, engine.StderrFile(i, bot))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			seed, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "seed=")
			if !ok || seed == "" {
				t.Fatalf("%s: %q, want seed=N", path, b)
			}
			row = append(row, seed)
		}
		got[m.ID] = row
	}
	return got
}

// TestBotSeedIsNotTheDealSeed: a bot never gets the seed its match is
// dealt from (with it and the public dealing algorithm it could compute
// every player's hand), the two seats of a match get different seeds,
// and a run again gives each seat the same seed as before.
func TestBotSeedIsNotTheDealSeed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(seedConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "seed.sh"), []byte(seedBot), 0o755); err != nil {
		t.Fatal(err)
	}
	first := seedsGiven(t, dir)
	for id, row := range first {
		deal, seat0, seat1 := row[0], row[1], row[2]
		if seat0 == deal || seat1 == deal {
			t.Errorf("match %s: a bot got ARBITER_SEED %s, the match's deal seed (seats: %s, %s)", id, deal, seat0, seat1)
		}
		if seat0 == seat1 {
			t.Errorf("match %s: both seats got ARBITER_SEED %s", id, seat0)
		}
	}
	if again := seedsGiven(t, dir); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("a second run gave the bots other seeds:\n%v\nfirst:\n%v", again, first)
	}
}
