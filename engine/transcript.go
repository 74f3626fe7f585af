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
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arbiter-contests/arbiter/drivers"
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
	buf   []byte // the line being written (Sent, Received)
	// flushAt is the time offset (ms) from which the next line written
	// takes what is buffered to the file (see flushEvery); later is the
	// timer that flushes lines that no later line takes there, and
	// closed stops it.
	flushAt float64
	later   *time.Timer
	closed  bool
	// maxRecv caps the bytes each seat's recv lines take in the file
	// (MaxSeatTranscript); recv counts them, by seat.
	maxRecv int64
	recv    []recvCount
}

// MaxSeatTranscript is the most that one seat's lines (its recv lines,
// as written in events.jsonl, JSON and newline included, each without
// its time, so that the same lines are kept in every run) take in a
// match's transcript, as drivers/proc caps a bot's stderr file: a bot
// that answers within its output limit, but with many long lines or
// blank ones, cannot fill the disk with them. The lines past it are left
// out, every one, and a transcript_cut event before the result says how
// many (TranscriptCutEvent). The game is refereed on the whole answers
// all the same: the cap is the record's, not the protocol's.
const MaxSeatTranscript = 16 << 20

// recvCount is what a seat's recv lines took in the transcript, and
// what was left out once they reached the cap.
type recvCount struct {
	kept, keptLines int64
	cut             bool
	leftLines, left int64
}

// TranscriptCutEvent ("transcript_cut") says that a seat's recv lines
// reached MaxSeatTranscript: its first KeptLines lines are in the
// transcript, the LeftOutLines after them are not (LeftOutBytes is what
// they would have taken, counted as LimitBytes is). One per seat so cut,
// in seat order, just before the result.
type TranscriptCutEvent struct {
	Seat         int   `json:"seat"`
	LimitBytes   int64 `json:"limit_bytes"`
	KeptLines    int64 `json:"kept_lines"`
	LeftOutLines int64 `json:"left_out_lines"`
	LeftOutBytes int64 `json:"left_out_bytes"`
}

// flushEvery is how often, in milliseconds, the lines of a match being
// played reach its transcript file, so that a reader (serve, a tail)
// can follow the match: a compressed stream is sync-flushed then, which
// ends its deflate block (a few bytes each; measured in docs/results.md),
// so it is not done at every line. The first line is flushed at once, and
// a line is never held longer than flushEvery (a bot that thinks long).
const flushEvery = 1000.0

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
	t := &transcript{f: f, start: time.Now(), maxRecv: MaxSeatTranscript}
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
	l.T = t.now()
	b, err := json.Marshal(l)
	if err == nil {
		_, err = t.w.Write(append(b, '\n'))
	}
	t.failed(err)
	t.flushSoon(l.T)
}

// flushSoon flushes what is buffered, through the compressor if any, when
// a line written at time offset now is due to (flushAt); t.mu is held.
func (t *transcript) flushSoon(now float64) {
	if t.err != nil {
		return
	}
	if now < t.flushAt {
		if t.later == nil {
			t.later = time.AfterFunc(time.Duration((t.flushAt-now)*float64(time.Millisecond)), t.flushLater)
		}
		return
	}
	t.flush(now)
}

// flush takes what is buffered to the file; t.mu is held.
func (t *transcript) flush(now float64) {
	t.flushAt = now + flushEvery
	err := t.w.Flush()
	if err == nil && t.gz != nil {
		err = t.gz.Flush()
	}
	t.failed(err)
}

// flushLater flushes the lines that were held when no later line came to
// take them to the file.
func (t *transcript) flushLater() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.later = nil
	if !t.closed && t.err == nil {
		t.flush(t.now())
	}
}

// now is the time offset of a line written now, in milliseconds.
func (t *transcript) now() float64 { return t.offset(time.Now()) }

// offset is the time offset of at, in milliseconds.
func (t *transcript) offset(at time.Time) float64 {
	return float64(at.Sub(t.start).Microseconds()) / 1000
}

