package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// savedConfig is a tournament whose rounds 2 and 3 are grouped by rating
// during the run, between house bots and a script bot whose command and
// dir are relative.
const savedConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 4) : { cards = i, leader = 0 }]
  clock { total = "30s" }
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "c" { house = "planowanie/random" }
bot "s" {
  command = ["./play.sh"]
  dir     = "bots"
  # Its script execs arbiter from the test's build folder, which the
  # default sandbox does not show (only what the command names).
  limits { sandbox = false }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.s]
  players = 2
  seats   = "swap"
  rounds  = 3
  groups {
    random_rounds = 1
  }
  seed = 11
}
`

// TestSavedPlanRunsLikeItsConfiguration runs a configuration, then runs
// the plan.json of its results in a directory without any HCL, and finds
// the same results and transcripts, timings aside.
func TestSavedPlanRunsLikeItsConfiguration(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	// The script bot plays as the greedy house bot, from its own dir.
	script := fmt.Sprintf("#!/bin/sh\nexec %q bot planowanie/greedy\n", arbiter)
	conf := t.TempDir()
	writeFiles(t, conf, map[string]string{"t.hcl": savedConfig, "bots/play.sh": script})
	a := filepath.Join(t.TempDir(), "a")
	arb(t, arbiter, "run", conf, "-out", a, "-j", "1")

	// A fresh directory with the plan and the bot's files, no HCL.
	fresh := t.TempDir()
	plan, err := os.ReadFile(filepath.Join(a, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, fresh, map[string]string{"plan.json": string(plan), "bots/play.sh": script})
	if hcl, _ := filepath.Glob(filepath.Join(fresh, "*.hcl")); len(hcl) > 0 {
		t.Fatalf("HCL in the fresh directory: %v", hcl)
	}
	b := filepath.Join(t.TempDir(), "b")
	out := arb(t, arbiter, "run", filepath.Join(fresh, "plan.json"), "-out", b, "-j", "1")
	if !strings.Contains(out, "12 match(es) played, 0 already finished") {
		t.Errorf("the saved plan's run says:\n%s", out)
	}

	results := normalised(t, filepath.Join(a, "results.jsonl"))
	if diff := cmp.Diff(results, normalised(t, filepath.Join(b, "results.jsonl"))); diff != "" {
		t.Errorf("results.jsonl differs (-configuration +saved plan):\n%s", diff)
	}
	if len(results) != 12 || !strings.Contains(strings.Join(results, ""), `"bot":"s"`) {
		t.Errorf("want 12 matches, the script bot among them: %q", results)
	}
	for _, r := range results {
		if !strings.Contains(r, `"fault":""`) || regexp.MustCompile(`"fault":"[a-z]`).MatchString(r) {
			t.Errorf("a match with a fault, so the bots did not all play: %s", r)
		}
	}
	events, _ := filepath.Glob(filepath.Join(a, "matches", "*", "events.jsonl"))
	if len(events) != 12 {
		t.Fatalf("%d transcripts in %s, want 12", len(events), a)
	}
	for _, ea := range events {
		rel, _ := filepath.Rel(a, ea)
		if diff := cmp.Diff(normalised(t, ea), normalised(t, filepath.Join(b, rel))); diff != "" {
			t.Errorf("%s differs (-configuration +saved plan):\n%s", rel, diff)
		}
	}
	// The rounds grouped by rating during the run came out the same.
	for _, r := range []string{"rounds/r002.json", "rounds/r003.json"} {
		ra, err := os.ReadFile(filepath.Join(a, r))
		if err != nil {
			t.Fatal(err)
		}
		if rb, err := os.ReadFile(filepath.Join(b, r)); err != nil || !bytes.Equal(ra, rb) {
			t.Errorf("%s differs: %v\n%s\n%s", r, err, ra, rb)
		}
	}
}

