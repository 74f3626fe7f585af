package main

import (
	"bytes"
	"os/exec"
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
					needTools(t, lang)
					// As the tournament builds and runs it: in the
					// sandbox, under the game's default limits.
					if code, out := runArbiter(t, "check", "-bot", lang.Dir, dir); code != 0 {
						t.Fatalf("the %s starter of %s fails arbiter check -bot %s:\n%s", lang.Dir, game, lang.Dir, out)
					}
				})
			}
		})
	}
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

func runArbiter(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := run(args, &out, &out)
	return code, out.String()
}
