package proctest

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestFindsMarkedAndZombies checks the helpers on real processes: a marked
// process is found by its environment and its arguments, and once it has
// exited unreaped it is a zombie child, then nothing once reaped.
func TestFindsMarkedAndZombies(t *testing.T) {
	entry := "PROCTEST_MARK=" + time.Now().Format("150405.000000000")
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), entry)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if got := WithEnv(entry); !slices.Equal(got, []int{pid}) {
		t.Errorf("WithEnv(%q) = %v, want [%d]", entry, got, pid)
	}
	if got := WithCmdline("sleep\x0030"); !slices.Contains(got, pid) {
		t.Errorf("WithCmdline found %v, not %d", got, pid)
	}
	if c := Cmdline(pid); c != "sleep 30" {
		t.Errorf("Cmdline = %q", c)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !slices.Contains(ZombieChildren(), pid); {
		if time.Now().After(deadline) {
			t.Fatalf("killed child %d never showed as a zombie", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ppid, state, ok := Stat(pid); !ok || ppid != os.Getpid() || state != 'Z' {
		t.Errorf("Stat = %d %c %v, want our zombie", ppid, state, ok)
	}
	_ = cmd.Wait()
	if got := WithEnv(entry); len(got) != 0 {
		t.Errorf("WithEnv after reaping = %v", got)
	}
	if slices.Contains(ZombieChildren(), pid) {
		t.Errorf("reaped child %d still a zombie", pid)
	}
}
