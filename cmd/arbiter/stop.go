package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// stopSignals is the context of a command that plays matches (run,
// replay): cancelled by the signals that stop a run (Ctrl-C, SIGTERM,
// SIGHUP), after it has told the drivers that a bot that ends now may
// have had the same signal (proc.Stopping: a Slurm cancel or a systemd
// stop signals every process of the job, the bots included, and those
// bots' matches are played again when the run resumes, not judged). stop
// releases the signals.
func stopSignals() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case <-sigs:
			proc.Stopping()
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel()
	}
}
