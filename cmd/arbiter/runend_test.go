package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestInterruptedRunLogsWhy signals a run by its PID with each signal
// that interrupts it: stderr names the signal, and the last line of
// arbiter.log says that the run was interrupted, by which signal, what is
// saved and how to resume. Before, arbiter.log ended at the last progress
// line, with no word of why.
func TestInterruptedRunLogsWhy(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		name := signalName(sig)
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
			said := regexp.MustCompile(`Interrupted by ` + name + `: (\d+) of 32 matches finished; saved in ` + regexp.QuoteMeta(out) + `\. Run the same command again to resume\.`)
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

// TestSignalWhileLoadingSaysSo signals a run that is still loading its
// configuration: its -var-file is a named pipe that the test opens and
// never writes, so the load waits on it until the signal comes. The run
// says on stderr that it was interrupted, by which signal, while loading
// the configuration, and that nothing was run, and exits 1 as an
// interrupted run does; it made no results directory. Before, the
// signal's default action ended it without a word.
func TestSignalWhileLoadingSaysSo(t *testing.T) {
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		name := signalName(sig)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(resumeConfig, name)), 0o644); err != nil {
				t.Fatal(err)
			}
			fifo := filepath.Join(t.TempDir(), "slow.tfvars")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(arbiter, "run", dir, "-out", out, "-var-file", fifo)
			stderr, exited := startWatched(t, cmd)
			// Opening the pipe without blocking succeeds once the run has
			// opened it to read: it is loading, and waits for the file.
			var w *os.File
			waitUntil(t, "reading its -var-file", exited, stderr, func() bool {
				f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
				if err != nil && !errors.Is(err, syscall.ENXIO) {
					t.Fatal(err)
				}
				w = f
				return err == nil
			})
			defer w.Close()
			if err := syscall.Kill(cmd.Process.Pid, sig); err != nil {
				t.Fatal(err)
			}
			err := endOf(t, cmd, exited, stderr, "on "+name)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("the run ended with %v, want exit status 1 (an interrupted run's)", err)
			}
			want := "arbiter run: interrupted by " + name + " while loading the configuration; nothing was run.\n"
			if stderr.String() != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the results directory was made (%v)", err)
			}
		})
	}
}

// TestSignalWhilePreparingSaysWhatIsLeft signals a run that has loaded
// its configuration, locked its results directory, fingerprinted the
// bots and written plan.json, and waits to open arbiter.log, a named pipe
// that no one reads. The run says on stderr that it was interrupted while
// preparing the directory, that no match was played, and that the same
// command goes on from what the directory holds, and exits 1; the same
// command then plays the tournament. Before, it said that nothing was run,
// over a directory holding its lock file and plan.json.
func TestSignalWhilePreparingSaysWhatIsLeft(t *testing.T) {
	t.Parallel()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(resumeConfig, "preparing")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(out, engine.LogFile)
	if err := syscall.Mkfifo(logFile, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", dir, "-out", out, "-match", "r001-g01-s1", "-log-level", "warn"} // one match, to go on cheaply
	cmd := exec.Command(arbiter, args...)
	stderr, exited := startWatched(t, cmd)
	// plan.json is written just before arbiter.log is opened, which waits
	// for a reader of the pipe: from here the run is preparing until the
	// signal comes.
	waitUntil(t, "writing plan.json", exited, stderr, func() bool {
		_, err := os.Stat(filepath.Join(out, engine.PlanFile))
		return err == nil
	})
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = endOf(t, cmd, exited, stderr, "on SIGINT")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("the run ended with %v, want exit status 1 (an interrupted run's)", err)
	}
	want := "arbiter run: interrupted by SIGINT while preparing " + out + " (locking it, fingerprinting the bots); no match was played; " +
		out + " keeps what it holds so far, and the same command goes on from there.\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if err := os.Remove(logFile); err != nil {
		t.Fatal(err)
	}
	again, err := exec.Command(arbiter, args...).CombinedOutput()
	if err != nil || !strings.Contains(string(again), "1 match(es) played, 0 already finished") {
		t.Errorf("the same command again: %v\n%s", err, again)
	}
}

// waitUntil polls cond until it holds, as a run started by the test
// (exited, stderr) gets to doing what step says; it fails the test if
// the run ends first, or after a minute.
func waitUntil(t *testing.T, step string, exited <-chan error, stderr *proctest.Buffer, cond func() bool) {
	t.Helper()
	deadline := time.After(time.Minute)
	for !cond() {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before %s:\n%s", err, step, stderr)
		case <-deadline:
			t.Fatalf("the run did not get to %s within a minute:\n%s", step, stderr)
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// startWatched starts cmd with its standard error kept, and returns that
// and a channel that gets cmd's Wait error once it has exited.
func startWatched(t *testing.T, cmd *exec.Cmd) (*proctest.Buffer, <-chan error) {
	t.Helper()
	stderr := new(proctest.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return stderr, exited
}

// TestLogFileLostKeepsWholeLines: a log line that arbiter.log cannot take
// whole (here RLIMIT_FSIZE stops it part way, as a full disk or a quota
// does) is cut off again, and once there is room the file takes no more
// of the run's log, neither its lines nor those of the file alone (the
// run's end): it holds what it held before, whole lines, with no gap that
// it does not show. stderr says once that the file is lost, and has every
// line. Before, the file kept the torn line, and the run's last line,
// written once there was room, was glued to it.
func TestLogFileLostKeepsWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), engine.LogFile)
	first := "2026-11-24T22:00:00.000Z [INFO]  arbiter: an earlier run's line\n"
	if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cf configFlags
	file := &logFileOut{f: f}
	fileLog := cf.logger(file)
	var stderr proctest.Buffer
	_, log := cf.runLog(&stderr, &stderr, file, fileLog)
	proctest.WithFileLimit(t, len(first)+20, func() error {
		log.Info("a line the file cannot take whole", "match", "r001-g01-s1")
		return nil
	})
	log.Info("a line once there is room again", "match", "r001-g01-s2")
	fileLog.Info("the run ended")

	if b, _ := os.ReadFile(path); string(b) != first {
		t.Errorf("arbiter.log holds %q, want its earlier line alone, %q", b, first)
	}
	out := stderr.String()
	if n := strings.Count(out, path+" cannot be written"); n != 1 {
		t.Errorf("stderr says %d times that the file cannot be written, want once:\n%s", n, out)
	}
	for _, line := range []string{"match=r001-g01-s1", "match=r001-g01-s2"} {
		if strings.Count(out, line) != 1 {
			t.Errorf("stderr does not have %s once:\n%s", line, out)
		}
	}
}
