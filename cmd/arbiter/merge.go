package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

func cmdMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", stderr)
	out := fs.String("out", "", "the merged results directory (required)")
	partial := fs.Bool("partial", false, "merge although matches of the stage have no result yet")
	logLevel := logLevelVar(fs, "info")
	dirs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(dirs) == 0 {
		return fmt.Errorf("usage: arbiter merge -out DIR [-partial] SHARD_DIR...")
	}
	if err := checkMergeOut(*out, dirs[0]); err != nil {
		return err
	}
	cf := configFlags{logLevel: *logLevel}
	m := &engine.Merge{Out: *out, Shards: dirs, Partial: *partial, Drivers: all.Driver, Log: cf.logger(stderr)}
	// standings.txt is written before results.jsonl (the merge's last
	// file) and before anything is printed: a merge killed at any point,
	// even by its reader (SIGPIPE), leaves the standings of the results.
	var st *stats.Stats
	m.Standings = func(sum *engine.MergeSummary) error {
		var err error
		if st, err = engine.Rank(sum.Plan, sum.Stopped.Counted(sum.Plan, sum.Results), nil, sum.Seats); err != nil {
			return err
		}
		return replaceStandings(*out, st, nil)
	}
	sum, err := m.Run()
	if err != nil {
		return err
	}
	// In the words of the standings' headline, printed below, but of all
	// the results merged: a stopping rule's standings leave out those
	// after the stop.
	fmt.Fprintf(stdout, "Merged %d shard(s) of stage %d into %s: %d new result(s), %d merged before; %s.\n",
		len(dirs), sum.Stage, *out, sum.Added, sum.Already, finishedOf(sum.Plan, sum.Results, sum.Seats))
	switch {
	case len(sum.Missing) > 0:
		fmt.Fprintf(stdout, "Partial: %d match(es) of stage %d have no result yet; merge again when their shards have run.\n", len(sum.Missing), sum.Latest)
	case sum.Stopped != nil:
		fmt.Fprintf(stdout, "Stopped (%s): %s.\n", sum.Stopped.Rule, sum.Stopped.Reason)
	case sum.Next != nil:
		step := sum.Latest + 1
		for _, pr := range sum.Empty {
			fmt.Fprintf(stdout, "Stage %d is paired (%s, 0 match(es)): its shards play nothing.\n", step, stepName(sum.Plan, pr))
			step++
		}
		if len(sum.Next.Matches) == 0 { // the last step: nothing is to come
			fmt.Fprintf(stdout, "Stage %d is paired (%s, 0 match(es)): its shards play nothing.\nThe tournament is complete.\n", step, stepName(sum.Plan, sum.Next))
			break
		}
		fmt.Fprintf(stdout, "Stage %d is paired (%s, %d match(es)): run its shards with\n  arbiter run %s%s -shard K/N -stage %d -out SHARD_DIR\n",
			step, stepName(sum.Plan, sum.Next), len(sum.Next.Matches), shell.Word(filepath.Join(*out, engine.PlanFile)), rootFlag(sum.Plan), step)
	default:
		fmt.Fprintln(stdout, "The tournament is complete.")
	}
	fmt.Fprintln(stdout)
	return writeRanking(stdout, st, nil)
}

// stepName names a later step pr of p, as the merge says it is paired:
// "swiss round 3", "playoff 1 of stage final", "stage final".
func stepName(p *plan.Plan, pr *pairing.Pairing) string {
	if k := p.StageIndex(pr.Stage); k >= 0 && pr.Rule == "playoff" {
		return fmt.Sprintf("playoff %d of stage %s", pr.Round-p.Stages[k].Rounds, pr.Stage)
	} else if pr.Stage != "" { // a stage of a tournament in stages has no round
		return "stage " + pr.Stage
	}
	return fmt.Sprintf("%s round %d", pr.Rule, pr.Round)
}

// rootFlag is the -root that runs the bots of p, merged from shards, where
// the shards ran them: the merged plan.json lies in the merge's -out
// directory, not where the bots are. It is "" when p has no bot with a
// relative dir, and a placeholder when the fingerprints do not tell.
func rootFlag(p *plan.Plan) string {
	root := engine.SavedRoot(p)
	if root == "" {
		return ""
	}
	return " -root " + shell.Word(root)
}

// checkMergeOut refuses, before anything is written, a merge's -out that
// is, or holds, a bot's folder or a file of its command, as run's -out
// is: the next stage's shards run from it. The bots are those of the
// plan.json of shard, with the folders its run's fingerprints recorded; a shard
// without one is left to the merge's own checks.
func checkMergeOut(out, shard string) error {
	p, err := engine.ReadPlan(shard)
	if err != nil {
		return nil
	}
	root, _ := p.BotRoot() // the recorded fingerprints' folders count first
	return checkOutHoldsNoBot(out, p, root)
}
