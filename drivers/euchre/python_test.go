package euchre

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestPythonBot plays the example Python bot, run as the example config
// runs it (python3 with a script path relative to the bot's dir), against
// the rules bot: every answer valid, its memory file kept in its position's
// folder.
func TestPythonBot(t *testing.T) {
	// The system's interpreter starts in ~40 ms; python3 on PATH may be
	// a shim that takes over a second a start on a loaded machine, and
	// every decision is a fresh process.
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		if python, err = exec.LookPath("python3"); err != nil {
			t.Skip("python3 not installed")
		}
	}
	botDir, err := filepath.Abs("../../examples/euchre")
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(5 * time.Second)}}
	g.settings.MaxHands = 3
	for _, args := range [][]string{{python, "bots/simple.py"}, {python, "bots/simple.py", "--bold"}} {
		m, marker := processMatch(t, 12, args, house(t, "rules"))
		m.Seats[0].Dir = botDir
		m.Clock = drivers.Clock{Move: drivers.Duration(30 * time.Second)}
		rec := &events{}
		m.Record = rec
		out, err := g.Play(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if ds := rec.of("default"); len(ds) != 0 {
			t.Errorf("%v: defaults %+v", args, ds)
		}
		if len(rec.of("hand_score")) == 0 {
			t.Errorf("%v: no hand was played", args)
		}
		for _, p := range []int{0, 2} {
			if _, err := os.Stat(filepath.Join(memoryDir(t, m, g, p), "memory.txt")); err != nil {
				t.Errorf("%v: position %d has no memory file: %v", args, p, err)
			}
		}
		if _, err := os.Stat(filepath.Join(botDir, "memory.txt")); err == nil {
			t.Errorf("the bot wrote its memory into its program's folder")
		}
		proctest.AssertNoEnv(t, marker)
		_ = out
	}
}
