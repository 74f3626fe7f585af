package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/all"
)

func cmdBot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bot", stderr)
	list := fs.Bool("list", false, "list the built-in bots")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list || len(pos) == 0 {
		for _, d := range all.Names() {
			drv, _ := all.Driver(d)
			for _, hb := range drv.HouseBots() {
				fmt.Fprintf(stdout, "%-24s %s\n", d+"/"+hb.Name, hb.Doc)
			}
		}
		if len(pos) == 0 && !*list {
			return fmt.Errorf("name a bot, like: arbiter bot planowanie/random")
		}
		return nil
	}
	game, name, _ := strings.Cut(pos[0], "/")
	drv, ok := all.Driver(game)
	if !ok {
		return fmt.Errorf("no game %q; games: %s", game, strings.Join(all.Names(), ", "))
	}
	for _, hb := range drv.HouseBots() {
		if hb.Name != name {
			continue
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
	return fmt.Errorf("no built-in bot %q (see arbiter bot -list)", pos[0])
}
