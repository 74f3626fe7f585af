package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAppendCutsATornLine: a result whose line the file cannot take whole
// (here RLIMIT_FSIZE cuts the write part way, as a full disk or a quota
// does) leaves results.jsonl ending with the last whole line, and the
// next result, once there is room, is a line of its own: the file reads
// with no torn or bad line.
func TestAppendCutsATornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), ResultsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	j := &journal{dir: filepath.Dir(path), f: f}
	defer j.Close()
	result := func(id string) *Result {
		return &Result{Match: id, Round: 1, Group: 1, Seed: 7, Seats: []SeatResult{{Bot: "a"}, {Bot: "b"}}}
	}
	if err := j.Append(result("r001-g01-s1")); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)

	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	small := was
	small.Cur = uint64(len(first)) + 20 // room for a part of the next line
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skip("cannot lower RLIMIT_FSIZE:", err)
	}
	err = j.Append(result("r001-g01-s2"))
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("a line over RLIMIT_FSIZE was written")
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the error does not name %s: %v", path, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, first) {
		t.Errorf("after the failed write the file holds %q, want its first line alone, %q", b, first)
	}

	if err := j.Append(result("r001-g01-s3")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	results, good, err := readResults(bytes.NewReader(b))
	if err != nil || good != int64(len(b)) || len(results) != 2 || results[1].Match != "r001-g01-s3" {
		t.Errorf("results.jsonl reads as %d results up to byte %d of %d (%v): %q", len(results), good, len(b), err, b)
	}
}
