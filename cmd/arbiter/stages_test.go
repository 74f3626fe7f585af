package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
)

// stagedConfig is a gate (six bots and one that quits, against a
// gatekeeper), two groups of the admitted, and a final of the two best of
// each group: 14, 12 and 12 matches.
const stagedConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 6) : { cards = i, leader = (i - 1) %% 2 }]
  clock { total = "1m" }
}
bot "a" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "b" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
bot "c" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "d" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
bot "e" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "f" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "quitter" {
  command = ["true"]
}
bot "keeper" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
tournament "t" {
  game  = game.planowanie.g
  bots  = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f, bot.quitter]
  seats = "swap"
  seed  = 15
  stage "entry" {
    gate {
      against = [bot.keeper]
      games   = 1
    }
  }
  stage "groups" {
    bots    = [admitted(stage.entry)]
    groups  = 2
    players = 2
  }
  stage "final" {
    bots    = [top(stage.groups, 2)]
    players = 2
  }
}
`

// TestKilledStagedRunResumes kills a run in stages with SIGKILL once in
// each stage, resumes it each time, and compares the stages it made and
// its results with an uninterrupted run; then it replays a match of a
// stage made during the run.
func TestKilledStagedRunResumes(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("staged-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(stagedConfig, mark)), 0o644); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	stageFile := func(name string) string { return filepath.Join(killed, engine.RoundsDir, "stage-"+name+".json") }
	// Kill in the gate, listed in the plan; then in each stage made from
	// results, a few matches into it.
	kills := []func() bool{
		func() bool { return lines(results) >= 3 },
		func() bool { return exists(stageFile("groups")) && lines(results) >= 14+3 },
		func() bool { return exists(stageFile("final")) && lines(results) >= 26+3 },
	}
	for i, when := range kills {
		killRunWhen(t, arbiter, dir, killed, mark, when)
		if n := lines(results); n >= 38 {
			t.Fatalf("kill %d: all %d matches finished before the kill", i+1, n)
		}
	}
	runToEnd(t, arbiter, dir, killed, "2")
	whole := filepath.Join(dir, "whole")
	runToEnd(t, arbiter, dir, whole, "1")
	for _, name := range []string{"groups", "final"} {
		got, err1 := os.ReadFile(stageFile(name))
		want, err2 := os.ReadFile(filepath.Join(whole, engine.RoundsDir, "stage-"+name+".json"))
		if err1 != nil || err2 != nil {
			t.Fatalf("stage %s: %v, %v", name, err1, err2)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("stage %s was made differently after the kills (-whole +resumed):\n%s", name, diff)
		}
	}
	if b, _ := os.ReadFile(stageFile("groups")); strings.Contains(string(b), `"quitter"`) {
		t.Errorf("the gate admitted the bot that quits:\n%s", b)
	}
	got, want := outcomes(t, killed), outcomes(t, whole)
	if len(got) != 38 || lines(results) != 38 {
		t.Errorf("resumed run holds %d distinct matches in %d lines, want 38 and 38", len(got), lines(results))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
	for _, file := range []string{"standings.txt"} {
		a, _ := os.ReadFile(filepath.Join(killed, file))
		b, _ := os.ReadFile(filepath.Join(whole, file))
		if diff := cmp.Diff(string(b), string(a)); diff != "" {
			t.Errorf("%s differs (-whole +resumed):\n%s", file, diff)
		}
	}
	// A stage file that the results do not make again is refused.
	b, err := os.ReadFile(stageFile("final"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Groups [][]string }
	if err := json.Unmarshal(b, &st); err != nil || len(st.Groups) != 1 || len(st.Groups[0]) != 4 {
		t.Fatalf("stage final: %v %+v", err, st)
	}
	edited := strings.Replace(string(b), `"`+st.Groups[0][0]+`"`, `"quitter"`, 1)
	if err := os.WriteFile(stageFile("final"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(arbiter, "run", dir, "-out", killed).CombinedOutput(); err == nil || !strings.Contains(string(out), "stage-final.json is not the stage that the plan and") {
		t.Errorf("a run into a directory whose stage file was edited: %v\n%s", err, out)
	}
	if err := os.WriteFile(stageFile("final"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(arbiter, "replay", killed, "final-A-r001-g01-s2", "groups-B-r001-g02-s1").CombinedOutput()
	if err != nil || strings.Count(string(out), "identical to the recorded transcript") != 2 {
		t.Errorf("replay of stage matches: %v\n%s", err, out)
	}
}

// playoffConfig is a qualification of two groups of three whose two
// identical bots (bids of 2) tie on mean place behind the one that bids
// 3, and a final of the two best of each, where all four tie: each tie is
// played off 3 times, the playoffs taking a while (the bots sleep in
// them, ARBITER_MATCH telling them apart), so that a kill can land in
// one. 4 + 6 + 2 + 3 matches.
const playoffConfig = `
game "auction" "g" {
  board "small" {
    cols    = 2
    rows    = 2
    capital = 20
  }
  idle_rounds = 1
  clock { move = "10s" } # a loaded host must not make a bid late in one run only
}
%[2]s
tournament "t" {
  game   = game.auction.g
  rating = "placement"
  bots   = [bot.hi, bot.hj, bot.a1, bot.b1, bot.a2, bot.b2]
  seats  = "fixed"
  rounds = 2
  seed   = 3
  stage "qual" {
    groups = 2
    split  = "seeded"
  }
  stage "final" { bots = [top(stage.qual, 2)] }
}
`

// playoffBid is the bots' script: the bid, after a pause in a playoff.
const playoffBid = `case "$ARBITER_MATCH" in
playoff-*) sleep 0.3 ;;
esac
echo "$1"
`

// TestKilledPlayoffResumes kills a run in stages with SIGKILL as a
// stage's playoff is made, in the middle of one, and in the last stage's
// playoffs, resumes it each time, and compares the playoffs and stages
// it made, its results and its standings with an uninterrupted run's.
func TestKilledPlayoffResumes(t *testing.T) {
	t.Parallel() // its arbiters and bots have a directory and a mark of their own
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("playoff-%d-%d", os.Getpid(), time.Now().UnixNano())
	var bots strings.Builder
	for _, b := range []struct{ name, bid string }{{"hi", "3"}, {"hj", "3"}, {"a1", "2"}, {"a2", "2"}, {"b1", "2"}, {"b2", "2"}} {
		fmt.Fprintf(&bots, "bot %q {\n  command = [\"/bin/sh\", \"bid.sh\", %q]\n  env = { RUN_MARK = %q }\n  limits { children = true }\n}\n", b.name, b.bid, mark)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(playoffConfig, mark, bots.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bid.sh"), []byte(playoffBid), 0o644); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	file := func(out, name string) string { return filepath.Join(out, engine.RoundsDir, name+".json") }
	kills := []func() bool{
		func() bool { return exists(file(killed, "playoff-qual-1")) },
		func() bool { return exists(file(killed, "playoff-qual-2")) && lines(results) >= 7 },
		func() bool { return exists(file(killed, "playoff-final-2")) && lines(results) >= 13 },
	}
	for i, when := range kills {
		killRunWhen(t, arbiter, dir, killed, mark, when)
		if n := lines(results); n >= 15 {
			t.Fatalf("kill %d: all %d matches finished before the kill", i+1, n)
		}
	}
	runToEnd(t, arbiter, dir, killed, "2")
	whole := filepath.Join(dir, "whole")
	runToEnd(t, arbiter, dir, whole, "1")
	for _, name := range []string{"playoff-qual-1", "playoff-qual-2", "playoff-qual-3", "stage-final", "playoff-final-1", "playoff-final-2", "playoff-final-3"} {
		got, err1 := os.ReadFile(file(killed, name))
		want, err2 := os.ReadFile(file(whole, name))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", name, err1, err2)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s was made differently after the kills (-whole +resumed):\n%s", name, diff)
		}
	}
	got, want := outcomes(t, killed), outcomes(t, whole)
	if len(got) != 15 || lines(results) != 15 {
		t.Errorf("resumed run holds %d distinct matches in %d lines, want 15 and 15", len(got), lines(results))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
	a, _ := os.ReadFile(filepath.Join(killed, "standings.txt"))
	b, _ := os.ReadFile(filepath.Join(whole, "standings.txt"))
	if diff := cmp.Diff(string(b), string(a)); diff != "" {
		t.Errorf("standings.txt differs (-whole +resumed):\n%s", diff)
	}
	if !strings.Contains(string(a), "stage qual, group A: a2 over b1: tied on mean place and in 3 playoff(s), decided by name") {
		t.Errorf("standings.txt does not name the cut no playoff settled:\n%s", a)
	}
}
