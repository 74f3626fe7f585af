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
