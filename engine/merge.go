package engine

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// Merge combines the results directories of shards (arbiter run -shard)
// into one results directory, as a one-machine run of the plan writes it.
type Merge struct {
	Out    string
	Shards []string
	// Partial merges shards that leave matches of their stage unplayed.
	Partial bool
	Drivers func(name string) (drivers.Driver, bool)
	Log     hclog.Logger
	// Standings, when set, writes what Out holds derived from the
	// merged results besides the engine's own files (the standings),
	// before results.jsonl is replaced, so that a merge killed before it
	// is run again (only the stop or the next stage's pairing follows it).
	Standings func(sum *MergeSummary) error
}

// MergeSummary says what a merge did.
type MergeSummary struct {
	Stage   int
	Added   int // results new in Out
	Already int // results of the shards Out held already
	// Missing are the matches of the stage that no shard has played
	// (with Partial; otherwise they are an error).
	Missing []string
	// Latest is the latest stage Out holds results of: Stage, or a later
	// one when the shards of an earlier stage are merged again. Plan,
	// Results, Missing and Next are Out's as of that stage; Plan holds
	// Next's matches too.
	Latest  int
	Plan    *plan.Plan
	Results []Result
	Stopped *stop.Stopped
	// Next is the later stage paired from the merged results, for the
	// shards of stage Latest+1+len(Empty) to play; nil when the
	// tournament is complete (or Missing is not empty).
	Next *pairing.Pairing
	// Empty are the stages made before Next without a match (stages
	// Latest+1, ...: a gate admitted fewer bots than a match seats),
	// whose shards play nothing: the merge made the step after each, as
	// a run does. Next may be such a stage too, the last one.
	Empty []*pairing.Pairing
	// Seats is the game's, as Summary's.
	Seats func(n int) error
}

// shardDir is one input of a merge.
type shardDir struct {
	dir      string
	planJSON []byte
	plan     plan.Plan
	shard    Shard
	results  []Result
	lines    [][]byte
	line     map[string]int // index in results by match id
}

// mergeInput is everything a merge checked before it writes anything.
type mergeInput struct {
	out      string
	shards   []*shardDir
	planJSON []byte
	plan     *plan.Plan
	paired   []*pairing.Pairing // Out's later stages
	known    plan.Plan          // the plan with Out's later stages
	prior    map[string][]byte
	results  map[string]Result
	new      map[string]*shardDir
	stage    int
	latest   int // the latest stage Out holds results of, at least stage
	missing  []string
	// newPlan says Out's plan.json is planJSON's to write: Out has none,
	// or no result was merged into it yet (see readOut).
	newPlan bool
	// changes are those of the bots, or of arbiter's build, since the
	// plan the shards ran (compiledFrom) recorded them, that the shards
	// were let play with (allowedChanges): Out records them in its
	// changes.jsonl, then its plan.json is planJSON's.
	changes      []BotChange
	compiledFrom string
}

// Run merges. Every input is checked before anything is written: a bad
// input leaves Out as it was. Merging the same shards again adds nothing,
// and a merge that was killed completes when run again.
func (m *Merge) Run() (*MergeSummary, error) {
	if len(m.Shards) == 0 {
		return nil, fmt.Errorf("no shard directories to merge")
	}
	if _, err := os.Stat(m.Out); errors.Is(err, os.ErrNotExist) {
		// A new Out: the inputs are checked before it is made (and
		// locked), so that a refusal leaves nothing behind; then again
		// under the lock. (A lock file once made is never removed: a
		// process that opened it could lock it after its removal.)
		if _, err := m.check(); err != nil {
			return nil, err
		}
	} else if err := mergeTarget(m.Out); err != nil {
		return nil, m.unwritable(err) // before its lock, which a shard's run may hold
	}
	lock, err := LockDir(m.Out)
	if err != nil {
		return nil, m.unwritable(err)
	}
	defer lock.Unlock()
	in, err := m.check()
	if err != nil {
		return nil, err
	}
	m.noteWhere(in)
	sum := &MergeSummary{Stage: in.stage, Latest: in.latest, Missing: in.missing}
	for id := range in.new {
		if _, ok := in.prior[id]; ok {
			sum.Already++
		}
	}
	sum.Added = len(in.new) - sum.Already
	// Everything derived from the results first, then results.jsonl,
	// then the stop or the next stage's pairing: a merge killed before
	// results.jsonl left Out's results as they were, and one killed after
	// it left no stop, nor a next stage to play, without the results they
	// came from; the next merge (of the same shards) writes all of it
	// again.
	if err := m.copyMatches(in); err != nil {
		return nil, m.stopped(err, false)
	}
	after, err := m.finish(in, sum)
	if err != nil {
		return nil, m.stopped(err, false)
	}
	if m.Standings != nil {
		if err := m.Standings(sum); err != nil {
			return nil, m.stopped(err, false)
		}
	}
	if err := m.writeResults(in); err != nil {
		return nil, m.stopped(err, false)
	}
	if err := after(); err != nil {
		return nil, m.stopped(err, true)
	}
	return sum, nil
}

// stopped is the error of a merge that failed while writing Out. One
// that failed writing (a disk that was full is the usual cause) is
// completed by the same merge run again: before results.jsonl was
// replaced (written), Out's results are as they were; after it, the
// stop or the next stage's pairing is not written yet. Other failures
// (a game that cannot be loaded, a pairing that fails) are not fixed by
// running it again.
func (m *Merge) stopped(err error, written bool) error {
	if !writeError(err) {
		if written {
			return err
		}
		return fmt.Errorf("%w (the merge stopped before it replaced %s, so the results in %s are as they were)", err, ResultsFile, m.Out)
	}
	fix := "fix that"
	switch {
	case errors.Is(err, syscall.ENOSPC):
		fix = "free space on its disk"
	case errors.Is(err, syscall.EDQUOT):
		fix = "free space or raise your quota"
	}
	if written {
		return fmt.Errorf("%w: the merge stopped after it replaced %s in %s, but before it wrote what follows from the results (%s, or the next stage's pairing in %s); "+
			"%s and run the same merge again: it completes this one. Do not start the next stage until it has",
			err, ResultsFile, m.Out, StopFile, RoundsDir, fix)
	}
	return fmt.Errorf("%w: the merge stopped before it replaced %s, so the results in %s are as they were; %s and run the same merge again: it completes this one",
		err, ResultsFile, m.Out, fix)
}

