package proctest

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestFindsMarkedAndZombies checks the helpers on real processes: a marked
// process is found by its environment and its arguments, and once it has
// exited unreaped it is a zombie child, then nothing once reaped.
//
// The child is a shell that says "ready" and then waits on its stdin. Its
// /proc environ and cmdline are only complete once its execve has set up
// the new program's stack, which is after cmd.Start returns (Start only
// waits for the close-on-exec pipe, closed earlier in execve), so the test
// reads them only after the shell itself has written a line.
func TestFindsMarkedAndZombies(t *testing.T) {
	entry := "PROCTEST_MARK=" + time.Now().Format("150405.000000000")
	const script = "echo ready; read line"
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), entry)
	stdin, err := cmd.StdinPipe() // held open: the shell waits on it
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("child said %q, %v; want ready", line, err)
	}
	pid := cmd.Process.Pid
	if got := WithEnv(entry); !slices.Equal(got, []int{pid}) {
		t.Errorf("WithEnv(%q) = %v, want [%d]", entry, got, pid)
	}
	if got := WithCmdline("-c\x00" + script); !slices.Contains(got, pid) {
		t.Errorf("WithCmdline found %v, not %d", got, pid)
	}
	if c := Cmdline(pid); c != "sh -c "+script {
		t.Errorf("Cmdline = %q", c)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	var pause Backoff
	for deadline := time.Now().Add(10 * time.Second); !slices.Contains(ZombieChildren(), pid); {
		if time.Now().After(deadline) {
			t.Fatalf("killed child %d never showed as a zombie", pid)
		}
		pause.Sleep()
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

// TestBackoff: the first look comes at once, the pauses double, and they
// stop growing at lastPause however long the wait.
func TestBackoff(t *testing.T) {
	var b Backoff
	var got []time.Duration
	for range 9 {
		got = append(got, b.Pause())
	}
	ms := time.Millisecond
	want := []time.Duration{ms, 2 * ms, 4 * ms, 8 * ms, 16 * ms, 32 * ms, 32 * ms, 32 * ms, 32 * ms}
	if !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
}
