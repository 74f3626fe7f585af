package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
)

// cmdWorker is `arbiter worker`, which arbiter run starts for each match
// it runs at once when it pins them to CPUs (-pin): it plays the matches
// it reads on its standard input (engine.ServeWorker). It is not for
// people to start.
func cmdWorker(args []string, stdout, stderr io.Writer) error {
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
	return engine.ServeWorker(os.Stdin, stdout, stderr, all.Driver)
}
