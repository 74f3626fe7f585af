package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

func cmdReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	out := fs.String("out", "", "directory to replay into, kept afterwards (default: a temporary directory, removed)")
	round := fs.Int("round", 0, "replay every match of this round")
	jobs := jobsFlag(fs)
	pin := fs.Bool("pin", true, "as arbiter run's -pin: with -j N above 1 and at most the CPUs or a multiple of them, each of the N matches at once in a worker process pinned to its own CPUs")
	root := fs.String("root", "", "the configuration's directory, which the plan's relative bot dirs are in (default: where the run found them)")
	allowChanged := fs.Bool("allow-changed-bots", false, "replay even if bots or arbiter changed since DIR was run")
	logLevel := logLevelVar(fs, "warn")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if flagSet(fs, "round") && *round < 1 {
		// Else -round 0 or -1 read as no -round: nothing, or the MATCH
		// ids given, replayed.
		return usageError("-round %d: a round is 1, 2, ...", *round)
	}
	if len(pos) > 1 && *round != 0 {
		return usageError("-round goes without MATCH ids: give either MATCH... or -round N")
	}
	if len(pos) < 1 || len(pos) == 1 && *round == 0 {
		return fmt.Errorf("usage: arbiter replay DIR MATCH... [-out DIR2], or arbiter replay DIR -round N [-out DIR2]")
	}
	if *jobs < 1 {
		return usageError("-j must be at least 1")
	}
	dir := pos[0]
	ids, warnings, err := engine.ReplayMatches(dir, pos[1:], *round, all.Driver)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "arbiter replay: %s\n", w)
	}
	p, err := replayPlan(dir, *out, root, *allowChanged)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := checkOutHoldsNoBot(*out, p, *root); err != nil {
			return err
		}
	}
	for _, w := range cpuWarnings(p) {
		fmt.Fprintf(stderr, "arbiter replay: %s\n", w)
	}
	into := *out
	if into == "" {
		if into, err = os.MkdirTemp("", "arbiter-replay-"); err != nil {
			return err
		}
		defer os.RemoveAll(into)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	runner := &engine.Runner{
		Plan: p, Drivers: all.Driver, Root: *root, Out: into, Jobs: *jobs, Only: ids, Self: selfPath(),
		Log:              hclog.New(&hclog.LoggerOptions{Name: "arbiter", Level: logLevel.level(), Output: stderr}),
		AllowChangedBots: *allowChanged,
	}
	runner.CPUs, runner.Unpinned = engine.Pinning(*jobs, *pin)
	replayed, err := runner.Replay(ctx, dir)
	if err != nil {
		return err
	}
	return reportReplay(stdout, replayed, *out)
}

// replayPlan is the plan of results directory dir with the bots'
// fingerprints as they are now, which must be those dir recorded unless
// allow. It resolves root, when empty, from where the run found the bots.
func replayPlan(dir, out string, root *string, allow bool) (*plan.Plan, error) {
	recorded, err := plan.Read(filepath.Join(dir, engine.PlanFile))
	if err != nil {
		return nil, err
	}
	dflt, given := "", *root != ""
	if !given {
		if dflt, err = recorded.BotRoot(); err != nil {
			return nil, err
		}
	}
	if *root, err = rootDir(*root, dflt); err != nil {
		return nil, err
	}
	if problems := sandboxTmpProblems(recorded, *root); len(problems) > 0 {
		return nil, savedError(filepath.Join(dir, engine.PlanFile), problems)
	}
	if err := botDirsThere(recorded, *root, given); err != nil {
		return nil, err
	}
	now := *recorded
	now.Bots = append([]plan.Bot(nil), recorded.Bots...)
	results := []string{dir}
	if out != "" {
		results = append(results, out)
	}
	if err := fingerprint.Plan(&now, fingerprint.Options{Root: *root, Results: results}); err != nil {
		return nil, err
	}
	if recorded.Arbiter == nil {
		return &now, nil // made by an arbiter that did not record fingerprints
	}
	p, changes, _ := engine.CompareFingerprints(recorded, &now)
	if len(changes) > 0 && !allow {
		return nil, &engine.ChangedError{Dir: dir, Changes: changes, Replay: true}
	}
	return p, nil
}

