package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// slurmJob is the settings of the jobs arbiter slurm writes.
type slurmJob struct {
	self      string // the arbiter executable, absolute
	work      string // scripts, logs and shard directories
	out       string // the merged results directory
	root      string // the bots' root
	shards    int
	stages    int
	partition string
	time      string
	cpus      int
	name      string
	// allow: stage 0's shards run a saved plan whose bots changed since
	// it was compiled, as -allow-changed-bots lets them.
	allow bool
}

func cmdSlurm(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("slurm", stderr)
	var cf configFlags
	j := &slurmJob{}
	submit := j.register(fs)
	cf.registerRoot(fs)
	path, err := cf.parse(fs, args)
	if err != nil {
		return err
	}
	if err := j.checkFlags(fs); err != nil {
		return err
	}
	l, err := cf.loadRunnableLogged(path, stderr)
	if err != nil {
		return err
	}
	if j.out, err = filepath.Abs(j.out); err != nil {
		return err
	}
	if j.work == "" {
		j.work = j.out + ".slurm"
	}
	if j.work, err = filepath.Abs(j.work); err != nil {
		return err
	}
	now, err := j.checkCompiled(&cf, l, path)
	if err != nil {
		return err
	}
	if l.cfg != nil {
		// The shards run this plan.json, not the configuration: it records
		// the bots' fingerprints, and with them which files of their dirs
		// are the configuration's, so that the shards leave out the files
		// a run of the configuration does (a saved plan is written as it
		// was).
		// The work and results directories are arbiter's, also in a bot's
		// dir with a work directory of an earlier arbiter unmarked yet.
		o := cf.fingerprintOptions(l, path, j.out)
		o.Work = []string{j.work}
		if err := fingerprint.Plan(l.plan, o); err != nil {
			return err
		}
	}
	if err := j.check(l.plan, now, l.cfg, l.root); err != nil {
		return err
	}
	// Held until the jobs end (with -submit), or until the scripts are
	// written: a second -submit of this work directory meanwhile would run
	// the same shards at once, and a plain arbiter slurm would write its
	// scripts over the ones being submitted.
	j.self, j.root, j.stages = selfPath(), l.root, engine.Stages(l.plan)
	j.name = "arbiter-" + l.plan.Tournament
	unlock, queued, err := j.lockChecked(l.plan, *submit, cf.logger(stderr))
	if err != nil {
		return err
	}
	defer unlock()
	j.warnIdle(l.plan, cf.logger(stderr))
	if len(queued.jobs) > 0 {
		if done, err := j.reattach(queued, stdout); err != nil || done {
			return err
		}
	}
	if err := j.write(l.plan); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %d stage(s) of %d shard(s) and their merges to %s; ", j.stages, j.shards, j.work)
	if !*submit {
		fmt.Fprintf(stdout, "submit them with %s\n", shell.Word(filepath.Join(j.work, "submit.sh")))
		return nil
	}
	fmt.Fprintf(stdout, "submitting them, as %s would\n", shell.Word(filepath.Join(j.work, "submit.sh")))
	jobs, err := j.submitAll(stdout)
	if err != nil {
		return err
	}
	return waitSlurm(jobs, stdout)
}

// register adds slurm's flags of the job to fs; it returns -submit.
func (j *slurmJob) register(fs *flag.FlagSet) *bool {
	fs.StringVar(&j.out, "out", "", "the merged results directory (required)")
	fs.StringVar(&j.work, "work", "", "where the job scripts, logs and shard directories go (default: DIR.slurm beside -out)")
	fs.IntVar(&j.shards, "shards", 0, "shards per stage: the array job's size (required)")
	fs.StringVar(&j.partition, "partition", "", "the Slurm partition (default: the cluster's default)")
	fs.StringVar(&j.time, "time", "", "each job's time limit, in sbatch's --time format (default: the partition's)")
	fs.IntVar(&j.cpus, "cpus", 1, "CPUs per shard; the shard runs as many matches at once")
	fs.BoolVar(&j.allow, "allow-changed-bots", false, "run a saved plan whose bots or arbiter changed since it was compiled: its stage 0 shards play them as they are now, each recording the change")
	return fs.Bool("submit", false, "submit the jobs with sbatch and wait for the last merge, reporting every job's final state")
}

// checkFlags refuses a -shards or -cpus below 1 (a usage error, as run's
// -j 0), and a missing -out or -shards.
func (j *slurmJob) checkFlags(fs *flag.FlagSet) error {
	if (j.shards < 1 && flagSet(fs, "shards")) || j.cpus < 1 {
		return usageError("-shards and -cpus are at least 1")
	}
	if j.out == "" || j.shards < 1 {
		return fmt.Errorf("-out DIR and -shards N are required")
	}
	return nil
}

// checkCompiled refuses a saved plan whose bots or arbiter's build
// changed since it was compiled, as its shards would at their start,
// unless j.allow (see checkCompiled). Each shard's results directory is
// new, so the shards check the new files of bots with a build after
// their builds, each its own. It returns a copy of l's plan with the
// bots fingerprinted as they are now, as a shard finds them, for
// checkBots: a saved plan's own fingerprints are the ones it recorded.
func (j *slurmJob) checkCompiled(cf *configFlags, l *loaded, path string) (*plan.Plan, error) {
	o := cf.fingerprintOptions(l, path, j.out)
	o.Work = []string{j.work}
	now := *l.plan
	now.Bots = slices.Clone(l.plan.Bots)
	since, err := compareAgain(l, &now, o)
	if err != nil {
		return nil, err
	}
	_, err = checkCompiled(since, path, j.shardDir(0, "K"), j.allow)
	var ce *compiledError
	if errors.As(err, &ce) {
		ce.shards = filepath.Join(j.work, "shards")
	}
	return &now, err
}

// warnIdle warns when stage 0 of p has fewer units than -shards: the
// shards beyond them play nothing.
func (j *slurmJob) warnIdle(p *plan.Plan, log hclog.Logger) {
	ms, _ := engine.StageMatches(p, nil, 0)
	if engine.Units(ms) >= j.shards {
		return
	}
	idle := j.shards - engine.Units(ms)
	verb := "play"
	if idle == 1 {
		verb = "plays"
	}
	log.Warn(fmt.Sprintf("-shards %d: %d of its shards %s nothing in stage 0; -shards %d uses every one", j.shards, idle, verb, engine.Units(ms)),
		"matches", len(ms), "units", engine.Units(ms), "unit", "a group of a round, which a shard plays whole")
}

// check refuses, before anything is written, what would fail the jobs
// once submitted (or only their merge, after every shard played): a work
// directory that is not arbiter's alone or was written for another
// -shards, an -out that cannot be made, a work or results directory of
// another plan or kind, a -shards whose shards would refuse to start
// for the state the game carries from match to match in a stage known
// now (stage 0, and those -out holds paired), an -out or -work in a
// bots_from folder of cfg (the configuration; nil for a saved plan).
// (With -submit, queuedJobs follows.)
func (j *slurmJob) check(p, now *plan.Plan, cfg *config.Config, root string) error {
	// sbatch splits an #SBATCH line at white space outside double quotes,
	// so the logs' path is written in them (header), where a double quote
	// cannot be, nor can a line break on a line; and a backslash in the
	// path makes sbatch lose it (the jobs fail, with no log), where a
	// percent sign is written as sbatch's "%%".
	if strings.ContainsAny(j.work, "\"\n\\") {
		return fmt.Errorf("-work %q: the job scripts name their logs in it on #SBATCH lines, in double quotes, which cannot hold a double quote, a backslash or a line break: choose a -work directory without them", j.work)
	}
	for _, d := range []struct{ flag, dir string }{{"-out", j.out}, {"-work", j.work}} {
		if err := checkNotInBotsFrom(d.flag, d.dir, cfg); err != nil {
			return err
		}
	}
	// -out first: the default -work is beside it, below what -out is
	// below.
	if err := checkMakeable(j.out); err != nil {
		return err
	}
	if err := checkWork(j.work, p, root); err != nil {
		return err
	}
	// The merge jobs write -out, and the next stage's shards run from it.
	if err := checkOutHoldsNoBot(j.out, p, root); err != nil {
		return err
	}
	// A work or results directory of another plan would fail every job
	// once submitted; say so now, before anything is written.
	again := func(planPath string, saved *plan.Plan) string {
		return shell.Line("arbiter", "slurm", planPath, "-root", engine.CarryRoot(saved, root, planPath), "-out", j.out, "-work", j.work, "-shards", strconv.Itoa(j.shards))
	}
	for _, d := range []string{j.out, j.work} {
		if _, err := engine.CheckPlanDir(d, p, again); err != nil {
			return err
		}
	}
	if err := engine.CheckMergeOut(j.out); err != nil {
		return err
	}
	if err := j.checkBots(now, cfg == nil); err != nil {
		return err
	}
	if err := engine.CheckCarriedShards(p, j.out, j.shards, all.Driver); err != nil {
		return err
	}
	return j.checkShards()
}

