package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

func TestSplitCPUs(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		jobs int
		want [][]int
	}{
		{[]int{0, 1}, 2, [][]int{{0}, {1}}},
		{[]int{0, 1, 2}, 2, [][]int{{0}, {1, 2}}},
		{[]int{2, 3, 6, 7, 8, 9, 10, 11}, 3, [][]int{{2, 3}, {6, 7, 8}, {9, 10, 11}}},
		{[]int{4}, 1, [][]int{{4}}},
		{[]int{0, 1}, 3, nil},
		{[]int{0, 1}, 4, [][]int{{0}, {1}, {0}, {1}}},
		{[]int{5, 7, 9}, 6, [][]int{{5}, {7}, {9}, {5}, {7}, {9}}},
		{nil, 2, nil},
		{[]int{0, 1}, 0, nil},
	} {
		if diff := cmp.Diff(c.want, splitCPUs(c.cpus, c.jobs)); diff != "" {
			t.Errorf("splitCPUs(%v, %d) (-want +got):\n%s", c.cpus, c.jobs, diff)
		}
	}
}

// A run's matches are pinned when its CPUs divide among them; when they
// are not, the run's log says why.
func TestPinningSaysWhyNot(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		jobs int
		pin  bool
		why  string
	}{
		{[]int{0, 1}, 2, true, ""},
		{[]int{0, 1}, 4, true, ""},
		{[]int{0, 1}, 1, true, "-j 1 plays one match at a time"},
		{[]int{0, 1}, 3, true, "-j 3 is more than the 2 CPU(s) arbiter may use and not a multiple of them"},
		{[]int{0, 1}, 2, false, "-pin=false"},
	} {
		shares, why := pinning(c.cpus, c.jobs, c.pin)
		if why != c.why || (shares == nil) != (why != "") {
			t.Errorf("pinning(%v, %d, %v): %v, %q; want %q", c.cpus, c.jobs, c.pin, shares, why, c.why)
		}
	}
}

// TestWorkerLogRelay logs through a worker's logger and reads the record
// back as the parent does: level, module, message, and the arguments in
// the order given (implied ones first), printed as hclog prints them.
func TestWorkerLogRelay(t *testing.T) {
	var buf bytes.Buffer
	log := workerLogger(&buf, hclog.Info).Named("engine").With("match", "r001-g01-s1")
	log.Debug("below the level")
	log.Warn("bot fault", "seat", 2, "bot", "a", "took", 1500*time.Millisecond, "error", errors.New("pipe closed"), "seats", []string{"a", "b"})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d records, want 1:\n%s", len(lines), &buf)
	}
	level, module, msg, args, ok := parseRecord([]byte(lines[0]))
	if !ok || level != hclog.Warn || module != "engine" || msg != "bot fault" {
		t.Fatalf("got %v %q %q ok=%v from %s", level, module, msg, ok, lines[0])
	}
	want := []string{"match", "r001-g01-s1", "seat", "2", "bot", "a", "took", "1.5s", "error", "pipe closed", "seats", "[a b]"}
	got := make([]string, len(args))
	for i, a := range args {
		got[i] = fmt.Sprint(a)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	for _, line := range []string{"", "panic: oops", "{not json", `["level"]`, `{"msg":"no level"}`} {
		if _, _, _, _, ok := parseRecord([]byte(line)); ok {
			t.Errorf("parseRecord(%q) took it for a record", line)
		}
	}
}