// TestSavedPlanRoot: a saved plan's relative bot dirs are relative to
// -root, by default the plan file's directory; a plan whose bot dir is
// missing is refused before any match runs, and so is an edited plan.
func TestSavedPlanRoot(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	conf := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nexec %q bot planowanie/greedy\n", arbiter)
	writeFiles(t, conf, map[string]string{"t.hcl": savedConfig, "bots/play.sh": script})
	plan := arb(t, arbiter, "plan", "-json", conf)
	elsewhere := t.TempDir()
	saved := filepath.Join(elsewhere, "plan.json")
	writeFiles(t, elsewhere, map[string]string{"plan.json": plan})

	// plan prints a saved plan as it was.
	if again := arb(t, arbiter, "plan", "-json", saved); again != plan {
		t.Errorf("arbiter plan -json of the saved plan:\n%s\nwant\n%s", again, plan)
	}
	out, err := exec.Command(arbiter, "validate", saved).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `bot "s" runs in `+filepath.Join(elsewhere, "bots")) {
		t.Errorf("validate without the bot's dir: %v\n%s", err, out)
	}
	// A folder of that name that holds none of the bot's files is not its
	// dir either.
	if err := os.Mkdir(filepath.Join(elsewhere, "bots"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(arbiter, "validate", saved).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "holds none of its files (play.sh)") || !strings.Contains(string(out), "-root") {
		t.Errorf("validate with an empty folder for the bot's dir: %v\n%s", err, out)
	}
	out, err = exec.Command(arbiter, "run", saved, "-out", filepath.Join(elsewhere, "out")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-root") {
		t.Errorf("run without the bot's dir: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "out", "results.jsonl")); err == nil {
		t.Error("the refused run wrote results")
	}
	if out := arb(t, arbiter, "validate", saved, "-root", conf); !strings.Contains(out, "The plan is valid") {
		t.Errorf("validate -root: %s", out)
	}
	out2 := arb(t, arbiter, "run", saved, "-root", conf, "-out", filepath.Join(elsewhere, "out"), "-match", "r001-g01-s1", "-match", "r001-g02-s1")
	if !strings.Contains(out2, "2 match(es) played") {
		t.Errorf("run -root: %s", out2)
	}
	if b, _ := os.ReadFile(filepath.Join(elsewhere, "out", "results.jsonl")); !strings.Contains(string(b), `"bot":"s"`) || strings.Contains(string(b), `"fault":"start"`) {
		t.Errorf("the script bot did not play from -root:\n%s", b)
	}

	// An edited plan is not the plan that was reviewed.
	writeFiles(t, elsewhere, map[string]string{"plan.json": strings.Replace(plan, `"seed": 11`, `"seed": 12`, 1)})
	out, err = exec.Command(arbiter, "run", saved, "-root", conf, "-out", filepath.Join(elsewhere, "edited")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "does not match its hash") {
		t.Errorf("run of an edited plan: %v\n%s", err, out)
	}
	out, err = exec.Command(arbiter, "run", saved, "-var", "seed=3").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-var") {
		t.Errorf("run of a plan with -var: %v\n%s", err, out)
	}
}

func arb(t *testing.T, arbiter string, args ...string) string {
	t.Helper()
	cmd := exec.Command(arbiter, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("arbiter %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// timings are the fields that hold times, in results.jsonl and in
// transcripts: a transcript line's offset "t", a result's elapsed_ms and
// its seats' time_ms and off_move_ms, and the clock a bot is told before a decision.
var timings = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?m)^\{"t":[0-9.]+,`), `{"t":T,`},
	{regexp.MustCompile(`"elapsed_ms":[0-9]+`), `"elapsed_ms":T`},
	{regexp.MustCompile(`"time_ms":[0-9]+`), `"time_ms":T`},
	{regexp.MustCompile(`,"off_move_ms":[0-9]+`), ``}, // a measured time, left out when 0
	{regexp.MustCompile(`"send":"time_left [0-9]+"`), `"send":"time_left T"`},
}

// normalised reads a JSON-lines file with the values of its timings
// replaced: everything else must be the same byte for byte.
func normalised(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range timings {
		b = tm.re.ReplaceAll(b, []byte(tm.with))
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
