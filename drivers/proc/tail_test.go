package proc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFileTailCutsAtACharacter: the end of a stderr of two-byte
// characters, cut in the middle of one, begins at the next character:
// a fault's detail may quote it (the shim's message).
func TestFileTailCutsAtACharacter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stderr")
	if err := os.WriteFile(path, []byte(strings.Repeat("é", 1500)+"\na\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{2048, 2049, 4096} {
		got := fileTail(path, n)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "é\na\n") || int64(len(got)) < min(n, 3003)-utf8.UTFMax {
			t.Errorf("fileTail(%d) is %d bytes, %q…; want whole characters to the end", n, len(got), got[:min(6, len(got))])
		}
	}
}
