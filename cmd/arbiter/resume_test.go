package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

const resumeConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) %% 4 }]
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
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  players = 4
  rounds  = 8
  deal    = "per-round"
  seed    = 77
}
`

// TestKilledRunResumes kills the arbiter with SIGKILL in the middle of a
// tournament, checks that no bot outlives it, re-runs it, and compares the
// results with those of an uninterrupted run: no match lost or counted
// twice, and every match with the same outcome.
func TestKilledRunResumes(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("resume-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(resumeConfig, mark)), 0o644); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	killRunWhen(t, arbiter, dir, killed, mark, func() bool { return lines(results) >= 3 })
	before := lines(results)
	if before >= 32 {
		t.Fatalf("all %d matches finished before the kill", before)
	}

	// The bots die with the arbiter (the kernel signals them when their
	// parent dies); give it a moment to deliver.

	out, err := exec.Command(arbiter, "run", dir, "-out", killed, "-j", "2").Output()
	if err != nil {
		t.Fatalf("re-run: %v", err)
	}
	if want := fmt.Sprintf("%d match(es) played, %d already finished", 32-before, before); !strings.Contains(string(out), want) {
		t.Errorf("re-run says:\n%s\nwant %q", out, want)
	}

	whole := filepath.Join(dir, "whole")
	if out, err := exec.Command(arbiter, "run", dir, "-out", whole, "-j", "2").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	got, want := outcomes(t, killed), outcomes(t, whole)
	if len(got) != 32 || lines(results) != 32 {
		t.Errorf("resumed run holds %d distinct matches in %d lines, want 32 and 32", len(got), lines(results))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
}

func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// outcomes maps each match to its seats' bots, scores and faults.
func outcomes(t *testing.T, dir string) map[string]string {
	_, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, r := range results {
		var b strings.Builder
		for _, s := range r.Seats {
			fmt.Fprintf(&b, "%s=%v%s ", s.Bot, s.Score, s.Fault)
		}
		m[r.Match] = b.String()
	}
	return m
}

const adaptiveResumeConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) %% 2 }]
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
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  players = 2
  seats   = "swap"
  deal    = "per-group"
  rounds  = 6
  groups { random_rounds = 2 }
  seed    = 77
}
`

