package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	asJSON := fs.Bool("json", false, "print as JSON: the standings with their crosstable and LOS matrix, the head-to-head of -vs, or the ratings of -pgn")
	pgnIn := fs.String("pgn", "", "rate the games of this PGN file instead of a results directory")
	pgnOut := fs.String("export-pgn", "", "write the pairwise games of the results directory as PGN to this file (rate it with rank -pgn FILE -advantage 0 for the directory's Elo: its games have no white advantage)")
	def := rating.DefaultOptions()
	adv := fs.Float64("advantage", def.Advantage, "with -pgn: White's advantage in Elo (bayeselo's default)")
	drawElo := fs.Float64("drawelo", def.DrawElo, "with -pgn: draw Elo (bayeselo's default)")
	prior := fs.Float64("prior", def.Prior, "with -pgn: virtual draws of the prior (bayeselo's default)")
	vs := fs.String("vs", "", "head-to-head of two bots, `A,B`: W/D/L, Elo, nElo, LOS and SPRT")
	sprtFlag := fs.String("sprt", "", "with -vs: SPRT bounds in the model's Elo and error rates, `ELO0,ELO1[,ALPHA,BETA]` (default: the tournament's stop { sprt } block's, else 0,5; alpha and beta default to 0.05)")
	sprtModel := fs.String("sprt-model", "", "with -vs: what the SPRT's bounds measure, `normalized`, logistic or bayesian (default: the tournament's stop { sprt } block's, else normalized)")
	cross := fs.Bool("crosstable", false, "also print the crosstable (pairwise wins-draws-losses of every bot against every other); -json always holds it")
	los := fs.Bool("los", false, "also print the likelihood-of-superiority matrix; -json always holds it")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := checkRankFlags(fs); err != nil {
		return err
	}
	if err := checkHeadToHeadFlags(*vs, *sprtFlag, *sprtModel); err != nil {
		return err // before DIR is read: a usage error exits 2 whatever DIR is
	}
	if *pgnIn != "" {
		if len(pos) > 0 {
			return usageError("give either -pgn FILE or a results directory, not both")
		}
		opt := def
		opt.Advantage, opt.DrawElo, opt.Prior = *adv, *drawElo, *prior
		if err := checkRatingFlags(opt); err != nil {
			return err
		}
		return rankPGN(stdout, stderr, *pgnIn, opt, *asJSON)
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
		h, err := headToHead(p, results, *vs, *sprtFlag, *sprtModel)
		if err != nil {
			return err
		}
		if *asJSON {
			return enc.Encode(h)
		}
		return writeHeadToHead(stdout, h)
	}
	return rankDir(stdout, pos[0], p, results, stopped, standingsOptions{json: *asJSON, cross: *cross, los: *los})
}

// standingsOptions are rank's flags that say what to print of the standings.
type standingsOptions struct{ json, cross, los bool }

// rankDir prints the standings of results directory dir, as text
// or JSON, with the notes of the bots that changed after some results.
func rankDir(stdout io.Writer, dir string, p *plan.Plan, results []stats.Result, stopped *stop.Stopped, o standingsOptions) error {
	st, sp, err := engine.RankDir(dir, p, results, all.Driver)
	if err != nil {
		return err
	}
	changes, err := engine.ReadChanges(dir)
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rankJSON{st, stopped, changes})
	}
	return writeRankText(stdout, dir, st, sp, changes, o)
}

// writeRankText prints the standings as text, with the crosstable and
// the LOS matrix when asked for.
func writeRankText(stdout io.Writer, dir string, st *stats.Stats, sp *engine.ShardPlan, changes []engine.ChangeNote, o standingsOptions) error {
	if err := writeRanking(stdout, st, sp); err != nil {
		return err
	}
	writeChangeNotes(stdout, dir, changes)
	if o.cross {
		fmt.Fprintln(stdout)
		if err := writeCrosstable(stdout, st); err != nil {
			return err
		}
	}
	if o.los {
		fmt.Fprintln(stdout)
		return writeLOS(stdout, st)
	}
	return nil
}

