package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
)

func TestBotsFrom(t *testing.T) {
	cfg, diags := load("testdata/bots_from", config.Options{})
	for _, d := range diags {
		if d.Severity == hcl.DiagError { // warnings (programs not installed here) are fine
			t.Fatal(d)
		}
	}
	tr := cfg.Tournaments[0]
	var got []string
	for _, b := range tr.Bots {
		got = append(got, b.Name)
	}
	// Sorted by folder name, "2nd bot" before "alpha"; files and hidden
	// folders skipped; then the declared bot of concat().
	if want := []string{"p_2nd_bot", "alpha", "keeper"}; !cmp.Equal(got, want) {
		t.Fatalf("bots %v, want %v", got, want)
	}
	second, alpha := tr.Bots[0], tr.Bots[1]
	players, _ := filepath.Abs("testdata/bots_from/players")
	if diff := cmp.Diff([]string{"./run", "with space", `a "b"`, "c d"}, second.Command); diff != "" {
		t.Errorf("command split (-want +got):\n%s", diff)
	}
	if second.Nick != "SECOND ONE" || second.Dir != filepath.Join(players, "2nd bot") {
		t.Errorf("nick %q dir %q", second.Nick, second.Dir)
	}
	if alpha.Nick != "ALPHA PLAYER" || !cmp.Equal(alpha.Command, []string{"python3", "bot.py"}) || alpha.Dir != filepath.Join(players, "alpha") {
		t.Errorf("alpha = %+v", alpha)
	}
	p, d := compile.Compile(cfg, tr)
	if d.HasErrors() {
		t.Fatal(d)
	}
	if b := p.Bot("p_2nd_bot"); b == nil || b.Nick != "SECOND ONE" || b.Dir != "players/2nd bot" {
		t.Errorf("plan bot = %+v, want the nick and a directory relative to the configuration", b)
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"java -jar Player.jar", []string{"java", "-jar", "Player.jar"}, false},
		{"  python3\tbot.py  ", []string{"python3", "bot.py"}, false},
		{`./bot "two words" 'it''s' x\ y`, []string{"./bot", "two words", "its", "x y"}, false},
		{`echo ""`, []string{"echo", ""}, false},
		{`a 'open`, nil, true},
		{`a \`, nil, true},
		{"", nil, false},
	} {
		got, err := config.SplitCommand(tt.in)
		if (err != nil) != tt.err || !cmp.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestBotsFromNicks: the original's result files name players by nick and
// split on ':' (duels.txt) and '#' (a replay's header), so two folders
// with one nick, and nicks holding either, are refused, each error naming
// the info.txt; a command that climbs out of its folder to a file gets a
// warning naming it, since a sandboxed player cannot see it.
func TestBotsFromNicks(t *testing.T) {
	dir := t.TempDir()
	players := filepath.Join(dir, "players")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "bb.py"), "")
	for folder, info := range map[string]string{
		"a": "sh run.sh\nSAME\n", "b": "sh run.sh\nSAME\n", "c": "sh run.sh\nA:B\n",
		"d": "sh run.sh\nHASH#TAG\n", "e": "python3 ../../bb.py good\nOUTSIDE\n", "f": "sh run.sh\nFINE\n",
	} {
		write(filepath.Join(players, folder, config.InfoFile), info)
	}
	write(filepath.Join(dir, "t.hcl"), `bots_from "field" { dir = "players" }
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = bots_from.field
  players = 2
}
`)
	_, diags := load(dir, config.Options{})
	info := func(folder string) string { return filepath.Join(players, folder, config.InfoFile) }
	want := map[string]string{
		"Duplicate player nick":          info("b"),
		"Invalid player nick ':'":        info("c"),
		"Invalid player nick '#'":        info("d"),
		"Player file outside its folder": filepath.Join(dir, "bb.py"),
	}
	got := map[string]string{}
	for _, d := range diags {
		key := d.Summary
		if key == "Invalid player nick" {
			key += map[bool]string{true: " ':'", false: " '#'"}[strings.Contains(d.Detail, "holds ':'")]
		}
		if _, ok := want[key]; !ok || d.Subject == nil {
			continue
		}
		got[key] = d.Detail
		if key == "Player file outside its folder" && d.Severity != hcl.DiagWarning {
			t.Errorf("%s is an error, want a warning: the sandbox may be off", key)
		}
	}
	for key, path := range want {
		if !strings.Contains(got[key], path) {
			t.Errorf("%s: %q, want a detail naming %s", key, got[key], path)
		}
	}
	if !strings.Contains(got["Duplicate player nick"], info("a")) {
		t.Errorf("the duplicate nick's detail %q does not name the first info.txt", got["Duplicate player nick"])
	}
}

// A bot block's nick names it in the same original-format files as the
// players' nicks: a player may not take it, and it may not hold their
// separators either.
func TestBotNickAmongPlayers(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "players", "k"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "players", "k", config.InfoFile), []byte("sh run.sh\nKEEPER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(`bots_from "field" { dir = "players" }
bot "keeper" {
  house = "bricks/keeper"
  nick  = "KEEPER"
}
bot "odd" {
  house = "bricks/random"
  nick  = "A:B"
}
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = concat(bots_from.field, [bot.keeper, bot.odd])
  players = 2
  format  = "round-robin"
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir, config.Options{})
	var dup, odd bool
	for _, d := range diags {
		dup = dup || d.Summary == "Duplicate player nick" && strings.Contains(d.Detail, `bot "keeper"`)
		odd = odd || d.Summary == "Invalid nick" && strings.Contains(d.Detail, "holds ':'") && d.Subject != nil && d.Subject.Start.Line == 8
	}
	if !dup || !odd {
		t.Errorf("diagnostics %v: want the player's KEEPER refused as bot keeper's nick, and A:B refused at line 8", diags)
	}
}
