package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// checkLockConfig is a bot whose build and program wait for the test:
// the build (noting each in builds.log, and in overlap.log a build while
// the bot runs) until marks/go is there, the bot (noting it runs in
// marks/running) until marks/stop is. A build writes only in the bot's
// folder; marks is outside it, so the bot's fingerprint does not see
// what the bot notes.
const checkLockConfig = `
bot "keeper" { house = "bricks/keeper" }
bot "b" {
  dir     = "b"
  build   = ["sh", "build.sh"]
  command = ["sh", "bot.sh"]
  limits { sandbox = false }
}
game "bricks" "g" {
  board { size = 5 }
}
tournament "t" {
  game    = game.bricks.g
  bots    = [bot.keeper, bot.b]
  players = 2
}
`

const checkLockBuild = `echo build >>builds.log
[ -e ../marks/running ] && echo overlap >>overlap.log
: >building
i=0; while [ ! -e ../marks/go ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
rm -f building
cp bot.in bot.sh
`

const checkLockBot = `: >../marks/running
i=0; while [ ! -e ../marks/stop ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
rm -f ../marks/running
read board
echo OK
read stop
`

// startedCheck is an arbiter check started in the background, its
// stderr read as it comes.
type startedCheck struct {
	cmd            *exec.Cmd
	stderr, stdout proctest.Buffer
}

// waitSays waits up to a minute until the check's stderr says what.
func (c *startedCheck) waitSays(what string) bool {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(c.stderr.String(), what) {
			return true
		}
	}
	return false
}