// TestLockOfDeadRunWaitsForItsWorkers: a results directory whose lock
// the workers of a run that died still share (another open file holds
// the flock; the holder's pid is gone) is waited for, taken once they
// let go, and refused, saying why, when they do not.
func TestLockOfDeadRunWaitsForItsWorkers(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	holder := fmt.Sprintf(`{"pid":%d,"host":%q,"since":"2026-01-01T00:00:00Z","command":["arbiter","run"]}`+"\n", dead.Process.Pid, host)
	path := filepath.Join(dir, LockFile)
	if err := os.WriteFile(path, []byte(holder), 0o644); err != nil {
		t.Fatal(err)
	}
	workers, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer workers.Close()
	if err := syscall.Flock(int(workers.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { orphanWait = d }(orphanWait)
	orphanWait = 200 * time.Millisecond
	start := time.Now()
	_, err = LockDir(dir)
	var le *LockedError
	if !errors.As(err, &le) || !le.Orphaned || !strings.Contains(err.Error(), "worker processes of a run that ended") {
		t.Fatalf("LockDir while the dead run's workers hold it: %v; want an orphaned LockedError", err)
	}
	if waited := time.Since(start); waited < orphanWait {
		t.Errorf("refused after %s, before waiting %s", waited, orphanWait)
	}
	orphanWait = time.Minute
	go func() {
		time.Sleep(100 * time.Millisecond)
		workers.Close() // the last worker ends
	}()
	lock, err := LockDir(dir)
	if err != nil {
		t.Fatalf("LockDir once the workers let go: %v", err)
	}
	lock.Unlock()
}

// TestLockOfDeadRunNamesItsWorkers: when the workers of a run that died
// keep its directory locked, the refusal names their processes, found by
// the lock file they hold open, rather than a pgrep pattern that misses
// an executable with another name and lists other users' workers.
func TestLockOfDeadRunNamesItsWorkers(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	holder := fmt.Sprintf(`{"pid":%d,"host":%q,"since":"2026-01-01T00:00:00Z","command":["/opt/x/arbiter-1.2","run"]}`+"\n", dead.Process.Pid, host)
	path := filepath.Join(dir, LockFile)
	if err := os.WriteFile(path, []byte(holder), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// The worker: a process that inherited the locked file, as a run's
	// workers do.
	worker := exec.Command("sleep", "600")
	worker.ExtraFiles = []*os.File{f}
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { worker.Process.Kill(); worker.Wait() }()
	f.Close()

	defer func(d time.Duration) { orphanWait = d }(orphanWait)
	orphanWait = 50 * time.Millisecond
	_, err = LockDir(dir)
	var le *LockedError
	if !errors.As(err, &le) || !slices.Equal(le.Workers, []int{worker.Process.Pid}) {
		t.Fatalf("LockDir: %v; want a LockedError naming worker %d", err, worker.Process.Pid)
	}
	want := fmt.Sprintf("They are process(es) %d: stop them (kill %d), then run again", worker.Process.Pid, worker.Process.Pid)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("the refusal says %q, want %q in it", err, want)
	}
	le.Workers = nil // /proc could not tell: the pattern names the executable
	if want := `pgrep -f 'arbiter-1.2 worker'`; !strings.Contains(le.Error(), want) {
		t.Errorf("the refusal says %q, want %q in it", le, want)
	}
}

// A worker refuses the matches of a run of another arbiter build (one
// installed over the run's executable while it went on), naming both; a
// run that recorded no build is not compared.
func TestWorkerRefusesAnotherBuild(t *testing.T) {
	other := &plan.Arbiter{Version: "v9.9.9", Revision: "0123456789ab"}
	hello, err := json.Marshal(workerHello{Plan: &plan.Plan{Arbiter: other}, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	err = ServeWorker(bytes.NewReader(append(hello, '\n')), io.Discard, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "the arbiter executable was replaced while the run went on") ||
		!strings.Contains(err.Error(), other.ID()) {
		t.Fatalf("ServeWorker for another build: %v", err)
	}
	mine, err := fingerprint.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := sameBuild(mine); err != nil {
		t.Errorf("its own build: %v", err)
	}
	if err := sameBuild(nil); err != nil {
		t.Errorf("no build recorded: %v", err)
	}
}

// TestWorkerGetsTheRunsProbe: a worker is started with the run's probe
// of the machine (proc.MachineEnv), which it uses instead of probing
// again: a probe of its own that failed on a loaded machine ran bots
// bare that the run had said were sandboxed.
func TestWorkerGetsTheRunsProbe(t *testing.T) {
	cmd := workerCommand("/usr/bin/arbiter")
	var got []string
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, proc.MachineEnv+"=") {
			got = append(got, kv)
		}
	}
	if want := proc.MachineEnviron(proc.Machine()); len(got) != 1 || got[0] != want {
		t.Errorf("the worker's environment has %q, want only %q", got, want)
	}
}
