package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
)

// cmdWorker is `arbiter worker`, which arbiter run starts for each match
// it runs at once when it pins them to CPUs (-pin): it plays the matches
// it reads on its standard input (engine.ServeWorker). It is not for
// people to start.
func cmdWorker(args []string, _, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("takes no arguments: arbiter run starts it")
	}
	// A Ctrl-C at the terminal reaches every process of the group: the
	// run decides (it closes this worker's input), so the signals that end
	// a run are heard here and dropped. So is SIGPIPE, which would end the
	// worker when it writes to a run that died, before it has killed its
	// bots. Bots started later get them back at their defaults.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		for range sigs {
		}
	}()
	answers, err := answersOut()
	if err != nil {
		return err
	}
	defer answers.Close()
	return engine.ServeWorker(os.Stdin, answers, stderr, all.Driver)
}

// answersOut moves the worker's answers off standard output, to a
// descriptor of their own (close-on-exec), and points standard output at
// standard error: a stray write to standard output then reaches the run's
// log as the worker's output instead of breaking the answers.
func answersOut() (*os.File, error) {
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, fmt.Errorf("keeping standard output for the answers: %w", err)
	}
	if err := unix.Dup3(2, 1, 0); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("pointing standard output at standard error: %w", err)
	}
	return os.NewFile(uintptr(fd), "answers"), nil
}