// appendMillis appends us microseconds as a number of milliseconds, byte
// for byte as strconv.AppendFloat(b, float64(us)/1000, 'f', -1, 64) does
// (TestAppendMillis): the integer part, then up to three decimals without
// trailing zeros. Every line of a transcript starts with its time, and
// the float's shortest form costs a search of its digits each time.
// (Up to 2^43 ms, 278 years, no shorter decimal than the three-decimal
// one rounds to the same float64, so the two agree.)
func appendMillis(b []byte, us int64) []byte {
	if us < 0 {
		b, us = append(b, '-'), -us
	}
	b = strconv.AppendInt(b, us/1000, 10)
	if f := us % 1000; f != 0 {
		d := [4]byte{'.', byte('0' + f/100), byte('0' + f/10%10), byte('0' + f%10)}
		n := len(d)
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return b
}

func (t *transcript) failed(err error) {
	if err != nil && t.err == nil {
		t.err = err
	}
}

// Sent and Received write a line of a bot's session. They are most of a
// session game's transcript (two lines for every command), so they are
// written without encoding/json's reflection, byte for byte as it would
// write transcriptLine (TestTranscriptLinesAsJSON).
func (t *transcript) Sent(seat int, line string) {
	now := time.Now()
	t.writeLine(seat, sendKey, line, now, now)
}
func (t *transcript) Received(seat int, line string) {
	now := time.Now()
	t.writeLine(seat, recvKey, line, now, now)
}

// The keys of a session's lines, as writeLine writes them.
const (
	sendKey = `,"send":`
	recvKey = `,"recv":`
)

// SentAt and ReceivedAt make the transcript a drivers.TimedRecorder: a
// line's t is when it was written or read, though a referee records it
// later (the answers of a broadcast, seat by seat).
func (t *transcript) SentAt(seat int, line string, at time.Time) {
	t.writeLine(seat, sendKey, line, at, time.Now())
}
func (t *transcript) ReceivedAt(seat int, line string, at time.Time) {
	t.writeLine(seat, recvKey, line, at, time.Now())
}

var _ drivers.TimedRecorder = (*transcript)(nil)

// writeLine writes a session's line of seat, at the time at; now is the
// time it is written (for flushSoon).
func (t *transcript) writeLine(seat int, key, line string, at, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf[:0]
	b = append(b, `{"t":`...)
	b = appendMillis(b, at.Sub(t.start).Microseconds())
	timed := len(b) // what the line's time takes
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, key...)
	b = appendJSONString(b, line)
	b = append(b, "}\n"...)
	t.buf = b
	if key == recvKey && !t.keepRecv(seat, int64(len(b)-timed)) {
		return
	}
	_, err := t.w.Write(b)
	t.failed(err)
	t.flushSoon(t.offset(now))
}

// keepRecv says whether seat's recv line of n bytes (without its time)
// is written: not once the seat's lines would pass the cap (maxRecv),
// and then never again, so that what is kept of a seat is its first
// lines; the lines left out are counted. t.mu is held.
func (t *transcript) keepRecv(seat int, n int64) bool {
	if seat < 0 {
		return true
	}
	if seat >= len(t.recv) {
		t.recv = append(t.recv, make([]recvCount, seat+1-len(t.recv))...)
	}
	c := &t.recv[seat]
	if !c.cut && c.kept+n <= t.maxRecv {
		c.kept += n
		c.keptLines++
		return true
	}
	c.cut = true
	c.leftLines++
	c.left += n
	return false
}

// NoteCuts records a transcript_cut event for each seat whose lines
// reached the cap, in seat order; the engine calls it just before the
// result.
func (t *transcript) NoteCuts() {
	t.mu.Lock()
	var cuts []TranscriptCutEvent
	for seat, c := range t.recv {
		if c.cut {
			cuts = append(cuts, TranscriptCutEvent{Seat: seat, LimitBytes: t.maxRecv, KeptLines: c.keptLines,
				LeftOutLines: c.leftLines, LeftOutBytes: c.left})
		}
	}
	t.mu.Unlock()
	for _, e := range cuts {
		t.Event("transcript_cut", e)
	}
}

func (t *transcript) Event(kind string, data any) { t.write(transcriptLine{Event: kind, Data: data}) }

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it: quotes, backslashes and control characters, <, > and & (as
// HTML-safe \u escapes), U+2028 and U+2029, and each byte of invalid
// UTF-8 as \ufffd.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func (t *transcript) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.later != nil {
		t.later.Stop()
	}
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
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		// Not even a whole header yet: a match that has just begun.
		f.Close()
		return nil, &CutShortError{Path: path, Err: io.ErrUnexpectedEOF}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &gzipFile{zr, f, path}, nil
}

type gzipFile struct {
	*gzip.Reader
	f    *os.File
	path string
}

// Read says of a stream that ends before gzip's end (a run killed while
// it wrote the file, a match still being written, a copy cut off) that it
// is cut short, naming the file: an error that still Is
// io.ErrUnexpectedEOF.
func (g *gzipFile) Read(p []byte) (int, error) {
	n, err := g.Reader.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = &CutShortError{Path: g.path, Err: err}
	}
	return n, err
}

// CutShortError is a compressed transcript whose stream ends before its
// end: the match is still being played (its transcript is flushed as it
// goes), or the run that wrote it was killed.
type CutShortError struct {
	Path string
	Err  error
}

func (e *CutShortError) Error() string { return e.Path + " is cut short: " + e.Err.Error() }
func (e *CutShortError) Unwrap() error { return e.Err }

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
	var cut *CutShortError
	if errors.As(err, &cut) {
		return b, err // already names the file
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
