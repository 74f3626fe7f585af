package euchre

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestCheckTrickOutput: check's trick case, like the referee, ignores
// what a trick's run prints, even a line over the length an answer may
// have, and still holds the run to the memory rule; a crash there is
// said to be one, not a missing answer, which the phase does not want.
func TestCheckTrickOutput(t *testing.T) {
	trick := checkCase("trick")
	opt := drivers.CheckOptions{Move: drivers.Duration(3 * time.Second)}
	long := `cat >/dev/null; head -c 70000 /dev/zero | tr '\0' x`
	for _, tc := range []struct {
		name, script, want string
	}{
		{"a long line", long, ""},
		{"a long line and a big file", "head -c 2000 /dev/zero >big; " + long, "broke the memory rule (one file of at most 1024 bytes): big has 2000 bytes"},
		{"a crash", "cat >/dev/null; exit 1", "crashed: exited with status 1 without printing a line"},
	} {
		bot := drivers.Seat{Bot: "trick", Command: []string{"sh", "-c", tc.script}, Dir: t.TempDir()}
		err := trick.Run(context.Background(), bot, opt, nopRecorder{})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) ||
			strings.Contains(err.Error(), "printed no answer")) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestCheckTrickHang: a trick's run that neither exits nor prints a line
// in time is told it did not exit, not that it printed no answer or may
// not have flushed one, which the phase does not want.
func TestCheckTrickHang(t *testing.T) {
	opt := drivers.CheckOptions{Move: drivers.Duration(500 * time.Millisecond)}
	bot := drivers.Seat{Bot: "hang", Command: []string{"sh", "-c", "cat >/dev/null; exec sleep 30"}, Dir: t.TempDir()}
	err := checkCase("trick").Run(context.Background(), bot, opt, nopRecorder{})
	if err == nil || !strings.Contains(err.Error(), "did not exit within 500ms") ||
		strings.Contains(err.Error(), "printed no answer") || strings.Contains(err.Error(), "flush") {
		t.Errorf("%v, want a failure that says the run did not exit", err)
	}
}

// TestCheckAnswerLimit: check holds an answer to the referee's limit on
// its line (MaxAnswer): an answer of 5 KB, "p" and spaces, which a match
// faults, fails check too, where it once passed under proc's 64 KiB.
func TestCheckAnswerLimit(t *testing.T) {
	script := `cat >/dev/null; printf 'p%5000s\n' ''`
	r, err := runDecision(context.Background(), run{Bot: "long", Argv: []string{"sh", "-c", script}, Dir: t.TempDir(),
		Timeout: 3 * time.Second, Within: "3s"})
	if err != nil || r.Kind != drivers.FaultOutput {
		t.Fatalf("the referee: %+v, %v, want an output fault", r, err)
	}
	opt := drivers.CheckOptions{Move: drivers.Duration(3 * time.Second)}
	bot := drivers.Seat{Bot: "long", Command: []string{"sh", "-c", script}, Dir: t.TempDir()}
	err = checkCase("ordering").Run(context.Background(), bot, opt, nopRecorder{})
	if err == nil || !strings.Contains(err.Error(), "4096 bytes") {
		t.Errorf("check: %v, want the referee's output fault", err)
	}
}
