package bricks_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/bricks"
	"github.com/arbiter-contests/arbiter/engine"
)

// original is the folder of the original's test players, its samples and
// the files its tournament wrote (see its README.md).
const original = "testdata/original"

// requireJava skips a test when java is not installed, except on CI,
// which installs it (.ci/deps.sh): there a missing java is a failure.
func requireJava(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("java is not installed (%v), and CI installs it: see .ci/deps.sh", err)
		}
		t.Skipf("java is not installed (%v): the original's test players are Java jars", err)
	}
}

// runOriginal runs tournament of testdata/original/tournament.hcl as
// `arbiter run -j 1` does, with the original's jars as real processes,
// and returns its results directory.
func runOriginal(t *testing.T, tournament string, vars ...string) string {
	t.Helper()
	cfg, diags := config.Load(original, config.Options{Driver: all.Driver, DriverNames: all.Names(), Vars: vars})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tt, err := cfg.Tournament(tournament)
	if err != nil {
		t.Fatal(err)
	}
	p, diags := compile.Compile(cfg, tt)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := t.TempDir()
	// One duel at a time, as the original plays them.
	r := &engine.Runner{Plan: p, Drivers: all.Driver, Root: cfg.Root, Out: out, Jobs: 1, Log: hclog.NewNullLogger()}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameFile compares arbiter's file got with the original's want, byte
// for byte.
func sameFile(t *testing.T, got, want string) {
	t.Helper()
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Errorf("%s differs from the original's %s:\n--- arbiter\n%s--- original\n%s", got, want, g, w)
	}
}

// TestOriginalTourTest runs the original's own tournament test
// (TournamentTest.java: its five players on a 3×3 board, a 1.5 s
// wake-up delay) with arbiter, and compares score.txt, duels.txt, err.txt
// and every duels/<n>.txt with the original's, byte for byte: score.txt
// with the sample the original's test compares with, the others with
// the files the original's code wrote in the same tournament
// (testdata/original/expected, made as its README says).
//
// The files hold no time, and the duels no time fault: the players
// answer in milliseconds, far within the original's limits, which the
// configuration keeps by default (1 s for OK after the delay, 0.5 s a
// move, 5 s of silence). The test gives the JVMs ten times those, since a loaded machine
// can make a JVM's start or first move miss them and write a fault
// the original's run did not; the files would be the same.
func TestOriginalTourTest(t *testing.T) {
	requireJava(t)
	out := runOriginal(t, "tourTest", "startup=10s", "move=5s", "silence=50s")

	sameFile(t, filepath.Join(out, bricks.ScoreFile), filepath.Join(original, "samples", "score.txt"))
	for _, name := range []string{bricks.ScoreFile, bricks.DuelsFile, bricks.ErrorsFile} {
		sameFile(t, filepath.Join(out, name), filepath.Join(original, "expected", name))
	}
	want, err := os.ReadDir(filepath.Join(original, "expected", bricks.DuelsDir))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadDir(filepath.Join(out, bricks.DuelsDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) != 20 {
		t.Errorf("%d replays in duels/, the original %d; want 20 (every ordered pair of 5 players)", len(got), len(want))
	}
	for i := range want {
		name := strconv.Itoa(i) + ".txt"
		sameFile(t, filepath.Join(out, bricks.DuelsDir, name), filepath.Join(original, "expected", bricks.DuelsDir, name))
	}
}

// TestOriginalLogSample plays the original's sample replay
// (logFiles/logSample.txt): the two predefined players on a 3×3 board
// with its centre filled, the first starting. arbiter's replay of that
// duel is the sample, byte for byte.
func TestOriginalLogSample(t *testing.T) {
	requireJava(t)
	out := runOriginal(t, "logSample")
	sameFile(t, filepath.Join(out, bricks.DuelsDir, "0.txt"), filepath.Join(original, "samples", "logSample.txt"))
	duels, err := os.ReadFile(filepath.Join(out, bricks.DuelsFile))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(duels), "\n"); first != "0:PREDEFINED OUTPUT FINISH1:PREDEFINED OUTPUT FINISH2:PREDEFINED OUTPUT FINISH2:Player PREDEFINED OUTPUT FINISH2 won normally!" {
		t.Errorf("duels.txt starts %q; want the sample's duel, won normally by FINISH2", first)
	}
}