// lockWork takes the lock of the work directory: an exclusive flock on
// its slurm.json, held by arbiter slurm while it writes the directory and,
// with -submit, while it submits and waits for the jobs, so that of two
// at once one is refused rather than both finding no job queued, or one
// writing the scripts the other submits. A new work directory is made
// with its slurm.json holding the mark write writes (never empty, which
// would not mark it). Where the file system has no flock (Lustre mounted
// without -o flock, some NFS), it goes on unlocked, saying so. unlock
// releases it.
func (j *slurmJob) lockWork(p *plan.Plan, log hclog.Logger) (unlock func(), err error) {
	f, err := j.openMark(p)
	if err != nil {
		return nil, err
	}
	path := f.Name()
	if err := flockWork(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		switch {
		case errors.Is(err, unix.EWOULDBLOCK):
			return nil, fmt.Errorf("another arbiter slurm, or submit.sh, of %s holds the lock of %s (%s): "+
				"wait for it to end, or stop it, and run this again; its jobs are in %s", j.work, path, lockHolders, filepath.Join(j.work, fingerprint.SlurmJobsFile))
		case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EINVAL):
			log.Warn(fmt.Sprintf("the file system of %s cannot lock it (%v): going on without the lock, so nothing stops another arbiter slurm of %s "+
				"running at once; run one at a time", path, err, j.work))
			return func() {}, nil
		}
		return nil, fmt.Errorf("locking %s: %v", path, err)
	}
	return func() { f.Close() }, nil
}

// lockChecked is lockWork, then the checks that must hold under the
// lock: -shards again (another arbiter slurm may have written the work
// directory for another -shards since check), and with submit whether a
// job of an earlier -submit is still queued: queued are then the jobs of
// that submission that Slurm still knows, to wait for (reattach).
func (j *slurmJob) lockChecked(p *plan.Plan, submit bool, log hclog.Logger) (unlock func(), queued earlierChain, err error) {
	unlock, err = j.lockWork(p, log)
	if err != nil {
		return nil, queued, err
	}
	err = j.checkShards()
	if err == nil && submit {
		queued, err = j.queuedJobs()
	}
	if err != nil {
		unlock()
		return nil, earlierChain{}, err
	}
	return unlock, queued, nil
}

// lockHolders says who holds the lock of a work directory's slurm.json,
// and when: the lock file names no holder.
const lockHolders = "arbiter slurm -submit holds it while it submits and waits for its jobs, arbiter slurm while it writes the scripts, submit.sh while it submits"

// flockWork is unix.Flock; a test stands in a file system without flock.
var flockWork = unix.Flock

// openMark opens the work directory's slurm.json, to lock it: as it is
// when it exists; else made (with the work directory) holding the mark of
// this plan, -out and -shards, which write writes over with the same.
func (j *slurmJob) openMark(p *plan.Plan) (*os.File, error) {
	path := filepath.Join(j.work, fingerprint.SlurmFile)
	if f, err := os.Open(path); !errors.Is(err, os.ErrNotExist) {
		return f, err
	}
	if err := os.MkdirAll(j.work, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return os.Open(path) // another arbiter slurm made it just now
	} else if err != nil {
		return nil, err
	}
	if _, err = f.Write(j.mark(p)); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return f, nil
}

// mark is what the work directory's slurm.json holds.
func (j *slurmJob) mark(p *plan.Plan) []byte {
	b, _ := json.Marshal(fingerprint.SlurmWork{Arbiter: fingerprint.SlurmWorkKind, Plan: p.Hash, Out: j.out, Shards: j.shards})
	return append(b, '\n')
}

// checkWork refuses a work directory that is not arbiter's alone: one
// that is, or holds, a bot's folder or a file its command names, or that
// exists and holds anything arbiter slurm and its jobs do not write there.
// Once marked (slurm.json), a work directory is left out of every bot's
// fingerprint, so a bot's code in it would never be hashed.
func checkWork(work string, p *plan.Plan, root string) error {
	if err := checkHoldsNoBot("-work", work, p, root, "the work directory is arbiter's alone and never part of a bot's fingerprint; choose another -work"); err != nil {
		return err
	}
	if err := checkWritable("-work", work, "every job would fail on it", "a -work directory the jobs can write"); err != nil {
		return err
	}
	if foreign := fingerprint.SlurmForeign(work); len(foreign) > 0 {
		return fmt.Errorf("-work %s holds what arbiter slurm does not write there (%s): a work directory is arbiter's alone and never part of a bot's fingerprint; choose a new or empty folder", work, shortNames(foreign))
	}
	return nil
}

// checkShards refuses a -shards other than the one the work directory
// was written for (its slurm.json): its shard directories and the merges
// into -out are of that many shards, and every shard job would refuse its
// directory once submitted. A work directory written but never submitted
// (no shard directory, no log, no jobs.json, which submit.sh writes too)
// is written again for the new -shards. So is an -out other than the
// one it was written for (checkOut).
func (j *slurmJob) checkShards() error {
	b, err := os.ReadFile(filepath.Join(j.work, fingerprint.SlurmFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	var sw fingerprint.SlurmWork
	if json.Unmarshal(b, &sw) != nil {
		return nil
	}
	if err := j.checkOut(sw.Out); err != nil {
		return err
	}
	if sw.Shards < 1 || sw.Shards == j.shards {
		return nil
	}
	return j.refuseWrittenFor("-shards", strconv.Itoa(j.shards), strconv.Itoa(sw.Shards),
		fmt.Sprintf("its shard directories, and the merges of them into %s, are of %d shards, and every shard job would refuse them, while its jobs still queued would run the scripts of %d shards",
			j.out, sw.Shards, sw.Shards), "-out and -work")
}

// refuseWrittenFor refuses flag's value now when the work directory was
// written for was (its slurm.json) and its jobs were submitted, saying
// why, and what to start over in; nil when nothing was submitted (the
// work directory is written again).
func (j *slurmJob) refuseWrittenFor(flag, now, was, why, startOver string) error {
	used, err := j.submitted()
	if err != nil || len(used) == 0 {
		return err // nothing submitted: written again
	}
	return fmt.Errorf("%s %s: the work directory %s was written for %s %s (its %s), and its jobs were submitted (its %s: by arbiter slurm -submit or by hand with submit.sh); "+
		"%s. Run again with %s %s to go on, or start over with %s %s in another %s directory "+
		"(or remove %s if none of its jobs is queued or ran)",
		flag, now, j.work, flag, was, fingerprint.SlurmFile, strings.Join(used, ", "), why, flag, was, flag, now, startOver, j.work)
}

// checkOut refuses an -out other than out, the one the work directory
// was written for (its slurm.json), once its jobs were submitted: its
// merges write out, its later stages' shards run from the plan there,
// and its jobs still queued would go on doing so, while the scripts
// written now would merge the same shards into -out. A work directory
// written but never submitted is written again for the new -out.
func (j *slurmJob) checkOut(out string) error {
	if out == "" || out == j.out || sameFile(out, j.out) {
		return nil
	}
	return j.refuseWrittenFor("-out", j.out, out,
		fmt.Sprintf("its merges write %s, and its later stages' shards run from the plan there, as its jobs still queued would", out), "-work")
}

// submitted is what says that a job of the work directory was submitted
// (by arbiter slurm -submit or by hand with submit.sh): a shard
// directory, a log, jobs.json; none when it was only written.
func (j *slurmJob) submitted() ([]string, error) {
	var used []string
	for _, d := range []string{"shards", "logs"} {
		names, err := os.ReadDir(filepath.Join(j.work, d))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if len(names) > 0 {
			used = append(used, d+"/")
		}
	}
	if _, err := os.Lstat(filepath.Join(j.work, fingerprint.SlurmJobsFile)); !errors.Is(err, os.ErrNotExist) {
		used = append(used, fingerprint.SlurmJobsFile)
	}
	return used, nil
}

// checkBots refuses, before anything is written, bots (or arbiter's
// build) as they are now (now, fingerprinted as a shard finds them)
// other than those recorded by the results of shards that played: the
// plan.json of each shard directory of a work directory whose jobs were
// submitted, the plan.json of an -out that holds merged results, and,
// for a configuration (not saved), the work directory's plan.json, which
// the one written now would replace. Every shard that played (its
// plan.json records the bots as it played them), and the merges into
// -out, would refuse to go on with them, on the cluster, one job after
// another. A saved plan's own plan.json is written as it was, so with
// -allow-changed-bots the bots it records may differ from what the
// shards played; the shards' are compared. A work directory written but
// never submitted, or whose shards played nothing, is written again.
func (j *slurmJob) checkBots(now *plan.Plan, saved bool) error {
	used, err := j.submitted()
	if err != nil {
		return err
	}
	var refused []string // the plan.json files that record others
	var changes []engine.BotChange
	for _, d := range j.playedDirs(used, saved) {
		recorded, err := engine.ReadPlan(d)
		if err != nil || recorded.Hash != now.Hash {
			continue // none, or another plan's, which check refuses
		}
		if _, ch, _ := engine.CompareFingerprints(recorded, now); len(ch) > 0 {
			refused = append(refused, filepath.Join(d, engine.PlanFile))
			if changes == nil {
				changes = ch
			}
		}
	}
	if len(refused) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the bots or arbiter changed since %s recorded them, and shards played them so (%s):\n", shortList(refused),
		cmp.Or(strings.Join(used, ", "), "the results in "+j.out))
	for _, c := range changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	if complete, _ := engine.Complete(j.out, all.Driver); complete {
		// Nothing is left to play: no job would refuse them, and the
		// results, which removing -out would lose, stand.
		fmt.Fprintf(&b, "The tournament in %s is complete: no shard or merge is left to play, and its results stand as they were played (arbiter rank and report read them). "+
			"To play the bots as they are now, start over in another -out and -work directory", j.out)
		return errors.New(b.String())
	}
	fmt.Fprintf(&b, "Every shard that played, and every merge of them into %s, would refuse the bots as they are now, one job after another. "+
		"Restore them%s and run this again (it resumes); or, to play the bots as they are now, start over in another -out and -work directory "+
		"(or remove %s and %s if none of their jobs is queued)", j.out, j.restoreArbiter(changes), j.work, j.out)
	return errors.New(b.String())
}

// restoreArbiter is how to restore arbiter's build when it is among the
// changes and the work directory's jobs ran an arbiter at another path
// (an earlier one, installed elsewhere): run arbiter slurm with that one.
func (j *slurmJob) restoreArbiter(changes []engine.BotChange) string {
	for _, c := range changes {
		if other := j.otherArbiter(); c.Bot == "" && other != "" {
			return " (arbiter's build: run this with the arbiter " + j.work + "'s jobs ran, " + other + ")"
		}
	}
	return ""
}

// playedDirs are the results directories whose plan.json checkBots
// compares, in a fixed order: the work directory (unless saved) and its
// shard directories, once its jobs were submitted (used, from
// submitted) and a shard played (its directory holds a plan.json), and
// -out once it holds merged results. A work directory whose shards
// played nothing (they refused the changed bots at their start) is
// written again, as one never submitted is: its jobs, submitted again,
// play the bots as they are now.
func (j *slurmJob) playedDirs(used []string, saved bool) []string {
	var dirs []string
	if len(used) > 0 {
		shards, _ := filepath.Glob(filepath.Join(j.work, "shards", "*", engine.PlanFile))
		if !saved && len(shards) > 0 {
			dirs = append(dirs, j.work)
		}
		slices.Sort(shards)
		for _, f := range shards {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	if fileExists(filepath.Join(j.out, engine.ResultsFile)) {
		dirs = append(dirs, j.out)
	}
	return dirs
}

// shortList joins names with "and", naming the first two of more than
// three and how many more.
func shortList(names []string) string {
	if len(names) > 3 {
		return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
	}
	return strings.Join(names, " and ")
}

// checkMakeable refuses an -out that cannot be written, or made, here:
// the merge job would find it out only after every shard has played.
// (The cluster's nodes may still see it otherwise.) A link is followed,
// and refused when it leads nowhere: mkdir fails on it.
func checkMakeable(out string) error {
	return checkWritable("-out", out, "the merge job would fail after every shard played", "an -out directory the merge job can write")
}

// checkWritable refuses dir, given with flag, when it cannot be written,
// or made, here (below a file, a link to a missing directory, a
// read-only mount): fail says what would fail on it, choose what to
// choose instead.
func checkWritable(flag, dir, fail, choose string) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if (errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ENOTDIR)) && filepath.Dir(d) != d {
			continue
		}
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if _, err := filepath.EvalSymlinks(d); err != nil {
				target, _ := os.Readlink(d)
				what := flag + " " + dir
				if d != dir {
					what = fmt.Sprintf("%s %s cannot be made: %s", flag, dir, d)
				}
				return fmt.Errorf("%s is a link to a missing %s (%v); make %s, or choose %s", what, target, err, target, choose)
			}
			fi, err = os.Stat(d)
		}
		if err != nil {
			return fmt.Errorf("%s %s cannot be made: %v; choose %s", flag, dir, err, choose)
		}
		if !fi.IsDir() {
			if d == dir {
				return fmt.Errorf("%s %s is not a directory; choose %s", flag, dir, choose)
			}
			return fmt.Errorf("%s %s cannot be made: %s is not a directory; choose %s", flag, dir, d, choose)
		}
		if err := unix.Access(d, unix.W_OK|unix.X_OK); err != nil {
			return fmt.Errorf("%s %s cannot be written: %s: %v; %s. Choose %s", flag, dir, d, err, fail, choose)
		}
		return nil
	}
}

