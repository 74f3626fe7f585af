package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/diagtest"
	"github.com/arbiter-contests/arbiter/tournament"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

func load(path string, opts config.Options) (*config.Config, hcl.Diagnostics) {
	opts.Driver, opts.DriverNames = all.Driver, all.Names()
	if opts.Environ == nil {
		opts.Environ = []string{}
	}
	cfg, diags := config.Load(path, opts)
	if diags.HasErrors() {
		return cfg, diags
	}
	for _, t := range cfg.Tournaments {
		_, d := compile.Compile(cfg, t)
		diags = append(diags, d...)
	}
	return cfg, diags
}

// TestInvalid loads every file in testdata/invalid. Each line that should
// carry a diagnostic ends with "# ERROR: <summary>"; every error must be
// expected and every expectation met, so a file also proves that all its
// errors are reported in one go.
func TestInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := load(file, config.Options{})
			diagtest.Check(t, file, string(src), diags)
		})
	}
}

func TestValidWithVariables(t *testing.T) {
	cfg, diags := load("testdata/valid/variables.hcl", config.Options{
		Vars:    []string{"rounds=5"},
		Environ: []string{"ARBITER_VAR_seed=42", "ARBITER_VAR_rounds=9"},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tr := cfg.Tournaments[0]
	if tr.Rounds != 5 {
		t.Errorf("rounds = %d: -var must override the environment", tr.Rounds)
	}
	if tr.Seed != 42 || tr.Players != 2 || tr.Seats != tournament.Fixed || tr.Deal != tournament.PerGroup {
		t.Errorf("tournament = %+v", tr)
	}
	b := cfg.Bot("b")
	if want := filepath.Join(cfg.Root, "bots"); b.Dir != want {
		t.Errorf("bot dir = %q, want %q (relative to the declaring file)", b.Dir, want)
	}
	if b.Env["LEVEL"] != "3" {
		t.Errorf("bot env = %v", b.Env)
	}
	p, _ := compile.Compile(cfg, tr)
	if len(p.Matches) != 5 {
		t.Errorf("%d matches, want 5 (one fixed seating per round)", len(p.Matches))
	}
	if got := p.Bot("b").Dir; got != "bots" {
		t.Errorf("plan bot dir = %q, want it relative to the config root", got)
	}
}

// A -var-file that cannot be read, or parsed, or whose value is in
// error, is the one error: the variable it may set is not also said to
// have no value.
func TestBadVarFileIsTheOneError(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, summary string }{
		{"missing.hcl", "", "Cannot read variables file"},
		{"cut.hcl", "seed = \n", "Invalid expression"},
		{"ref.hcl", "seed = var.x\n", "Variables not allowed"},
	} {
		vf := filepath.Join(dir, tc.name)
		if tc.text != "" {
			os.WriteFile(vf, []byte(tc.text), 0o644)
		}
		_, diags := load("testdata/valid/variables.hcl", config.Options{VarFiles: []string{vf}})
		errs := diags.Errs()
		if len(errs) != 1 || errs[0].(*hcl.Diagnostic).Summary != tc.summary {
			t.Errorf("%s: %v, want one error: %s", tc.name, errs, tc.summary)
		}
	}
}

func TestVarFile(t *testing.T) {
	dir := t.TempDir()
	vf := filepath.Join(dir, "prod.hcl")
	os.WriteFile(vf, []byte("seed = 7\nrounds = 2\n"), 0o644)
	cfg, diags := load("testdata/valid/variables.hcl", config.Options{VarFiles: []string{vf}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if tr := cfg.Tournaments[0]; tr.Seed != 7 || tr.Rounds != 2 {
		t.Errorf("seed %d rounds %d, want 7 and 2 from the var file", tr.Seed, tr.Rounds)
	}
}

func TestUndeclaredVar(t *testing.T) {
	_, diags := load("testdata/valid/variables.hcl", config.Options{Vars: []string{"seed=1", "sede=2"}})
	if !diags.HasErrors() || diags[0].Summary != "Undeclared variable" || !strings.Contains(diags[0].Detail, "sede") {
		t.Fatalf("diags = %v, want Undeclared variable naming sede", diags)
	}
}

func TestExampleConfigsAreValid(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*")
	for _, dir := range dirs {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.hcl")); len(m) == 0 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if _, diags := load(dir, config.Options{}); diags.HasErrors() {
				t.Fatal(diags)
			}
		})
	}
}

