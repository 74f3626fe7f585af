package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/rating"
)

func cmdRank(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rank", stderr)
	asJSON := fs.Bool("json", false, "print standings as JSON")
	pgnIn := fs.String("pgn", "", "rate the games of this PGN file instead of a results directory")
	pgnOut := fs.String("export-pgn", "", "write the pairwise games of the results directory as PGN to this file")
	def := rating.DefaultOptions()
	adv := fs.Float64("advantage", def.Advantage, "with -pgn: White's advantage in Elo (bayeselo's default)")
	drawElo := fs.Float64("drawelo", def.DrawElo, "with -pgn: draw Elo (bayeselo's default)")
	prior := fs.Float64("prior", def.Prior, "with -pgn: virtual draws of the prior (bayeselo's default)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *pgnIn != "" {
		if len(pos) > 0 {
			return fmt.Errorf("give either -pgn FILE or a results directory, not both")
		}
		f, err := os.Open(*pgnIn)
		if err != nil {
			return err
		}
		defer f.Close()
		names, games, err := rating.ReadPGN(f)
		if err != nil {
			return fmt.Errorf("%s: %w", *pgnIn, err)
		}
		opt := def
		opt.Advantage, opt.DrawElo, opt.Prior = *adv, *drawElo, *prior
		r, err := rating.Fit(names, games, opt)
		if err != nil {
			return err
		}
		plus, minus := r.ExactDist()
		return r.WriteTable(stdout, plus, minus)
	}
	if len(pos) != 1 {
		return fmt.Errorf("give one results directory (written by arbiter run -out DIR), or -pgn FILE")
	}
	p, results, err := engine.ReadDir(pos[0])
	if err != nil {
		return err
	}
	// A tournament a stopping rule ended is finished: say why.
	if stopped, err := engine.ReadStopped(pos[0]); err != nil {
		return err
	} else if stopped != nil && !*asJSON {
		fmt.Fprintf(stdout, "Stopped (%s): %s.\n", stopped.Rule, stopped.Reason)
	}
	if *pgnOut != "" {
		names, games := engine.PairwiseGames(p, results)
		f, err := os.Create(*pgnOut)
		if err != nil {
			return err
		}
		if err := rating.WritePGN(f, names, games); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	st, err := engine.ComputeStandings(p, results)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"plan": p.Hash, "matches": len(results), "planned": len(p.Matches), "standings": st})
	}
	fmt.Fprintf(stdout, "%s: %d of %d matches finished\n\n", p.Tournament, len(results), len(p.Matches))
	return engine.WriteStandings(stdout, st)
}
