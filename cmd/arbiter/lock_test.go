package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// Bot h says so on its stderr and then holds its match without
// answering, so the run that plays it is alive and writes nothing.
const lockConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 2, leader = 0 }]
  clock { total = "10m" }
}
bot "a" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "b" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
bot "h" {
  command = ["sh", "-c", "echo holding >&2; exec sleep 600"]
  env     = { RUN_MARK = %[1]q }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.h]
  format  = "round-robin"
  players = 2
  rounds  = 1
  seed    = 3
}
`

// TestSecondRunIntoADirectoryIsRefused runs two arbiter processes into
// one results directory, whose name has a space and quotes: the second,
// which spells it another way, says which process holds it, with the
// holder's command line quoted for the shell and the directory's path
// cleaned, and exits 1 having touched nothing. Once the first is killed (SIGKILL, so
// its lock file stays behind with its details), a third run uses the
// directory.
func TestSecondRunIntoADirectoryIsRefused(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("lock-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(lockConfig, mark)), 0o644); err != nil {
		t.Fatal(err)
	}
	hold, free := matchesWithAndWithout(t, arbiter, dir, "h")
	out := filepath.Join(dir, `-two "ü"`)

	first := exec.Command(arbiter, "run", dir, "-out", out, "-j", "1", "-match", hold)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	defer func() {
		first.Process.Kill()
		waitBotsGone(t, mark)
	}()
	// Wait until bot h holds the match: from then on the first run waits.
	stderrs := filepath.Join(out, engine.MatchesDir, hold, "seat*-h.stderr")
	for deadline := time.Now().Add(30 * time.Second); ; {
		files, _ := filepath.Glob(stderrs)
		if len(files) == 1 {
			if b, _ := os.ReadFile(files[0]); strings.Contains(string(b), "holding") {
				break
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("the first run ended (%v) before bot h held its match", err)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("bot h did not start within 30s")
		}
	}

	before := dirListing(t, out)
	second := exec.Command(arbiter, "run", dir, "-out", dir+`/./-two "ü"/`, "-match", free)
	msg, err := second.CombinedOutput()
	if code := second.ProcessState.ExitCode(); code != 1 {
		t.Errorf("second run exited with %d (%v), want 1; it said:\n%s", code, err, msg)
	}
	t.Logf("second run: %s", msg)
	// The directory quoted as the command line is (a space, a quote).
	want := fmt.Sprintf("arbiter run: %s is in use by process %d on ", shell.Word(out), first.Process.Pid)
	// The holder's own first word is as it was started (here "arbiter").
	line := " " + shell.Line(first.Args[1:]...) + ");"
	if !strings.Contains(string(msg), want) || !strings.Contains(string(msg), line) {
		t.Errorf("second run said:\n%s\nwant the directory cleaned and the holder's pid (%q), and its command line quoted: %s", msg, want, line)
	}
	// Refused, it says nothing else first: not how the limits it would
	// have used are enforced (docs/results.md shows the refusal alone).
	if strings.Contains(string(msg), "arbiter.limits") {
		t.Errorf("the refused run logged its limits first:\n%s", msg)
	}
	// The first run goes on writing its match's transcript (a busy host
	// may hold its lines back past bot h's stderr line): that folder is
	// the first run's, and left out.
	own := filepath.Join(out, engine.MatchesDir, hold)
	mine := func(m map[string]string) map[string]string {
		maps.DeleteFunc(m, func(p, _ string) bool { return p != own && strings.HasPrefix(p, own+"/") })
		return m
	}
	if after := dirListing(t, out); !maps.Equal(mine(before), mine(after)) {
		t.Errorf("the second run changed the directory:\nbefore %v\nafter  %v", before, after)
	}

	// Killed, the first run leaves its lock file with its details.
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	waitBotsGone(t, mark)
	if b, _ := os.ReadFile(filepath.Join(out, engine.LockFile)); !strings.Contains(string(b), `"pid":`+strconv.Itoa(first.Process.Pid)) {
		t.Errorf("the killed run's lock file holds %q, want its pid", b)
	}
	third := exec.Command(arbiter, "run", dir, "-out", out, "-match", free)
	if msg, err := third.CombinedOutput(); err != nil || !strings.Contains(string(msg), "1 match(es) played") {
		t.Fatalf("run after the killed one: %v\n%s", err, msg)
	}
	_, results, err := engine.ReadDir(out)
	if err != nil || len(results) != 1 || results[0].Match != free {
		t.Errorf("results after the third run: %v, %+v; want the one match %s", err, results, free)
	}
}

// waitBotsGone waits for the bots of a killed arbiter to die with it (the
// kernel signals them when their parent dies).
func waitBotsGone(t *testing.T, mark string) {
	t.Helper()
	var pause proctest.Backoff
	for deadline := time.Now().Add(goneWithin); time.Now().Before(deadline); pause.Sleep() {
		if len(proctest.WithEnv("RUN_MARK="+mark)) == 0 {
			return
		}
	}
	proctest.AssertGone(t, "RUN_MARK="+mark)
}

// matchesWithAndWithout returns a match of the plan in dir that bot
// plays, and one it does not.
func matchesWithAndWithout(t *testing.T, arbiter, dir, bot string) (with, without string) {
	t.Helper()
	b, err := exec.Command(arbiter, "plan", "-json", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	var p plan.Plan
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	for _, m := range p.Matches {
		if slices.Contains(m.Seats, bot) {
			with = cmp.Or(with, m.ID)
		} else {
			without = cmp.Or(without, m.ID)
		}
	}
	if with == "" || without == "" {
		t.Fatalf("plan has no match with and one without %s", bot)
	}
	return with, without
}

// dirListing maps every file under dir to its size and modification time.
func dirListing(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		m[path] = fmt.Sprintf("%d %s %v", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
