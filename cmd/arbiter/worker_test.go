package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// needTwoCPUs skips a test of pinned workers where there is nothing to pin.
func needTwoCPUs(t *testing.T) {
	t.Helper()
	if engine.CPUShares(2) == nil {
		t.Skipf("arbiter may use %d CPU(s) here: -j 2 is not pinned", runtime.NumCPU())
	}
}

// writePinnedConfig writes resumeConfig with rounds rounds, whose bot a
// reports, on its stderr, the CPUs it may run on before it plays.
func writePinnedConfig(t *testing.T, mark string, rounds int) (arbiter, dir string) {
	t.Helper()
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(resumeConfig, mark)
	for from, to := range map[string]string{
		"bot \"a\" {\n  house = \"planowanie/random\"": fmt.Sprintf("bot \"a\" {\n  command = [\"/bin/sh\", \"-c\", %q, %q]",
			`grep Cpus_allowed_list /proc/self/status >&2; exec "$0" bot planowanie/random`, arbiter),
		"rounds  = 8": fmt.Sprintf("rounds  = %d", rounds),
	} {
		if !strings.Contains(cfg, from) {
			t.Fatalf("resumeConfig has no %q", from)
		}
		cfg = strings.Replace(cfg, from, to, 1)
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return arbiter, dir
}

// TestPinnedWorkersPlayAsOneProcess runs a tournament at -j 2, where each
// match plays in a worker process pinned to one CPU, and at -j 2
// -pin=false, all in one process: the same outcomes and transcripts
// (timings aside); in the pinned run every match's bot sees one CPU, both
// CPUs are used, and the workers' log records reach the run's log.
func TestPinnedWorkersPlayAsOneProcess(t *testing.T) {
	t.Parallel()
	needTwoCPUs(t)
	mark := fmt.Sprintf("pinned-%d-%d", os.Getpid(), time.Now().UnixNano())
	arbiter, dir := writePinnedConfig(t, mark, 4)
	pinned, free := filepath.Join(dir, "pinned"), filepath.Join(dir, "free")
	for _, run := range []struct{ out, pin string }{{pinned, "-pin"}, {free, "-pin=false"}} {
		if b, err := exec.Command(arbiter, "run", dir, "-out", run.out, "-j", "2", run.pin, "-log-level", "debug").CombinedOutput(); err != nil {
			t.Fatalf("run %s: %v\n%s", run.pin, err, b)
		}
	}
	if diff := cmp.Diff(outcomes(t, free), outcomes(t, pinned)); diff != "" {
		t.Errorf("pinned workers' outcomes differ from one process's (-free +pinned):\n%s", diff)
	}
	matches, _ := filepath.Glob(filepath.Join(pinned, engine.MatchesDir, "*"))
	if len(matches) != 16 {
		t.Fatalf("%d match directories, want 16", len(matches))
	}
	cpus := map[string]bool{}
	for _, m := range matches {
		id := filepath.Base(m)
		got, want := transcript(t, m), transcript(t, filepath.Join(free, engine.MatchesDir, id))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("match %s: transcripts differ (-free +pinned):\n%s", id, diff)
		}
		stderr, _ := filepath.Glob(filepath.Join(m, "seat*-a.stderr"))
		if len(stderr) != 1 {
			t.Fatalf("match %s: bot a's stderr files: %v", id, stderr)
		}
		b, _ := os.ReadFile(stderr[0])
		list, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "Cpus_allowed_list:")
		list = strings.TrimSpace(list)
		if !ok || strings.ContainsAny(list, ",-") {
			t.Errorf("match %s: bot a may run on %q, want one CPU", id, b)
		}
		cpus[list] = true
	}
	if len(cpus) != 2 {
		t.Errorf("the matches' bots ran on CPUs %v, want two CPUs", cpus)
	}
	log, _ := os.ReadFile(filepath.Join(pinned, engine.LogFile))
	if n := len(regexp.MustCompile(`\[DEBUG\] arbiter\.engine: match started: match=r\d+-g\d+-s\d `).FindAll(log, -1)); n != 16 {
		t.Errorf("the pinned run's log has %d workers' \"match started\" records, want 16:\n%s", n, log)
	}
}

var timing = regexp.MustCompile(`"(t|ms|elapsed_ms|time_ms|off_move_ms)":[0-9.]+,?|time_left \d+|"fingerprints":\{[^}]*\}`)

// transcript is a match's events with their timings left out.
func transcript(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, engine.TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	return timing.ReplaceAllString(string(b), "")
}

// workers lists the worker processes of the run marked with mark: the
// run's children that are workers (a bot that a worker forked has the
// worker's command line until it executes its own), or with run 0 every
// process that holds the mark.
func workers(mark string, run int) []int {
	var out []int
	for _, pid := range proctest.WithEnv("WORKER_MARK=" + mark) {
		ppid, _, ok := proctest.Stat(pid)
		if run == 0 || ok && ppid == run && strings.HasSuffix(proctest.Cmdline(pid), " worker") {
			out = append(out, pid)
		}
	}
	sort.Ints(out)
	return out
}

