package proc

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// A run can be stopped by a signal sent to every process of its job, the
// bots included: Slurm's scancel, a systemd stop, a kill of a whole
// process tree. A bot may then end before the run hears the signal and
// cancels its matches, and that end must not be judged the bot's crash:
// the match is abandoned like the others in progress, and plays again
// when the run resumes. A Go bot in the sandbox, the first process of its
// PID namespace, does not even die of the signal: the runtime, finding
// the signal's default action ignored there, exits with status 2, as
// after a panic.
//
// So the end of a bot that ends as such a signal ends one (see stopLike)
// waits up to stopGrace for its match to be cancelled (its context, the
// run's in the run's process, a worker's when the run tells it to stop),
// and is then the cancellation, which every driver already takes for an
// abandoned match, not a fault. A bot that ends so with no stop is a
// crash, judged stopGrace later.

// stopGrace is how long a bot's end that a stop of the run could have
// caused waits for the match to be cancelled before it is judged a crash.
const stopGrace = 250 * time.Millisecond

// stopLike reports whether a process that ended with ws ended as a
// signal that stops a job ends one: killed by SIGTERM, SIGINT, SIGHUP or
// SIGKILL; exited with status 2 (a Go program such a signal did not end,
// see above); or with 128 plus one of them (a shell's or the JVM's way
// of saying it).
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

// waitStopLike is stopLike for an exec.Cmd.Wait error.
func waitStopLike(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && stopLike(ws)
}

// stopWait is called as a bot's end starts to wait for a stop: a test
// cancels the match there, as a stop whose signal reached the bot first.
var stopWait = func() {}

// cancelledMeanwhile waits up to stopGrace for ctx to end and reports
// whether it did.
func cancelledMeanwhile(ctx context.Context) bool {
	if ctx.Done() == nil {
		return false
	}
	stopWait()
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return true
	case <-t.C:
		return false
	}
}
