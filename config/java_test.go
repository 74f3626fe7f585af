package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/config"
)

// TestJavaClassWithoutClassPath: a Java bot naming its main class without
// a class path is warned of, with the command that works, in a game that
// runs bots outside their dir (Auction, with the JVM options its process
// limit needs, and Euchre), and only there and only then.
func TestJavaClassWithoutClassPath(t *testing.T) {
	const bots = `
bot "bare"   {
  dir     = "j"
  build   = ["javac", "Bot.java"]
  command = ["java", "Bot"]
}
bot "cp"     {
  dir     = "j"
  command = ["java", "-cp", ".", "Bot"]
}
bot "jar"    {
  dir     = "j"
  command = ["java", "-jar", "bot.jar"]
}
bot "source" {
  dir     = "j"
  command = ["java", "Bot.java"]
}
bot "py"     {
  dir     = "j"
  command = ["python3", "Bot"]
}
`
	games := map[string]struct {
		game, tournament string
		want             string // in the warning; "" for none
	}{
		"auction": {`game "auction" "a" {
  board "s" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}`, `tournament "t" {
  game    = game.auction.a
  bots    = [bot.bare, bot.cp, bot.jar, bot.source, bot.py]
  players = 5
}
tournament "u" {
  game    = game.auction.a
  bots    = [bot.bare, bot.cp]
  players = 2
}`, `command = ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-cp", ".", "Bot"]`},
		"euchre": {`game "euchre" "e" {}`, `tournament "t" {
  game    = game.euchre.e
  bots    = [bot.bare, bot.cp, bot.jar, bot.source, bot.py]
  players = 2
  format  = "round-robin"
}`, `command = ["java", "-cp", ".", "Bot"]`},
		"bricks": {`game "bricks" "b" {
  board { size = 5 }
}`, `tournament "t" {
  game    = game.bricks.b
  bots    = [bot.bare, bot.cp, bot.jar, bot.source, bot.py]
  players = 2
  format  = "round-robin"
}`, ""},
	}
	for name, g := range games {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "j"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"Bot.java", "bot.jar"} {
				if err := os.WriteFile(filepath.Join(dir, "j", f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(bots+g.game+"\n"+g.tournament+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := load(dir, config.Options{})
			var warned []string
			for _, d := range diags {
				if d.Summary == "Java class without a class path" {
					warned = append(warned, d.Detail)
				}
			}
			if diags.HasErrors() {
				t.Fatalf("errors: %v", diags)
			}
			switch {
			case g.want == "" && len(warned) > 0:
				t.Errorf("warnings %q, want none: %s runs bots in their dir", warned, name)
			case g.want != "" && len(warned) != 1:
				t.Errorf("warnings %q, want one, of bot \"bare\" alone, once however many tournaments it plays", warned)
			case g.want != "" && !(strings.Contains(warned[0], `Bot "bare"`) && strings.Contains(warned[0], g.want)):
				t.Errorf("warning %q: want it of bot \"bare\", with %s", warned[0], g.want)
			}
		})
	}
}
