package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
			Sandbox: &drivers.Sandbox{}, Required: []string{"network", "files", "memory"}},
		"b": {Memory: 400 << 20, CPU: "match", Processes: 16, Network: &no, Files: 10e6, FileCount: 10, Output: 4096,
			Sandbox: &drivers.Sandbox{}, Required: []string{"network", "files"}},
	}
	for _, b := range tr.Bots {
		if diff := cmp.Diff(want[b.Name], config.BotLimits(tr, b)); diff != "" {
			t.Errorf("bot %s limits (-want +got):\n%s", b.Name, diff)
		}
	}
}

// Without a limits block a bot gets its game's default limits and the
// sandbox; sandbox = false takes both away; sandbox = "required" requires
// it; an interpreter outside the system's folders that a script's "#!"
// names is recorded as needed when the bot's PATH finds it there (the
// files of a bot's folder lead nowhere else).
func TestDefaultSandboxLimits(t *testing.T) {
	dir := t.TempDir()
	tools := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tools, "inst", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	interp := filepath.Join(tools, "inst", "bin", "interp")
	if err := os.WriteFile(interp, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot"), []byte("#!"+interp+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf(`
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
}
bot "plain" { house = "planowanie/random" }
bot "script" {
  command = ["./bot"]
  env     = { PATH = "%s:/usr/bin:/bin" }
}
bot "trusted" {
  house = "planowanie/random"
  limits { sandbox = false }
}
bot "strict" {
  house = "planowanie/random"
  limits {
    sandbox = "required"
    memory  = "1GiB"
  }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.plain, bot.script, bot.trusted, bot.strict]
  players = 2
}
`, filepath.Join(tools, "inst", "bin"))
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
	no := false
	def := drivers.Limits{Memory: 400 << 20, CPU: "match", Processes: 64, Network: &no, Sandbox: &drivers.Sandbox{}}
	script := def
	script.Sandbox = &drivers.Sandbox{Read: []string{filepath.Join(tools, "inst")}}
	strict := def
	strict.Memory, strict.Required = 1<<30, []string{"sandbox"}
	want := map[string]drivers.Limits{"plain": def, "script": script, "trusted": {}, "strict": strict}
	for _, b := range tr.Bots {
		if diff := cmp.Diff(want[b.Name], config.BotLimits(tr, b)); diff != "" {
			t.Errorf("bot %s limits (-want +got):\n%s", b.Name, diff)
		}
	}
}

// A bot block's sandbox = false overrides a tournament's requirement of
// the sandbox, in either spelling: the bot runs outside it, which
// validate says at the bot's sandbox attribute, naming the line that
// required it.
func TestBotDroppingRequiredSandboxWarns(t *testing.T) {
	for _, req := range []string{`sandbox = "required"`, `required = ["sandbox"]`} {
		path := writeConfig(t, planowanieGame+`bot "a" { house = "planowanie/random" }
bot "b" {
  house = "planowanie/random"
  limits { sandbox = false }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  limits { `+req+` }
}
`)
		_, diags := load(path, config.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		want := []string{"13: Required sandbox dropped for a bot"}
		if diff := cmp.Diff(want, warnings(diags)); diff != "" {
			t.Fatalf("%s: warnings (-want +got):\n%s\nall: %v", req, diff, diags)
		}
		if d := diags[len(diags)-1].Detail; !strings.Contains(d, `bot "b"`) || !strings.Contains(d, "t.hcl:19,") {
			t.Errorf("%s: detail %q does not name the bot and the tournament's line", req, d)
		}
	}
}
