package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestJobStopIsNoFault stops a run as Slurm's scancel or a systemd stop
// does, with SIGTERM to every process of the job, its bots first: the
// house bots, each the first process of its sandbox's PID namespace, exit
// with status 2 (the Go runtime's way when the signal cannot end it), and
// those ends, seen before the run hears the signal, are not judged. The
// run ends as interrupted with no result that has a fault (the tournament
// has none), and it resumes to the outcomes of an uninterrupted run. Both
// ways a run plays: in pinned workers (-j 2), and in one process
// (-pin=false).
func TestJobStopIsNoFault(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, pin string }{{"workers", "-pin=true"}, {"one-process", "-pin=false"}} {
		t.Run(c.name, func(t *testing.T) {
			if c.pin == "-pin=true" {
				needTwoCPUs(t)
			}
			mark := fmt.Sprintf("jobstop-%s-%d-%d", c.name, os.Getpid(), time.Now().UnixNano())
			arbiter, dir := writePinnedConfig(t, mark, 8)
			out := filepath.Join(dir, "out")
			cmd, stderr, exited := startMarked(t, arbiter, dir, out, mark, 2, true, c.pin)
			results := filepath.Join(out, engine.ResultsFile)

			bots := liveBots(t, mark, exited, stderr)
			for _, pid := range bots {
				_ = syscall.Kill(pid, syscall.SIGTERM)
			}
			// A bot is gone, and its end seen, before the run hears the
			// signal: a moment later, as a job's processes are signalled
			// one after another. (Not every bot: one still starting, not
			// yet the bot, ignores the signal as its namespace's first
			// process, and plays on until the run stops.)
			var pause proctest.Backoff
			for gone := false; !gone; {
				for _, pid := range bots {
					if _, _, ok := proctest.Stat(pid); !ok {
						gone = true
					}
				}
				pause.Sleep()
			}
			before := lines(results)
			for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end) && lines(results) == before; {
				time.Sleep(time.Millisecond)
			}
			// The workers, which leave the decision to the run, before
			// the run.
			for _, pid := range append(workers(mark, cmd.Process.Pid), cmd.Process.Pid) {
				_ = syscall.Kill(pid, syscall.SIGTERM)
			}
			if err := endOf(t, cmd, exited, stderr, "on SIGTERM"); err == nil || !strings.Contains(stderr.String(), "Interrupted by SIGTERM: ") {
				t.Errorf("the run ended with %v, saying:\n%s", err, stderr)
			}
			noneLeft(t, mark)
			_, res, err := engine.ReadDir(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				for _, s := range r.Seats {
					if s.Fault != "" {
						t.Errorf("match %s, which the stop ended, was judged: %s %s (%s)", r.Match, s.Bot, s.Fault, s.Detail)
					}
				}
			}
			runToEnd(t, arbiter, dir, out, "2")
			whole := filepath.Join(dir, "whole")
			if b, err := exec.Command(arbiter, "run", dir, "-out", whole, "-j", "2", "-pin=false").CombinedOutput(); err != nil {
				t.Fatalf("run -pin=false: %v\n%s", err, b)
			}
			if diff := cmp.Diff(outcomes(t, whole), outcomes(t, out)); diff != "" {
				t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
			}
		})
	}
}

// liveBots waits until bots of mark are playing, and returns them.
func liveBots(t *testing.T, mark string, exited <-chan error, stderr *proctest.Buffer) []int {
	t.Helper()
	var pause proctest.Backoff
	for {
		if bots := proctest.WithEnv("RUN_MARK=" + mark); len(bots) > 0 {
			return bots
		}
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) too soon:\n%s", err, stderr)
		case <-pause.After():
		}
	}
}