// unwritable is err, of an Out that cannot be read, made or locked
// (below a file, a read-only mount), saying that nothing was lost and to
// merge again once it is fixed; err as it is when it is no such failure
// (a refusal of Out, another merge holding its lock).
func (m *Merge) unwritable(err error) error {
	if !writeError(err) {
		return err
	}
	return fmt.Errorf("%w: the merge wrote nothing, so nothing is lost (the shards' results, and any in %s, are as they were); fix that, or choose another -out, and run the same merge again",
		err, m.Out)
}

// writeError says whether err is a failure to read or write a file,
// which the same merge run again completes once it is fixed.
func writeError(err error) bool {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	return errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EIO)
}

// mergeTarget refuses a shard's results directory (shard.json) as Out:
// its results would then no longer be its shard's.
func mergeTarget(out string) error {
	b, err := os.ReadFile(filepath.Join(out, ShardFile))
	if err == nil {
		var sh Shard
		if json.Unmarshal(b, &sh) != nil {
			return fmt.Errorf("%s holds a %s, so it is a shard's directory: merge into another -out directory", out, ShardFile)
		}
		return fmt.Errorf("%s holds %s (its %s), so it is a shard's directory: merge into another -out directory", out, sh, ShardFile)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// notRun refuses as Out a directory that arbiter run played into (its
// arbiter.log): its results are not the shards'.
func notRun(out string) error {
	if IsRunDir(out) {
		return fmt.Errorf("%s holds the results of arbiter run (its %s), not of a merge: merge into another -out directory", out, LogFile)
	}
	return nil
}

// CheckMergeOut refuses a directory that a merge would refuse as its
// Out for what it is (a shard's, or one arbiter run played into), before
// any shard has run: arbiter slurm's check of its -out.
func CheckMergeOut(out string) error {
	if err := mergeTarget(out); err != nil {
		return err
	}
	return notRun(out)
}

// check reads and checks every shard and Out.
func (m *Merge) check() (*mergeInput, error) {
	var shards []*shardDir
	for _, dir := range m.Shards {
		sd, err := readShardDir(dir)
		if err != nil {
			return nil, err
		}
		shards = append(shards, sd)
	}
	ref := shards[0]
	seen := map[int]string{}
	for _, sd := range shards {
		if err := sameShardPlan(ref, sd); err != nil {
			return nil, err
		}
		if sd.shard.N != ref.shard.N || sd.shard.Stage != ref.shard.Stage {
			return nil, fmt.Errorf("%s holds %s, but %s holds %s: the shards of one merge are the N shards of one stage", sd.dir, sd.shard, ref.dir, ref.shard)
		}
		if other, ok := seen[sd.shard.K]; ok {
			return nil, fmt.Errorf("%s and %s are both %s: merge each shard once", other, sd.dir, sd.shard)
		}
		seen[sd.shard.K] = sd.dir
	}
	// The shards' plans are the same but for where the bots' files were
	// (sameButWhere): a new Out records the lowest shard's, whatever the
	// order of the inputs.
	low := slices.MinFunc(shards, func(a, b *shardDir) int { return a.shard.K - b.shard.K })
	in := &mergeInput{out: m.Out, shards: shards, planJSON: low.planJSON, plan: &low.plan, stage: ref.shard.Stage, prior: map[string][]byte{}, results: map[string]Result{}, new: map[string]*shardDir{}}
	if err := mergeTarget(m.Out); err != nil {
		return nil, err
	}
	if err := m.readOut(in, ref); err != nil {
		return nil, err
	}
	stageMs, err := m.stageMatches(in, ref)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, sd := range shards {
		problems = append(problems, in.take(sd, stageMs)...)
	}
	if len(problems) > 0 {
		return nil, listError("the shards cannot be merged into "+m.Out, problems)
	}
	var gaps []string
	for k := 0; k < ref.shard.N; k++ {
		if seen[k] == "" {
			gaps = append(gaps, fmt.Sprintf("shard %d/%d of stage %d is not among the inputs", k, ref.shard.N, in.stage))
		}
	}
	for _, mt := range stageMs {
		if _, ok := in.results[mt.ID]; !ok {
			in.missing = append(in.missing, mt.ID)
		}
	}
	if len(in.missing) > 0 && !m.Partial {
		for k := 0; k < ref.shard.N; k++ {
			if dir := seen[k]; dir != "" {
				why := unfinished(dir)
				for _, id := range ShardMatches(stageMs, k, ref.shard.N) {
					if _, ok := in.results[id]; !ok {
						gaps = append(gaps, fmt.Sprintf("%s has no result of match %s (%s)", dir, id, why))
					}
				}
			}
		}
		return nil, listError(fmt.Sprintf("%d match(es) of stage %d have no result (use -partial to merge what there is)", len(in.missing), in.stage), gaps)
	}
	in.since()
	return in, nil
}

// stageMatches are the matches of the shards' stage. A stage after the
// last one of a tournament that Out holds complete (every stage it made
// merged, and no later one to make, or stopped) has none: its shards
// played nothing (PlanShard's Finished), and merging them changes
// nothing, as arbiter slurm's chain, which holds a job for every stage
// that may come, merges them. A stage after one not merged yet is
// refused.
func (m *Merge) stageMatches(in *mergeInput, ref *shardDir) ([]plan.Match, error) {
	ms, err := StageMatches(in.plan, in.paired, in.stage)
	if err == nil {
		return ms, nil
	}
	if !in.newPlan {
		complete, cerr := Complete(m.Out, m.Drivers)
		if cerr != nil {
			return nil, cerr
		}
		if complete {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("%s: the shards are of stage %d, but %s has %d later stage(s) paired: merge the shards of every earlier stage into it first",
		ref.dir, in.stage, m.Out, len(in.paired))
}

// unfinished says why the shard in dir lacks results of its matches:
// still running (a run holds its lock: running it again would be
// refused), stopped early, when running it again resumes it, or ended
// on this machine with processes it left (its workers) still holding
// its lock, which running it again waits for, or is refused by.
func unfinished(dir string) string {
	locked, h, left := lockedBy(dir)
	since := func() string { return h.Since.Format("2006-01-02 15:04:05 MST") }
	switch {
	case !locked:
		return "its shard is unfinished: run it again to resume"
	case h == nil:
		return "its shard is still running: a process holds its lock; merge again once it has ended"
	case !h.alive():
		return fmt.Sprintf("its shard is unfinished, and held by leftover processes of a run that ended (pid %d on %s since %s): "+
			"they end once their matches are abandoned. %s if they do not, then run the shard again to resume",
			h.PID, h.Host, since(), stopWorkers(h, left))
	}
	return fmt.Sprintf("its shard is still running: locked by pid %d on %s since %s; merge again once it has ended", h.PID, h.Host, since())
}

// noteWhere logs each bot that the shards ran from different
// directories, with the same files, and which of them Out records.
func (m *Merge) noteWhere(in *mergeInput) {
	if m.Log == nil {
		return
	}
	for i := range in.plan.Bots {
		b := &in.plan.Bots[i]
		if b.Fingerprint == nil || b.Fingerprint.Dir == "" {
			continue
		}
		var dirs []string
		for _, sd := range in.shards {
			if ob := sd.plan.Bot(b.Name); ob != nil && ob.Fingerprint != nil && !slices.Contains(dirs, ob.Fingerprint.Dir) {
				dirs = append(dirs, ob.Fingerprint.Dir)
			}
		}
		if len(dirs) > 1 {
			m.Log.Info("the shards ran a bot from different directories, with the same files; the merged plan records one of them (a new -out the lowest shard's)",
				"bot", b.Name, "dirs", strings.Join(dirs, ", "), "recorded", b.Fingerprint.Dir)
		}
	}
}

// since narrows what the merge reports on to Out's latest stage: when
// the shards of an earlier stage are merged again into an Out that went
// on, the matches known are those of the stages up to the latest one Out
// holds results of (or the shards' stage), as the merge of that stage
// left them, and what is missing is that stage's.
func (in *mergeInput) since() {
	in.latest = min(in.stage, len(in.paired)) // a stage after the last: the last
	for s := len(in.paired); s > in.stage; s-- {
		if slices.ContainsFunc(in.paired[s-1].Matches, func(mt plan.Match) bool { _, ok := in.results[mt.ID]; return ok }) {
			in.latest = s
			break
		}
	}
	in.known.Matches, in.known.Made = slices.Clone(in.plan.Matches), nil
	for _, pr := range in.paired[:in.latest] {
		addLater(&in.known, pr)
	}
	if in.latest == in.stage {
		return
	}
	ms, _ := StageMatches(in.plan, in.paired, in.latest)
	in.missing = nil
	for _, mt := range ms {
		if _, ok := in.results[mt.ID]; !ok {
			in.missing = append(in.missing, mt.ID)
		}
	}
}

// readOut reads what Out holds already; it must be the shards' plan.
// An Out that holds no result yet (nor a later stage's pairing) gets
// the lowest shard's plan.json, as a new Out does, whatever plan.json it
// has: what a merge killed before its results.jsonl left there, or an
// earlier arbiter's run refused it, is not a plan any result was merged
// with, and may be another plan's.
func (m *Merge) readOut(in *mergeInput, ref *shardDir) error {
	b, err := os.ReadFile(filepath.Join(m.Out, PlanFile))
	if errors.Is(err, os.ErrNotExist) {
		if err := orphanResults(m.Out); err != nil {
			return err
		}
		if err := notRun(m.Out); err != nil {
			return err
		}
		in.known, in.newPlan = *in.plan, true
		in.carryChanges()
		return nil
	}
	if err != nil {
		return err
	}
	var op plan.Plan
	if err := json.Unmarshal(b, &op); err != nil {
		return fmt.Errorf("%s is not a plan (%v): merge into another -out directory", filepath.Join(m.Out, PlanFile), err)
	}
	path := filepath.Join(m.Out, ResultsFile)
	results, lines, err := readRaw(path)
	if err != nil {
		return err
	}
	paired, err := holdsPairing(m.Out)
	if err != nil {
		return err
	}
	if len(results) == 0 && !paired {
		if err := notRun(m.Out); err != nil {
			return err
		}
		in.known, in.newPlan = *in.plan, true
		in.carryChanges()
		return nil
	}
	what := "the results of"
	if len(results) == 0 {
		what = "the pairings of"
	}
	if err := samePlan(ref.dir, ref.planJSON, &ref.plan, m.Out, b, &op, what); err != nil {
		if op.Hash != ref.plan.Hash { // after the lines of what differs
			return fmt.Errorf("%w\nMerge into another -out directory", err)
		}
		if in.changes = allowedChanges(in.shards, &op); in.changes == nil {
			return otherBotsError(err, m.Out, &op, ref.shard.Stage)
		}
		in.compiledFrom = filepath.Join(m.Out, PlanFile)
	}
	if err := notRun(m.Out); err != nil {
		return err
	}
	if in.changes == nil {
		in.plan = &op // Out keeps the plan.json it has, with its bots' roots
	}
	if in.paired, err = m.outStages(in.plan, results); err != nil {
		return err
	}
	in.known = *in.plan
	in.known.Matches, in.known.Made = slices.Clone(in.plan.Matches), nil
	for _, pr := range in.paired {
		addLater(&in.known, pr)
	}
	if err := checkResults(&in.known, results, path); err != nil {
		return err
	}
	for i, r := range results {
		in.prior[r.Match] = lines[i]
		in.results[r.Match] = r
	}
	return nil
}

// allowedChanges are the changes of the bots, or of arbiter's build,
// from what Out's plan op records to what the shards' plans record, when
// every shard was let play with them (-allow-changed-bots): its
// changes.jsonl records each as a change since the plan it ran was
// compiled, from op's fingerprint to the one the shard's plan records
// (RecordCompiledChanges; not necessarily its last: recordedChange); a house bot
// changes with arbiter's build, which the change records alone. Nil when
// a shard was not, or the plans differ otherwise.
func allowedChanges(shards []*shardDir, op *plan.Plan) []BotChange {
	var out []BotChange
	for i, sd := range shards {
		records := compiledRecords(sd.dir)
		var found []BotChange
		rebuilt := op.Arbiter != nil && sd.plan.Arbiter != nil && *op.Arbiter != *sd.plan.Arbiter
		if rebuilt {
			c, ok := recordedChange(records, "", op.Arbiter.ID(), &sd.plan)
			if !ok {
				return nil
			}
			found = append(found, c)
		}
		for k := range sd.plan.Bots {
			b, ob := &sd.plan.Bots[k], op.Bot(sd.plan.Bots[k].Name)
			if ob == nil || b.Fingerprint == nil || ob.Fingerprint == nil || b.Fingerprint.Hash == ob.Fingerprint.Hash {
				continue
			}
			if rebuilt && b.House != "" && ob.House == b.House {
				continue // a house bot changes with arbiter's build, whose change is allowed above
			}
			c, ok := recordedChange(records, b.Name, short(ob.Fingerprint.Hash), &sd.plan)
			if !ok {
				return nil
			}
			found = append(found, c)
		}
		if i == 0 {
			out = found
		}
	}
	return out
}

// carryChanges takes into a new Out the changes since the saved plan
// they ran was compiled that the shards were let play with: the union
// over every shard, by bot, since a shard records only what it found (a
// file new since the plan that one shard's build did not write, a shard
// killed before it recorded its change and resumed by another run).
// Out's results are of the bots as changed, and rank and report say so.
// A shard's change of a bot is the one it recorded to the files its
// results were played with (playedChanges), not necessarily its last.
// The shards are taken in the order of their numbers: a bot's change is
// the first shard's that records one, with the files the others list
// too; the plan's file is the first shard's that names one.
func (in *mergeInput) carryChanges() {
	shards := slices.Clone(in.shards)
	slices.SortStableFunc(shards, func(a, b *shardDir) int { return a.shard.K - b.shard.K })
	union := map[string]BotChange{}
	for _, sh := range shards {
		changes, from := playedChanges(sh)
		for bot, c := range changes {
			if have, ok := union[bot]; ok {
				c = have.union(c)
			}
			union[bot] = c
		}
		if in.compiledFrom == "" {
			in.compiledFrom = from
		}
	}
	for _, bot := range sortedKeys(union) {
		in.changes = append(in.changes, union[bot])
	}
}

// union is change c with the files that d, another shard's change of the
// same bot, lists too, sorted.
func (c BotChange) union(d BotChange) BotChange {
	merge := func(a, b []string) []string {
		out := slices.Concat(a, b)
		slices.Sort(out)
		return slices.Compact(out)
	}
	c.Changed, c.Removed, c.Added = merge(c.Changed, d.Changed), merge(c.Removed, d.Removed), merge(c.Added, d.Added)
	c.Unused = merge(c.Unused, d.Unused)
	if c.Runs == nil {
		c.Runs = d.Runs
	}
	if c.Resolves == nil {
		c.Resolves = d.Resolves
	}
	return c
}

// playedChanges are, by bot ("" for arbiter's build), the changes since
// a saved plan was compiled that the shard sd's changes.jsonl records to
// the files its plan.json records, those its results were played with:
// the last such of each bot, and the plan's file as the last record that
// holds one names it. A change to other files is left out: an arbiter
// before the revision that records a change once the resume check took
// the files recorded it before the check refused the run, and no result
// was played with them (see recordedChange).
func playedChanges(sd *shardDir) (map[string]BotChange, string) {
	out, from := map[string]BotChange{}, ""
	for _, rec := range compiledRecords(sd.dir) {
		for _, c := range rec.Changes {
			if changedTo(&sd.plan, c) {
				out[c.Bot], from = c, rec.Plan
			}
		}
	}
	return out, from
}

// changedTo says whether the change c, of a bot ("" for arbiter's
// build) since a saved plan, is to what p, a shard's plan.json, records:
// true when p records no fingerprint of it. A change that found files
// new since the plan (Added, of a bot without a build) is to the hash of
// the files the plan recorded (CompareSincePlan hashes them as
// compareBot does), while p records every file the bot had: it is to p's
// when p's fingerprint without its Added files hashes to it.
func changedTo(p *plan.Plan, c BotChange) bool {
	if c.Bot == "" {
		return p.Arbiter == nil || c.To == p.Arbiter.ID()
	}
	b := p.Bot(c.Bot)
	if b == nil || b.Fingerprint == nil {
		return true
	}
	if c.To == short(b.Fingerprint.Hash) {
		return true
	}
	if len(c.Added) == 0 {
		return false
	}
	kept := *b.Fingerprint
	kept.Files = slices.DeleteFunc(slices.Clone(kept.Files), func(f plan.FileSum) bool { return slices.Contains(c.Added, f.Path) })
	return c.To == short(fingerprint.Hash(&kept))
}

// compiledRecords are the records of dir's changes.jsonl of changes
// since a saved plan was compiled (those that name the plan), in order.
func compiledRecords(dir string) []changeRecord {
	b, err := os.ReadFile(filepath.Join(dir, ChangesFile))
	if err != nil {
		return nil
	}
	var out []changeRecord
	for _, line := range strings.Split(string(b), "\n") {
		var rec changeRecord
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Plan == "" {
			continue
		}
		out = append(out, rec)
	}
	return out
}

// recordedChange is the last of records that changes bot ("" for
// arbiter's build) from from to what the shard's plan p records
// (changedTo). Not the last change of bot alone: a
// run refused after it recorded its change (a finished shard run again
// with the bot changed again, its results of one version) leaves a
// change to files no result was played with after the one its results
// were.
func recordedChange(records []changeRecord, bot, from string, p *plan.Plan) (BotChange, bool) {
	for i := len(records) - 1; i >= 0; i-- {
		for _, c := range records[i].Changes {
			if c.Bot == bot && c.From == from && changedTo(p, c) {
				return c, true
			}
		}
	}
	return BotChange{}, false
}

// otherBotsError is err, of shards of stage whose plan.json records
// other fingerprints than Out's plan p, with how to go on. Another -out
// takes the shards of stage 0 alone: a later stage's needs the stages
// before it, whose results Out holds with the bots it records.
func otherBotsError(err error, out string, p *plan.Plan, stage int) error {
	run := fmt.Sprintf("arbiter run %s", shell.Word(filepath.Join(out, PlanFile)))
	if root := SavedRoot(p); root != "" {
		run += " -root " + shell.Word(root)
	}
	if stage == 0 {
		return fmt.Errorf("%w. The shards ran other bots (or another arbiter) than %s records: merge them into another -out directory, "+
			"or restore the bots as %s records them and run the stage's shards again, each into a new -out directory (%s -shard K/N -out SHARD_DIR), and merge those into %s",
			err, out, out, run, out)
	}
	return fmt.Errorf("%w. The shards ran other bots (or another arbiter) than %s records, which played its earlier stages: "+
		"restore the bots as %s records them and run stage %d's shards again, each into a new -out directory (%s -shard K/N -stage %d -out SHARD_DIR), and merge those into %s; "+
		"to play the bots as they are now, run the tournament again from stage 0, into new directories",
		err, out, out, stage, run, stage, out)
}

// outStages are the later stages of Out, whose plan is p: a stage whose
// file is missing is made again from Out's results and written, as a run
// does (loadStages).
func (m *Merge) outStages(p *plan.Plan, results []Result) ([]*pairing.Pairing, error) {
	var game drivers.Game
	if p.MakesLater() {
		var err error
		if game, err = (&Runner{Plan: p, Drivers: m.Drivers}).loadGameSettings(); err != nil {
			return nil, err
		}
	}
	sf, err := loadStages(m.Out, p, results, game)
	if err != nil {
		return nil, err
	}
	if err := sf.refuse(); err != nil {
		return nil, err
	}
	return sf.paired, sf.writeRemade(m.Out)
}

// holdsPairing says whether dir's rounds/ holds a pairing, whatever plan
// it is of: a file named *.json (an atomic write killed leaves *.tmp).
func holdsPairing(dir string) (bool, error) {
	entries, err := os.ReadDir(filepath.Join(dir, RoundsDir))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			return true, nil
		}
	}
	return false, nil
}

// take adds a shard's results, returning what is wrong with them. A
// pairing of the shard's stages that its rounds/ lacks (lost, or not
// copied with it) is Out's: its results must be matches of Out's pairing
// all the same (checkResults), as they are of the pairing it holds.
func (in *mergeInput) take(sd *shardDir, stageMs []plan.Match) []string {
	for i := 0; i < min(in.stage, len(in.paired)); i++ {
		name := pairingName(in.plan, in.paired[i])
		path := filepath.Join(sd.dir, RoundsDir, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return []string{err.Error()}
		}
		if !bytes.Equal(b, mustIndent(in.paired[i])) {
			return []string{fmt.Sprintf("%s does not hold the pairing of stage %d that %s holds: the shard was run from other results", sd.dir, i+1, filepath.Join(RoundsDir, name))}
		}
	}
	if err := checkResults(&in.known, sd.results, filepath.Join(sd.dir, ResultsFile)); err != nil {
		return []string{err.Error()}
	}
	mine := map[string]bool{}
	for _, id := range ShardMatches(stageMs, sd.shard.K, sd.shard.N) {
		mine[id] = true
	}
	var problems []string
	for i, r := range sd.results {
		path := fmt.Sprintf("%s, line %d", filepath.Join(sd.dir, ResultsFile), i+1)
		if !mine[r.Match] {
			problems = append(problems, fmt.Sprintf("%s: match %s is not one of %s's matches", path, r.Match, sd.shard))
			continue
		}
		if bad := foreignFingerprint(in.plan, &r); bad != "" {
			problems = append(problems, fmt.Sprintf("%s: match %s %s", path, r.Match, bad))
			continue
		}
		if other := in.new[r.Match]; other != nil {
			problems = append(problems, fmt.Sprintf("%s: match %s has a result in %s too (a duplicate)", path, r.Match, other.dir))
			continue
		}
		old, ok := in.prior[r.Match]
		if ok && !bytes.Equal(old, sd.lines[i]) {
			problems = append(problems, fmt.Sprintf("%s: match %s has another result in %s already (a conflict)", path, r.Match, filepath.Join(in.out, ResultsFile)))
			continue
		}
		if !ok { // its directory is copied into Out: it must be there
			dir := filepath.Join(sd.dir, MatchesDir, r.Match)
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				problems = append(problems, fmt.Sprintf("%s: match %s has no directory %s (its transcript): copy the shard's directory whole", path, r.Match, dir))
				continue
			}
		}
		in.new[r.Match] = sd
		in.results[r.Match] = r
	}
	return problems
}

// copyMatches writes plan.json into an Out that holds no result yet
// (newPlan) and copies the new matches' directories.
func (m *Merge) copyMatches(in *mergeInput) error {
	// Its mark first, then plan.json, which makes Out a results directory
	// by its plan: a run into it is refused as soon as a merge began
	// writing it (see IsMergeDir). Out's of earlier merges get it too.
	if _, err := os.Lstat(filepath.Join(m.Out, MergedFile)); errors.Is(err, os.ErrNotExist) {
		if err := writeFileAtomic(filepath.Join(m.Out, MergedFile), mergedMark); err != nil {
			return err
		}
	}
	if len(in.changes) > 0 {
		// Before plan.json records the bots as they are now, as a resume
		// records a change: killed in between, the same merge again
		// records it again, which ReadChanges notes once.
		rec := changeRecord{Time: time.Now().UTC().Format(time.RFC3339), Results: len(in.prior), Changes: in.changes, Plan: in.compiledFrom}
		if err := appendChanges(m.Out, rec); err != nil {
			return err
		}
	}
	if in.newPlan || len(in.changes) > 0 {
		if b, err := os.ReadFile(filepath.Join(m.Out, PlanFile)); err != nil || !bytes.Equal(b, in.planJSON) {
			if err := writeFileAtomic(filepath.Join(m.Out, PlanFile), in.planJSON); err != nil {
				return err
			}
		}
	}
	if err := mkdirResults(filepath.Join(m.Out, MatchesDir)); err != nil {
		return err
	}
	ids := make([]string, 0, len(in.new))
	for id := range in.new {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if _, ok := in.prior[id]; ok {
			continue
		}
		src := filepath.Join(in.new[id].dir, MatchesDir, id)
		dst := filepath.Join(m.Out, MatchesDir, id)
		if err := copyTree(src, dst); err != nil {
			return fmt.Errorf("copying %s: %w", src, err)
		}
	}
	return nil
}

// writeResults replaces results.jsonl with every result in plan order,
// atomically; only the stop or the next stage's pairing, which follow
// from the results, are written after it.
func (m *Merge) writeResults(in *mergeInput) error {
	var buf bytes.Buffer
	for _, mt := range in.known.Matches {
		if line, ok := in.prior[mt.ID]; ok {
			buf.Write(line)
		} else if sd := in.new[mt.ID]; sd != nil {
			buf.Write(sd.lines[sd.line[mt.ID]])
		}
	}
	return writeFileAtomic(filepath.Join(m.Out, ResultsFile), buf.Bytes())
}

// finish rewrites what a run writes from the results: the game's own
// files, and pairs the next stage when the stage is whole. The stop, or
// the next stage's pairing, it returns to write (after results.jsonl).
func (m *Merge) finish(in *mergeInput, sum *MergeSummary) (after func() error, err error) {
	nothing := func() error { return nil }
	var results []Result
	for _, mt := range in.known.Matches {
		if r, ok := in.results[mt.ID]; ok {
			results = append(results, r)
		}
	}
	s, err := newMergeSession(&in.known, results, m.Out, m.Drivers)
	if err != nil {
		return nil, err
	}
	if m.Log != nil {
		s.log = m.Log
	}
	if err := s.report(); err != nil {
		return nil, err
	}
	s.stopper = stop.New(in.plan)
	s.advanceStop()
	sum.Plan, sum.Results, sum.Stopped, sum.Seats = &s.full, results, s.sum.Stopped, s.game.Seats
	if s.sum.Stopped != nil {
		return s.writeStop, nil
	}
	if len(sum.Missing) > 0 {
		return nothing, nil
	}
	for _, mt := range in.known.Matches {
		if _, ok := in.results[mt.ID]; !ok {
			return nothing, nil // an earlier stage was merged partially
		}
	}
	steps, writes, err := s.nextSteps(in.latest, in.paired)
	if err != nil {
		return nil, err
	}
	if len(steps) > 0 {
		// The next steps are made: their matches are known, and the
		// standings count them and say what is still to come, as a
		// run's and arbiter rank's of Out do.
		sum.Next, sum.Empty = steps[len(steps)-1], steps[:len(steps)-1]
		sum.Plan = &s.full
	}
	return func() error {
		for _, write := range writes {
			if err := write(); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// nextSteps makes the next step after stage (as nextStage), and, while
// the one made is a stage without a match (a gate admitted fewer bots
// than a match seats), the step after it too, as a run makes them one
// after the other: such a stage's shards have nothing to play, and the
// merge leaves no step due that arbiter rank of Out would make. Each
// step made is added to s.full; writes write those not written yet.
func (s *session) nextSteps(stage int, paired []*pairing.Pairing) (steps []*pairing.Pairing, writes []func() error, err error) {
	s.full.Matches, s.full.Made = slices.Clone(s.full.Matches), slices.Clone(s.full.Made)
	for ; ; stage++ {
		next, write, err := s.nextStage(stage, paired) // as it is when paired already
		if err != nil || next == nil {
			return steps, writes, err
		}
		steps = append(steps, next)
		if write != nil {
			writes = append(writes, write)
		}
		addLater(&s.full, next)
		if len(next.Matches) > 0 || next.Rule != stages.Rule {
			return steps, writes, nil
		}
	}
}

// newMergeSession is a session over finished results, to pair, report
// and stop as a run would, writing into dir.
func newMergeSession(p *plan.Plan, results []Result, dir string, drv func(string) (drivers.Driver, bool)) (*session, error) {
	r := &Runner{Plan: p, Drivers: drv, Out: dir}
	game, _, err := r.loadGame()
	if err != nil {
		return nil, err
	}
	s := &session{r: r, game: game, log: hclog.NewNullLogger(), full: *p, done: map[string]*Result{},
		sum: &Summary{Results: results}, halt: make(chan struct{})}
	for i := range results {
		s.done[results[i].Match] = &s.sum.Results[i]
	}
	return s, nil
}

// notShardDir refuses dir, which has no file name, to a merge.
func notShardDir(dir, name string) error {
	return fmt.Errorf("%s is not a shard's results directory (no %s): merge takes the -out directories of arbiter run -shard", dir, name)
}

// readShardDir reads a shard's results directory.
func readShardDir(dir string) (*shardDir, error) {
	sd := &shardDir{dir: dir}
	var err error
	if sd.planJSON, err = readPlanFile(dir, func(error) error { return notShardDir(dir, PlanFile) }); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(sd.planJSON, &sd.plan); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, PlanFile), err)
	}
	if err := sd.plan.Runnable(); err != nil {
		return nil, fmt.Errorf("%s: %w (an edited or damaged file?)", filepath.Join(dir, PlanFile), err)
	}
	rec, err := readShardRecord(dir)
	switch {
	case err != nil:
		return nil, err
	case rec == nil:
		return nil, notShardDir(dir, ShardFile)
	}
	sd.shard = *rec
	if sd.results, sd.lines, err = readRaw(filepath.Join(dir, ResultsFile)); err != nil {
		return nil, err
	}
	sd.line = make(map[string]int, len(sd.results))
	for i, r := range sd.results {
		sd.line[r.Match] = i
	}
	return sd, nil
}

// samePlan checks that b (at dirB) is the plan of a (at dirA), down to
// the bytes of plan.json, which carry the bots' fingerprints.
func samePlan(dirA string, rawA []byte, a *plan.Plan, dirB string, rawB []byte, b *plan.Plan, what string) error {
	if a.Hash != b.Hash {
		return fmt.Errorf("%s holds %s another plan (tournament %q, plan %.12s) than %s (tournament %q, plan %.12s)%s",
			dirB, what, b.Tournament, b.Hash, dirA, a.Tournament, a.Hash, DiffLines(a, b, filepath.Join(dirA, PlanFile), filepath.Join(dirB, PlanFile)))
	}
	if bytes.Equal(rawA, rawB) || sameButWhere(rawA, rawB) {
		return nil
	}
	return fmt.Errorf("%s/%s differs from %s/%s although both are plan %.12s: %s",
		dirB, PlanFile, dirA, PlanFile, a.Hash, planDiff(dirA, rawA, dirB, rawB))
}

// sameShardPlan refuses a shard sd of another plan than ref, or of the
// same plan run with other files, saying how to go on: -allow-changed-bots
// would not help, the shard's results of the other files staying.
func sameShardPlan(ref, sd *shardDir) error {
	err := samePlan(ref.dir, ref.planJSON, &ref.plan, sd.dir, sd.planJSON, &sd.plan, "a shard of")
	if err != nil && sd.plan.Hash != ref.plan.Hash {
		which, run := "that shard again", shardCommand(ref, sd.shard)
		if sd.shard.N != ref.shard.N || sd.shard.Stage != ref.shard.Stage {
			which = fmt.Sprintf("the shard K of the %d of stage %d that the others lack", ref.shard.N, ref.shard.Stage)
		}
		return fmt.Errorf("%w\nRun %s from the plan of %s, into a new -out directory (%s), and merge that in its place",
			err, which, ref.dir, run)
	}
	if err != nil {
		w := apartWords(ref, sd)
		if built := builtApart(ref, sd); len(built) > 0 {
			who := "Bot " + built[0] + " has"
			if len(built) > 1 {
				who = "Bots " + strings.Join(built, ", ") + " have"
			}
			return fmt.Errorf("%w. %s a build, and each shard records the files as its own build left them: "+
				"if the build writes other files each time (a stamp of the time or of the machine), no two shards agree and the bot cannot be sharded: "+
				"make its build write the same files each time, or write what differs outside the bot's folder, then run every shard again, "+
				"each into a new -out directory. Otherwise run %s again, each into a new -out directory, "+
				"with %s", err, who, w.again, w.ran)
		}
		return fmt.Errorf("%w. The shards of one merge must have %s: run %s again, "+
			"each into a new -out directory, with %s (or every shard with %s, and merge into a new -out)", err, w.must, w.again, w.ran, w.now)
	}
	return err
}

// apartWords are the words of sameShardPlan's refusal for what shards of
// one plan ran apart: the bots' files, arbiter's build (planDiff names
// it, and not the house bots that change with it), or both.
func apartWords(ref, sd *shardDir) (w struct{ must, again, ran, now string }) {
	diffs, rebuilt := planDiffs(ref.dir, ref.planJSON, sd.dir, sd.planJSON)
	switch {
	case rebuilt && len(diffs) == 1:
		w.must, w.again = "been run by the same build of arbiter", "the shards another build ran"
		w.ran, w.now = "the build the others ran", "arbiter as it is now"
	case rebuilt:
		w.must, w.again = "run the same files, by the same build of arbiter", "the shards that ran other files or another build"
		w.ran, w.now = "the files and the build the others ran", "the files and arbiter as they are now"
	default:
		w.must, w.again = "run the same files", "the shards that ran other files"
		w.ran, w.now = "the files the others ran", "the files as they are now"
	}
	return w
}

// shardCommand is the command that runs shard sh of ref's plan into a
// new directory: of ref's stage and number of shards, K standing for
// sh's number when sh is of others.
func shardCommand(ref *shardDir, sh Shard) string {
	run := "arbiter run " + shell.Word(filepath.Join(ref.dir, PlanFile))
	if root := SavedRoot(&ref.plan); root != "" {
		run += " -root " + shell.Word(root)
	}
	k := "K"
	if sh.N == ref.shard.N && sh.Stage == ref.shard.Stage {
		k = strconv.Itoa(sh.K)
	}
	run += fmt.Sprintf(" -shard %s/%d", k, ref.shard.N)
	if ref.shard.Stage > 0 {
		run += fmt.Sprintf(" -stage %d", ref.shard.Stage)
	}
	return run + " -out NEW_DIR"
}

// builtApart names, quoted, the bots with a build whose files differ
// between shards a and b where each shard's verdict (builds/<bot>.json)
// is of the files its plan.json records: each shard's files may be what
// its own build wrote.
func builtApart(a, b *shardDir) []string {
	var out []string
	for i := range a.plan.Bots {
		ba := &a.plan.Bots[i]
		bb := b.plan.Bot(ba.Name)
		if len(ba.Build) == 0 || bb == nil || ba.Fingerprint == nil || bb.Fingerprint == nil || ba.Fingerprint.Hash == bb.Fingerprint.Hash {
			continue
		}
		if builtAs(a.dir, ba) && builtAs(b.dir, bb) {
			out = append(out, strconv.Quote(ba.Name))
		}
	}
	return out
}

// builtAs says whether the build verdict of bot b in results directory
// dir is of the files b's fingerprint records.
func builtAs(dir string, b *plan.Bot) bool {
	raw, err := os.ReadFile(filepath.Join(dir, BuildsDir, fileName(b.Name)+".json"))
	var rec BuildRecord
	return err == nil && json.Unmarshal(raw, &rec) == nil && rec.Fingerprint == b.Fingerprint.Hash
}

// sameButWhere says whether two plan.json differ only in what their bots'
// fingerprints say was left out (their "skipped" lines) and in where the
// bots' files were (their "root" and "dir"), none of which changes a
// hash: shards whose results directories lie in a bot's dir each leave
// out their own (skipped: "a results directory"), and shards run with
// another -root (another mount or link to the same files, another
// machine) ran the same files.
func sameButWhere(a, b []byte) bool {
	strip := func(raw []byte) ([]byte, bool) {
		var p map[string]any
		if json.Unmarshal(raw, &p) != nil {
			return nil, false
		}
		bots, _ := p["bots"].([]any)
		for _, b := range bots {
			if bot, ok := b.(map[string]any); ok {
				if fp, ok := bot["fingerprint"].(map[string]any); ok {
					delete(fp, "skipped")
					delete(fp, "root")
					delete(fp, "dir")
				}
			}
		}
		out, err := json.Marshal(p)
		return out, err == nil
	}
	sa, okA := strip(a)
	sb, okB := strip(b)
	return okA && okB && bytes.Equal(sa, sb)
}

// planDiff names what differs between two plan.json of the same hash, at
// dirA and dirB: the fields outside the hash (the bots' fingerprints, the
// arbiter).
func planDiff(dirA string, a []byte, dirB string, b []byte) string {
	diffs, _ := planDiffs(dirA, a, dirB, b)
	if len(diffs) == 0 {
		return "their formatting differs"
	}
	return strings.Join(diffs, "; ")
}

// planDiffs are planDiff's differences, one a bot or a top-level key of
// the plan ("one of them does not parse" alone when one does not);
// rebuilt says whether arbiter's build is one of them.
func planDiffs(dirA string, a []byte, dirB string, b []byte) (diffs []string, rebuilt bool) {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return []string{"one of them does not parse"}, false
	}
	var bots struct {
		Bots []plan.Bot `json:"bots"`
	}
	var botsB = bots
	_ = json.Unmarshal(a, &bots)
	_ = json.Unmarshal(b, &botsB)
	rebuilt = !bytes.Equal(ma["arbiter"], mb["arbiter"])
	for i := range bots.Bots {
		if i >= len(botsB.Bots) {
			break
		}
		ba, bb := &bots.Bots[i], &botsB.Bots[i]
		if rebuilt && ba.House != "" && bb.House == ba.House {
			continue // a house bot changes with arbiter's build, named below
		}
		if d := fingerprintDiff(dirA, ba.Fingerprint, dirB, bb.Fingerprint); d != "" {
			diffs = append(diffs, fmt.Sprintf("bot %q %s", ba.Name, d))
		}
	}
	keys := make([]string, 0, len(ma))
	for k := range ma {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch {
		case k == "arbiter" && rebuilt:
			diffs = append(diffs, fmt.Sprintf("arbiter's build differs (it referees every match and plays the house bots): %s in %s, %s in %s",
				arbiterID(ma[k]), dirA, arbiterID(mb[k]), dirB))
		case k != "bots" && !bytes.Equal(ma[k], mb[k]):
			diffs = append(diffs, fmt.Sprintf("%q differs", k))
		}
	}
	return diffs, rebuilt
}

