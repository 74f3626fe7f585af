package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// SincePlan is what a run of a saved plan into a results directory that
// holds no results of it yet checks after the builds: the files new
// since the plan was compiled in the folders of bots with a build.
// Before the build, which files of a folder are the build's is not
// known; after it, those it made or wrote are its own, and the others
// are changes since the plan, as the new files of a bot without a build
// are (CompareSincePlan).
type SincePlan struct {
	// Plan is the saved plan's file, as changes.jsonl names it.
	Plan string
	// Added are, by bot, the files new since the plan (relative to the
	// bot's folder as its fingerprint names them), sorted.
	Added map[string][]string
	// From are, by bot, the hashes the plan recorded.
	From map[string]string
	// Changes are the changes since the plan found before the builds
	// (CompareSincePlan), which the run was let go on with: recorded in
	// changes.jsonl (RecordCompiledChanges) once the directory's
	// plan.json records the bots as they are now, so that a run refused
	// before records none, and no record names files no result is played
	// with. StartPlanDir records them as it writes a new plan.json, and
	// leaves them nil; Run records those left once the resume's
	// comparison (reconcileBots) took the bots as they are now, before
	// plan.json records them.
	Changes []BotChange
}

// CompareSincePlan compares the fingerprints a saved plan recorded
// (saved) with those of its bots found now (now), as a run of the plan
// into a results directory that holds no results of it yet does: a
// recorded file changed or gone, another interpreter, another build of
// arbiter, and a file new since the plan are changes. The new files of a
// bot with a build are returned apart, by bot (see SincePlan): they are
// changes unless its build makes or writes them. A file under a
// __pycache__ folder is no change: Python reads a compiled module there
// only for a source file beside it, which is the bot's.
func CompareSincePlan(saved, now *plan.Plan) ([]BotChange, map[string][]string) {
	_, changes, added := CompareFingerprints(saved, now)
	built := map[string][]string{}
	for i := range now.Bots {
		b := &now.Bots[i]
		files := slices.DeleteFunc(slices.Clone(added[b.Name]), pycache)
		if len(files) == 0 {
			continue
		}
		slices.Sort(files)
		if len(b.Build) > 0 {
			built[b.Name] = files
			continue
		}
		k := slices.IndexFunc(changes, func(c BotChange) bool { return c.Bot == b.Name })
		if k < 0 {
			changes = append(changes, BotChange{Bot: b.Name, From: short(saved.Bot(b.Name).Fingerprint.Hash), To: short(b.Fingerprint.Hash)})
			k = len(changes) - 1
		}
		changes[k].Added = files
	}
	return changes, built
}

// pycache says whether the file f (slash separated) lies in a
// __pycache__ folder.
func pycache(f string) bool {
	return slices.Contains(strings.Split(path.Dir(f), "/"), "__pycache__")
}

// SincePlanError refuses a run of a saved plan whose bots with a build
// found files new since the plan that their builds did not write.
type SincePlanError struct {
	Plan, Out string
	Changes   []BotChange
}

func (e *SincePlanError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the bots changed since the plan %s was compiled, so what would run is not the plan that was reviewed:\n", e.Plan)
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "  %s (new since the plan, and not written by its build)\n", c)
	}
	fmt.Fprintf(&b, "Remove them; or compile the plan again (arbiter plan -json) and review it; "+
		"or give -allow-changed-bots to play the bots as they are now and record the change in %s", filepath.Join(e.Out, ChangesFile))
	return b.String()
}

// recordSincePlan records, and says, the changes since the saved plan
// found before the builds that StartPlanDir did not (SincePlan.Changes),
// once the resume's comparison took the bots as they are now
// (reconcileBots, before plan.json records them): the run goes on with
// them.
func (r *Runner) recordSincePlan() error {
	if r.SincePlan == nil || len(r.SincePlan.Changes) == 0 {
		return nil
	}
	for _, c := range r.SincePlan.Changes {
		r.logger().Warn("changed since the plan was compiled; going on (-allow-changed-bots)", "plan", r.SincePlan.Plan, "change", c.String())
	}
	return RecordCompiledChanges(r.Out, r.SincePlan.Plan, r.SincePlan.Changes)
}

// checkSincePlan builds, before any match, each bot of r.SincePlan (its
// folder's gate held alone, as before a match), and then finds the files
// new since the plan that its build neither made nor wrote (their stat
// is the same as before it): changes of the bot, refused unless
// r.AllowChangedBots, which records them in changes.jsonl. Each is built
// again, whatever verdict the directory kept. Built before
// any match, a refusal leaves no result in the directory, so the next
// run checks them again.
func (r *Runner) checkSincePlan(ctx context.Context) error {
	if r.SincePlan == nil {
		return nil
	}
	var changes []BotChange
	for _, name := range slices.Sorted(maps.Keys(r.SincePlan.Added)) {
		b := r.Plan.Bot(name)
		if b == nil || b.Fingerprint == nil || len(b.Build) == 0 {
			continue
		}
		// Built now, whatever verdict an earlier run into the directory
		// (refused here, or killed) kept: only a build that runs tells
		// which files it writes.
		if err := os.Remove(filepath.Join(r.Out, BuildsDir, fileName(name)+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return OwnerHint(err) // in builds/ of another user's (root's)
		}
		dir := b.DirIn(r.Root)
		before := map[string]plan.FileStat{}
		for _, f := range r.SincePlan.Added[name] {
			before[f] = fingerprint.Signature(filepath.Join(dir, filepath.FromSlash(f)))
		}
		verdicts, release, err := r.builtFor(ctx, &plan.Match{ID: "(before the first match)", Seats: []string{name}})
		if err != nil {
			return err
		}
		release()
		var left []string
		for _, f := range r.SincePlan.Added[name] {
			if after := fingerprint.Signature(filepath.Join(dir, filepath.FromSlash(f))); after != (plan.FileStat{}) && after == before[f] && !slices.Contains(verdicts[name].Made, f) {
				left = append(left, f)
			}
		}
		if len(left) > 0 {
			changes = append(changes, BotChange{Bot: name, From: short(cmp.Or(r.SincePlan.From[name], r.watch.hash(name))), To: short(r.watch.hash(name)), Added: left})
		}
	}
	if len(changes) == 0 {
		return nil
	}
	if !r.AllowChangedBots {
		return &SincePlanError{Plan: r.SincePlan.Plan, Out: r.Out, Changes: changes}
	}
	for _, c := range changes {
		r.logger().Warn("changed since the plan was compiled; going on (-allow-changed-bots)", "plan", r.SincePlan.Plan, "change", c.String())
	}
	return RecordCompiledChanges(r.Out, r.SincePlan.Plan, changes)
}