// realOrSelf is path with its links resolved, or path when that fails.
func realOrSelf(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// checkHoldsNoBot refuses a directory of arbiter's, given with flag, that
// is, or holds, the folder of a bot of p (root: where p's relative bot
// dirs are), or a file its command names outside that folder, saying why
// the directory must be arbiter's alone. Files are known once p's bots
// are fingerprinted; before, only the folders are checked.
func checkHoldsNoBot(flag, dir string, p *plan.Plan, root, why string) error {
	real := realOrSelf(dir)
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			continue
		}
		bdir := b.DirIn(root)
		if b.Fingerprint != nil && b.Fingerprint.Dir != "" {
			bdir = b.Fingerprint.Dir
		}
		if abs, err := filepath.Abs(bdir); err == nil && drivers.Within(realOrSelf(abs), real) {
			return fmt.Errorf("%s %s is, or holds, the folder of bot %q (%s): %s", flag, shell.Word(dir), b.Name, shell.Word(realOrSelf(abs)), why)
		}
		if f := commandFileIn(b, bdir, real); f != "" {
			return fmt.Errorf("%s %s holds %s, a file of bot %q's command: %s", flag, shell.Word(dir), shell.Word(f), b.Name, why)
		}
	}
	return nil
}

// commandFileIn is a file that bot b's command names (a path a word of
// it may name, see drivers.WordPaths, from the bot's folder bdir, or an absolute
// one) or that its fingerprint records outside that folder, which lies
// in the directory real; "" when there is none. A results directory in
// the bot's folder is left out of its fingerprint, so the files of its
// command there (-out bots, for a command python3 bots/simple.py) are
// found by the command's words.
func commandFileIn(b *plan.Bot, bdir, real string) string {
	for _, w := range b.Command {
		for _, path := range drivers.WordPaths(w) {
			if !filepath.IsAbs(path) {
				path = filepath.Join(bdir, path)
			}
			if abs, err := filepath.Abs(path); err == nil {
				if f := fileIn(abs, real); f != "" {
					return f
				}
			}
		}
	}
	if b.Fingerprint == nil {
		return ""
	}
	for _, f := range b.Fingerprint.Files {
		if filepath.IsAbs(f.Path) && drivers.Within(realOrSelf(f.Path), real) {
			return realOrSelf(f.Path)
		}
	}
	return ""
}

// fileIn is the file at path abs, when there is one, that lies in the
// directory real: the file as named, its folder's links resolved (a link
// there is hidden with real, wherever it leads), or else the file it
// leads to; "" when neither does.
func fileIn(abs, real string) string {
	if _, err := os.Lstat(abs); err != nil {
		return ""
	}
	if named := filepath.Join(realOrSelf(filepath.Dir(abs)), filepath.Base(abs)); drivers.Within(named, real) {
		return named
	}
	if target := realOrSelf(abs); drivers.Within(target, real) {
		return target
	}
	return ""
}