// startMarked starts arbiter run -j 2 (and flags), in its own process
// group when group, its workers marked with mark, and waits until results
// has at least n lines.
func startMarked(t *testing.T, arbiter, dir, out, mark string, n int, group bool, flags ...string) (*exec.Cmd, *proctest.Buffer, <-chan error) {
	t.Helper()
	cmd := exec.Command(arbiter, append([]string{"run", dir, "-out", out, "-j", "2"}, flags...)...)
	cmd.Env = append(os.Environ(), "WORKER_MARK="+mark)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group}
	stderr, exited := startWatched(t, cmd)
	results := filepath.Join(out, engine.ResultsFile)
	for lines(results) < n {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) too soon:\n%s", err, stderr)
		case <-time.After(2 * time.Millisecond):
		}
	}
	return cmd, stderr, exited
}

// endOf waits for a run started by startMarked to end, and returns how it
// ended. Only a run that hangs takes 3 minutes (the rest of a run of 32
// matches took 28 s under the race detector on a busy host): then it
// kills the run's process group and fails.
func endOf(t *testing.T, cmd *exec.Cmd, exited <-chan error, stderr *proctest.Buffer, when string) error {
	t.Helper()
	select {
	case err := <-exited:
		return err
	case <-time.After(3 * time.Minute):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		t.Fatalf("the run did not end %s:\n%s", when, stderr)
		return nil
	}
}

// markedRun is a pinned run of writePinnedConfig's tournament (8
// rounds, 32 matches), started by startPinnedRun.
type markedRun struct {
	arbiter, dir, out, mark string
	cmd                     *exec.Cmd
	stderr                  *proctest.Buffer
	exited                  <-chan error
	workers                 []int
}

// startPinnedRun starts a marked run (startMarked) and waits until it has
// n results, then finds its workers.
func startPinnedRun(t *testing.T, name string, n int, group bool) *markedRun {
	t.Helper()
	needTwoCPUs(t)
	r := &markedRun{mark: fmt.Sprintf("%s-%d-%d", name, os.Getpid(), time.Now().UnixNano())}
	r.arbiter, r.dir = writePinnedConfig(t, r.mark, 8)
	r.out = filepath.Join(r.dir, "out")
	r.cmd, r.stderr, r.exited = startMarked(t, r.arbiter, r.dir, r.out, r.mark, n, group)
	r.workers = workers(r.mark, r.cmd.Process.Pid)
	return r
}

// noneLeft fails unless the run's workers and bots are gone within
// goneWithin.
func noneLeft(t *testing.T, mark string) {
	t.Helper()
	deadline := time.Now().Add(goneWithin)
	for pause := (proctest.Backoff{}); ; pause.Sleep() {
		left := append(workers(mark, 0), proctest.WithEnv("RUN_MARK="+mark)...)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				t.Errorf("process %d (%s) outlived the run", pid, proctest.Cmdline(pid))
			}
			return
		}
	}
}

