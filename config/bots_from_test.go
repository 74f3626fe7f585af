package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/tournament"
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
// split on ':' (duels.txt), '#' (a replay's header), tabs (score.txt's
// columns) and line ends, so two folders with one nick, and nicks holding
// any of those, are refused, each error naming
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
		"g": "sh run.sh\nTAB\tBED\n",
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
		"Invalid player nick tab":        info("g") + " holds the control character U+0009 (a tab)",
		"Player file outside its folder": filepath.Join(dir, "bb.py"),
	}
	got := map[string]string{}
	for _, d := range diags {
		key := d.Summary
		if key == "Invalid player nick" {
			switch {
			case strings.Contains(d.Detail, "holds ':'"):
				key += " ':'"
			case strings.Contains(d.Detail, "holds '#'"):
				key += " '#'"
			default:
				key += " tab"
			}
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

// TestDuplicateNickQuotesPaths: the duplicate nick's error quotes the
// info.txt paths it names for the shell, as the lock's refusal quotes its
// holder's command line, so a line break in a folder's name does not
// split the message into what reads as two.
func TestDuplicateNickQuotesPaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sea\nson")
	for _, folder := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, "players", folder), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "players", folder, config.InfoFile), []byte("sh run.sh\nSAME\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := "bots_from \"field\" { dir = \"players\" }\ngame \"bricks\" \"b\" {\n  board { size = 5 }\n}\n" +
		"tournament \"t\" {\n  game    = game.bricks.b\n  bots    = bots_from.field\n  players = 2\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir, config.Options{})
	for _, d := range diags {
		if d.Summary != "Duplicate player nick" {
			continue
		}
		for _, folder := range []string{"a", "b"} {
			want := "'" + filepath.Join(dir, "players", folder, config.InfoFile) + "'"
			if !strings.Contains(d.Detail, want) {
				t.Errorf("detail %q does not name %q", d.Detail, want)
			}
		}
		return
	}
	t.Fatalf("no duplicate nick error: %v", diags)
}

// A bot block's nick names it in the same original-format files as the
// players' nicks: a player may not take it, and it may not hold their
// separators or a line end either.
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
bot "broken" {
  house = "bricks/random"
  nick  = "KEE\nPER"
}
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = concat(bots_from.field, [bot.keeper, bot.odd, bot.broken])
  players = 2
  format  = "round-robin"
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir, config.Options{})
	var dup, odd, broken bool
	for _, d := range diags {
		dup = dup || d.Summary == "Duplicate player nick" && strings.Contains(d.Detail, `bot "keeper"`)
		odd = odd || d.Summary == "Invalid nick" && strings.Contains(d.Detail, "holds ':'") && d.Subject != nil && d.Subject.Start.Line == 8
		broken = broken || d.Summary == "Invalid nick" && strings.Contains(d.Detail, "U+000A (a line feed)") && d.Subject != nil && d.Subject.Start.Line == 12
	}
	if !dup || !odd || !broken {
		t.Errorf("diagnostics %v: want the player's KEEPER refused as bot keeper's nick, A:B refused at line 8 and a nick with a line feed at line 12", diags)
	}
}

