package main

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
)

// The test binary is also the arbiter: the tests run it as the "arbiter"
// command (testscript.Main), and house bots run it again as "arbiter bot
// ...". The command-line scripts, testdata/script, run against a build
// of arbiter in a test binary of their own (cmd/arbiter/scripttest).
// Where lentDirEnv is set, that arbiter records the folders it lends in
// it instead of in proc.LentDir (see lendSetup).
func TestMain(m *testing.M) {
	testscript.Main(ownState{m}, map[string]func(){
		"arbiter": func() {
			if dir := os.Getenv(lentDirEnv); dir != "" {
				proc.LentDir = dir
			}
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		},
	})
}

// ownState runs the tests with the bots' folders of arbiter's state
// (check's and console's builds, engine.StateDirEnv) in a folder of their
// own, removed after them, not in the machine's.
type ownState struct{ m *testing.M }

func (o ownState) Run() int {
	if os.Getenv(engine.StateDirEnv) != "" {
		return o.m.Run()
	}
	dir, err := os.MkdirTemp("", "arbiter-test-state-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv(engine.StateDirEnv, dir)
	return o.m.Run()
}

// lentDirEnv names the folder where the test binary, run as arbiter,
// records the folders it lends for builds, for a test of its own: every
// arbiter on the machine gives back what an ended one left in the
// machine's proc.LentDir, so another arbiter (another test's, another
// package's, another user's test run) could give back a folder before
// the arbiter the test runs to give it back, which then has nothing to
// give back. Only the test binary reads it; arbiter itself has no such
// setting.
const lentDirEnv = "ARBITER_TEST_LENT_DIR"

// goneWithin is how long the tests wait for processes to vanish (a killed
// arbiter's bots, a stopped run's workers) before they fail: they poll,
// at the growing pauses of a proctest.Backoff, and go on as soon as the
// processes are gone, so a generous wait costs nothing where they are,
// and a loaded machine, where the kernel takes its time to deliver the
// kills, does not fail the test.
const goneWithin = time.Minute
