package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
)

func cmdRank(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rank", stderr)
	asJSON := fs.Bool("json", false, "print standings as JSON")
	pgnIn := fs.String("pgn", "", "rate the games of this PGN file instead of a results directory")
	pgnOut := fs.String("export-pgn", "", "write the pairwise games of the results directory as PGN to this file (rate it with rank -pgn FILE -advantage 0 for the directory's Elo: its games have no white advantage)")
	def := rating.DefaultOptions()
	adv := fs.Float64("advantage", def.Advantage, "with -pgn: White's advantage in Elo (bayeselo's default)")
	drawElo := fs.Float64("drawelo", def.DrawElo, "with -pgn: draw Elo (bayeselo's default)")
	prior := fs.Float64("prior", def.Prior, "with -pgn: virtual draws of the prior (bayeselo's default)")
	vs := fs.String("vs", "", "head-to-head of two bots, `A,B`: W/D/L, Elo, nElo, LOS and SPRT")
	sprtFlag := fs.String("sprt", "0,5", "with -vs: SPRT bounds in normalised Elo and error rates, `ELO0,ELO1[,ALPHA,BETA]` (alpha and beta default to 0.05)")
	cross := fs.Bool("crosstable", false, "also print the crosstable (pairwise wins-draws-losses of every bot against every other)")
	los := fs.Bool("los", false, "also print the likelihood-of-superiority matrix")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *pgnIn != "" {
		if len(pos) > 0 {
			return fmt.Errorf("give either -pgn FILE or a results directory, not both")
		}
		opt := def
		opt.Advantage, opt.DrawElo, opt.Prior = *adv, *drawElo, *prior
		return rankPGN(stdout, *pgnIn, opt)
	}
	if len(pos) != 1 {
		return fmt.Errorf("give one results directory (written by arbiter run -out DIR), or -pgn FILE")
	}
	p, results, stopped, err := readRanked(pos[0], stderr)
	if err != nil {
		return err
	}
	// A tournament a stopping rule ended is finished: say why.
	if stopped != nil && !*asJSON {
		fmt.Fprintf(stdout, "Stopped (%s): %s.\n", stopped.Rule, stopped.Reason)
	}
	if *pgnOut != "" {
		if err := exportPGN(*pgnOut, p, results); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if *vs != "" {
		h, err := headToHead(p, results, *vs, *sprtFlag)
		if err != nil {
			return err
		}
		if *asJSON {
			return enc.Encode(h)
		}
		return writeHeadToHead(stdout, h)
	}
	st, sp, err := engine.RankDir(pos[0], p, results)
	if err != nil {
		return err
	}
	if *asJSON {
		return enc.Encode(rankJSON{st, stopped})
	}
	if err := writeRanking(stdout, st, sp); err != nil {
		return err
	}
	if *cross {
		fmt.Fprintln(stdout)
		if err := writeCrosstable(stdout, st); err != nil {
			return err
		}
	}
	if *los {
		fmt.Fprintln(stdout)
		return writeLOS(stdout, st)
	}
	return nil
}

// readRanked reads the results directory dir for rank: the plan, the
// results that count (those before a stopping rule ended the run) and the
// stop. What it read but the results do not make (a stage file that
// differs: engine.ReadDirWith) is said on stderr.
func readRanked(dir string, stderr io.Writer) (*plan.Plan, []engine.Result, *stop.Stopped, error) {
	p, results, warnings, err := engine.ReadDirWith(dir, all.Driver)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "arbiter rank: %s\n", w)
	}
	stopped, err := engine.ReadStopped(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, stopped.Counted(p, results), stopped, nil
}

// rankPGN prints the BayesElo ratings of the games of a PGN file.
func rankPGN(stdout io.Writer, path string, opt rating.Options) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := rating.FitPGN(f, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	plus, minus := r.ExactDist()
	return r.WriteTable(stdout, plus, minus)
}

// exportPGN writes the pairwise games of results as PGN to path.
func exportPGN(path string, p *plan.Plan, results []stats.Result) error {
	names, games := stats.PairwiseGames(p, results)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rating.WritePGN(f, names, games); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// headToHead compares the two bots of -vs A,B, with the SPRT of -sprt.
func headToHead(p *plan.Plan, results []stats.Result, vs, sprtFlag string) (*stats.HeadToHead, error) {
	a, b, ok := strings.Cut(vs, ",")
	if !ok || strings.Contains(b, ",") {
		return nil, fmt.Errorf("-vs takes two bot names separated by a comma, like -vs greedy,random; got %q", vs)
	}
	sprt, err := parseSPRT(sprtFlag)
	if err != nil {
		return nil, err
	}
	return stats.ComputeHeadToHead(p, results, strings.TrimSpace(a), strings.TrimSpace(b), sprt)
}

// rankJSON is what rank -json prints: the statistics and, when a stopping
// rule ended the tournament, which rule and why.
type rankJSON struct {
	*stats.Stats
	Stopped *stop.Stopped `json:"stopped,omitempty"`
}

// parseSPRT reads -sprt ELO0,ELO1[,ALPHA,BETA].
func parseSPRT(s string) (rating.SPRT, error) {
	sprt := rating.SPRT{Alpha: 0.05, Beta: 0.05}
	fields := strings.Split(s, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return sprt, fmt.Errorf("-sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, like -sprt 0,5; got %q", s)
	}
	dst := []*float64{&sprt.Elo0, &sprt.Elo1, &sprt.Alpha, &sprt.Beta}
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return sprt, fmt.Errorf("-sprt %q: %q is not a number", s, f)
		}
		*dst[i] = v
	}
	return sprt, sprt.Validate()
}