// writeFiles writes files (path relative to dir: content; a path ending
// in "/" is a folder) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// An LMS export holds a folder for every student, empty for those who
// submitted nothing: with invalid = "skip" every folder that is no valid
// player is left out with a warning naming it and why, in folder order,
// and the others play; without it (or with "error") each is an error, as
// before.
func TestBotsFromSkipInvalid(t *testing.T) {
	for _, invalid := range []string{"", `invalid = "error"`, `invalid = "skip"`} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"players/alice/info.txt":   "sh run.sh\nALICE\n",
			"players/bob/info.txt":     "sh run.sh\nBOB\n",
			"players/empty/":           "",
			"players/oneline/info.txt": "sh run.sh\n",
			"players/upper/Info.txt":   "sh run.sh\nUPPER\n",
			"players/colon/info.txt":   "sh run.sh\nA:B\n",
			"players/nul/info.txt":     "sh run\x00.sh\nNUL\n",
			"players/zdenek_empty/":    "",
			"players/.hidden/":         "",
			"t.hcl": `bots_from "field" {
  dir = "players"
  ` + invalid + `
}
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = bots_from.field
  players = 2
  format  = "round-robin"
}
`})
		cfg, diags := load(dir, config.Options{})
		players := filepath.Join(dir, "players")
		bad := []string{"colon", "empty", "nul", "oneline", "upper", "zdenek_empty"}
		var errs, left []string
		for _, d := range diags {
			switch {
			case d.Severity == hcl.DiagError:
				errs = append(errs, d.Detail)
			case d.Summary == "Player folder left out":
				left = append(left, d.Detail)
			}
		}
		if invalid != `invalid = "skip"` {
			if len(errs) != len(bad) || len(left) != 0 {
				t.Errorf("%q: errors %q, left out %q: want an error for each of %v", invalid, errs, left, bad)
			}
			continue
		}
		if len(errs) != 0 {
			t.Fatalf("skip: errors %q", errs)
		}
		if len(left) != len(bad) {
			t.Fatalf("skip: warnings %q, want one for each of %v", left, bad)
		}
		whys := []string{"holds ':'", "it has no info.txt", "line 1 of its info.txt (the command) holds NUL", "has 1 line(s), not 2", "it has no info.txt (it has Info.txt", "it has no info.txt"}
		for i, folder := range bad {
			if !strings.Contains(left[i], filepath.Join(players, folder)) || !strings.Contains(left[i], whys[i]) {
				t.Errorf("warning %d %q: want it to name %s and say %q", i, left[i], folder, whys[i])
			}
		}
		var got []string
		for _, b := range cfg.Tournaments[0].Bots {
			got = append(got, b.Name)
		}
		if want := []string{"alice", "bob"}; !cmp.Equal(got, want) {
			t.Errorf("skip: bots %v, want %v", got, want)
		}
		var skipped []string
		for _, s := range cfg.BotsFrom[0].Skipped {
			skipped = append(skipped, filepath.Base(s.Folder))
		}
		if !cmp.Equal(skipped, bad) {
			t.Errorf("skip: Skipped %v, want %v in folder order", skipped, bad)
		}
	}
}

// invalid takes "error" or "skip" only; a folder of nothing valid is
// still an error under "skip", saying how many were left out.
func TestBotsFromSkipRefuses(t *testing.T) {
	for _, tt := range []struct{ invalid, want string }{
		{`invalid = "skpi"`, `did you mean "skip"`},
		{`invalid = "skip"`, "no valid player folder (1 left out"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"players/empty/": "",
			"t.hcl": `bots_from "field" {
  dir = "players"
  ` + tt.invalid + `
}
`})
		_, diags := load(dir, config.Options{})
		said := false
		for _, d := range diags {
			said = said || d.Severity == hcl.DiagError && strings.Contains(d.Detail, tt.want)
		}
		if !said {
			t.Errorf("%s: %v, want an error saying %q", tt.invalid, diags, tt.want)
		}
	}
}

// Under invalid = "skip" the folders left out are warned of before the
// error "No player folders" that says "see the warnings", in folder
// order.
func TestBotsFromSkipWarnsFirst(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"players/a/": "",
		"players/b/": "",
		"t.hcl": `bots_from "field" {
  dir     = "players"
  invalid = "skip"
}
`})
	_, diags := load(dir, config.Options{})
	var got []string
	for _, d := range diags {
		switch d.Summary {
		case "Player folder left out":
			got = append(got, filepath.Base(strings.SplitN(d.Detail, ":", 2)[0]))
		case "No player folders":
			got = append(got, d.Summary)
		}
	}
	if want := []string{"a", "b", "No player folders"}; !slices.Equal(got, want) {
		t.Errorf("diagnostics in order %q, want %q", got, want)
	}
}