// arbiterID is the build that a plan's arbiter object raw records, or
// "none".
func arbiterID(raw json.RawMessage) string {
	var a plan.Arbiter
	if len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
		return "none"
	}
	return a.ID()
}

// fingerprintDiff says how bot fingerprints a (recorded in dirA) and b
// (in dirB) differ, telling where the files were from what they hold; ""
// when they differ only in what merge takes as the same (sameButWhere).
func fingerprintDiff(dirA string, a *plan.Fingerprint, dirB string, b *plan.Fingerprint) string {
	switch {
	case a == nil && b == nil:
		return ""
	case a == nil || b == nil:
		return "has a fingerprint in one of them only"
	}
	var parts []string
	if a.Dir != b.Dir {
		parts = append(parts, fmt.Sprintf("ran in %s in %s but in %s in %s", a.Dir, dirA, b.Dir, dirB))
	}
	if a.Program != b.Program {
		parts = append(parts, fmt.Sprintf("ran %s in %s but %s in %s", cmp.Or(a.Program, "its command's program"), dirA, cmp.Or(b.Program, "its command's program"), dirB))
	}
	if a.Hash != b.Hash {
		parts = append(parts, filesDiff(dirA, a, dirB, b))
	} else if a.House != b.House || !slices.Equal(a.Config, b.Config) {
		parts = append(parts, fmt.Sprintf("records other configuration files (%q in %s, %q in %s)", a.Config, dirA, b.Config, dirB))
	}
	if len(parts) == 1 && a.Dir != b.Dir {
		parts = append(parts, "with the same files")
	}
	return strings.Join(parts, ", ")
}