// TestKilledAdaptiveRunResumes kills a tournament whose rounds 3-6 are
// grouped by rating once its first paired round is under way, re-runs it,
// and compares the paired rounds and results with an uninterrupted run.
func TestKilledAdaptiveRunResumes(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("adaptive-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(adaptiveResumeConfig, mark)), 0o644); err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "killed")
	results := filepath.Join(killed, engine.ResultsFile)
	paired := filepath.Join(killed, engine.RoundsDir, "r003.json")
	killRunWhen(t, arbiter, dir, killed, mark, func() bool { return exists(paired) && lines(results) > 8 })
	if n := lines(results); n >= 24 {
		t.Fatalf("all %d matches finished before the kill", n)
	}
	runToEnd(t, arbiter, dir, killed, "2")
	whole := filepath.Join(dir, "whole")
	runToEnd(t, arbiter, dir, whole, "1")
	for r := 3; r <= 6; r++ {
		name := fmt.Sprintf("r%03d.json", r)
		got, err1 := os.ReadFile(filepath.Join(killed, engine.RoundsDir, name))
		want, err2 := os.ReadFile(filepath.Join(whole, engine.RoundsDir, name))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", name, err1, err2)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("round %d was paired differently after the kill (-whole +resumed):\n%s", r, diff)
		}
	}
	got, want := outcomes(t, killed), outcomes(t, whole)
	if len(got) != 24 || lines(results) != 24 {
		t.Errorf("resumed run holds %d distinct matches in %d lines, want 24 and 24", len(got), lines(results))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
}

// killRunWhen starts `arbiter run dir -out out` and kills it with SIGKILL
// as soon as when() holds, then waits for its bots (env RUN_MARK=mark) to
// be gone. when looks at files, which costs little, every 2 ms, so that
// the kill comes before the run has gone much further; the bots are
// looked for in all of /proc, at the pauses of a proctest.Backoff.
func killRunWhen(t *testing.T, arbiter, dir, out, mark string, when func() bool) {
	t.Helper()
	cmd := exec.Command(arbiter, "run", dir, "-out", out, "-j", "2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for !when() {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before it could be killed", err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	deadline := time.Now().Add(goneWithin)
	var pause proctest.Backoff
	for left := proctest.WithEnv("RUN_MARK=" + mark); len(left) > 0; left = proctest.WithEnv("RUN_MARK=" + mark) {
		if time.Now().After(deadline) {
			t.Fatalf("bot processes %v outlived the killed arbiter", left)
		}
		pause.Sleep()
	}
}

// runToEnd runs the tournament in dir into out at jobs matches at once,
// to its end (resuming what out holds).
func runToEnd(t *testing.T, arbiter, dir, out, jobs string) {
	t.Helper()
	if b, err := exec.Command(arbiter, "run", dir, "-out", out, "-j", jobs).CombinedOutput(); err != nil {
		t.Fatalf("run into %s: %v\n%s", out, err, b)
	}
}

// exists says whether path exists.
func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// TestInterruptedSaysWhatWasSelected: an interrupted shard or -match run
// counts its own matches, not the whole plan's.
func TestInterruptedSaysWhatWasSelected(t *testing.T) {
	p := &engine.Summary{Planned: 40, Skipped: 10, Finished: 8, Results: make([]engine.Result, 18)}
	p.Plan = &plan.Plan{Matches: make([]plan.Match, 80)}
	sp := &engine.ShardPlan{Shard: engine.Shard{K: 0, N: 2}}
	for _, c := range []struct {
		sp     *engine.ShardPlan
		picked bool
		want   string
	}{
		{nil, false, "Interrupted: 18 of 80 matches finished; saved in out."},
		{sp, false, "Interrupted: 18 of the 40 matches of shard 0/2 of stage 0 finished; saved in out."},
		{nil, true, "Interrupted: 18 of the 40 matches named by -match finished; saved in out."},
	} {
		var stderr bytes.Buffer
		e := &runEnd{stderr: &stderr, out: "out", sp: c.sp, picked: c.picked}
		if err := e.finish(p, engine.ErrInterrupted); err != errReported {
			t.Errorf("finish returned %v", err)
		}
		if !strings.HasPrefix(stderr.String(), c.want) {
			t.Errorf("said %q, want %q", stderr.String(), c.want)
		}
	}
	// A tournament in stages counts the stages made so far, and says
	// which are to come.
	staged := &engine.Summary{Results: make([]engine.Result, 2)}
	staged.Plan = &plan.Plan{Matches: make([]plan.Match, 4), Stages: []plan.Stage{
		{Name: "groups", Bots: []plan.Pick{{Bot: "a"}}},
		{Name: "final", Bots: []plan.Pick{{Stage: "groups", From: 1, To: 1}}},
	}}
	for i := range staged.Plan.Matches {
		staged.Plan.Matches[i].ID, staged.Plan.Matches[i].Stage = fmt.Sprintf("groups-A-r001-g0%d-s1", i+1), "groups"
		if i < 2 {
			staged.Results[i].Match = staged.Plan.Matches[i].ID
		}
	}
	var stderr bytes.Buffer
	(&runEnd{stderr: &stderr, out: "out"}).finish(staged, engine.ErrInterrupted)
	if want := "Interrupted: 2 of 4 matches finished (stage final to come); saved in out."; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("said %q, want %q", stderr.String(), want)
	}
}

// TestInterruptedSaysPlayoffToCome: a staged run interrupted while a
// stage's playoff is made and not finished says that playoff is to come,
// before the stages after it, as the standings' headline does, and counts
// the playoff matches apart from the others, as it does.
func TestInterruptedSaysPlayoffToCome(t *testing.T) {
	staged := &engine.Summary{Results: make([]engine.Result, 2)}
	staged.Plan = &plan.Plan{Stages: []plan.Stage{
		{Name: "groups", Rounds: 1, Playoffs: true, Bots: []plan.Pick{{Bot: "a"}, {Bot: "b"}, {Bot: "c"}}},
		{Name: "final", Bots: []plan.Pick{{Stage: "groups", From: 1, To: 2}}},
	}}
	for i := range 2 {
		id := fmt.Sprintf("groups-A-r001-g0%d-s1", i+1)
		staged.Plan.Matches = append(staged.Plan.Matches, plan.Match{ID: id, Stage: "groups", Round: 1, Shift: 1, Seats: []string{"a", "b", "c"}})
		staged.Results[i].Match = id
	}
	staged.Plan.Matches = append(staged.Plan.Matches, plan.Match{ID: "playoff-groups-1-A-r002-g01-s1", Stage: "groups", Round: 2, Shift: 1, Seats: []string{"b", "c"}})
	var stderr bytes.Buffer
	(&runEnd{stderr: &stderr, out: "out"}).finish(staged, engine.ErrInterrupted)
	if want := "Interrupted: 2 of 2 matches finished (playoff 1 of stage groups, stage final to come); saved in out."; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("said %q, want %q", stderr.String(), want)
	}
	// The playoff finished, the final not made: the counts are those of
	// the standings' headline ("2 of 2 matches finished, 1 playoff(s)"),
	// which once were 3 of 3 matches, the playoff counted in both.
	staged.Results = append(staged.Results, engine.Result{})
	staged.Results[2].Match = staged.Plan.Matches[2].ID
	stderr.Reset()
	(&runEnd{stderr: &stderr, out: "out"}).finish(staged, engine.ErrInterrupted)
	if want := "Interrupted: 2 of 2 matches finished, 1 playoff(s) "; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("said %q, want %q", stderr.String(), want)
	}
}

