package engine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestAppendCutsATornLine: a result whose line the file cannot take whole
// (here RLIMIT_FSIZE cuts the write part way, as a full disk or a quota
// does) leaves results.jsonl ending with the last whole line, and the
// next result, once there is room, is a line of its own: the file reads
// with no torn or bad line.
func TestAppendCutsATornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	j, first, err := tornJournal(t, path, os.O_CREATE)
	defer j.Close()
	checkCut(t, path, first, err)

	if err := j.Append(tornResult("r001-g01-s3")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	results, good, err := readResults(bytes.NewReader(b))
	if err != nil || good != int64(len(b)) || len(results) != 2 || results[1].Match != "r001-g01-s3" {
		t.Errorf("results.jsonl reads as %d results up to byte %d of %d (%v): %q", len(results), good, len(b), err, b)
	}
}

// TestAppendChangesCutsATornLine: so does changes.jsonl, which rank
// reads whole: a torn line there, or one glued to the next change
// recorded, made every rank of the directory fail.
func TestAppendChangesCutsATornLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ChangesFile)
	change := func(n int) changeRecord {
		return changeRecord{Time: "2026-11-24T22:00:00Z", Results: n, Changes: []BotChange{{Bot: "a", From: "sha256:1", To: "sha256:2"}}}
	}
	if err := appendChanges(dir, change(1)); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	err := proctest.WithFileLimit(t, len(first)+20, func() error { return appendChanges(dir, change(2)) })
	checkCut(t, path, first, err)

	if err := appendChanges(dir, change(3)); err != nil {
		t.Fatal(err)
	}
	if notes, err := ReadChanges(dir); err != nil || len(notes) != 1 {
		b, _ := os.ReadFile(path)
		t.Errorf("changes.jsonl reads as %d changes (%v): %q", len(notes), err, b)
	}
}

// tornJournal opens a journal at path (os.O_RDWR|flag), appends a result
// to it, and then another with RLIMIT_FSIZE 20 bytes past the first, as
// a full disk would stop it. It returns the file after the first and the
// second's error.
func tornJournal(t *testing.T, path string, flag int) (j *journal, first []byte, err error) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|flag, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	j = &journal{dir: filepath.Dir(path), f: f}
	if err := j.Append(tornResult("r001-g01-s1")); err != nil {
		t.Fatal(err)
	}
	first, _ = os.ReadFile(path)
	err = proctest.WithFileLimit(t, len(first)+20, func() error { return j.Append(tornResult("r001-g01-s2")) })
	return j, first, err
}

// tornResult is a result of match id.
func tornResult(id string) *Result {
	return &Result{Match: id, Round: 1, Group: 1, Seed: 7, Seats: []SeatResult{{Bot: "a"}, {Bot: "b"}}}
}

// checkCut: the write failed naming the file at path, which holds what
// it held before, want.
func checkCut(t *testing.T, path string, want []byte, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("a line over RLIMIT_FSIZE was written")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the error does not name %s: %v", path, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, want) {
		t.Errorf("after the failed write the file holds %q, want %q", b, want)
	}
}

// TestAppendAfterATornLineKept: when the torn line cannot be cut off
// (the truncate fails: here the file is append-only, chattr +a; on a
// disk, EIO), no later result is appended to the journal, as a match
// played beside the failed one (-j) would be: glued to the torn line, it
// made a bad line that, with a line after it, the resume refused
// ("line 2 is not a result"). The torn line stays the last, which the
// resume cuts off, and the matches play again.
func TestAppendAfterATornLineKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+a", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s append-only: %v %s", path, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-a", path).Run() })
	j, _, err := tornJournal(t, path, os.O_APPEND)
	defer j.Close()
	if err == nil || !strings.Contains(err.Error(), path+" keeps a torn last line") {
		t.Fatalf("the failed cut says %v", err)
	}
	for _, id := range []string{"r002-g01-s1", "r002-g01-s2"} {
		if err := j.Append(tornResult(id)); err == nil {
			t.Errorf("%s was appended after a torn line", id)
		}
	}
	b, _ := os.ReadFile(path)
	if results, _, err := readResults(bytes.NewReader(b)); err != nil || len(results) != 1 {
		t.Errorf("results.jsonl reads as %d results (%v): %q", len(results), err, b)
	}
}