// TestCtrlCStopsPinnedRun sends SIGINT to the whole process group of a
// pinned run, as a terminal's Ctrl-C does: the workers leave the decision
// to the run, which ends as interrupted with every process gone, and the
// run resumes to the outcomes of a run in one process.
func TestCtrlCStopsPinnedRun(t *testing.T) {
	t.Parallel()
	r := startPinnedRun(t, "ctrlc", 3, true)
	if len(r.workers) != 2 {
		t.Errorf("worker processes %v, want 2", r.workers)
	}
	if err := syscall.Kill(-r.cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := endOf(t, r.cmd, r.exited, r.stderr, "on SIGINT"); !strings.Contains(r.stderr.String(), "Interrupted by SIGINT: ") || err == nil {
		t.Errorf("the run ended with %v, saying:\n%s", err, r.stderr)
	}
	noneLeft(t, r.mark)
	runToEnd(t, r.arbiter, r.dir, r.out, "2")
	whole := filepath.Join(r.dir, "whole")
	if b, err := exec.Command(r.arbiter, "run", r.dir, "-out", whole, "-j", "2", "-pin=false").CombinedOutput(); err != nil {
		t.Fatalf("run -pin=false: %v\n%s", err, b)
	}
	if diff := cmp.Diff(outcomes(t, whole), outcomes(t, r.out)); diff != "" {
		t.Errorf("resumed results differ from an uninterrupted run (-want +got):\n%s", diff)
	}
}

// TestKilledWorkerFailsRun kills a worker process with SIGKILL during a
// run: the run stops with an error that names it, keeps every result it
// journaled, leaves no process behind, and a re-run finishes the rest.
func TestKilledWorkerFailsRun(t *testing.T) {
	t.Parallel()
	r := startPinnedRun(t, "workerkill", 2, true)
	if len(r.workers) == 0 {
		t.Fatal("no worker process found")
	}
	if err := syscall.Kill(r.workers[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := endOf(t, r.cmd, r.exited, r.stderr, "when its worker was killed")
	want := fmt.Sprintf("worker process %d (CPUs ", r.workers[0])
	if err == nil || !strings.Contains(r.stderr.String(), want) || !strings.Contains(r.stderr.String(), "signal: killed") {
		t.Errorf("the run ended with %v, saying:\n%s\nwant it to name %q, killed", err, r.stderr, want)
	}
	noneLeft(t, r.mark)
	before := lines(filepath.Join(r.out, engine.ResultsFile))
	b, err := exec.Command(r.arbiter, "run", r.dir, "-out", r.out, "-j", "2").Output()
	if err != nil {
		t.Fatalf("re-run: %v", err)
	}
	if want := fmt.Sprintf("%d match(es) played, %d already finished", 32-before, before); !strings.Contains(string(b), want) {
		t.Errorf("re-run says:\n%s\nwant %q", b, want)
	}
}

// TestStoppedWorkerIsToldOf stops a worker process with SIGSTOP during a
// run: the run says so in its log, naming the worker and its match, and
// does nothing to it; once continued, the worker plays on and the run
// ends as always.
func TestStoppedWorkerIsToldOf(t *testing.T) {
	t.Parallel()
	r := startPinnedRun(t, "workerstop", 1, true)
	if len(r.workers) == 0 {
		t.Fatal("no worker process found")
	}
	pid := r.workers[0]
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(r.out, engine.LogFile)
	want := regexp.MustCompile(fmt.Sprintf(`\[WARN\] .*worker process %d is stopped .*kill -CONT %d lets it go on: pid=%d match=r\d+-g\d+-s\d+`, pid, pid, pid))
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(log); want.Match(b) {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGCONT)
			b, _ := os.ReadFile(log)
			t.Fatalf("the run did not tell of its stopped worker %d within 60s:\n%s", pid, b)
		}
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := endOf(t, r.cmd, r.exited, r.stderr, "once its worker went on"); err != nil {
		t.Errorf("the run ended with %v:\n%s", err, r.stderr)
	}
	if n := lines(filepath.Join(r.out, engine.ResultsFile)); n != 32 {
		t.Errorf("%d results, want 32", n)
	}
}

// TestDeadRunsWorkersKeepTheLock kills a pinned run with SIGKILL while
// its workers are stopped (SIGSTOP), so that they outlive it: the next
// run into the directory waits for them, writing nothing, and goes on
// once they are gone, to the end of the tournament.
func TestDeadRunsWorkersKeepTheLock(t *testing.T) {
	t.Parallel()
	// In the test's process group: a group of its own would be orphaned
	// by the kill, and the kernel would wake its stopped workers.
	r := startPinnedRun(t, "orphans", 2, false)
	arbiter, dir, out, ws := r.arbiter, r.dir, r.out, r.workers
	if len(ws) != 2 {
		t.Fatalf("worker processes %v, want 2", ws)
	}
	for _, pid := range ws {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Kill(r.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	endOf(t, r.cmd, r.exited, r.stderr, "on SIGKILL")
	results := filepath.Join(out, engine.ResultsFile)
	before := lines(results)

	next := exec.Command(arbiter, "run", dir, "-out", out, "-j", "2")
	var nextOut proctest.Buffer
	next.Stdout, next.Stderr = &nextOut, &nextOut
	if err := next.Start(); err != nil {
		t.Fatal(err)
	}
	nextDone := make(chan error, 1)
	go func() { nextDone <- next.Wait() }()
	select {
	case err := <-nextDone:
		t.Fatalf("the next run did not wait for the dead run's workers (%v):\n%s", err, &nextOut)
	case <-time.After(500 * time.Millisecond):
	}
	if n := lines(results); n != before {
		t.Errorf("the waiting run wrote results: %d lines, %d before:\n%s", n, before, &nextOut)
	}
	for _, pid := range ws {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	select {
	case err := <-nextDone:
		want := fmt.Sprintf("%d match(es) played, %d already finished", 32-before, before)
		if err != nil || !strings.Contains(nextOut.String(), want) {
			t.Errorf("the next run ended with %v, saying:\n%s\nwant %q", err, &nextOut, want)
		}
	case <-time.After(3 * time.Minute): // as endOf
		_ = next.Process.Kill()
		<-nextDone
		t.Fatalf("the next run did not end:\n%s", &nextOut)
	}
	noneLeft(t, r.mark)
}

// TestJobsInIsPolled: the worker reads its jobs through Go's poller (a
// file with deadlines), not in a blocking read that would hold the
// pinned worker's one Go processor for the length of every match.
func TestJobsInIsPolled(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		unix.Dup3(saved, 0, 0)
		unix.Close(saved)
	}()
	// As a worker inherits it: the pipe's read end as standard input,
	// in blocking mode.
	if err := unix.Dup3(int(r.Fd()), 0, 0); err != nil {
		t.Fatal(err)
	}
	jobs, err := jobsIn()
	if err != nil {
		t.Fatal(err)
	}
	defer jobs.Close()
	if err := jobs.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatalf("the jobs file takes no deadline (%v): it is read in blocking mode", err)
	}
	w.WriteString("job\n")
	buf := make([]byte, 16)
	if n, err := jobs.Read(buf); err != nil || string(buf[:n]) != "job\n" {
		t.Errorf("read %q, %v; want the job", buf[:n], err)
	}
}