// A nick matters only to a game whose files name players by it
// (Bricks): two players with one nick play Euchre, where nothing shows
// it, but not Bricks.
func TestBotsFromNickPerGame(t *testing.T) {
	for _, tt := range []struct {
		driver, game string
		dup          bool
	}{
		{"euchre", `game "euchre" "g" {}`, false},
		{"bricks", "game \"bricks\" \"g\" {\n  board { size = 5 }\n}", true},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"players/a/info.txt": "sh run.sh\nSAME\n",
			"players/b/info.txt": "sh run.sh\nSAME\n",
			"t.hcl": `bots_from "field" { dir = "players" }
` + tt.game + `
tournament "t" {
  game    = game.` + tt.driver + `.g
  bots    = bots_from.field
  players = 2
}
`})
		_, diags := load(dir, config.Options{})
		var dup *hcl.Diagnostic
		for _, d := range diags {
			if d.Summary == "Duplicate player nick" {
				dup = d
			}
		}
		switch {
		case tt.dup && (dup == nil || !strings.Contains(dup.Detail, "score.txt") || !strings.Contains(dup.Detail, filepath.Join(dir, "players", "a", "info.txt"))):
			t.Errorf("%s: %v, want the duplicate nick refused naming score.txt and a's info.txt", tt.driver, diags)
		case !tt.dup && diags.HasErrors():
			t.Errorf("%s: %v, want no error: the game shows no nick", tt.driver, diags)
		}
	}
}

// A bot without a nick is named by its name in Bricks' files, so a
// player whose nick is another bot's name is a duplicate too.
func TestBotsFromNickIsAnotherBotsName(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"players/alice/info.txt": "sh run.sh\nkeeper\n",
		"t.hcl": `bots_from "field" { dir = "players" }
bot "keeper" { house = "bricks/keeper" }
game "bricks" "g" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.g
  bots    = concat(bots_from.field, [bot.keeper])
  players = 2
}
`})
	_, diags := load(dir, config.Options{})
	for _, d := range diags {
		if d.Summary == "Duplicate player nick" && strings.Contains(d.Detail, "has no nick and is named by its name") {
			return
		}
	}
	t.Errorf("%v, want alice's nick keeper refused as the name of the nick-less bot keeper", diags)
}

// bots_from's build is a bot block's build, given to every player: the
// plan records it for each, as for a bot block.
func TestBotsFromBuild(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"players/a/info.txt": "./bot\nA\n",
		"players/b/info.txt": "./bot\nB\n",
		"t.hcl": `bots_from "field" {
  dir           = "players"
  build         = ["g++", "-O2", "-o", "bot", "bot.cpp"]
  build_timeout = "2m"
}
game "bricks" "g" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.g
  bots    = bots_from.field
  players = 2
}
`})
	cfg, diags := load(dir, config.Options{})
	if len(diags) > 0 { // not even "Program not found": the build makes ./bot
		t.Fatal(diags)
	}
	p, d := compile.Compile(cfg, cfg.Tournaments[0])
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, name := range []string{"a", "b"} {
		b := p.Bot(name)
		if b == nil || !cmp.Equal(b.Build, []string{"g++", "-O2", "-o", "bot", "bot.cpp"}) || time.Duration(b.BuildTimeout) != 2*time.Minute {
			t.Errorf("plan bot %s = %+v, want the build and its timeout", name, b)
		}
	}
	writeFiles(t, dir, map[string]string{"t.hcl": `bots_from "field" {
  dir   = "players"
  build = []
}
`})
	if _, diags := load(dir, config.Options{}); !strings.Contains(diags.Error(), "build is empty") {
		t.Errorf("an empty build: %v", diags)
	}
}

