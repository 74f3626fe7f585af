package proc

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// resetStop forgets Stopping when the test ends: the tests that call it
// do not run in parallel (no parallel test runs beside them), and every
// later test sees a run that was never stopped.
func resetStop(t *testing.T) {
	t.Cleanup(func() {
		stop.Lock()
		defer stop.Unlock()
		stop.ch = nil
	})
}

// TestStopLike: the ends a signal that stops a whole job gives a bot,
// and no others.
func TestStopLike(t *testing.T) {
	exited := func(code int) syscall.WaitStatus { return syscall.WaitStatus(code << 8) }
	killed := func(sig syscall.Signal) syscall.WaitStatus { return syscall.WaitStatus(sig) }
	for _, c := range []struct {
		ws   syscall.WaitStatus
		want bool
	}{
		{killed(syscall.SIGTERM), true},
		{killed(syscall.SIGINT), true},
		{killed(syscall.SIGHUP), true},
		{killed(syscall.SIGKILL), true},
		{exited(2), true},   // a Go program the signal could not end
		{exited(143), true}, // 128+SIGTERM: the JVM, a shell
		{exited(130), true},
		{killed(syscall.SIGSEGV), false},
		{killed(syscall.SIGABRT), false},
		{exited(0), false},
		{exited(1), false},
		{exited(3), false},
		{exited(139), false}, // 128+SIGSEGV
	} {
		if got := stopLike(c.ws); got != c.want {
			t.Errorf("stopLike(%#x) = %v, want %v", int(c.ws), got, c.want)
		}
		code := c.ws.ExitStatus()
		if c.ws.Signaled() {
			code = 128 + int(c.ws.Signal())
		}
		if got := stopStatus(code); got != c.want {
			t.Errorf("stopStatus(%d) = %v, want %v", code, got, c.want)
		}
	}
}

// TestSessionEndedByStop: a bot killed by SIGTERM is a crash, unless the
// run hears of a stop (Stopping) as it ends: then its reader returns
// ErrStopped, no fault. A bot that exits with a status of its own is a
// crash either way.
func TestSessionEndedByStop(t *testing.T) {
	ended := func(mode string, sig syscall.Signal) error {
		t.Helper()
		s := start(t, botSpec(t, mode, drivers.Clock{}))
		defer s.Kill()
		if mode == "crash" {
			if err := s.Write("first", time.Time{}); err != nil {
				t.Fatal(err)
			}
			if err := s.Write("second", time.Time{}); err != nil {
				t.Fatal(err)
			}
		} else if err := syscall.Kill(s.Pid(), sig); err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := s.ReadLine(time.Time{}); err != nil {
				return err
			}
		}
	}

	err := ended("silent", syscall.SIGTERM)
	if faultKind(err) != drivers.FaultCrash || errors.Is(err, ErrStopped) {
		t.Errorf("a bot killed by SIGTERM, the run not stopped: %v, want a crash", err)
	}

	resetStop(t)
	Stopping()
	err = ended("silent", syscall.SIGTERM)
	var f *Fault
	if !errors.Is(err, ErrStopped) || errors.As(err, &f) {
		t.Errorf("a bot killed by SIGTERM as the run stopped: %v, want ErrStopped and no fault", err)
	}
	if err := ended("crash", 0); faultKind(err) != drivers.FaultCrash {
		t.Errorf("a bot that exited with status 3 as the run stopped: %v, want a crash", err)
	}
}

// TestRunOnceEndedByStop: RunOnce's bot killed by SIGTERM is a crash,
// unless the run heard of a stop: then RunOnce's error wraps ErrStopped.
func TestRunOnceEndedByStop(t *testing.T) {
	run := func() (Reply, error) {
		return RunOnce(context.Background(), OnceSpec{Bot: "term", Argv: []string{"/bin/sh", "-c", "kill -TERM $$"},
			Dir: t.TempDir(), Timeout: 10 * time.Second})
	}
	r, err := run()
	if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultCrash {
		t.Errorf("a bot killed by SIGTERM, the run not stopped: %+v, %v; want a crash", r, err)
	}
	resetStop(t)
	Stopping()
	if _, err := run(); !errors.Is(err, ErrStopped) {
		t.Errorf("a bot killed by SIGTERM as the run stopped: %v, want ErrStopped", err)
	}
}
