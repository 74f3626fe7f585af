package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// TestTranscriptCapsASeatsLines: a seat's recv lines stop at the cap,
// counted without their times: its first lines are kept, every line
// after the one that would pass it is left out (a short one too), and a
// blank line counts as what it takes in the file. The other seats' lines,
// the lines sent and the events are all written, and a transcript_cut
// event for each seat cut, in seat order, says how much was left out.
func TestTranscriptCapsASeatsLines(t *testing.T) {
	dir := t.TempDir()
	tr, err := newTranscript(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	const blank = len(`{"seat":2,"recv":""}` + "\n") // 21 bytes in the file, without its time
	tr.maxRecv = int64(10 * blank)
	long := strings.Repeat("B", 100)
	for i := range 30 {
		tr.Sent(2, "play 0 AS")
		tr.Received(2, "")
		tr.Received(0, long)
		if i < 5 {
			tr.Received(1, "=") // 5 lines of 22 bytes: under the cap
		}
		if i == 20 {
			tr.Event("trick", map[string]int{"trick": 1})
		}
	}
	tr.Received(2, "")
	tr.NoteCuts()
	tr.Event("result", map[string]any{})
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	recv, sent := map[int]int{}, 0
	var events []string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var l transcriptLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		switch {
		case l.Recv != nil:
			recv[*l.Seat]++
		case l.Send != nil:
			sent++
		default:
			d, _ := json.Marshal(l.Data)
			events = append(events, l.Event+" "+string(d))
		}
	}
	// Seat 0's lines of 100 bytes: one fits 210 bytes.
	lineOf0 := len(`{"seat":0,"recv":"` + long + `"}` + "\n")
	if recv[0] != 10*blank/lineOf0 || recv[1] != 5 || recv[2] != 10 || sent != 30 {
		t.Errorf("recv lines by seat %v, %d sent; want seat 0's first %d, seat 1's 5, seat 2's first 10, and 30 sent",
			recv, sent, 10*blank/lineOf0)
	}
	want := []string{
		`trick {"trick":1}`,
		fmt.Sprintf(`transcript_cut {"kept_lines":1,"left_out_bytes":%d,"left_out_lines":29,"limit_bytes":210,"seat":0}`, 29*lineOf0),
		fmt.Sprintf(`transcript_cut {"kept_lines":10,"left_out_bytes":%d,"left_out_lines":21,"limit_bytes":210,"seat":2}`, 21*blank),
		`result {}`,
	}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
}

// TestAppendMillis: a line's time is written as strconv's shortest form
// of the float milliseconds would be, over the range a transcript spans
// and beyond.
func TestAppendMillis(t *testing.T) {
	cases := []int64{0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 1100, 12345, 120000, 999999, 1000000,
		-1, -999, -1000, -1234, 86_400_000_000, 1 << 40, 1<<43 - 1}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		cases = append(cases, r.Int64N(1<<43), -r.Int64N(1<<20), r.Int64N(10_000_000))
	}
	for _, us := range cases {
		want := strconv.AppendFloat(nil, float64(us)/1000, 'f', -1, 64)
		if got := appendMillis(nil, us); string(got) != string(want) {
			t.Fatalf("%d µs: %s, want %s", us, got, want)
		}
	}
}
