// Package testbot is the one convention by which a test binary is also the
// bots of its tests, so that matches run between real processes:
//
//	func init() { testbot.Register("mute", func(args []string) int { ... }) }
//	func TestMain(m *testing.M) { testbot.HouseBots(HouseBots()); testbot.Main(m) }
//	...
//	seat.Command = testbot.Argv(t, "mute")   // [test binary, -testbot=mute]
//
// A bot is a named function run in a process of its own: `<test binary>
// -testbot=NAME ARGS...` runs bot NAME with ARGS and exits with what it
// returns. A test binary whose TestMain does not call Main rejects the
// flag and exits at once instead of running its tests again, so a
// mistake cannot fork the test suite without end.
package testbot

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Bot is a bot's whole life: it gets the arguments after its name and
// returns its exit status.
type Bot func(args []string) int

// flag prefixes a bot's name in the test binary's arguments.
const flag = "-testbot="

var (
	mu   sync.Mutex
	bots = map[string]Bot{}
	// inMain is set by Main: only then does the test binary dispatch.
	inMain bool
)

// Register adds bot NAME. Registering a name twice panics: two packages
// of one test binary would otherwise silently share it.
func Register(name string, b Bot) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := bots[name]; dup {
		panic("testbot: bot " + name + " registered twice")
	}
	bots[name] = b
}

// HouseName is the name under which HouseBots registers house bot name.
func HouseName(name string) string { return "house/" + name }

// HouseBots registers a driver's house bots as HouseName(name), playing
// exactly as `arbiter bot GAME/NAME ARGS...` does: a whole game on
// stdin/stdout (Run) or one move of a per-move game (Move, given ARGS).
func HouseBots(hbs []drivers.HouseBot) {
	for _, hb := range hbs {
		Register(HouseName(hb.Name), func(args []string) int {
			var err error
			if hb.Move != nil {
				err = hb.Move(args, os.Stdout, os.Getenv)
			} else {
				err = hb.Run(os.Stdin, os.Stdout, os.Getenv)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			return 0
		})
	}
}

// Main is the test binary's TestMain body: run as a bot it plays the bot
// and exits; otherwise it runs the tests. Bots inherit the tests'
// environment, and under -race every bot would sleep a second on exit
// (the race runtime's default atexit_sleep_ms); Main turns that off.
func Main(m *testing.M) {
	if len(os.Args) > 1 {
		if name, ok := strings.CutPrefix(os.Args[1], flag); ok {
			os.Exit(run(name, os.Args[2:]))
		}
	}
	mu.Lock()
	inMain = true
	mu.Unlock()
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

func run(name string, args []string) int {
	mu.Lock()
	b, ok := bots[name]
	mu.Unlock()
	if !ok {
		fmt.Fprintf(os.Stderr, "testbot: no bot %q in this test binary\n", name)
		return 2
	}
	return b(args)
}

// Argv is the command that runs bot name with args: the test binary with
// the bot's flag. It fails the test when no such bot is registered or
// when TestMain does not dispatch through Main.
func Argv(tb testing.TB, name string, args ...string) []string {
	tb.Helper()
	mu.Lock()
	_, ok := bots[name]
	main := inMain
	mu.Unlock()
	if !main {
		tb.Fatalf("testbot: the test binary's TestMain must call testbot.Main to run bot %q", name)
	}
	if !ok {
		tb.Fatalf("testbot: no bot %q registered", name)
	}
	exe, err := os.Executable()
	if err != nil {
		tb.Fatalf("testbot: finding the test binary: %v", err)
	}
	return append([]string{exe, flag + name}, args...)
}

// Command is, inside a bot, the command that starts bot name as a
// process of its own (a grandchild of the test, say). It inherits the
// bot's environment.
func Command(name string, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exec.Command(exe, slices.Concat([]string{flag + name}, args)...)
}
