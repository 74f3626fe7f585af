package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/internal/javacmd"
	"github.com/arbiter-contests/arbiter/internal/starters"
)

// TestInitStartersPassCheck writes every game's tournament with arbiter
// init, validates it, builds each starter and runs it through arbiter
// check: all its cases must pass. A language whose compiler or runtime is
// missing here is skipped with a message (.ci/deps.sh installs them).
//
// It checks the starters' protocol and play, not this machine's speed: a
// loaded machine took 811 ms for the Java starter's Bricks move, against
// the tournament's 500 ms. So the clock cases hold each starter to its
// tournament's clock made slowClock times longer (check -bot takes the
// configuration's clock), and check waits up to -move 1m for any answer.
// That a slow bot fails the clock cases is check_clock*.txtar's to test,
// with bots that take longer than their limit whatever the load.
func TestInitStartersPassCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and checks 15 starter bots")
	}
	t.Parallel()
	for _, game := range starters.Games() {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if code, out := runArbiter(t, "init", game, dir); code != 0 {
				t.Fatalf("init: %s", out)
			}
			if code, out := runArbiter(t, "validate", dir); code != 0 {
				t.Fatalf("the tournament of init %s is not valid: %s", game, out)
			}
			widenClock(t, filepath.Join(dir, "tournament.hcl"))
			for _, lang := range starters.Languages {
				t.Run(lang.Dir, func(t *testing.T) {
					needTools(t, lang)
					// As the tournament builds and runs it: in the
					// sandbox, under the game's default limits, its
					// clock widened.
					if code, out := runArbiter(t, "check", "-move", "1m", "-bot", lang.Dir, dir); code != 0 {
						t.Fatalf("the %s starter of %s fails arbiter check -move 1m -bot %s (its clock %d times the tournament's):\n%s", lang.Dir, game, lang.Dir, slowClock, out)
					}
				})
			}
		})
	}
}

// slowClock is how many times its tournament's clock a starter has in
// TestInitStartersPassCheck.
const slowClock = 20

var (
	clockBlock     = regexp.MustCompile(`clock \{[^}]*\}`)
	quotedDuration = regexp.MustCompile(`"[0-9]+(ms|s|m|h)"`)
)

// widenClock makes every duration of the one clock block of the
// tournament file path slowClock times longer: their order, which a game
// may require (Bricks' silence at least its move and startup), stays.
func widenClock(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(clockBlock.FindAll(b, -1)); n != 1 {
		t.Fatalf("%s has %d clock blocks, want 1", path, n)
	}
	widened := 0
	wide := clockBlock.ReplaceAllFunc(b, func(block []byte) []byte {
		return quotedDuration.ReplaceAllFunc(block, func(q []byte) []byte {
			d, err := time.ParseDuration(string(q[1 : len(q)-1]))
			if err != nil {
				t.Fatalf("%s: clock duration %s: %v", path, q, err)
			}
			widened++
			return []byte(strconv.Quote((slowClock * d).String()))
		})
	})
	if widened == 0 {
		t.Fatalf("%s: no duration in its clock block:\n%s", path, clockBlock.Find(b))
	}
	if err := os.WriteFile(path, wide, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitEuchreStartersEndGames plays each Euchre starter of arbiter
// init against itself, one hand to one point: it must be played and won,
// not thrown in. Two starters that always pass throw in every hand and
// draw at max_hands, which made the init tournament minutes of draws.
func TestInitEuchreStartersEndGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the starters and plays them as processes")
	}
	t.Parallel()
	dir := t.TempDir()
	if code, out := runArbiter(t, "init", "euchre", dir); code != 0 {
		t.Fatalf("init: %s", out)
	}
	for _, lang := range starters.Languages {
		t.Run(lang.Dir, func(t *testing.T) {
			needTools(t, lang)
			build := ""
			if len(lang.Build) > 0 {
				build = fmt.Sprintf("build = %s\n", quoted(lang.Build))
			}
			conf := fmt.Sprintf(`bot "a" {
  dir     = %q
  %scommand = %s
}
bot "b" {
  dir     = %q
  command = %s
}
game "euchre" "g" {
  target    = 1
  max_hands = 1
  clock { move = "10s" }
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.a, bot.b]
  rounds  = 1
  players = 2
  seats   = "fixed"
}
`, filepath.Join(dir, lang.Dir), build, quoted(lang.Command), filepath.Join(dir, lang.Dir), quoted(lang.Command))
			cfg := filepath.Join(t.TempDir(), "t.hcl")
			if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			// A run starts worker processes: the test binary as arbiter.
			arbiterCmd(t, "run", cfg, "-out", out, "-j", "1")
			b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Seats []struct {
					Bot      string  `json:"bot"`
					Score    float64 `json:"score"`
					Fault    string  `json:"fault"`
					Defaults int     `json:"defaults"`
				} `json:"seats"`
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			for _, s := range res.Seats {
				if s.Score == 0.5 || s.Fault != "" || s.Defaults != 0 {
					t.Errorf("the %s starter against itself: %s scored %v (fault %q, %d defaults); want a hand played and won", lang.Dir, s.Bot, s.Score, s.Fault, s.Defaults)
				}
			}
		})
	}
}

