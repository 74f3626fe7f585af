package engine_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

const journalTour = `
  bots    = [bot.r1, bot.g1]
  players = 2
  seats   = "swap"
  rounds  = 2
  seed    = 5
`

// contentsOf is every file of dir with its content, to show that a refused
// run touched nothing.
func contentsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if fi.IsDir() {
			m[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(path)
		m[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func assertUntouched(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range after {
		if w, ok := before[k]; !ok || w != v {
			t.Errorf("%s was created or changed by a refused run", k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("%s was removed by a refused run", k)
		}
	}
}

// TestLockedDirectoryIsRefused: a run into a directory whose lock another
// holder has is refused, names the holder and writes nothing; the holder
// itself can run into it; the lock file a released (or killed) holder
// leaves does not block.
func TestLockedDirectoryIsRefused(t *testing.T) {
	out := t.TempDir()
	lock, err := engine.LockDir(out)
	if err != nil {
		t.Fatal(err)
	}
	before := contentsOf(t, out)

	// Another taker in this process is refused like another process.
	_, err = engine.LockDir(out)
	var le *engine.LockedError
	if !errors.As(err, &le) || le.Holder == nil || le.Holder.PID != os.Getpid() {
		t.Fatalf("second LockDir: %v; want a LockedError naming pid %d", err, os.Getpid())
	}
	// As a shell reads it back: a -test.run with a "|" in it is quoted.
	if !strings.Contains(err.Error(), shell.Line(os.Args...)) {
		t.Errorf("refusal %q does not name the holder's command", err)
	}
	assertUntouched(t, before, contentsOf(t, out))

	// The holder runs into its own directory.
	if _, err := runner(t, 1, journalTour, out, 1).Run(context.Background()); err != nil {
		t.Fatalf("run under the caller's lock: %v", err)
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}

	// A lock file left with a holder's details does not block.
	stale := `{"pid":999999,"host":"gone","since":"2026-01-01T00:00:00Z","command":["arbiter","run"]}` + "\n"
	if err := os.WriteFile(filepath.Join(out, engine.LockFile), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := runner(t, 1, journalTour, out, 1).Run(context.Background())
	if err != nil {
		t.Fatalf("run after a stale lock file: %v", err)
	}
	if sum.Skipped != 4 || sum.Finished != 0 {
		t.Errorf("resumed run: %d skipped, %d played; want 4 and 0", sum.Skipped, sum.Finished)
	}
}

// TestResultsWithoutPlanAreRefused: results.jsonl without plan.json is
// not adopted by a plan, the same one or one with another seed.
func TestResultsWithoutPlanAreRefused(t *testing.T) {
	out := t.TempDir()
	if _, err := runner(t, 1, journalTour, out, 2).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, engine.PlanFile)); err != nil {
		t.Fatal(err)
	}
	before := contentsOf(t, out)
	delete(before, engine.LockFile)
	for _, tour := range []string{journalTour, strings.Replace(journalTour, "seed    = 5", "seed    = 6", 1)} {
		_, err := runner(t, 1, tour, out, 2).Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), filepath.Join(out, engine.ResultsFile)+" holds results but") ||
			!strings.Contains(err.Error(), "has no plan.json") {
			t.Errorf("run into results without plan.json: %v; want a refusal naming the file", err)
		}
		// The lock file, emptied, is all a refused run may leave.
		after := contentsOf(t, out)
		delete(after, engine.LockFile)
		assertUntouched(t, before, after)
	}
}

// TestResultsNotOfThePlanAreRefused edits a finished run's results.jsonl
// the ways a copied or hand-edited file differs from its plan; run and
// ReadDir (rank) refuse each naming the line and what differs.
func TestResultsNotOfThePlanAreRefused(t *testing.T) {
	out := t.TempDir()
	r := runner(t, 1, journalTour, out, 2)
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, engine.ResultsFile)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(orig), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) != 4 {
		t.Fatalf("%d results, want 4", len(lines))
	}
	// Results are written as matches finish: find the first match's line.
	id := r.Plan.Matches[0].ID
	var first string
	for _, l := range lines {
		if strings.Contains(l, `"match":"`+id+`"`) {
			first = l
		}
	}
	seed := `"seed":` + strconv.FormatUint(r.Plan.Matches[0].Seed, 10)
	cases := []struct {
		name, content, want string
	}{
		{"duplicate", string(orig) + first, `line 5: match "` + id + `" has a result already on line`},
		{"unknown match", string(orig) + strings.Replace(first, `"match":"`+id+`"`, `"match":"r9-g9-s9"`, 1),
			`line 5: match "r9-g9-s9" is not in the plan`},
		{"other seed", strings.Replace(string(orig), seed, `"seed":12345`, 1),
			`match "` + id + `" was played with seed 12345, but the plan gives it seed ` + strconv.FormatUint(r.Plan.Matches[0].Seed, 10)},
		{"other bots", strings.Replace(string(orig), first, strings.ReplaceAll(first, `"bot":"r1"`, `"bot":"zz"`), 1),
			`match "` + id + `" was played by`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.content == string(orig) {
				t.Fatal("the edit changed nothing")
			}
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := engine.ReadDir(out)
			if err == nil || !strings.Contains(err.Error(), path+", line ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadDir: %v\nwant %q", err, c.want)
			}
			_, err = runner(t, 1, journalTour, out, 2).Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Run: %v\nwant %q", err, c.want)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, []byte(c.content)) {
				t.Errorf("the refused run changed %s", path)
			}
		})
	}
}

// TestStartPlanDir: the plan.json a run writes right after its lock is
// the one its journal goes on with; a directory holding results without
// a plan.json, or another plan's, is left for the run to refuse.
func TestStartPlanDir(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	r := runner(t, 1, journalTour, out, 2)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := engine.StartPlanDir(out, r.Plan, nil); err != nil {
		t.Fatal(err)
	}
	early, err := os.ReadFile(filepath.Join(out, engine.PlanFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, engine.PlanFile)); !bytes.Equal(early, after) {
		t.Errorf("plan.json rewritten by the run:\n%s\nwas\n%s", after, early)
	}
	if err := os.Remove(filepath.Join(out, engine.PlanFile)); err != nil {
		t.Fatal(err)
	}
	if err := engine.StartPlanDir(out, r.Plan, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, engine.PlanFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("plan.json written beside results without one: %v", err)
	}
}