// filesDiff says how the files of two fingerprints of one bot differ: in
// content or mode, or only in where they were (files outside the bot's
// dir are recorded by absolute path, so a dir reached by another path
// names the same files otherwise).
func filesDiff(dirA string, a *plan.Fingerprint, dirB string, b *plan.Fingerprint) string {
	inA, inB := map[string]plan.FileSum{}, map[string]plan.FileSum{}
	for _, f := range a.Files {
		inA[f.Path] = f
	}
	for _, f := range b.Files {
		inB[f.Path] = f
	}
	var changed, onlyA, onlyB []string
	content := map[plan.FileSum]int{} // of the files at one path only, by content
	for _, f := range a.Files {
		g, ok := inB[f.Path]
		switch {
		case !ok:
			onlyA = append(onlyA, f.Path)
			content[plan.FileSum{Mode: f.Mode, SHA256: f.SHA256, Link: f.Link}]++
		case g != f:
			changed = append(changed, f.Path)
		}
	}
	for _, f := range b.Files {
		if _, ok := inA[f.Path]; !ok {
			onlyB = append(onlyB, f.Path)
			content[plan.FileSum{Mode: f.Mode, SHA256: f.SHA256, Link: f.Link}]--
		}
	}
	// Only files outside the bot's dir are recorded by absolute path:
	// the same files at other such paths are the dir reached another way.
	// A file renamed in the dir is a file of one shard only.
	moved := len(changed) == 0 && len(onlyA) > 0 && a.Dir != b.Dir &&
		!slices.ContainsFunc(onlyA, notAbs) && !slices.ContainsFunc(onlyB, notAbs)
	for _, n := range content {
		moved = moved && n == 0
	}
	if moved {
		return fmt.Sprintf("was run with the same files at other paths (%s in %s, %s in %s)", shortList(onlyA), dirA, shortList(onlyB), dirB)
	}
	var parts []string
	if len(changed) > 0 {
		parts = append(parts, "other content or mode of "+shortList(changed))
	}
	if len(onlyA) > 0 {
		parts = append(parts, fmt.Sprintf("%s in %s only", shortList(onlyA), dirA))
	}
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%s in %s only", shortList(onlyB), dirB))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("fingerprint %.19s in %s, %.19s in %s", a.Hash, dirA, b.Hash, dirB))
	}
	return "was run with other files (" + strings.Join(parts, "; ") + ")"
}