// A player folder that is a link to a folder is no player: an error, or
// left out with a warning under invalid = "skip"; never dropped silently.
func TestBotsFromLinkedFolder(t *testing.T) {
	for _, skip := range []bool{false, true} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"players/a/info.txt": "sh run.sh\nA\n",
			"elsewhere/info.txt": "sh run.sh\nE\n",
		})
		if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "players", "e")); err != nil {
			t.Fatal(err)
		}
		invalid := ""
		if skip {
			invalid = `invalid = "skip"`
		}
		writeFiles(t, dir, map[string]string{"t.hcl": `bots_from "field" {
  dir = "players"
  ` + invalid + `
}
`})
		_, diags := load(dir, config.Options{})
		found := false
		for _, d := range diags {
			if strings.Contains(d.Detail, "is a symbolic link to") && (d.Severity == hcl.DiagError) != skip {
				found = true
			}
		}
		if !found {
			t.Errorf("skip %v: %v, want the linked folder named (an error, a warning with skip)", skip, diags)
		}
	}
}

// A link to another player folder beside it (latest -> simple) is an
// alias: left out with a warning, whatever invalid says; the folder plays.
func TestBotsFromAliasLink(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"players/simple/info.txt": "sh run.sh\nS\n",
		"t.hcl":                   `bots_from "field" { dir = "players" }` + "\n",
	})
	if err := os.Symlink("simple", filepath.Join(dir, "players", "latest")); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("%v, want no error for an alias", diags)
	}
	warned := false
	for _, d := range diags {
		warned = warned || d.Summary == "Player folder alias left out"
	}
	if !warned || cfg.Bot("simple") == nil || cfg.Bot("latest") != nil {
		t.Errorf("%v: want the alias warned of and left out, simple playing", diags)
	}
}

// A player folder whose name makes a bot name longer than
// tournament.MaxNameBytes is refused: the bot's stderr file would be
// named after it, and would not open midway through the run.
func TestBotsFromLongName(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("p", tournament.MaxNameBytes+1)
	writeFiles(t, dir, map[string]string{
		"players/" + long + "/" + config.InfoFile: "./run\nLONG\n",
		"players/short/" + config.InfoFile:        "./run\nSHORT\n",
		"t.hcl": `bots_from "field" {
  dir = "players"
}
`})
	_, diags := load(dir, config.Options{})
	said := false
	for _, d := range diags {
		said = said || d.Severity == hcl.DiagError && d.Summary == "Name too long" && strings.Contains(d.Detail, "at most 200")
	}
	if !said {
		t.Errorf("%v, want an error: Name too long", diags)
	}
}

// A dir that is no field of players (a system folder, the folder above
// the right one) makes an error for each of its folders: the first
// MaxFolderDiags are reported, the rest counted in one; and neither a
// bots_from in error nor a missing dir makes the tournament that lists
// it say again that it lacks bots.
func TestBotsFromWrongDir(t *testing.T) {
	for _, tc := range []struct {
		name, dir string
		errors    int
	}{
		{"many folders without info.txt", "wrong", config.MaxFolderDiags + 1},
		{"missing dir", "nothere", 1},
	} {
		dir := t.TempDir()
		files := map[string]string{"t.hcl": `bots_from "field" { dir = "` + tc.dir + `" }
bot "keeper" { house = "bricks/keeper" }
game "bricks" "b" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.b
  bots    = concat(bots_from.field, [bot.keeper])
  format  = "round-robin"
  players = 2
}
`}
		for i := range 25 {
			files[fmt.Sprintf("wrong/f%02d/", i)] = ""
		}
		writeFiles(t, dir, files)
		_, diags := load(dir, config.Options{})
		if len(diags) != tc.errors || !diags.HasErrors() {
			t.Errorf("%s: %d diagnostics, want %d errors: %v", tc.name, len(diags), tc.errors, diags)
		}
		for _, d := range diags {
			if d.Summary == "Not enough bots" {
				t.Errorf("%s: %v, a follow-on of the bots_from's error", tc.name, d)
			}
		}
		if last := diags[len(diags)-1]; tc.errors > 1 && !strings.Contains(last.Detail, "15 more folders of ") {
			t.Errorf("%s: the last diagnostic %v does not count the 15 folders left unreported", tc.name, last)
		}
	}
}