// planowanieGame is a game block for tests that write their own
// configuration around it.
const planowanieGame = `deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 3, leader = 0 }]
  clock { total = "1m" }
}
`

// writeConfig writes src as the one file of a configuration directory and
// returns the file's path.
func writeConfig(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// warnings are the warnings of diags as "<line>: <summary>".
func warnings(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Subject != nil {
			out = append(out, fmt.Sprintf("%d: %s", d.Subject.Start.Line, d.Summary))
		}
	}
	return out
}

// A bot dir that does not exist is a warning at the dir attribute, as a
// program that is not installed is: every match of the bot would end in
// a start fault, but a checkout may make the directory before the run.
// The program in it is not reported again.
func TestMissingBotDirWarns(t *testing.T) {
	path := writeConfig(t, planowanieGame+`bot "p" {
  command = ["/usr/bin/python3", "simple.py"]
  dir     = "nonexistent"
}
bot "q" {
  command = ["./bot"]
  dir     = "t.hcl"
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.p, bot.q, bot.a]
  players = 3
}
`)
	_, diags := load(path, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"12: Bot directory not found", "16: Bot directory not found"}
	if diff := cmp.Diff(want, warnings(diags)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s\nall: %v", diff, diags)
	}
	problems := []string{"does not exist here", "is not a directory"}
	for i, d := range diags {
		if i < len(problems) && (!strings.Contains(d.Detail, problems[i]) || !strings.Contains(d.Detail, "start fault")) {
			t.Errorf("warning %d = %q, want it to say the directory %s and what follows", i, d.Detail, problems[i])
		}
	}
}

// A variable without a type set by -var or the environment is a string,
// as in Terraform; where a number is needed, a string that is one
// serves. One that is not is reported with the value and where it came
// from, which the source shown does not say.
func TestUntypedVarWhereNumberIsNeeded(t *testing.T) {
	path := writeConfig(t, planowanieGame+`variable "n" { default = 2 }
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  rounds  = var.n
  seed    = var.n
}
`)
	for _, tc := range []struct {
		opts   config.Options
		rounds int
	}{
		{config.Options{Vars: []string{"n=3"}}, 3},
		{config.Options{Environ: []string{"ARBITER_VAR_n=4"}}, 4},
	} {
		cfg, diags := load(path, tc.opts)
		if diags.HasErrors() {
			t.Errorf("%+v: %v", tc.opts, diags)
			continue
		}
		if tr := cfg.Tournaments[0]; tr.Rounds != tc.rounds || tr.Seed != uint64(tc.rounds) {
			t.Errorf("%+v: rounds %d, seed %d; want %d", tc.opts, tr.Rounds, tr.Seed, tc.rounds)
		}
	}
	_, diags := load(path, config.Options{Vars: []string{"n=abc"}})
	if len(diags) != 2 {
		t.Fatalf("-var n=abc: %v, want Invalid rounds and Invalid seed", diags)
	}
	for _, d := range diags {
		if !strings.Contains(d.Detail, `not the string "abc"`) || !strings.Contains(d.Detail, `var.n is the string "abc", from -var n.`) {
			t.Errorf("%s: %q, want it to name the value and where it came from", d.Summary, d.Detail)
		}
	}
}