// checkLockFolder is the arbiter to test and a folder holding
// checkLockConfig, its bot b (with checkLockBuild and checkLockBot) and
// its marks, removed at the test's end.
func checkLockFolder(t *testing.T) (arbiter, base string) {
	t.Helper()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	base, err = os.MkdirTemp("", "arbiter-checklock-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	marks := filepath.Join(base, "marks")
	for _, d := range []string{base, filepath.Join(base, "b"), marks} {
		// Reached and written by the sandbox's uid, whom root lends the
		// bot's folder for its build.
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(marks, 0o777); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(base, "t.hcl"), checkLockConfig)
	mustWrite(t, filepath.Join(base, "b", "build.sh"), checkLockBuild)
	mustWrite(t, filepath.Join(base, "b", "bot.in"), checkLockBot)
	return arbiter, base
}

// startCheckOf starts arbiter check of bot b of base's configuration
// (checkLockFolder), its case ok, in env, with args.
func startCheckOf(t *testing.T, arbiter, base string, env []string, args ...string) *startedCheck {
	t.Helper()
	c := &startedCheck{cmd: exec.Command(arbiter, append([]string{"check", "-bot", "b", "-move", "60s", "-case", "ok"}, append(args, base)...)...)}
	c.cmd.Env, c.cmd.Stderr, c.cmd.Stdout = env, &c.stderr, &c.stdout
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitThere waits up to a minute for path to be made.
func waitThere(t *testing.T, path string) {
	t.Helper()
	there := func() bool { _, err := os.Stat(path); return err == nil }
	for end := time.Now().Add(time.Minute); !there() && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if !there() {
		t.Fatalf("%s not made within a minute", path)
	}
}

// TestTwoChecksOfOneBot runs two checks of one bot at once. While the
// first builds it, the second says it waits, naming the first's pid,
// then takes its verdict: the bot is built once. While the first's case
// runs the bot, a second with -rebuild says it waits for it, and builds
// only once the bot has ended. Before, the second waited without a word,
// compared the fingerprint it took before waiting (of the bot during the
// first's build) and built again, and a -rebuild rewrote the bot's files
// while the first's case ran them.
func TestTwoChecksOfOneBot(t *testing.T) {
	t.Parallel()
	arbiter, base := checkLockFolder(t)
	marks := filepath.Join(base, "marks")
	env := append(os.Environ(), engine.StateDirEnv+"="+filepath.Join(base, "state"), lentDirEnv+"="+filepath.Join(base, "lent"))
	start := func(args ...string) *startedCheck {
		t.Helper()
		return startCheckOf(t, arbiter, base, env, args...)
	}
	mark := func(name string) string { return filepath.Join(marks, name) }
	waitFor := func(name string) {
		t.Helper()
		waitThere(t, filepath.Join(base, name))
	}
	builds := func() int {
		data, _ := os.ReadFile(filepath.Join(base, "b", "builds.log"))
		return strings.Count(string(data), "build\n")
	}
	passed := func(c *startedCheck, which string) {
		t.Helper()
		if err := c.cmd.Wait(); err != nil || !strings.Contains(c.stdout.String(), "1 of 1 cases passed") {
			t.Fatalf("the %s check: %v\n%s%s", which, err, c.stderr.String(), c.stdout.String())
		}
	}

	// The second check while the first builds.
	mustWrite(t, mark("stop"), "")
	first := start()
	waitFor("b/building")
	second := start()
	const waitsBuild = "waiting for another arbiter check or console of the bot, which builds it or looks whether it must be built"
	said := second.waitSays(waitsBuild)
	mustWrite(t, mark("go"), "")
	passed(first, "first")
	passed(second, "second")
	if !said || !strings.Contains(second.stderr.String(), fmt.Sprintf("pid=%d", first.cmd.Process.Pid)) || strings.Count(second.stderr.String(), "waiting for") != 1 {
		t.Errorf("the second check does not say once that it waits for the first's build (pid %d):\n%s", first.cmd.Process.Pid, second.stderr.String())
	}
	if n := builds(); n != 1 || !strings.Contains(second.stderr.String(), "not building b: unchanged since its last build") {
		t.Errorf("the bot was built %d times, want once: the second check did not take the first's verdict:\n%s", n, second.stderr.String())
	}

	// A -rebuild while the first check's case runs the bot.
	mustRemove(t, mark("stop"))
	before := builds()
	first = start()
	waitFor("marks/running")
	second = start("-rebuild")
	const waitsRun = "waiting for the other arbiter checks and consoles that run the bot's files to end before building it again"
	said = second.waitSays(waitsRun)
	during := builds() - before
	mustWrite(t, mark("stop"), "")
	passed(first, "first")
	passed(second, "second, with -rebuild,")
	if !said || !strings.Contains(second.stderr.String(), fmt.Sprintf("pid=%d", first.cmd.Process.Pid)) {
		t.Errorf("the check with -rebuild does not say it waits for the first, which runs the bot (pid %d):\n%s", first.cmd.Process.Pid, second.stderr.String())
	}
	if data, err := os.ReadFile(filepath.Join(base, "b", "overlap.log")); err == nil || during != 0 || builds()-before != 1 {
		t.Errorf("the -rebuild built while the first check's case ran the bot (%d builds during it, %d in all, want 0 and 1; overlaps: %q)", during, builds()-before, data)
	}
}

// A check built in a temporary folder (no folder of arbiter's state can
// be made) has removed it before its cases run: nothing holds the bot's
// files there, and a check or console ended by a signal meanwhile would
// leave it behind. Before, it stayed until the cases had run.
func TestCheckTemporaryBuildGone(t *testing.T) {
	t.Parallel()
	arbiter, base := checkLockFolder(t)
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(base, "marks", "go"), "")
	// A state root under a file: none can be made.
	env := append(os.Environ(), "TMPDIR="+tmp, engine.StateDirEnv+"="+filepath.Join(base, "t.hcl", "state"),
		lentDirEnv+"="+filepath.Join(base, "lent"))
	c := startCheckOf(t, arbiter, base, env)
	waitThere(t, filepath.Join(base, "marks", "running"))
	left, _ := filepath.Glob(filepath.Join(tmp, "arbiter-build-*"))
	mustWrite(t, filepath.Join(base, "marks", "stop"), "")
	if err := c.cmd.Wait(); err != nil || !strings.Contains(c.stderr.String(), "built in a temporary folder") {
		t.Fatalf("the check: %v\n%s%s", err, c.stderr.String(), c.stdout.String())
	}
	if len(left) > 0 {
		t.Errorf("the temporary folder of the bot's build stays while its case runs: %q", left)
	}
}
