package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

const escapeConfig = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 14) : { cards = i, leader = (i - 1) %% 4 }]
  clock { total = "1m" }
}
bot "a" {
  command = ["/usr/bin/python3", "escaper.py"]
  env     = { RUN_MARK = %[1]q }
}
bot "b" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
bot "c" {
  house = "planowanie/random"
  env   = { RUN_MARK = %[1]q }
}
bot "d" {
  house = "planowanie/greedy"
  env   = { RUN_MARK = %[1]q }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  players = 4
  rounds  = 3
  seed    = 77
  limits {
    memory    = "400MiB"
    processes = 32
    network   = false
  }
}
`

// escaper leaves a grandchild that escapes every way it can (its own
// session, no environment, so no token and no RUN_MARK), then becomes a
// house bot and plays.
const escaper = `import os, subprocess, sys
subprocess.Popen(["/usr/bin/python3", "-c", "import time; time.sleep(3000)", sys.argv[1]],
                 env={}, start_new_session=True, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.execvp("arbiter", ["arbiter", "bot", "planowanie/random"])
`

// TestKilledRunLeavesNoEscapee is TestKilledRunResumes with limits on and
// a bot whose grandchild escapes the process group, the session and the
// token scan: killing arbiter with SIGKILL must still leave no process,
// because each bot is PID 1 of its own PID namespace and dies with
// arbiter, taking its namespace with it.
func TestKilledRunLeavesNoEscapee(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	if !proc.Machine().PIDNS {
		t.Skipf("no PID namespace here (%s): an escaped grandchild outlives a killed arbiter", proc.Machine().Why["PID namespace"])
	}
	arbiter, err := exec.LookPath("arbiter")
	if err != nil {
		t.Fatal(err)
	}
	mark := fmt.Sprintf("escape-%d-%d", os.Getpid(), time.Now().UnixNano())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(fmt.Sprintf(escapeConfig, mark)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "escaper.py"), []byte(escaper), 0o644); err != nil {
		t.Fatal(err)
	}
	// The grandchild finds its mark in its arguments, the bot in its env.
	py := strings.Replace(escaper, "sys.argv[1]", strconv.Quote(mark), 1)
	if err := os.WriteFile(filepath.Join(dir, "escaper.py"), []byte(py), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(arbiter, "run", dir, "-out", out, "-j", "2")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	results := filepath.Join(out, engine.ResultsFile)
	// Every 5 ms, so that the kill comes soon after the second result: a
	// look at the file costs little, and /proc is scanned only once it
	// has two lines, when the escapee is most likely there.
	for lines(results) < 2 || len(proctest.WithCmdline("\x00"+mark)) == 0 {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before it could be killed", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	deadline := time.Now().Add(goneWithin)
	for pause := (proctest.Backoff{}); ; pause.Sleep() {
		left := append(proctest.WithEnv("RUN_MARK="+mark), proctest.WithCmdline("\x00"+mark)...)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v outlived the killed arbiter", left)
		}
	}
	before := lines(results)
	if b, err := exec.Command(arbiter, "run", dir, "-out", out, "-j", "2").CombinedOutput(); err != nil {
		t.Fatalf("re-run: %v\n%s", err, b)
	} else if want := fmt.Sprintf("%d match(es) played, %d already finished", 12-before, before); !strings.Contains(string(b), want) {
		t.Errorf("re-run says:\n%s\nwant %q", b, want)
	}
	_, res, err := engine.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		for _, s := range r.Seats {
			if s.Fault != "" && s.Fault != drivers.FaultCrash {
				t.Errorf("match %s: %s faulted with %s: %s", r.Match, s.Bot, s.Fault, s.Detail)
			}
		}
	}
	if left := proctest.WithCmdline("\x00" + mark); len(left) > 0 {
		t.Errorf("grandchildren %v outlived the finished run", left)
	}
}