// shortNames lists a few names, saying how many more there are.
func shortNames(names []string) string {
	const most = 5
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

// write writes the plan, a shard script and a merge script per stage,
// and submit.sh, which submits them chained by dependencies.
func (j *slurmJob) write(p *plan.Plan) error {
	if err := os.MkdirAll(j.work, 0o755); err != nil {
		return err
	}
	// Its marker first: the work directory (logs, scripts, shards) may lie
	// in a bot's dir, and by this mark it is never part of the bot's
	// fingerprint, which the shards would otherwise see change as their
	// logs grow.
	if err := os.WriteFile(filepath.Join(j.work, fingerprint.SlurmFile), j.mark(p), 0o644); err != nil {
		return err
	}
	for _, d := range []string{filepath.Join(j.work, "logs"), filepath.Join(j.work, "shards")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(j.work, engine.PlanFile), append(b, '\n'), 0o644); err != nil {
		return err
	}
	for s := 0; s < j.stages; s++ {
		if err := os.WriteFile(j.script("shards", s), []byte(j.shardScript(s)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(j.script("merge", s), []byte(j.mergeScript(s)), 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(j.work, "submit.sh"), []byte(j.submitScript()), 0o755)
}

// submitScript is submit.sh, which submits every stage as submitAll
// does, and records each job in jobs.json as it does (first by its name,
// then with its id, dropping the name of a job whose sbatch could not be
// run): a submission by hand is known too, to -submit (its
// jobs still queued) and to another -shards (refused once anything was
// submitted).
func (j *slurmJob) submitScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Submits every stage: its shards after the merge before, its merge after its shards.\nset -e\ncd \"$(dirname \"$0\")\"\ndep=\n")
	fmt.Fprintf(&b, "# Each job's comment: the work directory, which tells its jobs from another's of the same names.\ncomment=%s\ncommentjson=%s\n",
		shell.Word(j.comment()), jsonWord(j.comment()))
	b.WriteString(j.queuedScript())
	b.WriteString("# record ID WHAT NAME: jobs.json lists the jobs submitted, for arbiter slurm; an empty ID records the job about to be submitted,\n" +
		"# which its name and comment then find should this be stopped before it records the ID.\nrec=\nrecord() {\n" +
		"  e=\"{\\\"what\\\": \\\"$2\\\", \\\"id\\\": \\\"${1%%;*}\\\", \\\"name\\\": \\\"$3\\\", \\\"comment\\\": \\\"$commentjson\\\"}\"\n" +
		"  new=\"$rec${rec:+,}\n  $e\"\n" +
		"  printf '[%s\\n]\\n' \"$new\" >jobs.json.tmp\n  mv jobs.json.tmp jobs.json\n  if [ -n \"$1\" ]; then rec=$new; fi\n}\n")
	b.WriteString(unrecordScript())
	job := func(what, name string) string {
		return jsonWord(what) + " " + jsonWord(name)
	}
	// sbatch runs without the lock's descriptor (9<&-): what it leaves
	// running would hold the lock once submit.sh has ended.
	for s := 0; s < j.stages; s++ {
		sh := job(fmt.Sprintf("stage %d shards", s), j.jobName("s", s))
		what := shell.Word(fmt.Sprintf("stage %d shards", s))
		fmt.Fprintf(&b, "record \"\" %s\na=$(sbatch --parsable --comment=\"$comment\" $dep %s 2>%s 9<&-) || unrecord $? \"$a\" %s\nsaid\nrecord \"$a\" %s\necho \"stage %d shards: job $a\"\n",
			sh, filepath.Base(j.script("shards", s)), fingerprint.SlurmSbatchErrors, what, sh, s)
		me := job(fmt.Sprintf("stage %d merge", s), j.jobName("m", s))
		what = shell.Word(fmt.Sprintf("stage %d merge", s))
		fmt.Fprintf(&b, "record \"\" %s\nm=$(sbatch --parsable --comment=\"$comment\" --dependency=afterok:${a%%%%;*} --kill-on-invalid-dep=yes %s 2>%s 9<&-) || unrecord $? \"$m\" %s\nsaid\nrecord \"$m\" %s\necho \"stage %d merge: job $m\"\n",
			me, filepath.Base(j.script("merge", s)), fingerprint.SlurmSbatchErrors, what, me, s)
		b.WriteString("dep=\"--dependency=afterok:${m%%;*} --kill-on-invalid-dep=yes\"\n")
	}
	return b.String()
}

// unrecordScript is submit.sh's said and unrecord. Each sbatch writes
// its errors to sbatch.err (fingerprint.SlurmSbatchErrors), which said
// then shows (on stderr) and removes, with no command but sh's own and
// rm: where sh cannot find sbatch, others may not be found either.
func unrecordScript() string {
	const errs = fingerprint.SlurmSbatchErrors
	unsure := make([]string, len(slurmUnsure))
	for i, w := range slurmUnsure {
		unsure[i] = "-e " + shell.Word(w)
	}
	return "# said: shows what sbatch said on stderr, kept in " + errs + " for unrecord.\n" +
		"said() {\n  while IFS= read -r l || [ -n \"$l\" ]; do printf '%s\\n' \"$l\" >&2; done <" + errs + "\n  rm -f " + errs + "\n}\n" +
		"# unrecord STATUS OUT WHAT: sbatch of the job WHAT ended with STATUS, its output OUT. One that could not be run (126, 127) submitted nothing,\n" +
		"# nor did one that Slurm refused outright (no id, and \"" + slurmSubmitFailed + "\" with a reason that is not a failure to reach\n" +
		"# slurmctld or hear its answer, such as a socket timeout, after which the job may have been submitted all the same): its job's record goes\n" +
		"# (jobs.json too when it records nothing else), as arbiter slurm -submit's does.\nunrecord() {\n" +
		"  why=\n  case \"$1\" in\n  126|127) ;;\n" +
		"  *) why=$(sed -n 's/^.*" + slurmSubmitFailed + "//p' " + errs + " | tail -n 1)\n" +
		"     if [ -n \"$2\" ] || [ -z \"$why\" ] || printf '%s\\n' \"$why\" | grep -qiF " + strings.Join(unsure, " ") + "; then said; exit \"$1\"; fi ;;\n  esac\n  said\n" +
		"  if [ -n \"$rec\" ]; then printf '[%s\\n]\\n' \"$rec\" >jobs.json.tmp; mv jobs.json.tmp jobs.json; else rm -f jobs.json; fi\n" +
		"  if [ -n \"$why\" ]; then echo \"submit.sh: Slurm refused the job ($3): $why. Nothing of it was submitted, and jobs.json does not record it: once the cause is fixed, run this again\" >&2; fi\n" +
		"  exit \"$1\"\n}\n"
}

// maxSlurmComment is the longest comment, in bytes, that slurmctld
// takes: a longer one fails the job's submission ("Pathname of a file,
// directory or other parameter too long").
const maxSlurmComment = 1024

// comment is the comment (--comment) of the work directory's jobs, which
// tells them from another work directory's of the same names: the work
// directory, or, longer than Slurm takes a comment, a digest of it.
func (j *slurmJob) comment() string {
	if len(j.work) <= maxSlurmComment {
		return j.work
	}
	sum := sha256.Sum256([]byte(j.work))
	return workDigestComment + hex.EncodeToString(sum[:])
}

// workDigestComment begins the comment of a work directory too long for
// one (comment).
const workDigestComment = "arbiter work directory sha256 "

// jsonWord is s as a JSON string's contents (no quotes), as one word for
// sh.
func jsonWord(s string) string {
	w, _ := json.Marshal(s)
	return shell.Word(string(w[1 : len(w)-1]))
}

// queuedScript is the part of submit.sh that refuses, as -submit does
// (lockWork, queuedJobs), to submit while another arbiter slurm, or
// submit.sh, of the work directory holds its lock, or while a job that jobs.json
// records (by -submit or an earlier submit.sh) is still queued or
// running: a second chain would run the same shards at once, and its
// jobs.json would name only the new jobs. It asks squeue for them by
// name, keeping those of the work directory's comment or, of another
// that is not a work directory's (recordedJob.is), of an id jobs.json
// records, or by id when
// jobs.json records no comments (an earlier arbiter wrote it): so
// it finds the job being submitted when a submission was stopped, which
// jobs.json names without an id. A job Slurm no longer knows has
// ended, and so has one whose id now names a job of another name. It
// writes nothing in the work directory: anything else there would make
// it another's (checkWork).
func (j *slurmJob) queuedScript() string {
	var names, plain []string
	for s := 0; s < j.stages; s++ {
		names = append(names, shell.Word(j.jobName("s", s)), shell.Word(j.jobName("m", s)))
		plain = append(plain, j.jobName("s", s), j.jobName("m", s))
	}
	var terminalStates []string
	for st := range terminal {
		terminalStates = append(terminalStates, st)
	}
	slices.Sort(terminalStates)
	return "# Refused while another arbiter slurm, or submit.sh, holds the lock of slurm.json, or while a job in jobs.json is queued or running.\n" +
		"# flock -n exits 1 when the lock is held (every util-linux; -E is newer), other statuses when it cannot lock.\n" +
		"if command -v flock >/dev/null 2>&1; then\n  exec 9<slurm.json\n  rc=0; err=$(flock -n 9 2>&1) || rc=$?\n  case \"$rc\" in\n  0) ;;\n" +
		"  1) echo \"submit.sh: another arbiter slurm, or submit.sh, of $PWD holds the lock of slurm.json (" + lockHolders + "): wait for it to end, or stop it, and run this again\" >&2\n    exit 1 ;;\n" +
		"  *) echo \"submit.sh: warning: flock cannot lock slurm.json (exit status $rc: $err): going on without the lock, so nothing stops another arbiter slurm, or submit.sh, of $PWD running at once; run one at a time\" >&2 ;;\n" +
		"  esac\nfi\n" +
		"# ask -j IDS | -n NAMES: adds to live the tasks not ended of this work directory's jobs that squeue lists (by name: of its comment, or of a recorded id and a comment not another work directory's).\nlive=\nask() {\n" +
		"  rc=0; q=$(squeue -h -r -t all \"$1\" \"$2\" -o '%F|%K|%T|%j|%k' 2>&1) || rc=$?\n" +
		"  if [ \"$rc\" != 0 ]; then\n    case \"$q\" in\n    *'Invalid job id specified'*) q= ;;\n" +
		"    *) echo \"submit.sh: squeue: $q. The jobs jobs.json records ($list) may still be queued or running, and a second submission would run the same shards at once. " +
		"Run this again once Slurm answers; or cancel them (scancel $list), or remove $PWD/jobs.json if they are known to have ended, and run this again\" >&2\n      exit 1 ;;\n    esac\n  fi\n" +
		"  l=$(printf '%s\\n' \"$q\" | while IFS= read -r line; do\n" +
		"    # read's own splitting would drop a trailing | of the comment, last\n" +
		"    id=${line%%|*}; r=${line#*|}; task=${r%%|*}; r=${r#*|}; state=${r%%|*}; r=${r#*|}; name=${r%%|*}; c=${r#*|}\n" +
		"    case \"$state\" in ''|" + strings.Join(terminalStates, "|") + ") continue ;; esac\n" +
		"    # Of another comment, the work directory's job only under a recorded id, its comment rewritten or cleared by the site, not another work directory's.\n" +
		"    if [ \"$1\" = -n ] && [ \"$c\" != \"$comment\" ]; then\n" +
		"      case \"$c\" in /*|" + shell.Word(workDigestComment) + "*) continue ;; esac\n" +
		"      case \",$ids,\" in *\",$id,\"*) ;; *) continue ;; esac\n    fi\n" +
		"    t=_$task; case \"$task\" in ''|N/A) t= ;; esac\n" +
		"    case \"$name\" in " + strings.Join(names, "|") + ") echo \"  job $id$t: $state\" ;; esac\n" +
		"  done)\n" +
		"  if [ -n \"$l\" ]; then live=\"$live${live:+\n}$l\"; fi\n}\n" +
		"if [ -s jobs.json ]; then\n  ids=$(sed -n 's/.*\"id\": *\"\\([^\"][^\"]*\\)\".*/\\1/p' jobs.json | tr '\\n' ,)\n  ids=${ids%,}\n  list=$(printf '%s' \"$ids\" | tr , ' ')\n" +
		"  if grep -q '\"comment\"' jobs.json; then ask -n " + shell.Word(strings.Join(plain, ",")) + "\n  elif [ -n \"$ids\" ]; then ask -j \"$ids\"\n  fi\n" +
		"  if [ -n \"$live\" ]; then\n    found=$(printf '%s\\n' \"$live\" | sed 's/^  job \\([0-9]*\\).*/\\1/' | sort -un | tr '\\n' ' ')\n" +
		"    echo \"submit.sh: jobs that an earlier submission of $PWD submitted (jobs.json) are still queued or running, and a second submission would run the same shards at once. " +
		"Wait for them to end, or cancel them (scancel ${found% }) and run this again: it resumes\" >&2\n    printf '%s\\n' \"$live\" >&2\n    exit 1\n  fi\nfi\n"
}

func (j *slurmJob) script(kind string, stage int) string {
	return filepath.Join(j.work, fmt.Sprintf("stage%d-%s.sbatch", stage, kind))
}

// shardDir is where shard K of a stage writes; the scripts spell K as
// ${SLURM_ARRAY_TASK_ID}.
func (j *slurmJob) shardDir(stage int, k string) string {
	return filepath.Join(j.work, "shards", fmt.Sprintf("s%d-%s", stage, k))
}

// logFile is where a stage's shards (kind "shards"; %a is the array
// task) or merge ("merge") log.
func (j *slurmJob) logFile(kind string, stage int) string {
	name := fmt.Sprintf("stage%d-merge.log", stage)
	if kind == "shards" {
		name = fmt.Sprintf("stage%d-shard%%a.log", stage)
	}
	return filepath.Join(j.work, "logs", name)
}

// jobName is the name of a stage's shards (kind "s") or merge ("m") job.
func (j *slurmJob) jobName(kind string, stage int) string {
	return fmt.Sprintf("%s-%s%d", j.name, kind, stage)
}

func (j *slurmJob) header(name string, stage int, log string, cpus int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n#SBATCH --job-name=%s\n", j.jobName(name, stage))
	fmt.Fprintf(&b, "#SBATCH --output=\"%s\"\n#SBATCH --open-mode=append\n#SBATCH --cpus-per-task=%d\n", outputPattern(log), cpus)
	if j.partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", j.partition)
	}
	if j.time != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", j.time)
	}
	return b.String()
}

