package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
)

// dqConfig is an Auction tournament of six matches in which late
// overruns once a match (2 tolerated: out from r003) and vandal breaks
// the file rules in r002. %[1]q marks the bots' processes. The margins
// are wide (late's 2.5 s answer against 2 s and 5 s of overrun, 2 s for
// the prompt bots): a loaded host must not change a verdict or a score.
const dqConfig = `
bot "ok" {
  command = ["sh", "ok.sh"]
  env     = { RUN_MARK = %[1]q }
}
bot "late" {
  command = ["sh", "late.sh"]
  env     = { RUN_MARK = %[1]q }
  limits { children = true }
}
bot "vandal" {
  command = ["sh", "vandal.sh"]
  env     = { RUN_MARK = %[1]q }
}
game "auction" "g" {
  board "a" {
    cols    = 2
    rows    = 1
    capital = 5
  }
  idle_rounds = 1
  clock {
    move     = "2s"
    overrun  = "5s"
    overruns = 2
  }
}
tournament "t" {
  game    = game.auction.g
  bots    = [bot.ok, bot.late, bot.vandal]
  rounds  = 6
  players = 3
  seats   = "fixed"
  seed    = 5
}
`

var dqScripts = map[string]string{
	"ok.sh":     "echo 0\n",
	"late.sh":   "[ -s \"$1/log\" ] || sleep 2.5\necho 1\n",
	"vandal.sh": "case \"$ARBITER_MATCH\" in r002-*) echo x > \"$1/junk\" ;; esac\necho 0\n",
}

// TestKilledRunKeepsVerdicts kills a run with -j 2 (two matches of the
// same bots at once) once its first result is written, runs it again
// into the same directory, and compares every match's verdicts and
// scores with those of an uninterrupted run with -j 1: a
// disqualification is decided in plan order, whichever match finished
// first and whatever the kill lost.
func TestKilledRunKeepsVerdicts(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("dq-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	files := map[string]string{"t.hcl": fmt.Sprintf(dqConfig, mark)}
	for name, src := range dqScripts {
		files[name] = src
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	killRunWhen(t, arbiter, dir, killed, mark, func() bool { return lines(results) >= 1 })
	if n := lines(results); n >= 6 {
		t.Fatalf("all %d matches finished before the kill", n)
	}
	runToEnd(t, arbiter, dir, killed, "2")
	whole := filepath.Join(dir, "whole")
	runToEnd(t, arbiter, dir, whole, "1")
	got, want := verdicts(t, killed), verdicts(t, whole)
	vandal, late := "vandal=0.5!files@r002-g01-s1", "late=2!overruns@r003-g01-s1"
	for match, wantOut := range map[string][]string{"r001-g01-s1": nil, "r002-g01-s1": {vandal},
		"r003-g01-s1": {late, vandal}, "r006-g01-s1": {late, vandal}} {
		var out []string
		for _, s := range strings.Fields(want[match]) {
			if strings.Contains(s, "!") {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		if !slices.Equal(out, wantOut) {
			t.Errorf("the uninterrupted run's %s: %q, want the verdicts %q", match, want[match], wantOut)
		}
	}
	if lines(results) != 6 {
		t.Errorf("the resumed run holds %d lines, want 6", lines(results))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the resumed -j 2 run's verdicts differ from an uninterrupted -j 1 run's (-want +got):\n%s\nthe uninterrupted run's answers:\n%s\nthe resumed run's:\n%s",
			diff, answers(t, whole), answers(t, killed))
	}
}

// answers says, for a failure's message, how each seat of each match
// answered: its time, overruns, answers replaced by a default (a late
// bid beyond the overrun, a failed start) and fault.
func answers(t *testing.T, dir string) string {
	_, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "  %s:", r.Match)
		for _, s := range r.Seats {
			fmt.Fprintf(&b, " %s %dms overruns=%d defaults=%d %q fault=%q %q;", s.Bot, s.TimeMS, s.Overruns, s.Defaults, s.DefaultDetail, s.Fault, s.Detail)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// verdicts maps each match to its seats' bots, scores and verdicts.
func verdicts(t *testing.T, dir string) map[string]string {
	_, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range results {
		var b strings.Builder
		for _, s := range r.Seats {
			fmt.Fprintf(&b, "%s=%v", s.Bot, s.Score)
			if d := s.Disqualified; d != nil {
				fmt.Fprintf(&b, "!%s@%s", d.Reason, d.Match)
			}
			b.WriteString(" ")
		}
		m[r.Match] = b.String()
	}
	return m
}
