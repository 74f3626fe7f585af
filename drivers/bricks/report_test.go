package bricks

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// golden compares got with testdata/<name>, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

// TestOriginalFiles plays every ordered pair of a field of six once, as
// the original's tournament does, with real processes: two house bots, a
// bot that answers gibberish, one that plays diagonal pairs, one that
// dies, and a program that does not exist. The original's files must
// match the golden ones byte for byte.
func TestOriginalFiles(t *testing.T) {
	field := []player{
		{"keeper", "KEEPER"},
		{"random", "RANDOM PLAYER"},
		{modeGarbage, "GARBAGE"},
		{modeDiagonal, "DIAGONAL"},
		{modeDie, "DIES"},
		{"missing", "NO PROGRAM"},
	}
	// Limits far over what the house bots need, so that a busy machine
	// cannot turn their moves into time faults and change the files.
	limits := Limits{Startup: drivers.Duration(10 * time.Second), Move: drivers.Duration(10 * time.Second), Silence: drivers.Duration(20 * time.Second)}
	g := testGame(5, []board.Cell{{X: 2, Y: 2}}, limits)
	r := newRun(t)
	results := t.TempDir()
	var done []drivers.ReportedMatch
	for i, a := range field {
		for j, b := range field {
			if i == j {
				continue
			}
			index := len(done) + 1
			id := fmt.Sprintf("d%02d", index)
			dir := filepath.Join(results, "matches", id)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			m := r.match(t, id, uint64(index), dir, a, b)
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			done = append(done, drivers.ReportedMatch{Index: index, ID: id, Dir: dir,
				Bots: []string{a.kind, b.kind}, Nicks: []string{a.nick, b.nick}, Outcome: *out})
			if err := g.Report(results, done); err != nil {
				t.Fatal(err)
			}
		}
	}
	r.assertNoProcessLeft(t)

	for _, name := range []string{DuelsFile, ScoreFile, ErrorsFile} {
		got, err := os.ReadFile(filepath.Join(results, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("tournament", name+".golden"), got)
	}
	for i := range done {
		name := strconv.Itoa(i) + ".txt"
		got, err := os.ReadFile(filepath.Join(results, DuelsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("tournament", DuelsDir, name+".golden"), got)
	}
}

// TestScoreOrder checks the order of score.txt: wins, then normal wins,
// then fewest fault losses, then first appearance.
func TestScoreOrder(t *testing.T) {
	d := func(index int, a, b string, winner int, code string) Duel {
		msg := "Player " + []string{a, b}[winner] + " won normally!"
		if code != "N" {
			msg = "Player " + []string{a, b}[1-winner] + " -> fault " + code
		}
		return Duel{Index: index, Bots: [2]string{a, b}, Nicks: [2]string{a, b}, End: End{Winner: winner, Code: code, Message: msg}}
	}
	duels := []Duel{
		// A and B both win 2; B wins normally twice, A once: B first.
		d(0, "A", "C", 0, "M"),
		d(1, "A", "D", 0, "N"),
		d(2, "B", "C", 0, "N"),
		d(3, "B", "D", 0, "N"),
		// C and D both win 0 with no normal wins; C lost twice by
		// fault, D once: D first.
		d(4, "E", "F", 1, "S"),
	}
	got := string(ScoreText(duels))
	// The original's ScoreDBRecord.toString separates with " \t", " \t"
	// and "\t".
	want := "B \t2/0 \t2/0\t\n" +
		"A \t2/0 \t1/0\t\n" +
		"F \t1/0 \t0/0\t\n" +
		"D \t0/2 \t0/0\t\n" +
		"C \t0/2 \t0/1\tM\n" +
		"E \t0/1 \t0/1\tS\n"
	if got != want {
		t.Errorf("score.txt:\n%s\nwant:\n%s", got, want)
	}
	if got, want := string(DuelsText(duels[:2])), "0:A:C:A:Player C -> fault M\n1:A:D:A:Player A won normally!\n"; got != want {
		t.Errorf("duels.txt:\n%s\nwant:\n%s", got, want)
	}
}
