package filetail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The end of a file of two-byte characters, cut in the middle of one,
// begins at the next character; a file no longer than n is read whole,
// and a missing one is "".
func TestReadCutsAtACharacter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stderr")
	text := strings.Repeat("é", 1500) + "\na\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{2048, 2049} {
		got, cut := Read(path, n)
		if !cut || !utf8.ValidString(got) || !strings.HasSuffix(got, "é\na\n") || int64(len(got)) < n-utf8.UTFMax {
			t.Errorf("Read(%d) is %d bytes (cut %v), %q…; want whole characters to the end", n, len(got), cut, got[:min(6, len(got))])
		}
	}
	if got, cut := Read(path, 4096); got != text || cut {
		t.Errorf("Read(4096) = %d bytes, cut %v; want the whole file", len(got), cut)
	}
	if got, cut := Read(filepath.Join(t.TempDir(), "none"), 10); got != "" || cut {
		t.Errorf("Read of a missing file = %q, %v", got, cut)
	}
}

func TestLastLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		most int
		want string
	}{
		{"Traceback (most recent call last):\nValueError: boom\n\n  \r\n", 40, "ValueError: boom"},
		{"no newline at the end", 40, "no newline at the end"},
		{"", 40, ""},
		{"\n \n", 40, ""},
		{"x\n" + strings.Repeat("é", 20) + "\n", 11, strings.Repeat("é", 5) + "..."},
	} {
		path := filepath.Join(dir, "stderr")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := LastLine(path, c.most); got != c.want {
			t.Errorf("LastLine(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if got := LastLine(filepath.Join(dir, "missing"), 11); got != "" {
		t.Errorf("LastLine of a missing file = %q, want \"\"", got)
	}
}
