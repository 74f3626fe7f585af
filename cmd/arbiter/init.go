package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/arbiter-contests/arbiter/internal/starters"
)

// cmdInit writes a ready tournament for a game with starter bots.
func cmdInit(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("init", stderr)
	usage := "usage: arbiter init GAME [DIR] (DIR defaults to GAME); games: " + strings.Join(starters.Games(), ", ")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), usage) } // init has no flags to list
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 || len(pos) > 2 {
		return errors.New(usage)
	}
	dir := pos[0]
	if len(pos) == 2 {
		dir = pos[1]
	}
	names, err := starters.Write(pos[0], dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		fmt.Fprintln(stdout, filepath.Join(dir, n))
	}
	fmt.Fprintf(stdout, "A %s tournament is ready in %s: see %s\n", pos[0], dir, filepath.Join(dir, "README.md"))
	return nil
}
