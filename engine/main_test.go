package engine_test

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

	"testing"

	"github.com/arbiter-contests/arbiter/drivers/all"
)

// The test binary doubles as every bot of these tests, so that matches run
// between real processes through the real engine:
//
//   - `<test binary> bot <driver>/<name>` is a house bot, exactly as the
//     engine starts them with Runner.Self set to the test binary;
//   - with ENGINE_TEST_BOT=<mode> in its environment it is a faulty bot
//     (see runFaultyBot).
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "bot" {
		os.Exit(runHouseBot(os.Args[2]))
	}
	if mode := os.Getenv("ENGINE_TEST_BOT"); mode != "" {
		os.Exit(runFaultyBot(mode))
	}
	// Bots inherit our environment. Under -race every bot process would
	// otherwise sleep a second on exit (the race runtime's default
	// atexit_sleep_ms), longer than the grace period after quit, and each
	// match would take seconds more for nothing.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

func runHouseBot(name string) int {
	driverName, botName, _ := strings.Cut(name, "/")
	drv, ok := all.Driver(driverName)
	if !ok {
		fmt.Fprintf(os.Stderr, "no driver %q\n", driverName)
		return 2
	}
	for _, hb := range drv.HouseBots() {
		if hb.Name == botName {
			if err := hb.Run(os.Stdin, os.Stdout, os.Getenv); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "no house bot %q\n", name)
	return 2
}

// Faulty bot modes.
const (
	modeSlow      = "slow"      // sleeps past its clock at its first gen_move of deal 2
	modeMute      = "mute"      // never answers gen_declare
	modeWrongSuit = "wrongsuit" // discards off-suit while holding the led suit
	modeGarbage   = "garbage"   // answers gen_declare with a line that is no response
	modeCrash     = "crash"     // exits with status 3 at its 3rd gen_move
	modeStubborn  = "stubborn"  // plays legally, but ignores SIGTERM and quit, leaves a setsid grandchild
	modeLinger    = "linger"    // the stubborn bot's grandchild
)

// slowSleep is how long the slow bot thinks: well over the 1s move cap.
const slowSleep = 3 * time.Second

// runFaultyBot speaks the Planowanie protocol correctly, playing a legal
// card and declaring 0, until the misbehaviour its mode names.
func runFaultyBot(mode string) int {
	switch mode {
	case modeLinger:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
		return 0
	case modeStubborn:
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		if err := startLinger(); err != nil {
			fmt.Fprintln(os.Stderr, "stubborn:", err)
			return 1
		}
	}

	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	reply := func(s string) {
		fmt.Fprintf(out, "= %s\n\n", s)
		out.Flush()
	}
	// readForever reads and answers nothing until the referee closes our
	// input, then waits to be killed.
	readForever := func() int {
		for in.Scan() {
		}
		time.Sleep(time.Hour)
		return 0
	}

	var (
		n     = 4
		hand  []string
		trick []string // cards laid in the current trick, in order of play
		deal  int      // 1-based number of the current deal
		moves int      // gen_move commands received
	)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue // the protocol says to ignore empty lines
		}
		switch f[0] {
		case "set_players":
			if len(f) > 1 {
				if v, err := strconv.Atoi(f[1]); err == nil && v > 0 {
					n = v
				}
			}
		case "set_cards":
			hand = append([]string(nil), f[2:]...)
			trick = nil
			deal++
		case "play":
			if len(f) == 3 {
				card := f[2]
				trick = append(trick, card)
				if len(trick) == n {
					trick = nil
				}
				for i, c := range hand {
					if c == card {
						hand = append(hand[:i], hand[i+1:]...)
						break
					}
				}
			}
		case "gen_declare":
			switch mode {
			case modeMute:
				return readForever()
			case modeGarbage:
				fmt.Fprint(out, "I declare nothing today\n\n")
				out.Flush()
				return readForever()
			}
			reply("0")
			continue
		case "gen_move":
			moves++
			if mode == modeCrash && moves == 3 {
				os.Exit(3)
			}
			if mode == modeSlow && deal == 2 {
				time.Sleep(slowSleep)
			}
			reply(chooseCard(hand, trick, mode == modeWrongSuit))
			continue
		case "quit":
			reply("")
			if mode == modeStubborn {
				return readForever() // ignores quit and the end of its input
			}
			return 0
		}
		reply("")
	}
	return 0
}

// chooseCard plays the first card that follows the led suit, or any card
// when the bot cannot follow. With wrongSuit it plays off-suit instead
// whenever it both holds the led suit and has another card.
func chooseCard(hand, trick []string, wrongSuit bool) string {
	if len(hand) == 0 {
		return "??"
	}
	if len(trick) == 0 {
		return hand[0]
	}
	led := trick[0][1]
	follow, other := "", ""
	for _, c := range hand {
		if c[1] == led {
			if follow == "" {
				follow = c
			}
		} else if other == "" {
			other = c
		}
	}
	switch {
	case wrongSuit && follow != "" && other != "":
		return other
	case follow != "":
		return follow
	}
	return hand[0]
}

// startLinger starts a grandchild that escapes the bot's process group and
// session, and appends its pid to $ENGINE_TEST_PIDFILE.
func startLinger() error {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ENGINE_TEST_BOT="+modeLinger)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	f, err := os.OpenFile(os.Getenv("ENGINE_TEST_PIDFILE"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, cmd.Process.Pid); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
