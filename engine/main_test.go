package engine_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/fakegame"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The test binary doubles as every bot of these tests, so that matches run
// between real processes through the real engine:
//
//   - `<test binary> bot <driver>/<name>` is a house bot, exactly as the
//     engine starts them with Runner.Self set to the test binary; the
//     tests play the fake game numbers (internal/fakegame), which knows
//     no game's rules, so that they test the engine, not a game;
//   - internal/testbot runs the fake game's faulty bots by their mode.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "bot" {
		os.Exit(runHouseBot(os.Args[2]))
	}
	for _, mode := range fakegame.Modes {
		testbot.Register(mode, func([]string) int { return fakegame.Faulty(mode, testbot.Command(fakegame.ModeLinger)) })
	}
	testbot.Main(m)
}

func runHouseBot(name string) int {
	driverName, botName, _ := strings.Cut(name, "/")
	drv, ok := fakegame.Lookup(driverName)
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
