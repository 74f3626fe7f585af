package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
)

// The test binary is also the arbiter: testscript runs it as the
// "arbiter" command, and house bots run it again as "arbiter bot ...".
// Where lentDirEnv is set, that arbiter records the folders it lends in
// it instead of in proc.LentDir (see lendSetup).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"arbiter": func() {
			if dir := os.Getenv(lentDirEnv); dir != "" {
				proc.LentDir = dir
			}
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		},
	})
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

func TestScripts(t *testing.T) {
	t.Parallel() // its scripts share the slots with the other parallel tests
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("ROOT", root)
			env.Setenv("REFDIR", filepath.Join(root, "engine", "rating", "testdata", "bayeselo"))
			return nil
		},
		// [enforced:LIMIT] holds when this machine enforces LIMIT.
		Condition: func(cond string) (bool, error) {
			if limit, ok := strings.CutPrefix(cond, "enforced:"); ok {
				return proc.Machine().Enforcement(limit).Enforced, nil
			}
			// [cpucounted] holds when a bot's CPU is counted (a time
			// fault says whether it kept computing).
			if cond == "cpucounted" {
				return proc.Machine().CPUCounted() && proc.Machine().Sandbox, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gamelog":     cmdGameLog,
			"sameanswers": cmdSameAnswers,
		},
	})
}

// cmdGameLog prints what a match transcript says about the game, without
// time offsets and time_left commands (which depend on the machine's
// speed): gamelog EVENTS.JSONL OUTFILE (or events.jsonl.gz).
func cmdGameLog(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: gamelog events.jsonl outfile")
	}
	f, err := engine.OpenTranscriptFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l map[string]any
		ts.Check(json.Unmarshal(sc.Bytes(), &l))
		delete(l, "t")
		if s, ok := l["send"].(string); ok && strings.HasPrefix(s, "time_left") {
			continue
		}
		if l["event"] == "result" {
			continue // carries times used
		}
		b, _ := json.Marshal(l)
		out.Write(append(b, '\n'))
	}
	ts.Check(sc.Err())
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644))
}

// cmdSameAnswers checks that the answers in a console session's output
// (lines starting "=" or "?", quit's too, which a match reads as well)
// are the answers seat SEAT gave in a match:
// sameanswers EVENTS.JSONL SEAT CONSOLE_OUTPUT.
func cmdSameAnswers(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: sameanswers events.jsonl seat console-output")
	}
	answer := func(l string) bool { return strings.HasPrefix(l, "=") || strings.HasPrefix(l, "?") }
	f, err := engine.OpenTranscriptFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Seat *int    `json:"seat"`
			Recv *string `json:"recv"`
		}
		ts.Check(json.Unmarshal(sc.Bytes(), &l))
		if l.Seat != nil && l.Recv != nil && fmt.Sprint(*l.Seat) == args[1] && answer(*l.Recv) {
			want = append(want, *l.Recv)
		}
	}
	ts.Check(sc.Err())
	var got []string
	for _, l := range strings.Split(ts.ReadFile(args[2]), "\n") {
		if answer(l) {
			got = append(got, l)
		}
	}
	same := slices.Equal(got, want)
	switch {
	case same && neg:
		ts.Fatalf("the session gave the match's %d answers", len(want))
	case !same && !neg:
		ts.Fatalf("the session's answers differ from the match's:\n got %q\nwant %q", got, want)
	}
}