// A value of -var or the environment that a typed variable cannot take
// is one error naming the variable, its type and the value, not HCL's
// about the expression it does not make, nor the variable's missing
// value, nor its uses.
func TestTypedVarGivenWrongValue(t *testing.T) {
	path := writeConfig(t, planowanieGame+`variable "rounds" { type = number }
variable "names" {
  type    = list(string)
  default = []
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  rounds  = var.rounds + length(var.names)
}
`)
	for _, tc := range []struct {
		opts config.Options
		want string
	}{
		{config.Options{Vars: []string{"rounds=abc"}}, `Variable "rounds" needs a number, but -var rounds gave "abc", which is not one.`},
		{config.Options{Vars: []string{"rounds=1"}, Environ: []string{"ARBITER_VAR_rounds=3", "ARBITER_VAR_names=a,b"}},
			`Variable "names" needs a value of type list(string), but the environment variable ARBITER_VAR_names gave "a,b"`},
		{config.Options{Vars: []string{"rounds=[1]"}}, `Variable "rounds" needs a number, but -var rounds gave "[1]", which is not one.`},
	} {
		_, diags := load(path, tc.opts)
		if len(diags) != 1 || diags[0].Summary != "Invalid variable value" || !strings.HasPrefix(diags[0].Detail, tc.want) {
			t.Errorf("%+v: %v\nwant one Invalid variable value: %s", tc.opts, diags, tc.want)
		}
	}
}

// Deals are counted from 1 in every message, and HCL's own words do not
// run into ours without a full stop.
func TestDealsCountFromOne(t *testing.T) {
	_, diags := load("testdata/invalid/deals.hcl", config.Options{})
	want := []string{
		"Deal 2: leader is missing. Write deals as a list of objects,",
		"Deal 3 has cards = 0 and leader = 1:",
		`Deal 4: leadr (did you mean "leader"?) is not a setting of a deal, which has cards and leader. Write deals`,
		"Deal 5: extra is not a setting of a deal, which has cards and leader. Write deals",
		"deals must be a list of deals, not number. Write deals",
	}
	if len(diags) != len(want) {
		t.Fatalf("diagnostics: %v, want %d", diags, len(want))
	}
	for i, d := range diags {
		if !strings.HasPrefix(d.Detail, want[i]) {
			t.Errorf("diagnostic %d: %q, want it to start %q", i, d.Detail, want[i])
		}
	}
}

// A clock in error is reported once, not also as no clock at all.
func TestBadClockIsNotNoClock(t *testing.T) {
	_, diags := load("testdata/invalid/bad_duration.hcl", config.Options{})
	path := writeConfig(t, `game "blokus" "b" {
  board {
    rows = 5
    cols = 5
  }
  stones {
    stone "I1" { cells = [[0, 0]] }
  }
  clock { turn = "2 seconds" }
}
`)
	_, d := load(path, config.Options{})
	diags = append(diags, d...)
	if !diags.HasErrors() {
		t.Fatal("no error for the bad durations")
	}
	if w := warnings(diags); len(w) > 0 {
		t.Errorf("warnings %v beside the errors: %v", w, diags)
	}
}

// A duration under a millisecond, which no bot can answer within, and
// one over Go's longest each say what is wrong rather than "must be a
// positive duration".
func TestDurationBounds(t *testing.T) {
	_, diags := load("testdata/invalid/bad_duration.hcl", config.Options{})
	want := map[int]string{
		11: "is 1µs, but the shortest limit is 1ms",
		12: "longer than the longest duration, 2562047h47m16.854775807s",
	}
	for _, d := range diags {
		if d.Subject != nil && want[d.Subject.Start.Line] != "" && strings.Contains(d.Detail, want[d.Subject.Start.Line]) {
			delete(want, d.Subject.Start.Line)
		}
	}
	if len(want) > 0 {
		t.Errorf("diagnostics %v: missing %v", diags, want)
	}
}

