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
// build, saying for whom, and both builds succeed. Before, the first to
// end gave the folder back under the other's build, which then could not
// write its program ("Permission denied"), a build fault.
func TestTwoArbitersBuildOneFolder(t *testing.T) {
	t.Parallel()
	arbiter, base, dir := lendSetup(t)
	mustRemove(t, filepath.Join(dir, "slow"))
	mustWrite(t, filepath.Join(dir, "t.hcl"), strings.Replace(lendConfig, "if [ -e slow ]; then : >building; sleep 60; fi;", "sleep 2;", 1))
	first := exec.Command(arbiter, "run", dir, "-out", filepath.Join(base, "o1"), "-j", "1")
	var firstOut strings.Builder
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	lent := func() bool { return owners(t, dir, ".")["."] == fmt.Sprintf("%d:%d", proc.SandboxUID, proc.SandboxUID) }
	for end := time.Now().Add(30 * time.Second); !lent() && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	second, err := exec.Command(arbiter, "run", dir, "-out", filepath.Join(base, "o2"), "-j", "1").CombinedOutput()
	if err := first.Wait(); err != nil {
		t.Fatalf("the first run: %v\n%s", err, firstOut.String())
	}
	if err != nil {
		t.Fatalf("the second run: %v\n%s", err, second)
	}
	if !strings.Contains(string(second), "waiting for another arbiter's build in the bot's folder") ||
		!strings.Contains(string(second), fmt.Sprintf("pid=%d", first.Process.Pid)) {
		t.Errorf("the second run does not say it waits for the first (pid %d):\n%s", first.Process.Pid, second)
	}
	for _, o := range []string{"o1", "o2"} {
		data, err := os.ReadFile(filepath.Join(base, o, "builds", "built.json"))
		if err != nil || !strings.Contains(string(data), `"ok": true`) {
			t.Errorf("%s: the build failed (%v):\n%s\nfirst run:\n%s\nsecond run:\n%s", o, err, data, firstOut.String(), second)
		}
	}
	noLocksLeft(t, arbiter)
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
// inner folder, records the inner build's marker if it sees it), and
// both succeed. Before, each held the lock of its own folder only, and
// the builds ran at once: the outer build's give-back took the inner
// folder from under the inner build.
func TestTwoArbitersBuildNestedFolders(t *testing.T) {
	t.Parallel()
	arbiter, base, dir := lendSetup(t)
	mustRemove(t, filepath.Join(dir, "slow"))
	inner := filepath.Join(dir, "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	watch := "i=0; while [ $i -lt 30 ]; do [ -e inner/building ] && echo overlap >>overlap.txt; [ $i = 0 ] && : >building; sleep 0.1; i=$((i+1)); done; rm building;"
	mustWrite(t, filepath.Join(dir, "t.hcl"), strings.Replace(lendConfig, "if [ -e slow ]; then : >building; sleep 60; fi;", watch, 1))
	mustWrite(t, filepath.Join(inner, "t.hcl"), strings.Replace(lendConfig, "if [ -e slow ]; then : >building; sleep 60; fi;", ": >building; sleep 3; rm building;", 1))
	src, err := os.ReadFile(filepath.Join(dir, "src.py"))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(inner, "src.py"), string(src))
	for i, order := range [][2]string{{dir, inner}, {inner, dir}} {
		os.Remove(filepath.Join(dir, "overlap.txt"))
		outs := [2]string{filepath.Join(base, fmt.Sprintf("o%d-first", i)), filepath.Join(base, fmt.Sprintf("o%d-second", i))}
		first := exec.Command(arbiter, "run", order[0], "-out", outs[0], "-j", "1")
		var firstOut strings.Builder
		first.Stdout, first.Stderr = &firstOut, &firstOut
		if err := first.Start(); err != nil {
			t.Fatal(err)
		}
		building := func() bool { _, err := os.Lstat(filepath.Join(order[0], "building")); return err == nil }
		for end := time.Now().Add(30 * time.Second); !building() && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		second, err := exec.Command(arbiter, "run", order[1], "-out", outs[1], "-j", "1").CombinedOutput()
		if err := first.Wait(); err != nil {
			t.Fatalf("the run of %s: %v\n%s", order[0], err, firstOut.String())
		}
		if err != nil {
			t.Fatalf("the run of %s: %v\n%s", order[1], err, second)
		}
		if !strings.Contains(string(second), "waiting for another arbiter's build in the bot's folder") ||
			!strings.Contains(string(second), fmt.Sprintf("pid=%d", first.Process.Pid)) {
			t.Errorf("the run of %s does not say it waits for the run of %s (pid %d):\n%s", order[1], order[0], first.Process.Pid, second)
		}
		if data, err := os.ReadFile(filepath.Join(dir, "overlap.txt")); err == nil {
			t.Errorf("the builds of %s and %s ran at once (the outer build saw the inner's marker %d times)", order[0], order[1], strings.Count(string(data), "overlap"))
		}
		for _, o := range outs {
			data, err := os.ReadFile(filepath.Join(o, "builds", "built.json"))
			if err != nil || !strings.Contains(string(data), `"ok": true`) {
				t.Errorf("%s: the build failed (%v):\n%s\nfirst run:\n%s\nsecond run:\n%s", o, err, data, firstOut.String(), second)
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