// rankFlagRules are the flags that rank refuses in the company of
// others (checkRankFlags): each of its three forms (DIR, DIR -vs A,B,
// -pgn FILE) takes its own flags, and -json always prints the crosstable
// and LOS matrix that -crosstable and -los add to the text. A rule
// refuses its flags when applies holds of the flags given; the first
// rule that refuses one is the error.
var rankFlagRules = []struct {
	applies func(given map[string]bool) bool
	flags   []string
	why     string // after "goes with" or "go with"
}{
	{func(g map[string]bool) bool { return g["pgn"] }, []string{"export-pgn", "vs", "sprt", "sprt-model", "crosstable", "los"},
		"a results directory, not with -pgn FILE"},
	{func(g map[string]bool) bool { return !g["pgn"] }, []string{"advantage", "drawelo", "prior"},
		"-pgn FILE; a results directory's games are rated without a White advantage, at bayeselo's draw Elo and prior"},
	{func(g map[string]bool) bool { return g["vs"] }, []string{"crosstable", "los"},
		"the standings, not with the head-to-head of -vs A,B"},
	{func(g map[string]bool) bool { return !g["vs"] }, []string{"sprt", "sprt-model"},
		"-vs A,B: the SPRT of its head-to-head"},
	{func(g map[string]bool) bool { return g["json"] }, []string{"crosstable", "los"},
		"the text standings; -json always prints the crosstable and the LOS matrix (crosstable, los)"},
}

// checkRankFlags refuses, as a usage error, flags that rank would not use
// with the others given (rankFlagRules), naming them. A switch given as
// false (-crosstable=false) asks for nothing and is not counted as given,
// so that a script may spell every switch out; a flag with a value is,
// whatever the value, the default too (-prior 2 with a results directory
// says its user expects a prior to be used).
func checkRankFlags(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = !isFalseSwitch(f) })
	for _, r := range rankFlagRules {
		if !r.applies(given) {
			continue
		}
		var names []string
		for _, f := range r.flags {
			if given[f] {
				names = append(names, "-"+f)
			}
		}
		switch len(names) {
		case 0:
		case 1:
			return usageError("%s goes with %s", names[0], r.why)
		default:
			return usageError("%s and %s go with %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1], r.why)
		}
	}
	return nil
}

// isFalseSwitch says whether f is a boolean flag set to false.
func isFalseSwitch(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag() && f.Value.String() == "false"
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

// rankPGN prints the BayesElo ratings of the games of a PGN file: the
// table bayeselo prints, or with asJSON the same rows unrounded
// (pgnJSON). It says on stderr how many games it read, rated and left
// out, and why it skipped each malformed one; a file without a game to
// rate is an error.
func rankPGN(stdout, stderr io.Writer, path string, opt rating.Options, asJSON bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, rep, err := rating.FitPGN(f, opt)
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "arbiter rank: warning: %s: %s; skipped\n", path, w)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stderr, "arbiter rank: %s: %s\n", path, rep)
	switch {
	case rep.Games == 0:
		return fmt.Errorf("%s: no PGN game in the file (a game starts with tag pairs such as [White \"A\"] [Black \"B\"] [Result \"1-0\"])", path)
	case rep.Rated == 0 && rep.Games == 1:
		return fmt.Errorf("%s: its only game has no result to rate", path)
	case rep.Rated == 0:
		return fmt.Errorf("%s: none of its %d games has a result to rate", path, rep.Games)
	}
	plus, minus := r.ExactDist()
	if !asJSON {
		return r.WriteTable(stdout, plus, minus)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(pgnJSON{Advantage: opt.Advantage, DrawElo: opt.DrawElo, Prior: opt.Prior, Players: r.Rows(plus, minus)})
}

// checkRatingFlags refuses, as a usage error, a -advantage, -drawelo or
// -prior outside the range the fit takes (rating.OptionRange).
func checkRatingFlags(opt rating.Options) error {
	for _, f := range []struct {
		name string
		x    float64
	}{{"advantage", opt.Advantage}, {"drawelo", opt.DrawElo}, {"prior", opt.Prior}} {
		if !rating.OptionOK(f.name, f.x) {
			return usageError("-%s %v: must be %s", f.name, f.x, rating.OptionRange(f.name))
		}
	}
	return nil
}

// pgnJSON is what rank -pgn FILE -json prints: the options the games
// were rated with and the rows of bayeselo's table.
type pgnJSON struct {
	Advantage float64      `json:"advantage"`
	DrawElo   float64      `json:"drawelo"`
	Prior     float64      `json:"prior"`
	Players   []rating.Row `json:"players"`
}

