package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
)

// countBot is a Euchre bot that counts its matches in its one memory file
// and orders when its count is odd, so its results depend on the memory
// it is handed.
const countBot = `phase=$(sed -n 4p)
n=0
last=
if [ -f count ]; then read n last < count; fi
if [ "$last" != "$ARBITER_MATCH" ]; then n=$((n + 1)); fi
echo "$n $ARBITER_MATCH" > count
case $phase in
ordering) if [ $((n %% 2)) = 1 ]; then echo o; else echo p; fi ;;
naming) echo p ;;
alone) echo n ;;
*) echo x ;;
esac
`

const carryConfig = `
bot "a" {
  command = ["sh", "count.sh"]
  env     = { RUN_MARK = %[1]q }
}
bot "b" {
  command = ["sh", "count.sh"]
  env     = { RUN_MARK = %[1]q }
}
bot "c" {
  command = ["sh", "count.sh"]
  env     = { RUN_MARK = %[1]q }
}
bot "d" {
  house = "euchre/rules"
  env   = { RUN_MARK = %[1]q }
}
game "euchre" "g" {
  max_hands = 1
  clock { move = "30s" } # a loaded machine must not turn an answer into a default
  memory    = "per-bot"
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  deal    = "per-group" # the seatings of a group start from the same memory
  seed    = 4
}
`

// TestKilledPerBotMemoryRunResumes kills with SIGKILL a Euchre run whose
// bots keep their memory across matches, re-runs it, and compares every
// result and every memory file with an uninterrupted run's.
func TestKilledPerBotMemoryRunResumes(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("carry-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	for name, text := range map[string]string{"t.hcl": fmt.Sprintf(carryConfig, mark), "count.sh": fmt.Sprintf(countBot)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	killRunWhen(t, arbiter, dir, killed, mark, func() bool { return lines(results) >= 3 })
	if before := lines(results); before >= 12 {
		t.Fatalf("all %d matches finished before the kill", before)
	}
	runToEnd(t, arbiter, dir, killed, "2")
	whole := filepath.Join(dir, "whole")
	runToEnd(t, arbiter, dir, whole, "2")
	if diff := cmp.Diff(carriedOutcomes(t, whole), carriedOutcomes(t, killed)); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
	if lines(results) != 12 {
		t.Errorf("the resumed run holds %d results, want 12", lines(results))
	}
	if diff := cmp.Diff(memoryFiles(t, whole), memoryFiles(t, killed)); diff != "" {
		t.Errorf("resumed memory differs from an uninterrupted run's (-want +got):\n%s", diff)
	}
}

// carriedOutcomes maps each match to its seats' bots, scores, faults and
// defaults.
func carriedOutcomes(t *testing.T, dir string) map[string]string {
	_, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range results {
		for _, s := range r.Seats {
			m[r.Match] += fmt.Sprintf("%s=%v%s/%d ", s.Bot, s.Score, s.Fault, s.Defaults)
		}
	}
	return m
}

// memoryFiles maps every file of the matches' state folders to its text.
func memoryFiles(t *testing.T, out string) map[string]string {
	files, err := filepath.Glob(filepath.Join(out, engine.MatchesDir, "*", engine.StateDir, "*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no memory files in %s (%v)", out, err)
	}
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(out, f)
		m[rel] = string(b)
	}
	return m
}
