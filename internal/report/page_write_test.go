package report

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
)

// copyResults copies a results directory of testdata into a temporary
// one the test may change.
func copyResults(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWriteGzipOverLimit: transcripts written by run -gzip go into a
// folder when their text comes to more than InlineLimit, however small
// they are compressed.
func TestWriteGzipOverLimit(t *testing.T) {
	dir := copyResults(t, "auction")
	match := filepath.Join(dir, engine.MatchesDir, "r001-g01-s1")
	text, err := os.ReadFile(filepath.Join(match, engine.TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	// Lines a bot could print, more of them than the limit allows.
	line := `{"t":1,"seat":0,"recv":"` + strings.Repeat("1", 1000) + "\"}\n"
	text = append(text, strings.Repeat(line, InlineLimit/len(line)+1)...)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(text)
	zw.Close()
	if err := os.WriteFile(filepath.Join(match, engine.TranscriptGzFile), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(match, engine.TranscriptFile)); err != nil {
		t.Fatal(err)
	}
	w, err := Write(dir, filepath.Join(t.TempDir(), "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Folder == "" || w.Bytes > 1<<20 {
		t.Errorf("a transcript of %d bytes (%d gzipped) made a page of %d bytes, with the transcripts in folder %q; want them in a folder beside a small page",
			len(text), z.Len(), w.Bytes, w.Folder)
	}
	if _, err := os.Stat(filepath.Join(w.Folder, "r001-g01-s1.js")); err != nil {
		t.Errorf("the folder has no transcript of the match: %v", err)
	}
}
