package proc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

func init() {
	switch {
	case os.Getenv("PROC_TEST_BOT") == "tty":
		runTTYBot()
		os.Exit(0)
	case os.Getenv("PROC_TEST_TTYRUNNER") != "":
		runTTYRunner(os.Getenv("PROC_TEST_TTYRUNNER"))
		os.Exit(0)
	}
}

// runTTYBot answers every command with what opening /dev/tty gave: "ok",
// or the error.
func runTTYBot() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		got := "ok"
		if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err != nil {
			got = err.Error()
		} else {
			f.Close()
		}
		os.Stdout.WriteString("= tty: " + got + "\n\n")
	}
}

// runTTYRunner plays the organiser's arbiter in a terminal: it says
// whether it can open /dev/tty itself, then starts the tty bot (plainly,
// or in the default sandbox) and prints its answer.
func runTTYRunner(mode string) {
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err != nil {
		fmt.Println("runner: tty", err)
	} else {
		f.Close()
		fmt.Println("runner: tty ok")
	}
	spec := Spec{Bot: "tty", Argv: []string{os.Getenv("PROC_TEST_TTYBOT")}, Dir: os.Getenv("PROC_TEST_TTYDIR"),
		Env: []string{"PROC_TEST_BOT=tty"}, Clock: drivers.Clock{Move: drivers.Duration(10 * time.Second)}, Grace: 100 * time.Millisecond}
	if mode != "plain" {
		spec.Limits = defaultLimits()
	}
	s, err := Start(context.Background(), spec)
	if err != nil {
		fmt.Println("bot: start:", err)
		return
	}
	got, err := ask(s, "tty")
	s.Close("quit")
	fmt.Println("bot:", got, err)
	// A bot run once per move, too.
	r, err := RunOnce(context.Background(), OnceSpec{Bot: "tty", Argv: spec.Argv, Dir: spec.Dir, Env: spec.Env,
		Stdin: "tty\n", Timeout: 10 * time.Second, Limits: spec.Limits})
	fmt.Println("once:", strings.TrimPrefix(r.Line, "= "), err)
}

// TestBotHasNoTerminal: an arbiter run from a terminal starts its bots
// without it as their controlling terminal, so that a bot cannot open
// /dev/tty to write to the organiser's screen or push input into the
// organiser's shell (TIOCSTI), plainly or in the sandbox, spawned or
// through the shim. The test bot only opens /dev/tty, harmlessly.
func TestBotHasNoTerminal(t *testing.T) {
	ptm, pts := proctest.PTY(t)
	go func() { // drain what reaches the terminal
		buf := make([]byte, 4096)
		for {
			if _, err := ptm.Read(buf); err != nil {
				return
			}
		}
	}()
	modes := []string{"plain"}
	if Machine().Sandbox && os.Getuid() == 0 {
		modes = append(modes, "sandbox", "shim")
	}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bot")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			readable(t, dir)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "PROC_TEST_TTYRUNNER="+mode, "PROC_TEST_TTYBOT="+botBinary(t), "PROC_TEST_TTYDIR="+dir)
			if mode == "shim" {
				cmd.Env = append(cmd.Env, spawnEnv+"=shim")
			}
			var out bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = pts, &out, &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "runner: tty ok") {
				t.Fatalf("the runner has no terminal, nothing was tested:\n%s", out.String())
			}
			for _, how := range []string{"bot", "once"} {
				if !strings.Contains(out.String(), how+": tty: open /dev/tty: ") {
					t.Errorf("the bot (%s) opened the organiser's terminal:\n%s", how, out.String())
				}
			}
		})
	}
}
