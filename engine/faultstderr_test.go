package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// TestFaultStderr: a crash's log line quotes the last line of its stderr
// that holds more than spaces, names no file the bot left empty, and
// does not quote the arbiter's note that the file reached its cap as if
// the bot had written it: it says the file was cut.
func TestFaultStderr(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		want       []any
	}{
		{"empty", "", nil},
		{"traceback", "Traceback:\nValueError: x\n\n  \n", []any{"stderr", "", "stderr_end", "ValueError: x"}},
		{"cut", strings.Repeat("junk\n", 3) + "ju\n" + proc.StderrCutNote(16<<20) + "\n", []any{"stderr", "", "stderr_cut", true}},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.want != nil {
			c.want[1] = path
		}
		if got := faultStderr(path, drivers.FaultCrash); !slices.Equal(got, c.want) {
			t.Errorf("%s: faultStderr = %v, want %v", c.name, got, c.want)
		}
	}
}
