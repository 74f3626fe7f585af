package engine

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The names of a match's transcript in its directory: plain, or
// gzip-compressed when the run was asked to compress (Runner.Compress).
const (
	TranscriptFile   = "events.jsonl"
	TranscriptGzFile = "events.jsonl.gz"
)

// transcript writes a match's events.jsonl: every line sent to and
// received from a bot, and the driver's game events, each with its time
// offset from the start of the match in milliseconds.
type transcript struct {
	mu    sync.Mutex
	f     *os.File
	gz    *gzip.Writer // nil: not compressed
	w     *bufio.Writer
	start time.Time
	err   error
}

type transcriptLine struct {
	T     float64 `json:"t"`
	Seat  *int    `json:"seat,omitempty"`
	Send  *string `json:"send,omitempty"`
	Recv  *string `json:"recv,omitempty"`
	Event string  `json:"event,omitempty"`
	Data  any     `json:"data,omitempty"`
}

// newTranscript creates the transcript of the match directory dir,
// gzip-compressed when compress.
func newTranscript(dir string, compress bool) (*transcript, error) {
	name := TranscriptFile
	if compress {
		name = TranscriptGzFile
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	t := &transcript{f: f, start: time.Now()}
	var w io.Writer = f
	if compress {
		t.gz = gzip.NewWriter(f)
		w = t.gz
	}
	t.w = bufio.NewWriterSize(w, 64<<10)
	return t, nil
}

func (t *transcript) write(l transcriptLine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l.T = float64(time.Since(t.start).Microseconds()) / 1000
	b, err := json.Marshal(l)
	if err == nil {
		_, err = t.w.Write(append(b, '\n'))
	}
	if err != nil && t.err == nil {
		t.err = err
	}
}

func (t *transcript) Sent(seat int, line string) { t.write(transcriptLine{Seat: &seat, Send: &line}) }
func (t *transcript) Received(seat int, line string) {
	t.write(transcriptLine{Seat: &seat, Recv: &line})
}
func (t *transcript) Event(kind string, data any) { t.write(transcriptLine{Event: kind, Data: data}) }

func (t *transcript) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.w.Flush(); err != nil && t.err == nil {
		t.err = err
	}
	if t.gz != nil {
		if err := t.gz.Close(); err != nil && t.err == nil {
			t.err = err
		}
	}
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = err
	}
	return t.err
}

// TranscriptPath is the path of the transcript of the match directory
// dir: events.jsonl, or events.jsonl.gz when only that one exists.
func TranscriptPath(dir string) string {
	plain := filepath.Join(dir, TranscriptFile)
	if _, err := os.Stat(plain); errors.Is(err, os.ErrNotExist) {
		if gz := filepath.Join(dir, TranscriptGzFile); fileExists(gz) {
			return gz
		}
	}
	return plain
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// OpenTranscript opens the transcript of the match directory dir, plain
// or compressed (see TranscriptPath), for reading its JSON lines.
func OpenTranscript(dir string) (io.ReadCloser, error) {
	return OpenTranscriptFile(TranscriptPath(dir))
}

// OpenTranscriptFile opens a transcript file, decompressing it when its
// name ends in .gz.
func OpenTranscriptFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &gzipFile{zr, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g *gzipFile) Close() error {
	err := g.Reader.Close()
	if ferr := g.f.Close(); err == nil {
		err = ferr
	}
	return err
}

// ReadTranscriptFile reads a whole transcript file, decompressed when its
// name ends in .gz (see OpenTranscriptFile).
func ReadTranscriptFile(path string) ([]byte, error) {
	f, err := OpenTranscriptFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