func notAbs(p string) bool { return !strings.HasPrefix(p, "/") }

// readRaw reads the complete lines of a results file (none when it does
// not exist), each with its bytes.
func readRaw(path string) ([]Result, [][]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	results, good, err := readResults(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b[:good]))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines = append(lines, append(slices.Clone(sc.Bytes()), '\n'))
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(lines) != len(results) {
		return nil, nil, fmt.Errorf("%s: %d lines but %d results", path, len(lines), len(results))
	}
	return results, lines, nil
}

// listError is an error with a list, at most 20 items shown.
func listError(head string, items []string) error {
	const most = 20
	var b strings.Builder
	b.WriteString(head + ":")
	for i, it := range items {
		if i == most {
			fmt.Fprintf(&b, "\n  ... and %d more", len(items)-most)
			break
		}
		b.WriteString("\n  " + it)
	}
	return errors.New(b.String())
}

// copyTree copies the directory src to dst, replacing dst: the files
// are hard-linked when src and dst are on one filesystem.
func copyTree(src, dst string) error {
	tmp := dst + ".merging"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(tmp, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		// A hard link where it can: a finished match's files are never
		// rewritten (a match played again gets new files), so sharing
		// them costs nothing and saves copying every transcript.
		if os.Link(path, target) == nil {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err == nil {
		if err = os.RemoveAll(dst); err == nil {
			err = os.Rename(tmp, dst)
		}
	}
	if err != nil {
		os.RemoveAll(tmp) // nothing half-copied is left behind
	}
	return OwnerHint(err) // a match folder of another user's (root's) merge
}

// foreignFingerprint says which bot of r was played with other files
// than the plan's fingerprint records ("" when none).
func foreignFingerprint(p *plan.Plan, r *Result) string {
	for _, bot := range sortedKeys(r.Fingerprints) {
		b := p.Bot(bot)
		if b != nil && b.Fingerprint != nil && b.Fingerprint.Hash != r.Fingerprints[bot] {
			return fmt.Sprintf("was played by %s with fingerprint %.12s, but the plan records %.12s (the bot changed during the shard's run): run the shard again into a new -out directory, with the files the plan records",
				bot, r.Fingerprints[bot], b.Fingerprint.Hash)
		}
	}
	return ""
}
