package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// A run can be stopped by a signal sent to every process of its job, the
// bots included: Slurm's scancel, a systemd stop, a kill of a whole
// process tree. A bot may then end before arbiter hears the signal
// itself, and that end must not be judged the bot's crash: the match is
// abandoned and plays again when the run resumes. A Go bot in the
// sandbox, the first process of its PID namespace, does not even die of
// the signal: the runtime, finding the signal's default action ignored
// there, exits with status 2, as after a panic.
//
// So a bot that ends as such a signal ends one (see stopLike) waits up to
// stopGrace for this process to be told that the run is being stopped
// (Stopping); if it is, the bot's reader returns an error that wraps
// ErrStopped instead of a crash fault.

// ErrStopped is wrapped by the error of a bot that ended while the run
// was being stopped (see Stopping): a stop of the run, not a fault.
var ErrStopped = errors.New("the run is being stopped")

// stopGrace is how long a bot's end that a stop of the run could have
// caused waits to hear of that stop before it is judged a crash.
const stopGrace = 250 * time.Millisecond

var stop struct {
	sync.Mutex
	ch chan struct{} // closed by Stopping
}

func stopping() chan struct{} {
	stop.Lock()
	defer stop.Unlock()
	if stop.ch == nil {
		stop.ch = make(chan struct{})
	}
	return stop.ch
}

// Stopping tells proc that this process was told to stop by a signal
// that may have reached the bots too (SIGINT, SIGTERM, SIGHUP): a bot
// that ends now as if it had that signal ends by the stop, not by a
// fault. It is for good: a process told so ends.
func Stopping() {
	ch := stopping()
	stop.Lock()
	defer stop.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// stopLike reports whether a process that ended with ws ended as a
// signal that stops a job ends one: killed by SIGTERM, SIGINT, SIGHUP or
// SIGKILL; exited with status 2 (a Go program that such a signal did not
// end, see above); or with 128 plus one of them (a shell's or the JVM's
// way of saying it).
func stopLike(ws syscall.WaitStatus) bool {
	if ws.Signaled() {
		return stopSignal(ws.Signal())
	}
	return ws.Exited() && stopStatus(ws.ExitStatus())
}

// stopStatus is stopLike for an exit status as RunOnce reports it (128+n
// for a signal n).
func stopStatus(status int) bool {
	return status == 2 || status > 128 && stopSignal(syscall.Signal(status-128))
}

func stopSignal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGKILL:
		return true
	}
	return false
}

// stoppedMeanwhile waits up to stopGrace for Stopping and reports whether
// it came.
func stoppedMeanwhile() bool {
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-stopping():
		return true
	case <-t.C:
		return false
	}
}

// endedByStop is the error of a bot whose end (how) a stop of the run
// caused, or nil when it was not stopped: its process ended as a stop
// ends one (waitErr is its exec.Cmd.Wait's), and this process heard of a
// stop within stopGrace.
func endedByStop(bot string, waitErr error, how string) error {
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) {
		return nil
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !stopLike(ws) || !stoppedMeanwhile() {
		return nil
	}
	return fmt.Errorf("bot %s ended (%s) as the run was stopped: %w", bot, how, ErrStopped)
}
