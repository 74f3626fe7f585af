package main

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// A terminal that reports no size (a pty of script(1) without stty rows)
// gets log lines, not a bar that would draw nothing; one with a size, the
// bar; a file, log lines.
func TestBarOnlyOnASizedTerminal(t *testing.T) {
	_, pts := proctest.PTY(t)
	for _, tt := range []struct {
		rows, cols uint16
		bar        bool
	}{{0, 0, false}, {0, 150, false}, {40, 150, true}} {
		if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: tt.rows, Col: tt.cols}); err != nil {
			t.Fatal(err)
		}
		if got := barTerminal(int(pts.Fd())); got != tt.bar {
			t.Errorf("%d rows, %d columns: bar %v, want %v", tt.rows, tt.cols, got, tt.bar)
		}
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if barTerminal(int(f.Fd())) {
		t.Error("a file gets a bar")
	}
}
