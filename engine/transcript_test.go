package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// jsonStrings are the strings whose escaping the transcript must get as
// encoding/json does: every ASCII control character, quotes and
// backslashes, HTML's <, > and &, DEL, U+2028 and U+2029, invalid and
// truncated UTF-8, and a bot's ordinary lines.
var jsonStrings = []string{
	"", "= 3", "play 0 AS", "= line one", `say "hi" \ back`, "<b>&amp;</b>", "\x7f",
	"\x00\x01\x02\x03\x04\x05\x06\x07\b\t\n\x0b\f\r\x0e\x0f\x10\x1f",
	"a\u2028b\u2029c", "é ü 漢字 🎲", "\xff\xfe\x00\x01 \xc3\x28", "\xe2\x82", "tail\xf0",
}

func TestAppendJSONString(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	strs := append([]string(nil), jsonStrings...)
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		strs = append(strs, string(b))
	}
	for _, s := range strs {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

// The lines Sent and Received write are, byte for byte, what
// encoding/json makes of transcriptLine, the type events and readers use.
func TestTranscriptLinesAsJSON(t *testing.T) {
	dir := t.TempDir()
	tr, err := newTranscript(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range jsonStrings {
		tr.Sent(i%4, s)
		tr.Received(i%4, s)
	}
	tr.Event("deal", map[string]int{"deal": 1})
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for ; sc.Scan(); n++ {
		var l transcriptLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d %s: %v", n+1, sc.Bytes(), err)
		}
		if n < 2*len(jsonStrings) {
			s := jsonStrings[n/2]
			seat := (n / 2) % 4
			want := transcriptLine{T: l.T, Seat: &seat}
			if n%2 == 0 {
				want.Send = &s
			} else {
				want.Recv = &s
			}
			b, _ := json.Marshal(want)
			if sc.Text() != string(b) {
				t.Errorf("line %d: %s\nwant     %s", n+1, sc.Text(), b)
			}
		}
	}
	if n != 2*len(jsonStrings)+1 {
		t.Errorf("%d lines, want %d", n, 2*len(jsonStrings)+1)
	}
}

// TestCompressedTranscriptFollowed: a compressed transcript can be read
// while its match is played, as a plain one can: its first line reaches
// the file at once (later ones within flushEvery, when no line follows
// them too), and the stream, which
// has no end yet, reads as cut short, with the lines flushed so far.
func TestCompressedTranscriptFollowed(t *testing.T) {
	dir := t.TempDir()
	tr, err := newTranscript(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	tr.Event("match", map[string]any{"id": "r001-g01-s1"})
	tr.Sent(0, "name") // buffered until flushEvery has passed
	b, err := ReadTranscriptFile(TranscriptPath(dir))
	var cut *CutShortError
	if !errors.As(err, &cut) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("reading a transcript being written: %v, want it cut short", err)
	}
	if want := filepath.Join(dir, TranscriptGzFile) + " is cut short: unexpected EOF"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	// The second line is buffered, unless flushEvery has passed on a
	// slow machine: only the first is sure to be there.
	first, _, _ := bytes.Cut(b, []byte("\n"))
	var l transcriptLine
	if err := json.Unmarshal(first, &l); err != nil || l.Event != "match" {
		t.Errorf("read %q (%v), want the match line first", b, err)
	}
	// No line comes after the second (its bot thinks): it is not held
	// in the buffer for long.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := ReadTranscriptFile(TranscriptPath(dir)); bytes.Count(b, []byte("\n")) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second line did not reach the file within 30s")
		}
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadTranscriptFile(TranscriptPath(dir)); err != nil || bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("closed: %q, %v, want both lines", b, err)
	}
}

// TestTranscriptStampsGivenTimes: a line recorded with its time (the
// answers of a broadcast, recorded once all are in) has that time as its
// t, not the time it was written down.
func TestTranscriptStampsGivenTimes(t *testing.T) {
	dir := t.TempDir()
	tr, err := newTranscript(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	tr.SentAt(1, "set_board 6 6", tr.start.Add(2500*time.Microsecond))
	tr.ReceivedAt(0, "=", tr.start.Add(25*time.Millisecond))
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"t":2.5,"seat":1,"send":"set_board 6 6"}` + "\n" + `{"t":25,"seat":0,"recv":"="}` + "\n"
	if string(b) != want {
		t.Errorf("transcript\n%s\nwant\n%s", b, want)
	}
}
