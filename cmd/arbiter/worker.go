package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"unsafe"

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
	// Started from arbiter's own image (proc.OwnImage), which the kernel
	// names the process after ("exe"): the name ps and top show is
	// arbiter's again.
	if name, err := unix.BytePtrFromString(filepath.Base(os.Args[0])); err == nil {
		_ = unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(name)), 0, 0, 0) // the kernel keeps 15 bytes
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
	jobs, err := jobsIn()
	if err != nil {
		return err
	}
	defer jobs.Close()
	return engine.ServeWorker(jobs, answers, stderr, all.Driver)
}

// jobsIn is the worker's standard input made a file that Go's poller
// waits on. As inherited it is in blocking mode, and the goroutine that
// waits on it for the next job (the whole length of each match) would
// sit in a blocking read: a goroutine in a system call keeps its Go
// processor until the runtime's monitor takes it back, which it checks
// as seldom as every 10 ms when idle, and a worker pinned to one CPU has
// one processor, so the match's own goroutines waited behind it (13-17
// ms from a job's arrival to its start, measured).
//
// Only a pipe is made non-blocking (the mode belongs to the pipe, shared
// with every descriptor of it): the run's, which only this worker reads.
// A worker started by hand on a terminal reads it as it is.
func jobsIn() (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(0, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return os.Stdin, nil
	}
	fd, err := unix.FcntlInt(0, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, fmt.Errorf("reading the jobs: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("reading the jobs: %w", err)
	}
	return os.NewFile(uintptr(fd), "jobs"), nil
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
