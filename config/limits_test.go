package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers"
)

// A bot's limits override the tournament's attribute by attribute; the
// required lists of both count.
func TestBotLimitsOverrideTournament(t *testing.T) {
	dir := t.TempDir()
	src := `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
bot "a" {
  house = "planowanie/random"
  limits {
    memory   = "100MB"
    network  = true
    required = ["memory"]
  }
}
bot "b" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  limits {
    memory     = "400MiB"
    cpu        = "match"
    processes  = 16
    network    = false
    files      = "10MB"
    file_count = 10
    output     = 4096
    required   = ["network", "files"]
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(dir, config.Options{})
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("%s: %s", d.Summary, d.Detail)
		}
	}
	tr, err := cfg.Tournament("")
	if err != nil {
		t.Fatal(err)
	}
	no, yes := false, true
	want := map[string]drivers.Limits{
		"a": {Memory: 100e6, CPU: "match", Processes: 16, Network: &yes, Files: 10e6, FileCount: 10, Output: 4096,
			Required: []string{"network", "files", "memory"}},
		"b": {Memory: 400 << 20, CPU: "match", Processes: 16, Network: &no, Files: 10e6, FileCount: 10, Output: 4096,
			Required: []string{"network", "files"}},
	}
	for _, b := range tr.Bots {
		if diff := cmp.Diff(want[b.Name], config.BotLimits(tr, b)); diff != "" {
			t.Errorf("bot %s limits (-want +got):\n%s", b.Name, diff)
		}
	}
}
