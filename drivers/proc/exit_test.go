package proc

import (
	"errors"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// TestAwaitExit: awaitExit returns once the process has exited, whether
// it already had or exits while awaited, and leaves it to be reaped by
// Wait, which still reports how it ended.
func TestAwaitExit(t *testing.T) {
	for _, before := range []bool{true, false} {
		// The process exits with 3 once its input closes.
		cmd := exec.Command("/bin/sh", "-c", "read x; exit 3")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		var info unix.Siginfo
		if before {
			in.Close()
			// Until it has exited, not reaping it.
			if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
				t.Fatal(err)
			}
			awaitExit(cmd.Process)
		} else {
			done := make(chan struct{})
			go func() { awaitExit(cmd.Process); close(done) }()
			in.Close()
			<-done
		}
		info = unix.Siginfo{}
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil); err != nil || info.Signo == 0 {
			t.Errorf("exited before awaited %v: awaitExit returned before the process exited (waitid: %v)", before, err)
		}
		var ee *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("exited before awaited %v: Wait after awaitExit = %v, want exit status 3", before, err)
		}
	}
}
