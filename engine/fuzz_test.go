package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadResults: a results file holding any bytes (a crash tore it, or
// someone edited it) reads as its whole lines' results up to a torn last
// line, or an error naming the bad line, never a crash.
func FuzzReadResults(f *testing.F) {
	b, err := os.ReadFile("testdata/field12/results.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b[:min(len(b), 2048)])
	f.Add([]byte("{\"match\":\"r001-g01-s1\"}\n{\"match\":"))
	f.Add([]byte("\n\n{}\nnot json\n{}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		results, good, err := readResults(bytes.NewReader(b))
		if err != nil {
			return
		}
		if good < 0 || good > int64(len(b)) {
			t.Fatalf("good offset %d outside the %d bytes read", good, len(b))
		}
		if n := bytes.Count(b[:good], []byte("\n")); n != len(results) {
			t.Fatalf("%d results from %d whole lines", len(results), n)
		}
	})
}

// FuzzReadTranscript: a transcript holding any bytes, plain or as a
// gzip stream, reads (as replay compares it, and as a page shows it) or
// is an error, never a crash.
func FuzzReadTranscript(f *testing.F) {
	f.Add([]byte("{\"t\":1,\"send\":\"time_left 1000\",\"seat\":0}\n{\"t\":2,\"recv\":\"= 3\",\"seat\":0}\n{\"t\":3,\"event\":\"result\",\"data\":{\"elapsed_ms\":4}}\n"), false)
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"), true)
	f.Add([]byte("{\"send\":\n"), false)
	f.Fuzz(func(t *testing.T, b []byte, gz bool) {
		name := TranscriptFile
		if gz {
			name += ".gz"
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = readTranscript(path)
		_, _ = ReadTranscriptFile(path)
	})
}
