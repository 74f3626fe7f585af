// Package start runs a house bot from its init when the process was
// started as one: `arbiter bot GAME/NAME [ARG ...]`, which is how the
// engine, `arbiter check` and the drivers start the bots built into
// arbiter.
//
// A house bot's process is the whole arbiter executable run again, once a
// match (Planowanie, Blokus, Bricks) or once a decision (Euchre, Auction).
// Go initialises the packages of a program in the order of their import
// paths, each after its imports, so this package's init runs before the
// heavy packages that arbiter's other commands need (the configuration
// language, its value types, regular expressions, ...) pay for theirs: it
// imports only the light packages of drivers/house. A bot it runs exits
// from here, and nothing else of arbiter is initialised.
//
// Anything else, including every mistake (an unknown bot, a flag), is left
// to arbiter's main, which says what it always said: this package only
// takes the path where the bot is found and runs.
package start

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"unsafe"

	"github.com/arbiter-contests/arbiter/drivers/house"
	auction "github.com/arbiter-contests/arbiter/drivers/house/auction"
	blokus "github.com/arbiter-contests/arbiter/drivers/house/blokus"
	bricks "github.com/arbiter-contests/arbiter/drivers/house/bricks"
	euchre "github.com/arbiter-contests/arbiter/drivers/house/euchre"
	planowanie "github.com/arbiter-contests/arbiter/drivers/house/planowanie"
	// The shim's init first: a confined bot's shim, started with the
	// same arguments as the bot, execs the bot itself.
	_ "github.com/arbiter-contests/arbiter/drivers/proc/shim"
)

// games lists the house bots of every game, by the name of its driver
// (drivers/all holds the drivers; a test checks that both give the same
// bots).
var games = map[string]func() []house.Bot{
	"auction":    auction.HouseBots,
	"blokus":     blokus.HouseBots,
	"bricks":     bricks.HouseBots,
	"euchre":     euchre.HouseBots,
	"planowanie": planowanie.HouseBots,
}

// HouseBots lists the house bots of game, sorted by name; ok is false
// when there is no such game.
func HouseBots(game string) (bots []house.Bot, ok bool) {
	list, ok := games[game]
	if !ok {
		return nil, false
	}
	return list(), true
}

func init() {
	if len(os.Args) < 3 || os.Args[1] != "bot" {
		return
	}
	takeName(os.Args[0])
	if ran, err := run(os.Args[2:]); ran {
		if err != nil {
			// As arbiter's main reports a command's error.
			fmt.Fprintf(os.Stderr, "arbiter bot: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// run runs the house bot args name (args are those of `arbiter bot`) on
// stdin and stdout, as `arbiter bot` would; ran is false, and nothing was
// done, when args are not simply a house bot and its arguments (no name, a flag, an unknown bot, a whole-game bot given
// arguments).
func run(args []string) (ran bool, err error) {
	if len(args) == 0 {
		return false, nil
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			return false, nil // `arbiter bot` parses flags anywhere
		}
	}
	game, name, _ := strings.Cut(args[0], "/")
	bots, ok := HouseBots(game)
	if !ok {
		return false, nil
	}
	for _, hb := range bots {
		switch {
		case hb.Name != name:
			continue
		case hb.Move != nil:
			return true, hb.Move(args[1:], os.Stdout, os.Getenv)
		case len(args) == 1:
			return true, hb.Run(os.Stdin, os.Stdout, os.Getenv)
		}
		break
	}
	return false, nil
}

// takeName names the process (its comm, what ps and top show) after
// arg0, its argv[0]: arbiter starts its house bots from its own image,
// /proc/self/exe (proc.OwnImage), which the kernel names them after
// ("exe"). One system call.
func takeName(arg0 string) {
	name := arg0[strings.LastIndexByte(arg0, '/')+1:]
	if len(name) > 15 { // the kernel keeps 15 bytes
		name = name[:15]
	}
	if name == "" {
		return
	}
	b := append([]byte(name), 0)
	syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_NAME, uintptr(unsafe.Pointer(&b[0])), 0)
}
