package engine

import (
	"slices"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// A bot's seat runs the program its fingerprint records in place of a
// version manager's shim, in the sandbox or not; other commands run as
// written.
func TestRunsCommandRecordedProgram(t *testing.T) {
	b := &plan.Bot{Command: []string{"python3", "bot.py", "-v"}}
	if got := runsCommand(b); !slices.Equal(got, b.Command) {
		t.Errorf("without a fingerprint: %q, want %q", got, b.Command)
	}
	b.Fingerprint = &plan.Fingerprint{}
	if got := runsCommand(b); !slices.Equal(got, b.Command) {
		t.Errorf("without a program: %q, want %q", got, b.Command)
	}
	b.Fingerprint.Program = "/root/.pyenv/versions/3.11.7/bin/python3"
	want := []string{"/root/.pyenv/versions/3.11.7/bin/python3", "bot.py", "-v"}
	if got := runsCommand(b); !slices.Equal(got, want) {
		t.Errorf("with a program: %q, want %q", got, want)
	}
	if b.Command[0] != "python3" {
		t.Errorf("the plan's command changed: %q", b.Command)
	}
}