// quoted writes a command as an HCL list.
func quoted(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = fmt.Sprintf("%q", a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// needTools skips the test when the starter's build or interpreter is
// not installed.
func needTools(t *testing.T, lang starters.Language) {
	tools := []string{}
	if len(lang.Build) > 0 {
		tools = append(tools, lang.Build[0])
	}
	if !strings.HasPrefix(lang.Command[0], "./") {
		tools = append(tools, lang.Command[0])
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the %s starter: %s is not installed here (.ci/deps.sh installs it)", lang.Dir, tool)
		}
	}
}

// runArbiter runs the arbiter on PATH (the test binary: TestMain) as a
// process of its own, not run in this one: the tests that call it run in
// parallel with others, and an arbiter in the test's own process would
// reap (as subreaper) their exited children before os/exec could.
func runArbiter(t *testing.T, args ...string) (int, string) {
	t.Helper()
	path, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(path, args...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	case err != nil:
		t.Fatalf("arbiter %s: %v", strings.Join(args, " "), err)
	}
	return 0, string(out)
}

// arbiter init -h says what init takes, GAME [DIR], and the games it has
// starters for, as every other command's -h lists its flags; init has
// none, and printed only "Usage of arbiter init:".
func TestInitHelpNamesGames(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("arbiter init -h: exit %d, stderr %q", code, stderr.String())
	}
	want := "arbiter init GAME [DIR] (DIR defaults to GAME); games: " + strings.Join(starters.Games(), ", ")
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("arbiter init -h printed %q; want %q", stderr.String(), want)
	}
}

// TestInitJavaStartersSizeTheirHeap: every game's Java starter gives its
// JVM a maximum heap under the bot's memory limit, as authors.md asks of
// every Java bot. Without one a JVM sizes its heap from the machine's
// memory; where the limit is RLIMIT_DATA (arbiter not root, no cgroup)
// such a JVM could not even start when not pinned to one CPU (check,
// console, run -pin=false): "os::commit_memory ... failed", its "#"
// report on stdout taken for a protocol fault.
func TestInitJavaStartersSizeTheirHeap(t *testing.T) {
	for _, game := range starters.Games() {
		dir := t.TempDir()
		if code, out := runArbiter(t, "init", game, dir); code != 0 {
			t.Fatalf("init %s: %s", game, out)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"plan", "-json", dir}, &stdout, &stderr); code != 0 {
			t.Fatalf("plan -json of init %s: %s", game, stderr.String())
		}
		var p struct {
			Bots []struct {
				Name    string   `json:"name"`
				Command []string `json:"command"`
				Limits  struct {
					Memory int64 `json:"memory"`
				} `json:"limits"`
			} `json:"bots"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Bots {
			if b.Name != "java" {
				continue
			}
			heap := javacmd.MaxHeap(b.Command, nil)
			if n := jvmSize(strings.TrimPrefix(heap, "-Xmx")); n == 0 || n*4 > b.Limits.Memory*3 {
				t.Errorf("init %s: the Java starter's command %q gives the heap %q, want one of at most three quarters of its memory limit of %d bytes", game, b.Command, heap, b.Limits.Memory)
			}
		}
	}
}

// jvmSize is the bytes of a JVM option's size ("300m"), 0 if it is none.
func jvmSize(s string) int64 {
	if s == "" {
		return 0
	}
	unit := map[byte]int64{'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}[s[len(s)-1]|0x20]
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if err != nil {
		return 0
	}
	return n * unit
}
