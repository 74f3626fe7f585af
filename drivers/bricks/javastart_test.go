package bricks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestJavaStartError checks the original's message for a program that
// cannot start (Java's ProcessBuilder on Linux, as duels.txt shows it)
// against real files: missing, not executable, a folder, and a program
// that is there, for which the original has no message.
func TestJavaStartError(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	for _, f := range []struct {
		name string
		mode os.FileMode
	}{{"plain", 0o644}, {"tool", 0o755}} {
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, f.name), []byte("#!/bin/sh\n"), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	seat := func(prog string) drivers.Seat {
		return drivers.Seat{Command: []string{prog, "arg"}, Dir: dir, PlanDir: "players/noProgram"}
	}
	for _, tt := range []struct {
		prog, path, want string
	}{
		{"---", empty + ":" + bin, `Cannot run program "---" (in directory "players/noProgram"): error=2, No such file or directory`},
		// Found on PATH but not executable: Java's search remembers EACCES.
		{"plain", empty + ":" + bin, `Cannot run program "plain" (in directory "players/noProgram"): error=13, Permission denied`},
		{"./bin/plain", "", `Cannot run program "./bin/plain" (in directory "players/noProgram"): error=13, Permission denied`},
		{"./folder", "", `Cannot run program "./folder" (in directory "players/noProgram"): error=13, Permission denied`},
		{"./gone", "", `Cannot run program "./gone" (in directory "players/noProgram"): error=2, No such file or directory`},
		{"./bin/tool/x", "", `Cannot run program "./bin/tool/x" (in directory "players/noProgram"): error=20, Not a directory`},
		{"tool", empty + ":" + bin, ""},
		{"./bin/tool", "", ""},
	} {
		if got := javaStartError(seat(tt.prog), tt.path); got != tt.want {
			t.Errorf("%s with PATH %s:\n got %q\nwant %q", tt.prog, tt.path, got, tt.want)
		}
	}
	// Without a plan's name for the folder (a seat made by hand), the
	// folder itself.
	s := seat("---")
	s.PlanDir = ""
	if got, want := javaStartError(s, ""), `Cannot run program "---" (in directory "`+dir+`"): error=2, No such file or directory`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
