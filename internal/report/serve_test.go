package report

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeCompressedTranscriptBeingWritten: serve hands the page what a
// compressed transcript of a match being played holds so far (a gzip
// stream flushed but not ended, its last line torn), as it does with a
// plain one, instead of refusing it.
func TestServeCompressedTranscriptBeingWritten(t *testing.T) {
	dir := t.TempDir()
	match := filepath.Join(dir, "matches", "r001-g01-s1")
	if err := os.MkdirAll(match, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`{"t":0,"event":"match","data":{"id":"r001-g01-s1"}}` + "\n" + `{"t":1,"seat":0,"se`))
	zw.Flush() // as the run does while a match is played; no Close
	if err := os.WriteFile(filepath.Join(match, "events.jsonl.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	NewServer(dir).ServeHTTP(rec, httptest.NewRequest("GET", "/transcripts/r001-g01-s1.js", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "arbiterTranscript") {
		t.Fatalf("GET the transcript of a match being played: %d %.200q", rec.Code, rec.Body.String())
	}
}
