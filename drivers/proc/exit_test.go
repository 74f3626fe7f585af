package proc

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

// TestAwaitExit: awaitExit returns once the process has exited, whether
// it already had or exits later, and leaves it to be reaped by Wait,
// which still reports how it ended.
func TestAwaitExit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		argv  []string
		after time.Duration // the process exits this long after its start, at least
	}{
		{"exited before", []string{"/bin/sh", "-c", "exit 3"}, 0},
		{"exits later", []string{"/bin/sh", "-c", "sleep 0.2; exit 3"}, 200 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(tt.argv[0], tt.argv[1:]...)
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if tt.after == 0 {
				time.Sleep(100 * time.Millisecond)
			}
			awaitExit(cmd.Process)
			if took := time.Since(start); took < tt.after {
				t.Errorf("awaitExit returned after %v, before the process exited (%v)", took, tt.after)
			}
			var ee *exec.ExitError
			if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Errorf("Wait after awaitExit = %v, want exit status 3", err)
			}
		})
	}
}