// outputPattern is a log file's path (its name's %a: the array task) as
// sbatch's --output pattern: a percent sign of the folders, which sbatch
// would take for a pattern (%j: the job id; a folder that does not exist,
// so every job fails, with no log), is written "%%".
func outputPattern(log string) string {
	dir, name := filepath.Split(log)
	return strings.ReplaceAll(dir, "%", "%%") + name
}

// shardScript is stage s's array job: shard K/N per task, requeued when
// it fails or is pre-empted, resuming from its results directory.
func (j *slurmJob) shardScript(s int) string {
	planPath := filepath.Join(j.work, engine.PlanFile)
	if s > 0 {
		planPath = filepath.Join(j.out, engine.PlanFile) // paired by the merge before
	}
	allow := ""
	if j.allow && s == 0 {
		allow = " -allow-changed-bots"
	}
	return j.header("s", s, j.logFile("shards", s), j.cpus) +
		fmt.Sprintf("#SBATCH --array=0-%d\n#SBATCH --requeue\n", j.shards-1) +
		fmt.Sprintf("# -j comes from SLURM_CPUS_PER_TASK.\nexec %s run %s -root %s -shard \"${SLURM_ARRAY_TASK_ID}/%d\" -stage %d%s -out %s\n",
			shell.Word(j.self), shell.Word(planPath), shell.Word(j.root), j.shards, s, allow, taskWord(j.shardDir(s, "${SLURM_ARRAY_TASK_ID}")))
}

// mergeScript merges stage s's shards into the results directory,
// pairing stage s+1.
func (j *slurmJob) mergeScript(s int) string {
	var dirs []string
	for k := 0; k < j.shards; k++ {
		dirs = append(dirs, shell.Word(j.shardDir(s, strconv.Itoa(k))))
	}
	return j.header("m", s, j.logFile("merge", s), 1) + "#SBATCH --requeue\n" +
		fmt.Sprintf("exec %s merge -out %s %s\n", shell.Word(j.self), shell.Word(j.out), strings.Join(dirs, " "))
}

// taskWord is s as one word for sh (shell.Word) but for each
// ${SLURM_ARRAY_TASK_ID} in it, which is left to the shell to expand.
func taskWord(s string) string {
	const task = "${SLURM_ARRAY_TASK_ID}"
	parts := strings.Split(s, task)
	for i, p := range parts {
		if p != "" {
			parts[i] = shell.Word(p)
		}
	}
	return strings.Join(parts, `"`+task+`"`)
}

// slurmSubmitted is a submitted job.
type slurmSubmitted struct {
	what, id string
	log      string // the job's log file, %a for the array task's number
	name     string // its --job-name
}

// submitAll submits every stage as submit.sh does, recording each job in
// the work directory's jobs.json: before it is submitted, by its name
// alone (the intent), then with the id sbatch gives it. A -submit killed
// between the two leaves a job jobs.json names without an id, which a
// later -submit finds by its name and comment (queuedJobs). Each job
// carries the work directory as its comment (--comment), which tells it
// from another work directory's job of the same name, or a later job
// given the same id. An intent whose sbatch failed stays recorded: a
// timed-out sbatch may have submitted the job all the same; one whose
// sbatch could not be run (not on $PATH), or that Slurm refused outright
// (slurmRefused), goes (unrecord).
func (j *slurmJob) submitAll(stdout io.Writer) ([]slurmSubmitted, error) {
	var jobs []slurmSubmitted
	var dep []string
	submit := func(what, log, name string, args []string) (string, error) {
		jobs = append(jobs, slurmSubmitted{what, "", log, name})
		if err := j.recordJobs(jobs); err != nil {
			return "", err
		}
		id, err := sbatch(append([]string{"--comment=" + j.comment()}, args...))
		if err != nil {
			var refused *slurmRefused
			if errors.As(err, &refused) {
				refused.what = what
			}
			if refused != nil || errors.As(err, new(*exec.Error)) {
				jobs = jobs[:len(jobs)-1]
				return "", errors.Join(err, j.unrecord(jobs))
			}
			return "", err
		}
		jobs[len(jobs)-1].id = id
		return id, j.recordJobs(jobs)
	}
	chain := j.chain()
	for s := 0; s < j.stages; s++ {
		sh, me := chain[2*s], chain[2*s+1]
		a, err := submit(sh.what, sh.log, sh.name, append(dep, j.script("shards", s)))
		if err != nil {
			return jobs, err
		}
		m, err := submit(me.what, me.log, me.name, []string{"--dependency=afterok:" + a, "--kill-on-invalid-dep=yes", j.script("merge", s)})
		if err != nil {
			return jobs, err
		}
		fmt.Fprintf(stdout, "Stage %d: shards job %s, merge job %s\n", s, a, m)
		dep = []string{"--dependency=afterok:" + m, "--kill-on-invalid-dep=yes"}
	}
	return jobs, nil
}

// chain is the jobs submitAll submits, in order, before their ids are
// known: each stage's shards job, then its merge job.
func (j *slurmJob) chain() []slurmSubmitted {
	var jobs []slurmSubmitted
	for s := 0; s < j.stages; s++ {
		jobs = append(jobs, slurmSubmitted{what: fmt.Sprintf("stage %d shards", s), log: j.logFile("shards", s), name: j.jobName("s", s)},
			slurmSubmitted{what: fmt.Sprintf("stage %d merge", s), log: j.logFile("merge", s), name: j.jobName("m", s)})
	}
	return jobs
}

// recordedJob is a line of the work directory's jobs.json.
type recordedJob struct {
	What string `json:"what"`
	// ID is the job's id; empty while it is being submitted (the intent).
	ID string `json:"id"`
	// Name is the job's name (--job-name), which tells it from a later
	// job given the same id; empty in a jobs.json of an earlier arbiter.
	Name string `json:"name,omitempty"`
	// Comment is the job's comment (--comment): the work directory, which
	// tells it from another work directory's job of the same name; empty
	// in a jobs.json of an earlier arbiter, which found its jobs by id.
	Comment string `json:"comment,omitempty"`
}

