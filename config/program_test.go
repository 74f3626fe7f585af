package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/config"
)

// A program named without a slash is looked up on PATH, not in the bot's
// dir: when it is not on PATH but is in the dir, or a build will make it
// there, validate warns and says to write "./bot". A program on PATH, or
// one named with a slash that a build will make, is no warning.
func TestProgramWithoutSlashWarns(t *testing.T) {
	path := writeConfig(t, planowanieGame+`bot "built" {
  dir     = "student"
  build   = ["g++", "-O2", "-o", "arbiter-no-such-bot", "bot.cpp"]
  command = ["arbiter-no-such-bot"]
}
bot "there" {
  dir     = "student"
  command = ["prog"]
}
bot "slash" {
  dir     = "student"
  build   = ["g++", "-O2", "-o", "bot", "bot.cpp"]
  command = ["./bot"]
}
bot "path" {
  dir     = "student"
  build   = ["true"]
  command = ["sh", "run.sh"]
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.built, bot.there, bot.slash, bot.path]
  players = 4
}
`)
	student := filepath.Join(filepath.Dir(path), "student")
	if err := os.Mkdir(student, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(student, "prog"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, diags := load(path, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"13: Program looked up on PATH", "17: Program looked up on PATH"}
	if diff := cmp.Diff(want, warnings(diags)); diff != "" {
		t.Fatalf("warnings (-want +got):\n%s\nall: %v", diff, diags)
	}
	for i, prog := range []string{"arbiter-no-such-bot", "prog"} {
		if d := diags[i].Detail; !strings.Contains(d, `command = ["./`+prog+`", ...]`) || !strings.Contains(d, "start fault") {
			t.Errorf("warning %d = %q, want it to say to write ./%s and what follows", i, d, prog)
		}
	}
}
