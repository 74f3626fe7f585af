package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// A build killed by a SIGKILL arbiter did not send (not its timeout, no
// limit) says so, and who else may have: another program or the OOM
// killer; a build that fails otherwise, or at its timeout, does not.
func TestBuildKilledFromOutside(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		timeout      time.Duration
		want, not    string
	}{
		{"killed", "exec sleep 29.817", time.Minute, "failed: signal: killed (a signal arbiter did not send: not its build_timeout of 1m0s, nor a limit of arbiter's, its log is empty; another program killed it, or the kernel's OOM killer", ""},
		{"failed", "echo no >&2; exit 2", time.Minute, "failed: exit status 2", "did not send"},
		{"timeout", "sleep 30", 300 * time.Millisecond, "took longer than its limit of 300ms", "did not send"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b := &plan.Bot{Name: "b", Build: []string{"sh", "-c", tc.script}, BuildTimeout: drivers.Duration(tc.timeout)}
			log := filepath.Join(t.TempDir(), "b.log")
			if tc.name == "killed" {
				go killFromOutside(t, "sleep\x0029.817\x00")
			}
			detail, err := runBuild(context.Background(), b, dir, log, "", func(string, ...any) {})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(detail, tc.want) || tc.not != "" && strings.Contains(detail, tc.not) {
				t.Errorf("detail = %q, want %q (log %q)", detail, tc.want, readLog(log))
			}
		})
	}
}

func readLog(p string) string { b, _ := os.ReadFile(p); return string(b) }

// killFromOutside sends SIGKILL, as another program or the OOM killer
// would, to the process whose command line is cmdline, once it runs.
func killFromOutside(t *testing.T, cmdline string) {
	for range 500 {
		dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, d := range dirs {
			if b, err := os.ReadFile(d); err == nil && string(b) == cmdline {
				pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
				_ = syscall.Kill(pid, syscall.SIGKILL)
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("no process %q to kill", cmdline)
}