// exportPGN writes the pairwise games of results as PGN to path: each
// game's Event is the tournament's name, its Round the match's round and
// its Match tag the match's id. Its Date is unknown: results record no
// date, and the same directory exports the same file.
func exportPGN(path string, p *plan.Plan, results []stats.Result) error {
	var games []rating.TaggedGame
	names := stats.EachPairwiseGame(p, results, func(r *stats.Result, g rating.Game) {
		round := "" // unknown
		if r.Round > 0 {
			round = strconv.Itoa(r.Round)
		}
		games = append(games, rating.TaggedGame{Game: g, Event: p.Tournament, Round: round,
			Tags: []rating.Tag{{Name: "Match", Value: r.Match}}})
	})
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rating.WriteExportPGN(f, names, games); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// headToHead compares the two bots of -vs A,B, with the SPRT of -sprt
// and -sprt-model; what they leave out is the plan's stop { sprt }
// block's, if it has one (stats.DefaultSPRT).
func headToHead(p *plan.Plan, results []stats.Result, vs, sprtFlag, model string) (*stats.HeadToHead, error) {
	a, b, err := parseVs(vs)
	if err != nil {
		return nil, err
	}
	sprt := stats.DefaultSPRT(p)
	if sprtFlag != "" {
		if sprt, err = parseSPRT(sprtFlag, sprt.Model); err != nil {
			return nil, err
		}
	}
	if err := checkSPRTModel(model); err != nil {
		return nil, err
	}
	if model != "" {
		sprt.Model = model
	}
	return stats.ComputeHeadToHead(p, results, a, b, sprt)
}

// checkHeadToHeadFlags checks the values of -vs, -sprt and -sprt-model
// (those given) before the results directory is read, so that a
// malformed one is the usage error (exit 2) whatever the directory: the
// bots' names and the tournament's own test are headToHead's to take.
func checkHeadToHeadFlags(vs, sprtFlag, model string) error {
	if vs == "" {
		return nil // checkRankFlags refuses -sprt and -sprt-model without -vs
	}
	if _, _, err := parseVs(vs); err != nil {
		return err
	}
	if sprtFlag != "" {
		if _, err := parseSPRT(sprtFlag, ""); err != nil {
			return err
		}
	}
	return checkSPRTModel(model)
}

// parseVs reads -vs A,B: the two bots' names, trimmed.
func parseVs(vs string) (a, b string, err error) {
	a, b, ok := strings.Cut(vs, ",")
	if !ok || strings.Contains(b, ",") {
		return "", "", usageError("-vs takes two bot names separated by a comma, like -vs greedy,random; got %q", vs)
	}
	return strings.TrimSpace(a), strings.TrimSpace(b), nil
}

// checkSPRTModel refuses a -sprt-model that names no model ("": the
// default).
func checkSPRTModel(model string) error {
	switch model {
	case "", rating.ModelNormalized, rating.ModelLogistic, rating.ModelBayesian:
		return nil
	}
	return usageError("-sprt-model %q: must be %s, %s or %s", model, rating.ModelNormalized, rating.ModelLogistic, rating.ModelBayesian)
}

// rankJSON is what rank -json prints: the statistics and, when a stopping
// rule ended the tournament, which rule and why.
type rankJSON struct {
	*stats.Stats
	Stopped *stop.Stopped `json:"stopped,omitempty"`
	// Changes are the changes of bots after some of their results, or
	// since the saved plan the run played was compiled (changes.jsonl):
	// their rows count both versions, or not the plan's.
	Changes []engine.ChangeNote `json:"changes,omitempty"`
}

// writeChangeNotes says, under the standings, which bots changed after
// some of their results, so that their rows count two versions, or
// since the saved plan was compiled, so that they are not the plan's.
func writeChangeNotes(w io.Writer, dir string, changes []engine.ChangeNote) {
	for _, c := range changes {
		fmt.Fprintf(w, "Note: %s (%s): %s.\n", c, filepath.Join(dir, engine.ChangesFile), c.Meaning())
	}
}

// parseSPRT reads -sprt ELO0,ELO1[,ALPHA,BETA], of the given model.
func parseSPRT(s, model string) (rating.SPRT, error) {
	sprt := rating.SPRT{Alpha: 0.05, Beta: 0.05, Model: model}
	fields := strings.Split(s, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return sprt, usageError("-sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, like -sprt 0,5; got %q", s)
	}
	dst := []*float64{&sprt.Elo0, &sprt.Elo1, &sprt.Alpha, &sprt.Beta}
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return sprt, usageError("-sprt %q: %q is not a number", s, f)
		}
		*dst[i] = v
	}
	if err := sprt.Validate(); err != nil {
		return sprt, usageError("%w", err) // a value out of its range, as -advantage's
	}
	return sprt, nil
}
