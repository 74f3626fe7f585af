package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A program named without a slash is looked up on PATH, not in the bot's
// folder: when the folder holds it, the start fault says to name it with
// "./", bare or in the sandbox, for a session and for a per-move run.
func TestStartFaultSaysDotSlash(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const prog = "arbiter-test-prog-here"
	if err := os.WriteFile(filepath.Join(dir, prog), []byte("#!/bin/sh\necho 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := `write "./` + prog + `" in its command`
	for _, tc := range []struct {
		name string
		lim  drivers.Limits
	}{{"bare", drivers.Limits{}}, {"sandbox", drivers.Limits{Sandbox: &drivers.Sandbox{}}}} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(context.Background(), Spec{Bot: "b", Argv: []string{prog}, Dir: dir, Limits: tc.lim})
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultStart || !strings.Contains(f.Detail, want) {
				t.Errorf("Start = %v, want a start fault that says to %s", err, want)
			}
			r, err := RunOnce(context.Background(), OnceSpec{Bot: "b", Argv: []string{prog}, Dir: dir, Limits: tc.lim})
			if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultStart || !strings.Contains(r.Fault.Detail, want) {
				t.Errorf("RunOnce = %+v, %v, want a start fault that says to %s", r.Fault, err, want)
			}
		})
	}
}
