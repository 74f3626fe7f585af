package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/fakegame"
)

// swissRun is a finished Swiss tournament of the fake game, whose later
// rounds are paired during the run (rounds/): what a damaged results
// directory is made of.
const swissRun = `
  bots    = [bot.r1, bot.r2, bot.g1, bot.g2]
  players = 2
  seats   = "swap"
  rounds  = 3
  format  = "swiss"
`

// swissDir runs swissRun into a new directory and returns it with its
// files (their paths in it), plan.json first.
func swissDir(tb testing.TB) (string, []string) {
	tb.Helper()
	dir := tb.TempDir()
	if _, err := runner(tb, 2, swissRun, dir, 1).Run(context.Background()); err != nil {
		tb.Fatal(err)
	}
	files := []string{engine.PlanFile, engine.ResultsFile}
	rounds, _ := filepath.Glob(filepath.Join(dir, engine.RoundsDir, "*.json"))
	if len(rounds) == 0 {
		tb.Fatal("the Swiss run paired no round")
	}
	for _, r := range rounds {
		files = append(files, filepath.Join(engine.RoundsDir, filepath.Base(r)))
	}
	slices.Sort(files[2:])
	return dir, files
}

// readDamaged copies dir into a new directory with file holding content,
// and reads it as rank, report and resume do.
func readDamaged(t *testing.T, dir, file string, content []byte) error {
	t.Helper()
	out := filepath.Join(t.TempDir(), "results")
	if err := os.CopyFS(out, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, file), content, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := engine.ReadDirWith(out, fakegame.Lookup)
	if err == nil {
		_, err = engine.ReadStopped(out)
	}
	return err
}

// FuzzReadDir: a results directory of a Swiss run, one of whose files (the
// plan, the results, a round paired during the run) a crash or an edit
// left holding any bytes, is read or refused with an error, never a
// crash or a hang.
func FuzzReadDir(f *testing.F) {
	dir, files := swissDir(f)
	for i, name := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b)
	}
	f.Fuzz(func(t *testing.T, file uint8, content []byte) {
		_ = readDamaged(t, dir, files[int(file)%len(files)], content)
	})
}

// TestReadDirRefusesAnEditedPlan: a results directory whose plan.json was
// edited into no runnable plan, its matches seating fewer than its
// players (which sent the rounds' fill into a division by zero), is
// refused with an error naming the file.
func TestReadDirRefusesAnEditedPlan(t *testing.T) {
	dir, _ := swissDir(t)
	b, err := os.ReadFile(filepath.Join(dir, engine.PlanFile))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	p["players"] = 9
	edited, _ := json.Marshal(p)
	err = readDamaged(t, dir, engine.PlanFile, edited)
	if err == nil || !strings.Contains(err.Error(), engine.PlanFile) || !strings.Contains(err.Error(), "players = 9") {
		t.Fatalf("ReadDirWith of a plan.json edited to 9 players: %v; want an error naming plan.json and its players", err)
	}
}
