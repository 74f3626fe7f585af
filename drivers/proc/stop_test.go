package proc

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

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

// cancelOnStopWait cancels a match when a bot's end starts to wait for a
// stop (stopWait): the order of a stop whose signal reached the bot
// before the run. Without that wait, the end is judged first.
func cancelOnStopWait(t *testing.T, cancel func()) {
	stopWait = cancel
	t.Cleanup(func() { stopWait = func() {} })
}

// TestSessionEndedByStop: a bot killed by SIGTERM whose match is
// cancelled as it ends (within stopGrace) ended by a stop of the run: its
// reader returns the cancellation, no fault. Killed so with no
// cancellation it is a crash, and so is a bot that exits with a status of
// its own, cancellation or not.
func TestSessionEndedByStop(t *testing.T) {
	ended := func(mode string, stopped bool) error {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s, err := Start(ctx, botSpec(t, mode, drivers.Clock{}))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Kill()
		if stopped {
			cancelOnStopWait(t, cancel)
		}
		if mode == "crash" { // answers one command, exits 3 at the next
			for _, cmd := range []string{"first", "second"} {
				if err := s.Write(cmd, time.Time{}); err != nil {
					t.Fatal(err)
				}
			}
		} else if err := syscall.Kill(s.Pid(), syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := s.ReadLine(time.Time{}); err != nil {
				return err
			}
		}
	}
	if err := ended("silent", false); faultKind(err) != drivers.FaultCrash {
		t.Errorf("a bot killed by SIGTERM, the run not stopped: %v, want a crash", err)
	}
	err := ended("silent", true)
	var f *Fault
	if !errors.Is(err, context.Canceled) || errors.As(err, &f) {
		t.Errorf("a bot killed by SIGTERM as the run stopped: %v, want the cancellation and no fault", err)
	}
	if err := ended("crash", true); faultKind(err) != drivers.FaultCrash {
		t.Errorf("a bot that exited with status 3 as the run stopped: %v, want a crash", err)
	}
}

// TestRunOnceEndedByStop: RunOnce's bot killed by SIGTERM is a crash,
// unless the run is cancelled as it ends: then RunOnce returns the
// cancellation.
func TestRunOnceEndedByStop(t *testing.T) {
	run := func(ctx context.Context, dir string) (Reply, error) {
		return RunOnce(ctx, OnceSpec{Bot: "term", Argv: []string{"/bin/sh", "-c", "kill -TERM $$"},
			Dir: dir, Timeout: 10 * time.Second})
	}
	r, err := run(context.Background(), t.TempDir())
	if err != nil || r.Fault == nil || r.Fault.Kind != drivers.FaultCrash {
		t.Errorf("a bot killed by SIGTERM, the run not stopped: %+v, %v; want a crash", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelOnStopWait(t, cancel)
	if r, err := run(ctx, t.TempDir()); !errors.Is(err, context.Canceled) {
		t.Errorf("a bot killed by SIGTERM as the run stopped: %+v, %v; want the cancellation", r, err)
	}
}

// TestExitedBotSameVerdict: a bot that exited before reading its command
// gets the same verdict whether the write found its input closed or the
// read found its output ended (which comes first is the scheduler's
// choice), so a match replays to the same bytes.
func TestExitedBotSameVerdict(t *testing.T) {
	s, err := Start(context.Background(), Spec{Bot: "quitter", Argv: []string{"/bin/sh", "-c", "exit 0"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Kill()
	<-s.exited // the write can only find its input closed
	err = s.Write("set_board 7", time.Now().Add(time.Second))
	var f *Fault
	if !errors.As(err, &f) || f.Kind != drivers.FaultCrash || f.Detail != "output ended (exited with status 0)" {
		t.Errorf("writing to an exited bot: %v, want the crash %q", err, "output ended (exited with status 0)")
	}
}

// TestSpentClockFault: a command due to a bot with nothing left of its
// clock is not written, and the fault says the clock was used up, not
// that the bot did not read its input in time.
func TestSpentClockFault(t *testing.T) {
	s, err := Start(context.Background(), Spec{Bot: "cat", Argv: []string{"cat"}, Dir: t.TempDir(),
		Clock: drivers.Clock{Total: drivers.Duration(time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Kill()
	s.left = 0 // as an answer read at the very deadline leaves it
	s.Send("play 1 8H")
	err = s.Receive(func(deadline time.Time) error {
		_, err := s.ReadLine(deadline)
		return err
	})
	var f *Fault
	if !errors.As(err, &f) || f.Kind != drivers.FaultTime || f.Detail != "had used up its clock of 1s" {
		t.Errorf("a command with the clock used up: %v, want the time fault %q", err, "had used up its clock of 1s")
	}
}