// sandboxTmpProblems are run's refusals of a saved plan's bots that
// would run in the sandbox with /tmp itself as their folder under root
// (sandboxTmpProblem), for a replay: told before all of /tmp is
// fingerprinted as a bot's files, or the match replayed into a start
// fault.
func sandboxTmpProblems(p *plan.Plan, root string) []string {
	var problems []string
	for i := range p.Bots {
		if b := &p.Bots[i]; b.House == "" {
			if pr := sandboxTmpProblem(b, b.DirIn(root)); pr != "" {
				problems = append(problems, pr)
			}
		}
	}
	return problems
}

// botDirsThere refuses a replay whose bots' dirs are not there under root
// (given: by -root; else where the run found them), saying so rather
// than listing every recorded file as removed.
func botDirsThere(p *plan.Plan, root string, given bool) error {
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			continue
		}
		dir := b.DirIn(root)
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if given {
			return fmt.Errorf("bot %q runs in %s (its dir %q in -root %s), which is not there: give -root the directory that holds the configuration", b.Name, dir, b.Dir, root)
		}
		return fmt.Errorf("bot %q ran in %s, which is not there any more (the folder moved, or was removed): give -root the directory that holds the configuration now", b.Name, dir)
	}
	return nil
}

// reportReplay says, match by match, whether the replay is identical to
// the recorded transcript; it fails when one is not.
func reportReplay(w io.Writer, replayed []engine.Replayed, kept string) error {
	differ, failed := 0, 0
	for _, r := range replayed {
		switch {
		case r.Err != nil:
			failed++
			fmt.Fprintf(w, "%s: cannot compare: %v\n", r.Match, r.Err)
		case r.Missing != "":
			// Its replayed transcript is the one to keep: say where.
			where := "replay with -out DIR2 to keep its transcript"
			if kept != "" {
				where = "its transcript is now in " + filepath.Join(kept, engine.MatchesDir, r.Match)
			}
			if r.Diff != "" {
				differ++
				fmt.Fprintf(w, "%s: no recorded transcript to compare against (%s is missing; %s); %s\n", r.Match, r.Missing, where, r.Diff)
				continue
			}
			same := "its result is the recorded one (timings aside)"
			if r.Refingerprinted {
				same += " but for the fingerprints it records: -allow-changed-bots played the bots and arbiter as they are now"
			}
			fmt.Fprintf(w, "%s: no recorded transcript to compare against (%s is missing; %s); %s\n", r.Match, r.Missing, where, same)
		case r.Refingerprinted:
			fmt.Fprintf(w, "%s: identical to the recorded transcript (%d lines, timings aside) but for the fingerprints its result records: "+
				"-allow-changed-bots played the bots and arbiter as they are now\n", r.Match, r.Lines)
		case r.Diff == "":
			fmt.Fprintf(w, "%s: identical to the recorded transcript (%d lines, timings aside)\n", r.Match, r.Lines)
		default:
			differ++
			fmt.Fprintf(w, "%s: differs from the recorded transcript: %s\n", r.Match, r.Diff)
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "%d of %d match(es) could not be compared.\n", failed, len(replayed))
	}
	if differ == 0 && failed == 0 {
		return nil
	}
	if differ == 0 {
		return errReported
	}
	if kept == "" {
		fmt.Fprintf(w, "%d of %d match(es) differ. Replay with -out DIR2 to keep the replayed transcripts.\n", differ, len(replayed))
	} else {
		fmt.Fprintf(w, "%d of %d match(es) differ; the replayed transcripts are in %s.\n", differ, len(replayed), filepath.Join(kept, engine.MatchesDir))
	}
	return errReported
}
