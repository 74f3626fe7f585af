package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// lendConfig is the organiser's report: a bot whose build (while the
// file slow is in its folder: making the file building, then sleeping)
// makes its program, against a house bot.
const lendConfig = `
bot "built" {
  command = ["/usr/bin/python3", "gen.py"]
  dir     = "."
  build   = ["/bin/sh", "-c", "if [ -e slow ]; then : >building; sleep 60; fi; cp src.py gen.py"]
}
bot "keeper" { house = "bricks/keeper" }
game "bricks" "contest" {
  board {
    size = 5
  }
}
tournament "contest" {
  game    = game.bricks.contest
  bots    = [bot.built, bot.keeper]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  rating  = "wins"
}
`

// TestKilledBuildFolderGivenBack kills a run with SIGKILL while its bot's
// build sleeps, its folder lent to the sandbox's uid, and checks that the
// next command that builds, a run with another results directory and a
// check, gives the folder back: every file to the owner it had (one file
// of another user's to that user), what the build made to the folder's
// owner, and the record of the lending removed.
func TestKilledBuildFolderGivenBack(t *testing.T) {
	t.Parallel()
	arbiter, base, dir := lendSetup(t)
	want := owners(t, dir, ".", "t.hcl", "src.py", "sub", "sub/notes.txt", "other.txt")

	killDuringBuild(t, arbiter, dir, filepath.Join(base, "o1"))
	mustRemove(t, filepath.Join(dir, "slow"))
	out, err := exec.Command(arbiter, "run", dir, "-out", filepath.Join(base, "o2"), "-j", "1").CombinedOutput()
	if err != nil {
		t.Fatalf("the run after the kill: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "gave back a bot folder lent for a build by an arbiter that ended during it") {
		t.Errorf("the run after the kill does not say it gave the folder back:\n%s", out)
	}
	checkOwners(t, dir, want, "after the run that followed the kill")

	mustWrite(t, filepath.Join(dir, "slow"), "")
	killDuringBuild(t, arbiter, dir, filepath.Join(base, "o3"))
	mustRemove(t, filepath.Join(dir, "slow"))
	out, _ = exec.Command(arbiter, "check", "-bot", "built", dir).CombinedOutput()
	if !strings.Contains(string(out), "gave back a bot folder") {
		t.Errorf("the check after the kill does not say it gave the folder back:\n%s", out)
	}
	checkOwners(t, dir, want, "after the check that followed the kill")
}

// requireLending skips the test where arbiter lends no folder for a
// build (not root, or no sandbox); CI must run it.
func requireLending(t *testing.T) {
	t.Helper()
	why := ""
	switch {
	case os.Geteuid() != 0:
		why = "not root: a build's folder is lent to the sandbox's uid only by root"
	case !proc.Machine().Enforcement("sandbox").Enforced:
		why = "no sandbox here: a build's folder is lent only to a build in the sandbox"
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(why + " — CI must run this test, so it fails instead of skipping")
	}
	t.Skip(why)
}

// writeLendFolder writes the bot's folder, readable by the sandbox's uid,
// with a file of another user's and the file slow.
func writeLendFolder(t *testing.T, dir string) {
	t.Helper()
	src, err := os.ReadFile("../../examples/bricks/players/simple/bot.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "t.hcl"), lendConfig)
	mustWrite(t, filepath.Join(dir, "src.py"), string(src))
	mustWrite(t, filepath.Join(dir, "sub", "notes.txt"), "secret\n")
	mustWrite(t, filepath.Join(dir, "other.txt"), "another user's\n")
	mustWrite(t, filepath.Join(dir, "slow"), "")
	if err := os.Lchown(filepath.Join(dir, "other.txt"), 1234, 1235); err != nil {
		t.Fatal(err)
	}
}

// killDuringBuild starts a run of dir into out, waits until its build,
// lent the folder, has made the file building (so sleeps), kills the run
// with SIGKILL, and checks that the folder stays lent, with its record in
// the test's folder of records (lendSetup).
func killDuringBuild(t *testing.T, arbiter, dir, out string) {
	t.Helper()
	building := filepath.Join(dir, "building")
	if err := os.Remove(building); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	cmd := exec.Command(arbiter, "run", dir, "-out", out, "-j", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lent := func() bool { return owners(t, dir, ".")["."] == fmt.Sprintf("%d:%d", proc.SandboxUID, proc.SandboxUID) }
	sleeps := func() bool { _, err := os.Lstat(building); return err == nil }
	for end := time.Now().Add(60 * time.Second); !sleeps() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if !sleeps() || !lent() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the run's build in %s did not make the file building within 60s (the folder lent: %v)", dir, lent())
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if !lent() {
		t.Fatalf("%s is no longer lent after the run was killed: the test kills too late", dir)
	}
	records, _ := filepath.Glob(filepath.Join(lentRecords(arbiter), fmt.Sprintf("%d-*.json", cmd.Process.Pid)))
	if len(records) != 1 {
		t.Fatalf("the killed run left %d records of its lending in %s, want 1", len(records), lentRecords(arbiter))
	}
	t.Cleanup(func() {
		if _, err := os.Stat(records[0]); err == nil {
			t.Errorf("the record %s was not removed", records[0])
		}
	})
}

// checkOwners checks that the entries of want have their owners, and
// that what the build made (gen.py) is the folder's owner's.
func checkOwners(t *testing.T, dir string, want map[string]string, when string) {
	t.Helper()
	for name, w := range want {
		if got := owners(t, dir, name)[name]; got != w {
			t.Errorf("%s: %s is owned by %s, want %s", when, name, got, w)
		}
	}
	if got := owners(t, dir, "gen.py")["gen.py"]; got != want["."] {
		t.Errorf("%s: gen.py, which the build made, is owned by %s, want the folder's owner %s", when, got, want["."])
	}
}

// owners are the uid:gid of the names, relative to dir.
func owners(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, name := range names {
		st, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		m[name] = fmt.Sprintf("%d:%d", sys.Uid, sys.Gid)
	}
	return m
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRemove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// TestTwoArbitersBuildOneFolder runs two arbiters (two results
// directories, as two shards of a plan or two tournaments sharing a bot)
// whose bot's build is in one folder: the second waits for the first's
// build, saying for whom, the builds do not overlap (a build that starts
// while the file building of another is there records it), and both
// succeed. Before, the first to end gave the folder back under the
// other's build, which then could not write its program ("Permission
// denied"), a build fault.
func TestTwoArbitersBuildOneFolder(t *testing.T) {
	t.Parallel()
	arbiter, base, dir := lendSetup(t)
	mustRemove(t, filepath.Join(dir, "slow"))
	build := "[ -e building ] && echo overlap >>overlap.txt; : >building; while [ -e hold ]; do sleep 0.05; done; rm building;"
	mustWrite(t, filepath.Join(dir, "t.hcl"), strings.Replace(lendConfig, lendSlowStep, build, 1))
	outs := [2]string{filepath.Join(base, "o1"), filepath.Join(base, "o2")}
	firstOut, second := runWhileHeld(t, arbiter, [2]string{dir, outs[0]}, [2]string{dir, outs[1]}, []string{filepath.Join(dir, "hold")}, filepath.Join(dir, "overlap.txt"))
	if data, err := os.ReadFile(filepath.Join(dir, "overlap.txt")); err == nil {
		t.Errorf("the two builds of %s ran at once (a build started beside the other %d times)", dir, strings.Count(string(data), "overlap"))
	}
	for _, o := range outs {
		data, err := os.ReadFile(filepath.Join(o, "builds", "built.json"))
		if err != nil || !strings.Contains(string(data), `"ok": true`) {
			t.Errorf("%s: the build failed (%v):\n%s\nfirst run:\n%s\nsecond run:\n%s", o, err, data, firstOut, second)
		}
	}
	noLocksLeft(t, arbiter)
}

// lendSlowStep is the step of lendConfig's build that the tests of two
// arbiters replace with their own.
const lendSlowStep = "if [ -e slow ]; then : >building; sleep 60; fi;"

// heldWithin is how long runWhileHeld waits for each arbiter to get to
// its build (a start that loaded machines were seen to take seconds
// over) before it fails the test.
const heldWithin = 2 * time.Minute

// runWhileHeld runs arbiter on first (its bot's folder and its results
// directory), whose build waits while the files holds are there, and,
// once that build has made the file building in its folder, arbiter on
// second; it removes holds, letting the builds end, only when the second
// says it waits for another arbiter's build, or its build has run beside
// the first's (the file overlap is there), or it has ended, or after
// heldWithin. So the second finds the first's build running however long
// it takes to start: a sleep in the first build, which the second must
// outlast, was outlasted on a loaded machine. It fails the test unless
// both runs succeed and the second says it waits for the first, naming
// its pid; it returns both runs' output.
func runWhileHeld(t *testing.T, arbiter string, first, second [2]string, holds []string, overlap string) (firstOut, secondOut string) {
	t.Helper()
	for _, h := range holds {
		mustWrite(t, h, "")
	}
	var outs [2]proctest.Buffer
	var errs [2]error
	var runs [2]*exec.Cmd
	var ended [2]chan struct{}
	defer func() {
		for _, h := range holds {
			os.Remove(h)
		}
		for _, e := range ended {
			if e != nil {
				<-e
			}
		}
	}()
	for i, a := range [2][2]string{first, second} {
		runs[i] = exec.Command(arbiter, "run", a[0], "-out", a[1], "-j", "1")
		runs[i].Stdout, runs[i].Stderr = &outs[i], &outs[i]
		if err := runs[i].Start(); err != nil {
			t.Fatal(err)
		}
		ended[i] = make(chan struct{})
		go func() { errs[i] = runs[i].Wait(); close(ended[i]) }()
		if i == 1 {
			break
		}
		if !waitHeld(ended[0], func() bool { return exists(filepath.Join(first[0], "building")) }) {
			t.Fatalf("the run of %s did not start its build within %v:\n%s", first[0], heldWithin, outs[0].String())
		}
	}
	waitHeld(ended[1], func() bool {
		return strings.Contains(outs[1].String(), "waiting for another arbiter's build in the bot's folder") || exists(overlap)
	})
	for _, h := range holds {
		os.Remove(h)
	}
	<-ended[0]
	<-ended[1]
	firstOut, secondOut = outs[0].String(), outs[1].String()
	if errs[0] != nil {
		t.Fatalf("the run of %s: %v\n%s", first[0], errs[0], firstOut)
	}
	if errs[1] != nil {
		t.Fatalf("the run of %s: %v\n%s", second[0], errs[1], secondOut)
	}
	if !strings.Contains(secondOut, "waiting for another arbiter's build in the bot's folder") ||
		!strings.Contains(secondOut, fmt.Sprintf("pid=%d", runs[0].Process.Pid)) {
		t.Errorf("the run of %s does not say it waits for the run of %s (pid %d):\n%s", second[0], first[0], runs[0].Process.Pid, secondOut)
	}
	return firstOut, secondOut
}

// waitHeld waits, at the pauses of a proctest.Backoff, until done is
// true, or ended is closed, or heldWithin has passed; it says whether
// done became true.
func waitHeld(ended <-chan struct{}, done func() bool) bool {
	var pause proctest.Backoff
	for deadline := time.After(heldWithin); !done(); {
		select {
		case <-ended:
			return done()
		case <-deadline:
			return false
		case <-pause.After():
		}
	}
	return true
}

// noLocksLeft fails the test when the arbiters of lendSetup, all ended,
// left a lock file of their builds in their folder of records.
func noLocksLeft(t *testing.T, arbiter string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(lentRecords(arbiter), "[0-9]*.lock")); len(left) > 0 {
		t.Errorf("the arbiters, all ended, left the lock files %v", left)
	}
}

// TestTwoArbitersBuildNestedFolders runs two arbiters at once whose bots'
// builds are in a folder and in a folder inside it (dotb and dotb/inner),
// started in either order: the second waits for the first's build, naming
// it, and the builds do not overlap (the outer build, which sees the
// inner folder, records the inner build's marker whenever it sees it),
// and both succeed. Before, each held the lock of its own folder only,
// and the builds ran at once: the outer build's give-back took the inner
// folder from under the inner build.
func TestTwoArbitersBuildNestedFolders(t *testing.T) {
	t.Parallel()
	arbiter, base, dir := lendSetup(t)
	mustRemove(t, filepath.Join(dir, "slow"))
	inner := filepath.Join(dir, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	seen := "[ -e inner/building ] && echo overlap >>overlap.txt;"
	outer := ": >building; while [ -e hold ]; do " + seen + " sleep 0.05; done; " + seen + " rm building;"
	mustWrite(t, filepath.Join(dir, "t.hcl"), strings.Replace(lendConfig, lendSlowStep, outer, 1))
	mustWrite(t, filepath.Join(inner, "t.hcl"), strings.Replace(lendConfig, lendSlowStep, ": >building; while [ -e hold ]; do sleep 0.05; done; rm building;", 1))
	src, err := os.ReadFile(filepath.Join(dir, "src.py"))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(inner, "src.py"), string(src))
	holds := []string{filepath.Join(dir, "hold"), filepath.Join(inner, "hold")}
	for i, order := range [][2]string{{dir, inner}, {inner, dir}} {
		os.Remove(filepath.Join(dir, "overlap.txt"))
		outs := [2]string{filepath.Join(base, fmt.Sprintf("o%d-first", i)), filepath.Join(base, fmt.Sprintf("o%d-second", i))}
		firstOut, second := runWhileHeld(t, arbiter, [2]string{order[0], outs[0]}, [2]string{order[1], outs[1]}, holds, filepath.Join(dir, "overlap.txt"))
		if data, err := os.ReadFile(filepath.Join(dir, "overlap.txt")); err == nil {
			t.Errorf("the builds of %s and %s ran at once (the outer build saw the inner's marker %d times)", order[0], order[1], strings.Count(string(data), "overlap"))
		}
		for _, o := range outs {
			data, err := os.ReadFile(filepath.Join(o, "builds", "built.json"))
			if err != nil || !strings.Contains(string(data), `"ok": true`) {
				t.Errorf("%s: the build failed (%v):\n%s\nfirst run:\n%s\nsecond run:\n%s", o, err, data, firstOut, second)
			}
		}
	}
	noLocksLeft(t, arbiter)
}

// lendSetup skips where a folder cannot be lent (requireLending), and is
// the arbiter on PATH, a fresh folder outside the test's own temporary
// folder (removed at the end) and in it the bot's folder, dotb, written
// by writeLendFolder. The arbiters the test runs record their lendings
// in base/lent (lentDirEnv), not in the machine's proc.LentDir: there
// any other arbiter running meanwhile (a loaded machine's tests of other
// packages, or other users') could give back a folder the test's killed
// run left before the test's next arbiter does. The arbiter it returns
// is base/arbiter, which sets lentDirEnv and execs the test's arbiter
// (the same process, so its pid is the arbiter's): the setting is the
// test's own, not its process's, so the lending tests run in parallel.
func lendSetup(t *testing.T) (arbiter, base, dir string) {
	t.Helper()
	requireLending(t)
	self, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	base, err = os.MkdirTemp("", "arbiter-lend-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	arbiter = filepath.Join(base, "arbiter")
	wrapper := fmt.Sprintf("#!/bin/sh\nexport %s=%s\nexec %s \"$@\"\n", lentDirEnv, shell.Word(lentRecords(arbiter)), shell.Word(self))
	if err := os.WriteFile(arbiter, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(base, "dotb")
	writeLendFolder(t, dir)
	return arbiter, base, dir
}

// lentRecords is where the arbiter of lendSetup records its lendings.
func lentRecords(arbiter string) string { return filepath.Join(filepath.Dir(arbiter), "lent") }
