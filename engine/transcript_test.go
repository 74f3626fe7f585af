package engine

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
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