// TestSinglePlayoffToCome: a tournament without stages whose placement
// tie is to be played off, the playoff due or made and not finished, says
// so in the standings' headline (rank, the results page) and in an
// interrupted run's line, as a tournament in stages says its playoffs to
// come; both said "12 of 12 matches finished", as if it were over. The
// placement tournament of examples/formats ties greedy1 and greedy2
// through its three playoffs.
func TestSinglePlayoffToCome(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", filepath.Join("..", "..", "examples", "formats"), "-tournament", "placement", "-out", out, "-j", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr.String())
	}
	full, results, _, err := engine.ReadDirWith(out, all.Driver)
	if err != nil {
		t.Fatal(err)
	}
	// upTo is the plan with playoffs 1 to n made, and its results but
	// those of the matches left out.
	upTo := func(n int, left ...string) (*plan.Plan, []engine.Result) {
		p := *full
		p.Matches = slices.DeleteFunc(slices.Clone(full.Matches), func(m plan.Match) bool { return m.Round > full.Rounds+n })
		var rs []engine.Result
		for _, r := range results {
			if slices.ContainsFunc(p.Matches, func(m plan.Match) bool { return m.ID == r.Match }) && !slices.Contains(left, r.Match) {
				rs = append(rs, r)
			}
		}
		return &p, rs
	}
	for _, tc := range []struct {
		name string
		n    int
		left []string
		want string
	}{
		{"due", 0, nil, "12 of 12 matches finished (playoff 1 to come)"},
		{"made, half played", 1, []string{"playoff-1-g01-s1"}, "12 of 12 matches finished, 1 playoff(s) (playoff 1 to come)"},
		{"third due", 2, nil, "12 of 12 matches finished, 4 playoff(s) (playoff 3 to come)"},
		{"over", 3, nil, "12 of 12 matches finished, 6 playoff(s)"},
		{"a round match left", 0, []string{"r001-g01-s1"}, "11 of 12 matches finished"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			p, rs := upTo(tc.n, tc.left...)
			st, err := engine.Rank(p, rs, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Finished(); got != tc.want {
				t.Errorf("the standings' headline says %q, want %q", got, tc.want)
			}
			var stderr bytes.Buffer
			(&runEnd{stderr: &stderr, out: "out"}).finish(&engine.Summary{Plan: p, Results: rs}, engine.ErrInterrupted)
			if want := "Interrupted: " + tc.want + "; saved in out."; !strings.HasPrefix(stderr.String(), want) {
				t.Errorf("said %q, want %q", stderr.String(), want)
			}
		})
	}
}

// TestInterruptedSaysDueStageToCome: a staged run interrupted after the
// last match of stage a, before stage b is made, says b and c are to
// come, as rank does (it once said "2 of 2 matches are finished", as if
// the tournament were over).
func TestInterruptedSaysDueStageToCome(t *testing.T) {
	staged := &engine.Summary{Results: make([]engine.Result, 2)}
	staged.Plan = &plan.Plan{Stages: []plan.Stage{
		{Name: "a", Rounds: 1, Bots: []plan.Pick{{Bot: "x"}, {Bot: "y"}}},
		{Name: "b", Bots: []plan.Pick{{Stage: "a", From: 1, To: 2}}},
		{Name: "c", Bots: []plan.Pick{{Stage: "b", From: 1, To: 2}}},
	}}
	for i := range 2 {
		id := fmt.Sprintf("a-A-r001-g01-s%d", i+1)
		staged.Plan.Matches = append(staged.Plan.Matches, plan.Match{ID: id, Stage: "a", Round: 1, Group: 1, Shift: i + 1, Seats: []string{"x", "y"}})
		staged.Results[i].Match = id
	}
	var stderr bytes.Buffer
	(&runEnd{stderr: &stderr, out: "out"}).finish(staged, engine.ErrInterrupted)
	if want := "Interrupted: 2 of 2 matches finished (stages b, c to come); saved in out."; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("said %q, want %q", stderr.String(), want)
	}
}
