package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
)

// TestInterruptedRunLogsWhy signals a run by its PID with each signal
// that interrupts it: stderr names the signal, and the last line of
// arbiter.log says that the run was interrupted, by which signal, what is
// saved and how to resume. Before, arbiter.log ended at the last progress
// line, with no word of why.
func TestInterruptedRunLogsWhy(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[sig]
		t.Run(name, func(t *testing.T) {
			mark := fmt.Sprintf("runend-%s-%d-%d", name, os.Getpid(), time.Now().UnixNano())
			arbiter, dir := writePinnedConfig(t, mark, 8)
			out := filepath.Join(dir, "out")
			cmd, stderr, exited := startMarked(t, arbiter, dir, out, mark, 1, true, "-pin=false")
			if err := syscall.Kill(cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			err := endOf(t, cmd, exited, stderr, "on "+name)
			noneLeft(t, mark)
			said := regexp.MustCompile(`Interrupted by ` + name + `: (\d+) of 32 matches are finished and saved in ` + regexp.QuoteMeta(out) + `\. Run the same command again to resume\.`)
			m := said.FindStringSubmatch(stderr.String())
			if err == nil || m == nil {
				t.Fatalf("the run ended with %v, saying:\n%s\nwant %s", err, stderr, said)
			}
			if n := lines(filepath.Join(out, engine.ResultsFile)); fmt.Sprint(n) != m[1] {
				t.Errorf("it says %s matches are saved; results.jsonl holds %d", m[1], n)
			}
			b, rerr := os.ReadFile(filepath.Join(out, engine.LogFile))
			if rerr != nil {
				t.Fatal(rerr)
			}
			logLines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			last := logLines[len(logLines)-1]
			if want := "[WARN]  arbiter: the run ended: " + m[0]; !strings.HasSuffix(last, want) {
				t.Errorf("arbiter.log ends with\n%s\nwant\n%s", last, want)
			}
		})
	}
}