// unrecord replaces the work directory's jobs.json with jobs, the record
// before a job whose sbatch could not be run, or that Slurm refused
// outright: it submitted nothing, and a
// jobs.json of that job alone would have another -shards or -out refused
// for jobs submitted (submitted). With no job left, jobs.json goes.
func (j *slurmJob) unrecord(jobs []slurmSubmitted) error {
	if len(jobs) > 0 {
		return j.recordJobs(jobs)
	}
	if err := os.Remove(filepath.Join(j.work, fingerprint.SlurmJobsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// recordJobs replaces the work directory's jobs.json with jobs.
func (j *slurmJob) recordJobs(jobs []slurmSubmitted) error {
	rec := make([]recordedJob, len(jobs))
	for i, jb := range jobs {
		rec[i] = recordedJob{jb.what, jb.id, jb.name, j.comment()}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(j.work, fingerprint.SlurmJobsFile), append(b, '\n'), 0o644)
}

// queuedJobs are the jobs that an earlier arbiter slurm -submit, or
// submit.sh, of this work directory submitted (its jobs.json) and that
// Slurm still knows, in the order submitted, when one of them is still
// queued or running; none otherwise. A second chain would run the same
// shards at once: -submit waits for these instead (reattach). A job
// Slurm no longer knows has ended, and so has one whose id now names
// another job (ids start over after Slurm's state is reset). When Slurm
// cannot be asked, it refuses: jobs.json, which a submission replaces,
// is the only record of the jobs. So it does when jobs.json, of an
// earlier arbiter, names no job's name and a job under one of its ids
// has the name of one of this work directory's (knownJobs).
func (j *slurmJob) queuedJobs() (earlierChain, error) {
	path := filepath.Join(j.work, fingerprint.SlurmJobsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return earlierChain{}, nil
	} else if err != nil {
		return earlierChain{}, err
	}
	var rec []recordedJob
	if err := json.Unmarshal(b, &rec); err != nil {
		return earlierChain{}, fmt.Errorf("%s: %v", path, err)
	}
	if len(rec) == 0 {
		return earlierChain{}, nil
	}
	tasks, err := recordedTasks(rec)
	if err != nil {
		var ids, intents []string
		for _, jb := range rec {
			if jb.ID == "" {
				intents = append(intents, fmt.Sprintf("; and the job it was submitting when it was stopped, named %s, its comment %s", jb.Name, jb.Comment))
			} else {
				ids = append(ids, jb.ID)
			}
		}
		return earlierChain{}, fmt.Errorf("%v. The jobs an earlier arbiter slurm -submit, or submit.sh, of %s submitted (%s, in %s%s) may still be queued or running, and a second submission would run the same shards at once. "+
			"Run this again once Slurm answers; or cancel them (scancel %s), or remove %s if they are known to have ended, and run this again: it resumes",
			err, j.work, strings.Join(ids, " "), fingerprint.SlurmJobsFile, strings.Join(intents, ""), strings.Join(ids, " "), path)
	}
	return j.knownJobs(rec, tasks)
}

// recordedTasks asks Slurm for the tasks of the jobs rec records: by id
// those an earlier arbiter recorded without a comment, by name the
// others, the job being submitted when its -submit was stopped (no id
// yet) among them; their comment tells them from another's (knownJobs).
func recordedTasks(rec []recordedJob) ([]queuedTask, error) {
	var ids, names []string
	for _, r := range rec {
		if r.Comment != "" {
			names = append(names, r.Name)
		} else if r.ID != "" {
			ids = append(ids, r.ID)
		}
	}
	var tasks []queuedTask
	for _, q := range []struct {
		flag string
		list []string
	}{{"-j", ids}, {"-n", names}} {
		if len(q.list) == 0 {
			continue
		}
		found, err := queuedTasks(q.flag, q.list, 3)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, found...)
	}
	return tasks, nil
}

// earlierChain is what queuedJobs finds of an earlier submission: the
// jobs to wait for, and what of the chain it never submitted (it was
// stopped part way: a jobs.json names only the jobs submitted, and the
// one being submitted by its name alone).
type earlierChain struct {
	jobs        []slurmSubmitted
	unsubmitted []string
}

// knownJobs are the jobs of rec that tasks (Slurm's) name, with their
// logs, and the jobs of the chain rec does not name, when one of them
// has a task not ended; none otherwise. A job rec names without an id
// (its -submit was stopped while it submitted it) is any of that name
// and comment that has not ended (another of them is of an earlier
// submission: the one that was being submitted is the last the record
// names, and none after it runs before it ends); none found, it was
// never submitted. It refuses when rec, of an earlier arbiter, names no
// job's name and a job under one of its ids that has not ended has the
// name of this work directory's job: it may be another's, which Slurm
// gave the id again.
func (j *slurmJob) knownJobs(rec []recordedJob, tasks []queuedTask) (earlierChain, error) {
	var ch earlierChain
	var unsure []string
	anyLive := false
	for _, c := range j.chain() {
		i := slices.IndexFunc(rec, func(r recordedJob) bool { return r.What == c.what })
		var ids []string
		var live map[string]bool
		if i >= 0 {
			ids, live = recordedIDs(rec[i], c.name, tasks)
		}
		if i < 0 || (rec[i].ID == "" && len(ids) == 0) {
			ch.unsubmitted = append(ch.unsubmitted, c.what)
			continue
		}
		for _, id := range ids {
			if rec[i].Name == "" && live[id] {
				unsure = append(unsure, id)
			}
			if rec[i].ID == "" && !live[id] {
				continue // an earlier submission's, ended
			}
			ch.jobs = append(ch.jobs, slurmSubmitted{c.what, id, c.log, c.name})
			anyLive = anyLive || live[id]
		}
	}
	if len(unsure) > 0 {
		return earlierChain{}, j.unnamedError(unsure)
	}
	if !anyLive {
		return earlierChain{}, nil
	}
	return ch, nil
}

// recordedIDs are the ids of the jobs among tasks that are the job r
// records, in the order listed, and which of them have a task not
// ended. name is that job's name in this work directory's chain.
func recordedIDs(r recordedJob, name string, tasks []queuedTask) (ids []string, live map[string]bool) {
	live = map[string]bool{}
	for _, t := range tasks {
		if !r.is(t, name) {
			continue
		}
		if _, seen := live[t.id]; !seen {
			ids = append(ids, t.id)
		}
		live[t.id] = live[t.id] || !terminal[t.state]
	}
	return ids, live
}

// is whether t is a task of the job r records, whose name in this work
// directory's chain is name: of its id and name once its id is known,
// whatever its comment unless that is another work directory's (a
// site's job_submit plugin may rewrite or clear --comment, and the
// comment then only confirms); of its name and comment while its id is
// not (its -submit was stopped before sbatch answered); of an earlier
// arbiter's record, without a comment, of its id and name; without a
// name either, of its id and the name the chain gives it, which a job
// of another work directory may have too.
func (r recordedJob) is(t queuedTask, name string) bool {
	switch {
	case r.ID == "":
		return r.Comment != "" && t.name == r.Name && t.comment == r.Comment
	case t.id != r.ID:
		return false
	case r.Comment != "" && t.comment != r.Comment && workComment(t.comment):
		return false // another work directory's, which Slurm gave the id again
	case r.Name != "":
		return t.name == r.Name
	}
	return t.name == name
}

// workComment is whether c is the comment of a work directory's jobs
// (comment): its path, or the digest of a long one.
func workComment(c string) bool {
	return filepath.IsAbs(c) || strings.HasPrefix(c, workDigestComment)
}

// unnamedError refuses to wait for, or submit beside, the jobs ids,
// queued or running under the ids and names of this work directory's
// jobs that a jobs.json of an earlier arbiter, without names, records.
func (j *slurmJob) unnamedError(ids []string) error {
	path := filepath.Join(j.work, fingerprint.SlurmJobsFile)
	list := strings.Join(ids, " ")
	return fmt.Errorf("%s, written by an earlier arbiter, records the ids of the jobs it submitted but not their names, and jobs %s, queued or running, have those ids and the names of this work directory's jobs: "+
		"they may be the jobs of an earlier arbiter slurm -submit, or submit.sh, of %s, or another's of the same names that Slurm gave the same ids (ids start over when Slurm's state is reset), "+
		"so this one neither waits for them nor submits a second chain beside them. If they are this work directory's, wait for them to end, or cancel them (scancel %s), and run this again: it resumes; "+
		"if they are another's, remove %s and run this again", path, list, j.work, list, path)
}

// reattach waits for the jobs an earlier submission of the work
// directory left queued or running (its arbiter slurm -submit was
// stopped) and reports them as that -submit would have, instead of
// submitting the same shards again. It refuses when the scripts would
// be written otherwise now (another -cpus, -time, -partition,
// -allow-changed-bots, -root, arbiter's path): the queued jobs run them
// as they were submitted. When they completed but the earlier submission
// was stopped before it submitted the whole chain, done is false: every
// stage is to be submitted again, as it would have submitted them.
func (j *slurmJob) reattach(queued earlierChain, stdout io.Writer) (done bool, err error) {
	var ids []string
	for _, jb := range queued.jobs {
		ids = append(ids, jb.id)
	}
	if differ, changes := j.scriptsChanged(); len(differ) > 0 {
		return false, fmt.Errorf("jobs that an earlier arbiter slurm -submit, or submit.sh, of %s submitted are still queued or running (%s), and they run its scripts as they were written, while this one would write %s otherwise (%s: its -cpus, -time, -partition, -allow-changed-bots, -root or arbiter's path differ). "+
			"Run it again with the flags %sof that submission to wait for them; or wait for them to end, or cancel them (scancel %s), and run this again: it resumes",
			j.work, strings.Join(ids, " "), shortList(differ), strings.Join(changes, "; "), andArbiter(j.otherArbiter()), strings.Join(ids, " "))
	}
	fmt.Fprintf(stdout, "The jobs an earlier arbiter slurm -submit, or submit.sh, of %s submitted are still queued or running: waiting for them (jobs %s) instead of submitting again\n",
		j.work, strings.Join(ids, " "))
	if err := waitSlurm(queued.jobs, stdout); err != nil || len(queued.unsubmitted) == 0 {
		return true, err
	}
	fmt.Fprintf(stdout, "The earlier submission was stopped before it submitted %s: submitting every stage again (what finished plays nothing)\n",
		strings.Join(queued.unsubmitted, ", "))
	return false, nil
}

// andArbiter is "and the arbiter (PATH) " of another arbiter's path, ""
// of none.
func andArbiter(path string) string {
	if path == "" {
		return ""
	}
	return "and the arbiter (" + path + ") "
}

// scriptsChanged are the names of the work directory's job scripts that
// j would write otherwise than they are, and what would change in them,
// each change once ("--cpus-per-task=1 → --cpus-per-task=2", the path of
// an earlier arbiter and this one's): scriptChanges.
func (j *slurmJob) scriptsChanged() (differ, changes []string) {
	for s := 0; s < j.stages; s++ {
		for kind, text := range map[string]string{"shards": j.shardScript(s), "merge": j.mergeScript(s)} {
			b, err := os.ReadFile(j.script(kind, s))
			if err == nil && string(b) == text {
				continue
			}
			differ = append(differ, filepath.Base(j.script(kind, s)))
			change := []string{"it cannot be read: " + fmt.Sprint(err)}
			if err == nil {
				change = scriptChanges(string(b), text)
			}
			for _, c := range change {
				if !slices.Contains(changes, c) {
					changes = append(changes, c)
				}
			}
		}
	}
	slices.Sort(differ)
	slices.Sort(changes)
	return differ, changes
}

// scriptChanges says what differs between a job script as it was written
// and as it would be written now, line by line: a line changed in some
// of its words (the same #SBATCH option, the same command) by those
// words ("WAS → NOW"), other lines whole ("without LINE", "with LINE"),
// and blanks alone (spaces, empty lines) as such, once: a script edited
// so was said to differ in nothing.
func scriptChanges(was, now string) []string {
	gone, added := lineDiff(strings.Split(was, "\n"), strings.Split(now, "\n"))
	var changes []string
	blanks := false
	pairedGone, pairedAdded := make([]bool, len(gone)), make([]bool, len(added))
	for i, g := range gone {
		for k, a := range added {
			if pairedAdded[k] || blank(g) || blank(a) || lineKey(g) != lineKey(a) {
				continue
			}
			if words, ok := wordChanges(g, a); ok {
				changes = append(changes, words...)
				blanks = blanks || len(words) == 0
				pairedGone[i], pairedAdded[k] = true, true
				break
			}
		}
	}
	without, blankGone := unpaired("without ", gone, pairedGone)
	with, blankAdded := unpaired("with ", added, pairedAdded)
	changes = append(append(changes, without...), with...)
	if blanks || blankGone || blankAdded {
		changes = append(changes, "blanks differ (spaces, empty lines)")
	}
	return changes
}

// blank says whether a line holds nothing but spaces.
func blank(line string) bool { return strings.TrimSpace(line) == "" }

// unpaired are the lines that scriptChanges paired with none, whole,
// after prefix ("without ", "with "), and whether a blank one is among
// them.
func unpaired(prefix string, lines []string, paired []bool) (changes []string, blanks bool) {
	for i, l := range lines {
		switch {
		case paired[i]:
		case blank(l):
			blanks = true
		default:
			changes = append(changes, prefix+l)
		}
	}
	return changes, blanks
}

// lineKey is what a job script's line sets: an #SBATCH line its option,
// the exec line its command (run, merge), another line its words.
func lineKey(line string) string {
	w := shell.Fields(line)
	switch {
	case len(w) > 1 && w[0] == "#SBATCH":
		opt, _, _ := strings.Cut(w[1], "=")
		return "#SBATCH " + opt
	case len(w) > 2 && w[0] == "exec":
		return "exec " + w[2]
	}
	return strings.Join(w, " ")
}

// lineDiff are the lines of a not in b and those of b not in a, each as
// often as it is more often in the one than the other, in their order.
func lineDiff(a, b []string) (gone, added []string) {
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		if count[l] > 0 {
			count[l]--
		} else {
			added = append(added, l)
		}
	}
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			gone = append(gone, l)
		}
	}
	return gone, added
}

