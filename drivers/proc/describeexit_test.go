package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// DescribeExit says how a process ended, a status past 128 as the signal
// that killed it, as the drivers word a crash after an answer.
func TestDescribeExit(t *testing.T) {
	for status, want := range map[int]string{
		0:   "exited with status 0",
		1:   "exited with status 1",
		128: "exited with status 128",
		137: "killed by signal killed",
		143: "killed by signal terminated",
	} {
		if got := DescribeExit(status); got != want {
			t.Errorf("DescribeExit(%d) = %q, want %q", status, got, want)
		}
	}
}

// TestAbortAsPID1: a bot that is PID 1 of its own PID namespace (under a
// limit, or in the sandbox) and calls abort() is ended by SIGSEGV, since
// the kernel drops the SIGABRT it sends itself: its crash's detail says
// that it may have been an abort, in a per-move run and in a session; a
// bare bot, killed by SIGABRT, is described as before.
func TestAbortAsPID1(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	if !Machine().PIDNS {
		t.Skip("no PID namespaces: ", Machine().Why["PID namespace"])
	}
	argv := []string{py, "-c", "import os; os.abort()"}
	for _, tc := range []struct {
		name string
		lim  drivers.Limits
		want string
	}{
		{"bare", drivers.Limits{}, "killed by signal aborted"},
		{"pid1", drivers.Limits{Memory: 256 << 20}, "killed by signal segmentation fault (or an abort(): "},
		{"sandbox", drivers.Limits{Sandbox: &drivers.Sandbox{}}, "killed by signal segmentation fault (or an abort(): "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.lim.Sandbox != nil && !Machine().Sandbox {
				t.Skip("no sandbox: ", Machine().Why["sandbox"])
			}
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			r, err := RunOnce(context.Background(), OnceSpec{Bot: "b", Argv: argv, Dir: dir, Limits: tc.lim, Timeout: time.Minute})
			if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultCrash || !strings.HasPrefix(r.Fault.Detail, tc.want) {
				t.Errorf("RunOnce: %+v, %v; want a crash whose detail starts %q", r.Fault, err, tc.want)
			}
			if tc.name == "bare" && r.Fault != nil && strings.Contains(r.Fault.Detail, "abort()") {
				t.Errorf("RunOnce: a bare bot's detail %q speaks of PID 1", r.Fault.Detail)
			}
			s, err := Start(context.Background(), Spec{Bot: "b", Argv: argv, Dir: dir, Limits: tc.lim,
				Clock: drivers.Clock{Move: drivers.Duration(time.Minute)}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Kill()
			_, err = s.ReadLine(time.Now().Add(time.Minute))
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultCrash || !strings.Contains(f.Detail, tc.want) {
				t.Errorf("session: %v; want a crash whose detail says %q", err, tc.want)
			}
		})
	}
}
