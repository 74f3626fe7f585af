package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/starters"
)

// TestInitStartersPassCheck writes every game's tournament with arbiter
// init, validates it, builds each starter and runs it through arbiter
// check: all its cases must pass. A language whose compiler or runtime is
// missing here is skipped with a message (.ci/deps.sh installs them).
func TestInitStartersPassCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and checks 15 starter bots")
	}
	for _, game := range starters.Games() {
		t.Run(game, func(t *testing.T) {
			dir := t.TempDir()
			if code, out := runArbiter(t, "init", game, dir); code != 0 {
				t.Fatalf("init: %s", out)
			}
			if code, out := runArbiter(t, "validate", dir); code != 0 {
				t.Fatalf("the tournament of init %s is not valid: %s", game, out)
			}
			for _, lang := range starters.Languages {
				t.Run(lang.Dir, func(t *testing.T) {
					ldir := filepath.Join(dir, lang.Dir)
					command := starterCommand(t, lang)
					if len(lang.Build) > 0 {
						build := exec.Command(lang.Build[0], lang.Build[1:]...)
						build.Dir = ldir
						if out, err := build.CombinedOutput(); err != nil {
							t.Fatalf("%s: %v\n%s", strings.Join(lang.Build, " "), err, out)
						}
					}
					args := append([]string{"check", game, "-dir", ldir, "--"}, command...)
					if code, out := runArbiter(t, args...); code != 0 {
						t.Fatalf("the %s starter of %s fails arbiter check:\n%s", lang.Dir, game, out)
					}
				})
			}
		})
	}
}

// starterCommand is the starter's command, skipping the test when its
// tools are not installed.
func starterCommand(t *testing.T, lang starters.Language) []string {
	command := append([]string(nil), lang.Command...)
	tools := []string{}
	if len(lang.Build) > 0 {
		tools = append(tools, lang.Build[0])
	}
	if command[0] == "python3" {
		// The fast interpreter, not a version manager's shim.
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			command[0] = "/usr/bin/python3"
		}
	}
	if !strings.HasPrefix(command[0], "./") {
		tools = append(tools, command[0])
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the %s starter: %s is not installed here (.ci/deps.sh installs it)", lang.Dir, tool)
		}
	}
	return command
}

func runArbiter(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := run(args, &out, &out)
	return code, out.String()
}