// TestBadPickSaysWhatIsWrong: top(stage.one, 0) says that n counts the
// bots that advance, from 1, rather than "got 1 to 0", the range of
// places it was turned into.
func TestBadPickSaysWhatIsWrong(t *testing.T) {
	path := writeConfig(t, `bot "a" { house = "auction/random" }
bot "b" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
tournament "t" {
  game = game.auction.g
  bots = [bot.a, bot.b]
  stage "one" {}
  stage "two" { bots = [top(stage.one, 0)] }
  stage "three" { bots = [places(stage.one, 2, 1)] }
}
`)
	_, diags := load(path, config.Options{})
	var details []string
	for _, d := range diags {
		details = append(details, d.Detail)
	}
	all := strings.Join(details, "\n")
	for _, want := range []string{
		"top(stage, n) advances the n best of every group: n is how many, from 1 to 1000; got 0",
		"places(stage, from, to) picks places from..to of every group, the first place being 1 and from no greater than to (at most 1000); got places 2 to 1",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("diagnostics do not say %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "got 1 to 0") {
		t.Errorf("diagnostics still say \"got 1 to 0\":\n%s", all)
	}
	// The stage reference's value is arbiter's own object: printed, it
	// would read "with stage.one as object with 1 attribute "stage"".
	for _, d := range diags {
		if d.Expression == nil || d.EvalContext == nil {
			continue
		}
		for _, tr := range d.Expression.Variables() {
			if tr.RootName() == "stage" {
				t.Errorf("%s: the diagnostic would list the value of %s", d, tr.RootName())
			}
		}
	}
}

// A directory's hidden files, editors' lock files (Emacs's .#t.hcl, a
// symbolic link to nowhere while t.hcl is edited), autosaves and
// backups are not part of its configuration, as in Terraform.
func TestDirSkipsHiddenAndEditorFiles(t *testing.T) {
	path := writeConfig(t, planowanieGame+`bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
}
`)
	dir := filepath.Dir(path)
	for _, name := range []string{".broken.hcl", "#t.hcl#", "#t.hcl", "t.hcl~", "old.hcl~"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("garbage {{{\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("user@host.1234:1700000000", filepath.Join(dir, ".#t.hcl")); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("a directory with hidden and editor files: %v", diags)
	}
	if len(cfg.Files) != 1 {
		t.Errorf("files loaded: %v, want t.hcl alone", cfg.Files)
	}
	if got := config.DirFiles(dir); len(got) != 1 || filepath.Base(got[0]) != "t.hcl" {
		t.Errorf("DirFiles = %v, want t.hcl alone", got)
	}
}

// A directory whose only configuration-like file ends otherwise
// (tournament.hcl.txt) is told so, not only that it has no .hcl files.
func TestNoFilesNamesUnread(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tournament.hcl.txt"), []byte("tournament \"t\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir, config.Options{})
	if len(diags) != 1 || diags[0].Summary != "No configuration files" || !strings.Contains(diags[0].Detail, "tournament.hcl.txt is not read") {
		t.Errorf("%v, want one error naming the unread tournament.hcl.txt", diags)
	}
}

// A folder named x.hcl is skipped with a warning; a link to nothing is
// an error naming where it points; and a configuration without a
// tournament names the files left unread for their ending.
func TestDirOddFiles(t *testing.T) {
	path := writeConfig(t, planowanieGame)
	dir := filepath.Dir(path)
	if err := os.Mkdir(filepath.Join(dir, "x.hcl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tournament.hcl.txt"), []byte("tournament \"t\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(dir, config.Options{})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "x.hcl is a folder") {
		t.Errorf("a folder x.hcl: %v, want one warning naming it", diags)
	}
	if _, err := cfg.Tournament(""); err == nil || !strings.Contains(err.Error(), "tournament.hcl.txt is not read") {
		t.Errorf("no tournament: %v, want the unread tournament.hcl.txt named", err)
	}
	if err := os.Symlink("gone.hcl", filepath.Join(dir, "y.hcl")); err != nil {
		t.Fatal(err)
	}
	_, diags = load(dir, config.Options{})
	want := filepath.Join(dir, "y.hcl") + " is a symbolic link to " + filepath.Join(dir, "gone.hcl") + ", which does not exist"
	found := false
	for _, d := range diags {
		found = found || d.Severity == hcl.DiagError && strings.Contains(d.Detail, want)
	}
	if !found {
		t.Errorf("a link to nothing: %v, want %q", diags, want)
	}
}

// A var file that does not parse is shown with its source, like the
// configuration's own files.
func TestVarFileErrorShowsItsSource(t *testing.T) {
	vf := filepath.Join(t.TempDir(), "prod.hcl")
	if err := os.WriteFile(vf, []byte("seed = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load("testdata/valid/variables.hcl", config.Options{VarFiles: []string{vf}})
	if !diags.HasErrors() || diags[0].Subject == nil || diags[0].Subject.Filename != vf {
		t.Fatalf("diags = %v, want an error in %s", diags, vf)
	}
	var out strings.Builder
	hcl.NewDiagnosticTextWriter(&out, cfg.Files, 100, false).WriteDiagnostic(diags[0])
	if !strings.Contains(out.String(), "1: seed =") || strings.Contains(out.String(), "not available") {
		t.Errorf("the error as printed:\n%s\nwant the var file's line", out.String())
	}
}

// A file in another encoding than UTF-8 is one error naming the file and
// the encoding, not one error a character.
func TestFileNotUTF8(t *testing.T) {
	src := planowanieGame + `bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
}
`
	utf16 := func(bom []byte, big bool) []byte {
		out := append([]byte(nil), bom...)
		for _, c := range []byte(src) {
			if big {
				out = append(out, 0, c)
			} else {
				out = append(out, c, 0)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		src  []byte
		want string
	}{
		{"utf16le-bom", utf16([]byte{0xff, 0xfe}, false), "is UTF-16 (it starts with a UTF-16 byte order mark)"},
		{"utf16be-bom", utf16([]byte{0xfe, 0xff}, true), "is UTF-16 (it starts with a UTF-16 byte order mark)"},
		{"utf16le", utf16(nil, false), "is UTF-16 (every other byte"},
		{"nul", append([]byte(src), 0), "holds NUL bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.hcl")
			if err := os.WriteFile(path, tc.src, 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := load(path, config.Options{})
			if len(diags) != 1 || diags[0].Summary != "File is not UTF-8" ||
				!strings.Contains(diags[0].Detail, path+" "+tc.want) {
				t.Errorf("diags = %v, want one error naming %s and saying it %s", diags, path, tc.want)
			}
		})
	}
}

// The seed's range is stated, and a seed out of it is written as it was
// written: 9223372036854775808, not 9.223372036854775808e+18.
func TestSeedRange(t *testing.T) {
	for _, tc := range []struct{ seed, want string }{
		{"9223372036854775807", ""},
		{"0", ""},
		{"9223372036854775808", "seed must be a whole number from 0 to 9223372036854775807, not 9223372036854775808:"},
		{"-1", "from 0 to 9223372036854775807, not -1:"},
		{"2.5", "from 0 to 9223372036854775807, not 2.5:"},
		{"1e40", "from 0 to 9223372036854775807, not 1e+40:"},
	} {
		path := writeConfig(t, planowanieGame+`bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  seed    = `+tc.seed+`
}
`)
		cfg, diags := load(path, config.Options{})
		switch {
		case tc.want == "" && diags.HasErrors():
			t.Errorf("seed = %s: %v", tc.seed, diags)
		case tc.want == "" && fmt.Sprint(cfg.Tournaments[0].Seed) != tc.seed:
			t.Errorf("seed = %s read as %d", tc.seed, cfg.Tournaments[0].Seed)
		case tc.want != "" && (len(diags) != 1 || !strings.Contains(diags[0].Detail, tc.want)):
			t.Errorf("seed = %s: %v, want one error saying %q", tc.seed, diags, tc.want)
		}
	}
}

// The cap on a plan's matches says that stop's max_matches does not
// lift it.
func TestTooManyMatchesSaysMaxMatchesDoesNotLiftIt(t *testing.T) {
	_, diags := load("testdata/invalid/too_many_rounds.hcl", config.Options{})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "at most 1000000 matches whatever its stop block says: max_matches stops a run") {
		t.Errorf("diags = %v, want one saying max_matches does not lift the cap", diags)
	}
}

// A known interpreter's script that is not in the bot's dir is warned of
// at the command, as a missing program is: every match would crash. Code
// or a module given to the interpreter, an option's value, and a script
// a build may make are not.
func TestMissingScriptWarns(t *testing.T) {
	path := writeConfig(t, planowanieGame+`bot "missing" {
  command = ["/usr/bin/python3", "simple.py"]
}
bot "there" {
  command = ["/usr/bin/python3", "t.hcl"]
}
bot "option" {
  command = ["/usr/bin/python3", "-W", "ignore", "-u", "sub/bot.py"]
}
bot "code" {
  command = ["/usr/bin/python3", "-c", "print(1)"]
}
bot "module" {
  command = ["/usr/bin/python3", "-m", "mybot"]
}
bot "shell" {
  command = ["/bin/sh", "-e", "run.sh"]
}
bot "built" {
  command = ["/usr/bin/python3", "gen.py"]
  build   = ["/bin/sh", "-c", "echo > gen.py"]
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.missing, bot.there, bot.option, bot.code, bot.module, bot.shell, bot.built]
  players = 7
}
`)
	_, diags := load(path, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"11: Script not found", "17: Script not found", "26: Script not found"}
	if diff := cmp.Diff(want, warnings(diags)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s\nall: %v", diff, diags)
	}
	if d := diags[0].Detail; !strings.Contains(d, `"missing"`) || !strings.Contains(d, filepath.Join(filepath.Dir(path), "simple.py")) {
		t.Errorf("detail %q does not name the bot and the file looked for", d)
	}
}

// Relative paths of a configuration file that is a symbolic link are
// taken from the link's folder (docs/configuration.md); when the folder
// of the file it links to has what is missing, the warning says so.
func TestLinkedFileResolvesFromTheLink(t *testing.T) {
	root := t.TempDir()
	real, conf := filepath.Join(root, "real"), filepath.Join(root, "conf")
	for _, d := range []string{filepath.Join(real, "bots"), conf} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := planowanieGame + `bot "script" {
  command = ["/usr/bin/python3", "bots/simple.py"]
}
bot "folder" {
  command = ["./bot"]
  dir     = "bots"
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.script, bot.folder, bot.a]
  players = 3
}
`
	for name, data := range map[string]string{"t.hcl": src, "bots/simple.py": "print(1)\n", "bots/bot": "#!/bin/sh\n"} {
		if err := os.WriteFile(filepath.Join(real, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../real/t.hcl", filepath.Join(conf, "t.hcl")); err != nil {
		t.Fatal(err)
	}
	_, diags := load(real, config.Options{})
	if len(warnings(diags)) != 0 || diags.HasErrors() {
		t.Fatalf("the file itself: %v", diags)
	}
	_, diags = load(conf, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"11: Script not found", "15: Bot directory not found"}
	if diff := cmp.Diff(want, warnings(diags)); diff != "" {
		t.Fatalf("warnings (-want +got):\n%s\nall: %v", diff, diags)
	}
	for _, d := range diags {
		if !strings.Contains(d.Detail, "is a symbolic link to "+filepath.Join(real, "t.hcl")) || !strings.Contains(d.Detail, filepath.Join(real, "bots")) {
			t.Errorf("%s: %q does not say where the link leads and what is there", d.Summary, d.Detail)
		}
	}
}

// Limits that some bots run under are warned of, not refused: a Bricks
// move of 8 bytes fits output = "16B", a bot that writes no file runs
// under files = "1KiB" (docs/sandbox.md). Only an output under the
// shortest answer of any game, 2 B, is an error (testdata/invalid).
func TestSmallLimitsWarn(t *testing.T) {
	path := writeConfig(t, planowanieGame+`bot "a" {
  house = "planowanie/random"
  limits {
    output = "16B"
    files  = "1KiB"
  }
}
bot "b" {
  house = "planowanie/random"
  limits {
    output = "64B"
    files  = "4KiB"
  }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
}
`)
	_, diags := load(path, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"13: Small output limit", "14: Small files limit"}
	if diff := cmp.Diff(want, warnings(diags)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s\nall: %v", diff, diags)
	}
}