// wordChanges are the words that differ between two lines of as many
// words ("WAS → NOW"; none when blanks alone differ), and whether their
// words pair up (as many). The words are split as sh splits them
// (shell.Fields): a path with a blank, which the script quotes, is one
// word.
func wordChanges(was, now string) (changes []string, ok bool) {
	a, b := shell.Fields(was), shell.Fields(now)
	if len(a) != len(b) {
		return nil, false
	}
	for i := range a {
		if a[i] != b[i] {
			changes = append(changes, a[i]+" → "+b[i])
		}
	}
	return changes, true
}

// otherArbiter is the path of the arbiter that the work directory's
// first shards script runs, when it is not this one (an earlier arbiter
// installed elsewhere: its jobs run it), else "".
func (j *slurmJob) otherArbiter() string {
	b, err := os.ReadFile(j.script("shards", 0))
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if w := shell.Fields(l); len(w) > 1 && w[0] == "exec" && w[1] != shell.Word(j.self) {
			return w[1]
		}
	}
	return ""
}

// queuedTask is a job, or a task of an array job, that Slurm knows.
type queuedTask struct {
	id, task    string // the (array) job's id; "_K" for array task K, else ""
	state, name string
	comment     string // "(null)" for none
}

// queuedTasks are the tasks Slurm knows of the jobs of the ids (by is
// "-j") or names ("-n") list, asked in one call of squeue (scontrol
// takes one id a call, and a controller that does not answer takes a
// while to fail each). A job it no longer knows is left out. A busy
// controller times out now and then: squeue is asked up to tries times.
func queuedTasks(by string, list []string, tries int) ([]queuedTask, error) {
	var out []byte
	var err error
	args := []string{"-h", "-r", "-t", "all", by, strings.Join(list, ","), "-o", "%F|%K|%T|%j|%k"}
	for try := 0; try < tries; try++ {
		var stderr bytes.Buffer
		cmd := exec.Command("squeue", args...)
		cmd.Stderr = &stderr
		if out, err = cmd.Output(); err == nil {
			break
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "Invalid job id specified") {
			return nil, nil // a lone id it no longer knows
		}
		err = fmt.Errorf("squeue %s: %v: %s", strings.Join(args, " "), err, msg)
		if try < tries-1 {
			time.Sleep(time.Second)
		}
	}
	if err != nil {
		return nil, err
	}
	var tasks []queuedTask
	// Only the newline is trimmed: the comment, last, may end in spaces.
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		// The comment, last, may hold "|".
		f := strings.SplitN(line, "|", 5)
		if len(f) < 5 {
			continue
		}
		t := queuedTask{id: f[0], state: f[2], name: f[3], comment: f[4]}
		if _, err := strconv.Atoi(f[1]); err == nil {
			t.task = "_" + f[1]
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

func sbatch(args []string) (string, error) {
	cmd := exec.Command("sbatch", append([]string{"--parsable"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("sbatch %s: %w: arbiter slurm -submit submits the jobs with Slurm's sbatch, which is not installed here, or not on $PATH; "+
			"run it where Slurm jobs are submitted (a login node), or run the work directory's submit.sh there", strings.Join(args, " "), err)
	}
	if err != nil {
		if why, said, ok := slurmRefusal(string(out), stderr.String()); ok {
			return "", &slurmRefused{args: args, why: why, said: said}
		}
		return "", fmt.Errorf("sbatch %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	return id, nil
}

// slurmSubmitFailed is what sbatch says, on stderr, when it did not
// submit a job, before the reason (src/sbatch/sbatch.c).
const slurmSubmitFailed = "Batch job submission failed: "

// slurmUnsure are words (in lower case) of a reason after
// slurmSubmitFailed that is a failure to reach slurmctld or to hear its
// answer, after which the job may have been submitted all the same:
// "Socket timed out on send/recv operation", "Zero Bytes were transmitted
// or received", "Unable to contact slurm controller (connect failure)",
// Slurm's other communication errors and the system's ("Connection reset
// by peer"), and "Unspecified error", Slurm's word for a failure it does
// not name, which is also what sbatch gives when it cannot read
// slurmctld's answer (after "Message receive failure"), and the system's
// errors a receive can end in ("Host is down", "Input/output error",
// "Timer expired", "Operation now in progress", "No error"). A reason of none
// of them is slurmctld's own refusal ("Invalid partition name
// specified", "Requested time limit is invalid", "Invalid account or
// account/partition combination specified"). submit.sh tells them apart
// with the same words.
var slurmUnsure = []string{"timed out", "timeout", "time out", "socket", "connect", "contact", "communication",
	"send", "receive", "recv", "transmit", "message", "reset", "pipe", "network", "unreachable", "route",
	"interrupt", "temporar", "shut", "protocol", "unknown", "unexpected", "unspecified",
	"host is down", "input/output", "timer expired", "in progress", "no error"}

// slurmRefusal says whether sbatch's output (stdout, stderr) is Slurm's
// refusal of the job outright, which submitted nothing: no id (nor
// "Submitted batch job") on stdout, and a reason after slurmSubmitFailed
// that is none of slurmUnsure. why is that reason, said the rest of
// stderr.
func slurmRefusal(stdout, stderr string) (why, said string, ok bool) {
	if strings.TrimSpace(stdout) != "" {
		return "", "", false
	}
	var rest []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if _, r, found := strings.Cut(line, slurmSubmitFailed); found {
			why = strings.TrimSpace(r)
		} else if strings.TrimSpace(line) != "" {
			rest = append(rest, strings.TrimSpace(line))
		}
	}
	lower := strings.ToLower(why)
	if why == "" || slices.ContainsFunc(slurmUnsure, func(w string) bool { return strings.Contains(lower, w) }) {
		return "", "", false
	}
	return why, strings.Join(rest, "; "), true
}

// slurmRefused is an sbatch (of args) that Slurm refused outright: it
// submitted nothing.
type slurmRefused struct {
	args      []string
	what      string // the job refused ("stage 0 shards")
	why, said string // as slurmRefusal gives them
}

func (r *slurmRefused) Error() string {
	said := ""
	if r.said != "" {
		said = " (" + r.said + ")"
	}
	return fmt.Sprintf("sbatch %s: Slurm refused the job (%s): %s%s. Nothing of it was submitted, and %s does not record it: "+
		"once the cause is fixed, run arbiter slurm -submit again", strings.Join(r.args, " "), r.what, r.why, said, fingerprint.SlurmJobsFile)
}

// terminal are the job states a job does not leave (a requeued job goes
// back to PENDING instead).
var terminal = map[string]bool{"COMPLETED": true, "FAILED": true, "CANCELLED": true, "TIMEOUT": true, "NODE_FAIL": true,
	"PREEMPTED": true, "OUT_OF_MEMORY": true, "DEADLINE": true, "BOOT_FAIL": true, "SPECIAL_EXIT": true}

// waitSlurm waits until every job (every task of an array) is in a
// terminal state and reports them; it fails unless all COMPLETED. A merge
// that Slurm cancelled because a shard failed is a failure, although
// sbatch --wait would exit 0 for it.
//
// While it waits it prints a job's tasks' states each time they change
// (a job whose tasks all wait for the jobs before it aside), so that a
// stage's progress, and a job that Slurm holds back and why (a drained
// node), show.
func waitSlurm(jobs []slurmSubmitted, stdout io.Writer) error {
	shown := map[string]string{}
	states := map[string]map[string]string{}
	for {
		if done, err := pollSlurm(jobs, states, shown, stdout); err != nil {
			return err
		} else if !done {
			time.Sleep(time.Second)
			continue
		}
		var failed []string
		for _, jb := range jobs {
			tasks := slices.Collect(maps.Keys(states[jb.id]))
			slices.SortFunc(tasks, func(a, b string) int { return cmp.Compare(taskNumber(a), taskNumber(b)) })
			for _, task := range tasks {
				s := states[jb.id][task]
				switch {
				case s == "COMPLETED":
				case s == "CANCELLED" && jb.log != "" && !fileExists(taskLog(jb.log, task)):
					// Never ran: cancelled as a job it depended on failed.
					failed = append(failed, fmt.Sprintf("%s (job %s%s): %s", jb.what, jb.id, task, s))
				case s == "TIMEOUT":
					failed = append(failed, fmt.Sprintf("%s (job %s%s): TIMEOUT, its time limit ran out; its log: %s. Run arbiter slurm -submit again with a larger -time: "+
						"what finished is kept, and the rest resumes", jb.what, jb.id, task, taskLog(jb.log, task)))
				default:
					failed = append(failed, fmt.Sprintf("%s (job %s%s): %s; its log: %s", jb.what, jb.id, task, s, taskLog(jb.log, task)))
				}
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("%w\nOnce the cause is fixed (each log says it), run the same arbiter slurm -submit again: "+
				"the shards that finished play nothing, the others resume, and the merges run", listError("the Slurm run failed", failed))
		}
		fmt.Fprintf(stdout, "Every job completed.\n")
		return nil
	}
}

// pollSlurm asks Slurm the states of the jobs that have not ended, into
// states (by job id, then task), printing a job's progressLine when it
// changed since shown; done is whether every job has ended. A job whose
// tasks have all ended is not asked again: its states do not change, and
// Slurm forgets it after its MinJobAge (300 s by default) while the jobs
// after it run, so that asking again would fail the wait.
func pollSlurm(jobs []slurmSubmitted, states map[string]map[string]string, shown map[string]string, stdout io.Writer) (done bool, err error) {
	done = true
	for _, jb := range jobs {
		if st := states[jb.id]; len(st) > 0 && ended(st) {
			continue
		}
		tasks, err := jobTasks(jb.id)
		if err != nil {
			return false, err
		}
		states[jb.id] = map[string]string{}
		for task, t := range tasks {
			states[jb.id][task] = t.state
		}
		done = done && ended(states[jb.id])
		if line := progressLine(tasks); line != shown[jb.id] {
			shown[jb.id] = line
			if line != "" {
				fmt.Fprintf(stdout, "%s (job %s): %s\n", jb.what, jb.id, line)
			}
		}
	}
	return done, nil
}

// ended is whether a job's tasks (by task, their states) are all in a
// terminal state.
func ended(tasks map[string]string) bool {
	for _, s := range tasks {
		if !terminal[s] {
			return false
		}
	}
	return true
}

// slurmTask is the state of a job's task, and the reason Slurm gives for
// it (why it is still pending: "Resources", "Dependency", a drained node).
type slurmTask struct{ state, reason string }

// progressLine counts a job's tasks by state, in the order of the states'
// names, the reasons of pending ones beside: "1 COMPLETED, 2 PENDING
// (Resources), 1 RUNNING"; a job that is no array has its state alone
// ("RUNNING"). It is empty while every task waits for the
// jobs before it (PENDING, Dependency): a chain of many stages would list
// them all at first.
func progressLine(tasks map[string]slurmTask) string {
	count := map[string]int{}
	for task, t := range tasks {
		count[progressWhat(t)] += taskCount(task)
	}
	if len(count) == 1 && count["PENDING (Dependency)"] > 0 {
		return ""
	}
	if t, ok := tasks[""]; ok && len(tasks) == 1 {
		return progressWhat(t) // a job that is no array
	}
	var parts []string
	for _, what := range slices.Sorted(maps.Keys(count)) {
		parts = append(parts, fmt.Sprintf("%d %s", count[what], what))
	}
	return strings.Join(parts, ", ")
}

// progressWhat is a task's state, with the reason of a pending one.
func progressWhat(t slurmTask) string {
	if t.state == "PENDING" && t.reason != "" && t.reason != "None" {
		return t.state + " (" + strings.ReplaceAll(t.reason, "_", " ") + ")"
	}
	return t.state
}

// taskCount is how many tasks a task of scontrol's names: one, or a
// range of them still pending together ("_2-3", "_0-7%2", "_1,4-5").
func taskCount(task string) int {
	n := 0
	for _, part := range strings.Split(strings.TrimPrefix(task, "_"), ",") {
		part, _, _ = strings.Cut(part, "%")
		lo, hi, isRange := strings.Cut(part, "-")
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		if isRange && errA == nil && errB == nil && b >= a {
			n += b - a + 1
		} else {
			n++
		}
	}
	return n
}

// jobStates are the states of a job's tasks ("" for a job that is no
// array), from scontrol (accounting may be off).
func jobStates(id string) (map[string]string, error) {
	tasks, err := jobTasks(id)
	if err != nil {
		return nil, err
	}
	st := map[string]string{}
	for task, t := range tasks {
		st[task] = t.state
	}
	return st, nil
}

// jobTasks are the states of a job's tasks, with their reasons, by task
// ("" for a job that is no array), from scontrol (accounting may be
// off). A busy controller times out now and then: scontrol is asked up to
// five times.
func jobTasks(id string) (map[string]slurmTask, error) {
	const tries = 5
	var out []byte
	var err error
	for try := 0; try < tries; try++ {
		var stderr bytes.Buffer
		cmd := exec.Command("scontrol", "-o", "show", "job", id)
		cmd.Stderr = &stderr
		if out, err = cmd.Output(); err == nil {
			break
		}
		err = fmt.Errorf("scontrol show job %s: %v: %s (a finished job is forgotten after the cluster's MinJobAge)", id, err, strings.TrimSpace(stderr.String()))
		if try < tries-1 {
			time.Sleep(time.Second)
		}
	}
	if err != nil {
		return nil, err
	}
	st := map[string]slurmTask{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		task, t, seen := "", slurmTask{}, false
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "ArrayTaskId="); ok {
				task = "_" + v
			}
			if v, ok := strings.CutPrefix(f, "Reason="); ok {
				t.reason = v
			}
			if v, ok := strings.CutPrefix(f, "JobState="); ok {
				t.state, seen = v, true
			}
		}
		if seen {
			st[task] = t
		}
	}
	return st, nil
}

// taskNumber is the number of an array task ("_3"), -1 for a job that is
// no array ("").
func taskNumber(task string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(task, "_"))
	if err != nil {
		return -1
	}
	return n
}

// taskLog is a job's log file for one of its tasks: the %a of its name
// (logFile), not one of the work directory's path, is the task.
func taskLog(pattern, task string) string {
	dir, name := filepath.Split(pattern)
	return dir + strings.ReplaceAll(name, "%a", strings.TrimPrefix(task, "_"))
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// listError is an error with a list.
func listError(head string, items []string) error {
	return fmt.Errorf("%s:\n  %s", head, strings.Join(items, "\n  "))
}
