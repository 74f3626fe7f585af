package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

func cmdBot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bot", stderr)
	list := fs.Bool("list", false, "list the built-in bots: all, a GAME's, or the one GAME/NAME names")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		return listHouseBots(stdout, pos)
	}
	if len(pos) == 0 {
		listHouseBots(stdout, nil)
		return fmt.Errorf("name a bot, like: arbiter bot planowanie/random")
	}
	hb, err := houseBot(pos[0])
	if err != nil {
		return err
	}
	if hb.Move != nil {
		// A per-move bot: the game's arguments follow its name.
		return hb.Move(pos[1:], stdout, os.Getenv)
	}
	if len(pos) != 1 {
		return fmt.Errorf("expected one bot name GAME/NAME, got %q", pos)
	}
	return hb.Run(os.Stdin, stdout, os.Getenv)
}

// listHouseBots lists the built-in bots that pos names: every bot when
// it is empty, a game's (GAME), or one (GAME/NAME), each with its doc.
func listHouseBots(stdout io.Writer, pos []string) error {
	line := func(game string, hb drivers.HouseBot) {
		fmt.Fprintf(stdout, "%-24s %s\n", game+"/"+hb.Name, hb.Doc)
	}
	switch {
	case len(pos) > 1:
		return fmt.Errorf("-list takes one GAME or GAME/NAME, got %d: %s", len(pos), strings.Join(pos, " "))
	case len(pos) == 1 && strings.Contains(pos[0], "/"):
		hb, err := houseBot(pos[0])
		if err != nil {
			return err
		}
		game, _, _ := strings.Cut(pos[0], "/")
		line(game, hb)
		return nil
	case len(pos) == 1:
		drv, err := houseGame(pos[0])
		if err != nil {
			return err
		}
		for _, hb := range drv.HouseBots() {
			line(pos[0], hb)
		}
		return nil
	}
	for _, game := range all.Names() {
		drv, _ := all.Driver(game)
		for _, hb := range drv.HouseBots() {
			line(game, hb)
		}
	}
	return nil
}

// houseGame is the driver of game, for a bot named GAME/NAME.
func houseGame(game string) (drivers.Driver, error) {
	drv, ok := all.Driver(game)
	if !ok {
		return nil, fmt.Errorf("no game %q; games: %s", game, strings.Join(all.Names(), ", "))
	}
	return drv, nil
}

// houseBot is the built-in bot that name, GAME/NAME, names.
func houseBot(name string) (drivers.HouseBot, error) {
	game, bot, _ := strings.Cut(name, "/")
	drv, err := houseGame(game)
	if err != nil {
		return drivers.HouseBot{}, err
	}
	for _, hb := range drv.HouseBots() {
		if hb.Name == bot {
			return hb, nil
		}
	}
	return drivers.HouseBot{}, fmt.Errorf("no built-in bot %q (see arbiter bot -list %s)", name, game)
}
