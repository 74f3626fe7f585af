package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

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

// TestJavaWarningFollowsLimitsAndEnv: the JVM options are suggested for
// the bot's own process limit (its tournament's and its own limits
// blocks), not the game's default alone; a relative CLASSPATH, relative
// to the folder the game runs the bot in, does not silence the warning,
// an absolute one does; a command with an @argfile, whose options are in
// a file, is not read.
func TestJavaWarningFollowsLimitsAndEnv(t *testing.T) {
	const cfg = `
bot "cpdot" {
  dir     = "j"
  env     = { CLASSPATH = "." }
  command = ["java", "Bot"]
}
bot "cpabs" {
  dir     = "j"
  env     = { CLASSPATH = "/opt/classes" }
  command = ["java", "Bot"]
}
bot "argfile" {
  dir     = "j"
  command = ["java", "@jvm.args", "Bot"]
}
bot "roomy" {
  dir     = "j"
  command = ["java", "Bot"]
  limits { processes = 64 }
}
bot "tight" {
  dir     = "j"
  command = ["java", "Bot"]
}
bot "heap" {
  dir     = "j"
  command = ["java", "-Xmx75m", "Bot", "-v"]
}
bot "tiered" {
  dir     = "j"
  command = ["java", "-XX:TieredStopAtLevel=1", "Bot"]
}
bot "envflags" {
  dir     = "j"
  env     = { JAVA_TOOL_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1" }
  command = ["java", "Bot"]
}
game "auction" "a" {
  board "s" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
game "euchre" "e" {}
tournament "t" {
  game    = game.auction.a
  bots    = [bot.cpdot, bot.cpabs, bot.argfile, bot.roomy]
  players = 4
}
tournament "u" {
  game    = game.euchre.e
  bots    = [bot.tight, bot.cpabs]
  players = 2
  format  = "round-robin"
  limits { processes = 16 }
}
tournament "v" {
  game    = game.auction.a
  bots    = [bot.heap, bot.tiered, bot.envflags]
  players = 3
}
`
	warned := map[string]string{}
	for _, d := range javaWarnings(t, cfg) {
		if d.Summary == "Java class without a class path" {
			name, _, _ := strings.Cut(strings.TrimPrefix(d.Detail, `Bot "`), `"`)
			warned[name] = d.Detail
		}
	}
	flags := `"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-cp", ".", "Bot"]`
	for bot, want := range map[string]string{
		"cpdot": flags, // Auction's default of 16
		"roomy": `command = ["java", "-cp", ".", "Bot"]`,
		"tight": flags + " (the -XX options keep the JVM's threads within the bot's limit of 16 ",
		// The command's own options and arguments stay; only what it
		// lacks is added, before the class.
		"heap":     `command = ["java", "-Xmx75m", ` + flags[:len(flags)-1] + `, "-v"] (the -XX options`,
		"tiered":   `command = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:CICompilerCount=1", "-cp", ".", "Bot"] (the -XX options`,
		"envflags": `command = ["java", "-cp", ".", "Bot"].`,
	} {
		if !strings.Contains(warned[bot], want) {
			t.Errorf("bot %s: warning %q, want one with %s", bot, warned[bot], want)
		}
		delete(warned, bot)
	}
	if len(warned) > 0 {
		t.Errorf("warnings of %v, want none (an absolute CLASSPATH, an @argfile)", warned)
	}
}

// TestJavaWithoutThreadOptions: a java command that has its class path
// but not the JVM options a small process limit needs (Auction's 16, a
// limits block's) is warned of at its bot's block, naming the options it
// lacks (of a shell's -c script or a wrapper script that is java's
// command, those that command lacks; a script with any other line is not
// read); one that gives them (in its command or
// JAVA_TOOL_OPTIONS), or runs under a roomy limit, is not.
func TestJavaWithoutThreadOptions(t *testing.T) {
	const cfg = `
bot "plain" {
  dir     = "j"
  command = ["java", "-cp", ".", "Bot"]
}
bot "half" {
  dir     = "j"
  command = ["java", "-XX:+UseSerialGC", "-cp", ".", "Bot"]
}
bot "shell" {
  dir     = "j"
  command = ["sh", "-c", "exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp . Bot"]
}
bot "flags" {
  dir     = "j"
  command = ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-cp", ".", "Bot"]
}
bot "script" {
  dir     = "j"
  command = ["./run.sh", "-XX:TieredStopAtLevel=1"]
}
bot "unread" {
  dir     = "j"
  command = ["./set.sh"]
}
bot "envflags" {
  dir     = "j"
  env     = { JAVA_TOOL_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1" }
  command = ["java", "-cp", ".", "Bot"]
}
bot "roomy" {
  dir     = "j"
  command = ["java", "-cp", ".", "Bot"]
  limits { processes = 64 }
}
bot "euchre" {
  dir     = "j"
  command = ["java", "-cp", ".", "Bot"]
}
game "auction" "a" {
  board "s" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
game "euchre" "e" {}
tournament "t" {
  game    = game.auction.a
  bots    = [bot.plain, bot.half, bot.flags, bot.envflags, bot.roomy]
  players = 5
}
tournament "v" {
  game    = game.auction.a
  bots    = [bot.shell, bot.flags, bot.script, bot.unread]
  players = 2
}
tournament "u" {
  game    = game.euchre.e
  bots    = [bot.euchre, bot.flags]
  players = 2
  format  = "round-robin"
}
`
	warned := map[string]string{}
	for _, d := range javaWarnings(t, cfg, "run.sh", "#!/bin/sh\nexec java -XX:+UseSerialGC -cp . Bot \"$@\"\n",
		"set.sh", "#!/bin/sh\nset -x\nexec java -cp . Bot\n") {
		if d.Summary == "JVM without the options of a small process limit" {
			name, _, _ := strings.Cut(strings.TrimPrefix(d.Detail, `Bot "`), `"`)
			warned[name] = d.Detail
			if d.Subject == nil || filepath.Base(d.Subject.Filename) != "t.hcl" || d.Subject.Start.Line == 0 {
				t.Errorf("warning of %s at %v, want its bot block in t.hcl", name, d.Subject)
			}
		}
	}
	for bot, want := range map[string]string{
		"plain": `"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"`,
		"half":  `its limit of 16 processes and threads: give "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1" before the class`,
		"shell": `give "-XX:CICompilerCount=1" before the class`, // the java command of its sh -c script
		// the java command of its wrapper script, with the script's
		// arguments after it (not JVM options there: after the class)
		"script": `give "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1" before the class in the java command of `,
	} {
		if !strings.Contains(warned[bot], want) {
			t.Errorf("bot %s: warning %q, want one with %s", bot, warned[bot], want)
		}
		// A processes limit of any game's may be small: the warning
		// names none.
		if strings.Contains(warned[bot], "auction") {
			t.Errorf("bot %s: warning %q names Auction, want words true of any game", bot, warned[bot])
		}
		delete(warned, bot)
	}
	if len(warned) > 0 {
		t.Errorf("warnings of %v, want none (the options given, a roomy limit, Euchre's 64)", warned)
	}
}

// javaWarnings loads cfg as t.hcl in a folder of its own (with an empty
// folder j for the bots' dir) and returns its diagnostics, failing the
// test on an error.
func javaWarnings(t *testing.T, cfg string, files ...string) hcl.Diagnostics {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "j"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(files); i += 2 { // name, text: the bots' files in j
		if err := os.WriteFile(filepath.Join(dir, "j", files[i]), []byte(files[i+1]), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("errors: %v", diags)
	}
	return diags
}
