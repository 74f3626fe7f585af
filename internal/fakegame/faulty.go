package fakegame

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Faulty bot modes: each answers the largest number until the
// misbehaviour its mode names.
const (
	ModeSlow     = "numbers-slow"     // sleeps SlowSleep before its answer in turn 2
	ModeMute     = "numbers-mute"     // never answers, from turn 1
	ModeIllegal  = "numbers-illegal"  // answers max+1 in turn 2
	ModeGarbage  = "numbers-garbage"  // answers "many" in turn 1
	ModeCrash    = "numbers-crash"    // exits with status 3 when asked turn 2
	ModeStubborn = "numbers-stubborn" // plays, but ignores quit and SIGTERM and leaves a setsid grandchild
	ModeLinger   = "numbers-linger"   // the stubborn bot's grandchild: sleeps, ignoring SIGTERM
)

// Modes lists the faulty bot modes.
var Modes = []string{ModeSlow, ModeMute, ModeIllegal, ModeGarbage, ModeCrash, ModeStubborn, ModeLinger}

// SlowSleep is how long the slow bot thinks: more than a test's 1s move clock.
const SlowSleep = 3 * time.Second

// PidFileEnv names the file the stubborn bot appends its grandchild's
// pid to, so that a test can check it is gone.
const PidFileEnv = "FAKEGAME_PIDFILE"

// Faulty is the whole life of a faulty bot; linger is the command that
// starts the stubborn bot's grandchild (the test binary as ModeLinger).
// It returns the exit status.
func Faulty(mode string, linger *exec.Cmd) int {
	switch mode {
	case ModeLinger:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
		return 0
	case ModeStubborn:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		linger.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := linger.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "stubborn:", err)
			return 1
		}
		f, err := os.OpenFile(os.Getenv(PidFileEnv), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "stubborn:", err)
			return 1
		}
		fmt.Fprintln(f, linger.Process.Pid)
		f.Close()
	}
	in := bufio.NewScanner(os.Stdin)
	forever := func() int {
		for in.Scan() {
		}
		time.Sleep(time.Hour)
		return 0
	}
	max := 0
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 2 && f[0] == "max" {
			max, _ = strconv.Atoi(f[1])
			continue
		}
		if len(f) == 1 && f[0] == "quit" {
			if mode == ModeStubborn {
				return forever()
			}
			return 0
		}
		if len(f) != 2 || f[0] != "turn" {
			continue
		}
		answer := strconv.Itoa(max)
		switch turn := f[1]; {
		case mode == ModeMute:
			return forever()
		case mode == ModeGarbage:
			answer = "many"
		case mode == ModeSlow && turn == "2":
			time.Sleep(SlowSleep)
		case mode == ModeIllegal && turn == "2":
			answer = strconv.Itoa(max + 1)
		case mode == ModeCrash && turn == "2":
			os.Exit(3)
		}
		fmt.Println(answer)
	}
	return 0
}
