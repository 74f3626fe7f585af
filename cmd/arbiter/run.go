package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/term"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

func cmdRun(args []string, stdout, stderr io.Writer) error {
	tty, outs := stderr, newRunOuts(stdout, stderr)
	stdout, stderr = outs.stdout, outs.stderr
	sigs := hearSignals(stderr)
	defer sigs.stop()
	fs := newFlagSet("run", stderr)
	var cf configFlags
	out := fs.String("out", "", "results directory (default results/<tournament>)")
	jobs := jobsFlag(fs)
	var only listFlag
	fs.Var(&only, "match", "run only this match id (repeatable)")
	allowChanged := fs.Bool("allow-changed-bots", false, "run even if bots or arbiter changed since DIR was run, or since the saved plan was compiled, recording the change in DIR/changes.jsonl")
	pin := fs.Bool("pin", true, "with -j N above 1 and at most the CPUs arbiter may use, or a multiple of them: play each of the N matches at once in a worker process of its own, pinned with its bots to its own share of the CPUs (-pin=false: all in one process, bots on any CPU)")
	compress := fs.Bool("gzip", false, "write each match's transcript gzip-compressed (matches/<id>/events.jsonl.gz)")
	var sf shardFlags
	sf.register(fs)
	cf.registerRoot(fs)
	serve := fs.String("serve", "", "also serve the results page, live, on this address (like 127.0.0.1:8080)")
	path, err := cf.parse(fs, args)
	if err != nil {
		return err
	}
	if *jobs < 1 {
		return usageError("-j must be at least 1")
	}
	l, err := cf.loadRunnable(path, stderr)
	if err != nil {
		return err
	}
	*out = cmp.Or(*out, filepath.Join("results", l.plan.Tournament))
	slice, err := runSlice(&sf, path, *out, l, only, stderr)
	if err != nil {
		return err
	}
	ln, err := listenServe(*serve) // before anything is made; nil without -serve
	if err != nil {
		return err
	}
	sigs.preparing(*out)
	lock, after, err := cf.prepareOut(l, path, *out, *allowChanged, stderr)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	stderr.Write(l.limitsLog)
	if err := prepareShard(*out, l.plan, slice, l.root); err != nil {
		return err
	}
	file, err := openLogFile(*out)
	if err != nil {
		return err
	}
	defer file.f.Close()
	end := &runEnd{stdout: stdout, stderr: stderr, log: cf.logger(file), out: *out, sp: slice, picked: len(only) > 0}
	outs.noteIn(end.log)
	ctx := sigs.begin()
	progress, log := cf.runLog(tty, stderr, file, end.log)
	if bar, ok := progress.(*barProgress); ok {
		defer bar.Wait()
	}
	logSkipped(log, l)
	logFoundArbiters(log, l, path)
	if ln != nil {
		defer startServe(ctx, *out, ln, log)()
	}
	runner := &engine.Runner{
		Plan: l.plan, Drivers: all.Driver, Root: l.root, Out: *out, Jobs: *jobs,
		Only: shardOnly(slice, only), Slice: slice != nil, Earlier: shardFrom(slice),
		Self: selfPath(), Log: log, Progress: progress, AllowChangedBots: *allowChanged, SincePlan: after, Compress: *compress,
		Snapshot: func(sum *engine.Summary) error { return writeStandingsFile(*out, sum, slice) },
	}
	runner.CPUs, runner.Unpinned = engine.Pinning(*jobs, *pin)
	sum, err := runner.Run(ctx)
	if bp, ok := progress.(*barProgress); ok {
		bp.Wait()
	}
	end.by = interruptedBy(ctx)
	return end.finish(sum, err)
}

// openLogFile opens the run's arbiter.log in out, to append to.
func openLogFile(out string) (*logFileOut, error) {
	f, err := os.OpenFile(filepath.Join(out, engine.LogFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		// The log a run of another user's (root's) began.
		return nil, engine.OwnerHint(err)
	}
	return &logFileOut{f: f}, nil
}

// runLog is a run's log, written to logFile and to stderr, and how it
// shows its progress: a bar when tty (stderr, before it was made a
// lostOut) is a terminal that can show one, else log lines. fileLog (the
// log file's alone) notes a terminal that is gone.
func (c *configFlags) runLog(tty, stderr io.Writer, logFile *logFileOut, fileLog hclog.Logger) (engine.Progress, hclog.Logger) {
	var progress engine.Progress
	console := stderr
	if f, ok := tty.(*os.File); ok && barTerminal(int(f.Fd())) {
		term := &lostOut{w: f, name: "the terminal", then: "its log in arbiter.log alone"}
		term.noteIn(fileLog)
		bar := newBarProgress(f, term)
		progress, console = bar, bar
	}
	// The log file first: its line is written before stderr is tried. A
	// log file that cannot be written (a full disk, a quota) does not
	// silence stderr, which says so once and goes on with every line.
	file := &lostOut{w: logFile, name: logFile.f.Name(), then: "its log on stderr alone"}
	file.noteIn(c.logger(console))
	log := c.logger(io.MultiWriter(file, console))
	if progress == nil {
		progress = &logProgress{log: log.Named("progress")}
	}
	return progress, log
}

// logSkipped records in the run's log the player folders that bots_from
// { invalid = "skip" } left out of l's configuration, and why, so that
// the log says who did not play.
func logSkipped(log hclog.Logger, l *loaded) {
	if l.cfg == nil {
		return
	}
	for _, bf := range l.cfg.BotsFrom {
		for _, s := range bf.Skipped {
			log.Warn("player folder left out (invalid = \"skip\")", "bots_from", bf.Name, "folder", s.Folder, "why", s.Why)
		}
	}
}

// logFoundArbiters warns of every folder (and saved plan) in a bot's
// dir, or in a folder of its class path, that the bots' fingerprints
// leave out as arbiter's own by what it holds, but the plan the run
// reads: a bot's author could make a folder look like arbiter's, and the
// organiser should see what was not hashed.
func logFoundArbiters(log hclog.Logger, l *loaded, path string) {
	seen := map[string]bool{}
	for i := range l.plan.Bots {
		fp := l.plan.Bots[i].Fingerprint
		if fp == nil || fp.House != "" {
			continue
		}
		for _, line := range fingerprint.FoundArbiters(fp) {
			rel, why, _ := strings.Cut(line, ": ")
			// Relative to the bot's dir, or absolute in a folder of its
			// class path outside it.
			where := filepath.FromSlash(strings.TrimSuffix(rel, "/"))
			if !filepath.IsAbs(where) {
				where = filepath.Join(fp.Dir, where)
			}
			// Once per folder, however the bots' dirs reach it.
			real, err := realAbs(where)
			if err != nil {
				real = where
			}
			if seen[real] || l.cfg == nil && sameFile(where, path) {
				continue
			}
			seen[real] = true
			if fingerprint.IsVCS(where) && within(l.root, filepath.Dir(where)) {
				// The repository the configuration is kept in (a contest's
				// bots in its own folder, dir = "."): the organiser's.
				log.Info("not part of the bots' fingerprints: the version control folder of the configuration's own repository", "path", where)
				continue
			}
			log.Warn("not part of the bots' fingerprints: found in a bot's folder and left out by what it is", "path", where, "as", why)
		}
	}
}

// within says whether path is dir or inside it, once the links of both
// are resolved: a folder reached through a symbolic link is the folder.
func within(path, dir string) bool {
	path, errP := realAbs(path)
	dir, errD := realAbs(dir)
	if errP != nil || errD != nil {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realAbs is path absolute with its symbolic links resolved, or only
// absolute when they cannot be (it does not exist).
func realAbs(path string) (string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return filepath.Abs(path)
}

// realAbsToBe is path absolute with the links of its longest existing
// part resolved, and the rest, which a write would make, as it is:
// through a link to a directory, a folder not made yet is still that
// directory's, as realAbs cannot see.
func realAbsToBe(path string) (string, error) {
	abs := path
	if !filepath.IsAbs(abs) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		abs = wd + string(filepath.Separator) + path
	}
	// Not cleaned: a ".." after a link is the parent of where it leads.
	parts := strings.Split(abs, string(filepath.Separator))
	for n := len(parts); n > 1; n-- {
		if real, err := filepath.EvalSymlinks(strings.Join(parts[:n], string(filepath.Separator))); err == nil {
			return filepath.Join(append([]string{real}, parts[n:]...)...), nil
		}
	}
	return filepath.Clean(abs), nil
}

// sameFile says whether a and b are the same existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// runSlice works out the shard a run plays (nil: not a shard), and
// refuses a -match that names no match before out is made.
func runSlice(sf *shardFlags, path, out string, l *loaded, only []string, stderr io.Writer) (*engine.ShardPlan, error) {
	slice, err := sf.plan(path, l.plan, only, stderr)
	if err != nil {
		return nil, err
	}
	return slice, engine.CheckOnly(out, l.plan, only, all.Driver)
}

// loadRunnable loads the configuration or saved plan at path and checks
// that its plan can run here. How its limits are enforced here is logged
// only when it cannot run; otherwise it is kept in l.limitsLog for the
// caller to write once it knows the run goes ahead (run: once its
// results directory is locked, so that a run refused for a directory in
// use says that alone).
func (c *configFlags) loadRunnable(path string, stderr io.Writer) (*loaded, error) {
	l, err := c.load(path, stderr)
	if err != nil {
		return nil, err
	}
	if isPlanFile(path) {
		if problems := checkSaved(l.plan, l.root); len(problems) > 0 {
			return nil, savedError(path, problems)
		}
	}
	var limitsLog bytes.Buffer
	if err := checkLimits(l.plan, c.logger(&limitsLog).Named("limits")); err != nil {
		stderr.Write(limitsLog.Bytes())
		return nil, err
	}
	l.limitsLog = limitsLog.Bytes()
	return l, nil
}

// loadRunnableLogged is loadRunnable for a command that goes ahead at
// once (slurm writes its job files): the limits are logged now.
func (c *configFlags) loadRunnableLogged(path string, stderr io.Writer) (*loaded, error) {
	l, err := c.loadRunnable(path, stderr)
	if err == nil {
		stderr.Write(l.limitsLog)
	}
	return l, err
}

// writeRunStandings prints the standings of a finished run and writes
// them to standings.txt in its results directory; sp is the shard the run
// played, if it was one (see engine.Rank).
func writeRunStandings(stdout io.Writer, out string, sum *engine.Summary, sp *engine.ShardPlan) error {
	st, err := engine.Rank(sum.Plan, sum.Stopped.Counted(sum.Plan, sum.Results), sp, sum.Seats)
	if err != nil {
		return err
	}
	if err := writeRanking(stdout, st, sp); err != nil {
		return err
	}
	return replaceStandings(out, st, sp)
}

// writeStandingsFile rewrites standings.txt from the run so far, as the
// engine's Snapshot while results come in.
func writeStandingsFile(out string, sum *engine.Summary, sp *engine.ShardPlan) error {
	st, err := engine.Rank(sum.Plan, sum.Stopped.Counted(sum.Plan, sum.Results), sp, sum.Seats)
	if err != nil {
		return err
	}
	return replaceStandings(out, st, sp)
}

// writeRanking writes standings ranked by engine.Rank, saying of a
// shard's that they are its matches' alone.
func writeRanking(w io.Writer, st *stats.Stats, sp *engine.ShardPlan) error {
	if sp != nil && len(sp.Matches) == 0 {
		_, err := fmt.Fprintf(w, "%s: %s has no matches, so nothing to rank; arbiter merge ranks the tournament.\n", st.Tournament, sp.Shard)
		return err
	}
	if err := writeStats(w, st); err != nil {
		return err
	}
	if sp != nil {
		_, err := fmt.Fprintf(w, "\nThe standings of %s count its own matches alone; arbiter merge ranks the tournament.\n", sp.Shard)
		return err
	}
	return nil
}

// replaceStandings replaces standings.txt at once (a temporary file renamed
// over it), so a reader never sees half of it.
func replaceStandings(out string, st *stats.Stats, sp *engine.ShardPlan) error {
	var b bytes.Buffer
	if err := writeRanking(&b, st, sp); err != nil {
		return err
	}
	return engine.OwnerHint(atomicfile.Write(filepath.Join(out, "standings.txt"), b.Bytes(), 0o644))
}

// prepareOut fingerprints the bots of l as they are now, out left out,
// which reads and writes nothing of out, and refuses an out that holds a
// bot's folder or a file of its command; then it locks out, before
// anything is written there, so that a second run into it is refused
// having touched nothing. A saved plan's fingerprints are what was
// reviewed: bots (or arbiter's build) changed since it was compiled are
// refused, unless allow, which records the change in out's changes.jsonl
// as plan.json records the bots as they are now (see checkCompiled). It
// returns what the run records and checks after the builds
// (engine.SincePlan).
func (c *configFlags) prepareOut(l *loaded, path, out string, allow bool, stderr io.Writer) (*engine.DirLock, *engine.SincePlan, error) {
	if err := checkOutHoldsNoBot(out, l.plan, l.root); err != nil {
		return nil, nil, err
	}
	if err := checkNotInBotsFrom("-out", out, l.cfg); err != nil {
		return nil, nil, err
	}
	since, err := compareAgain(l, l.plan, c.fingerprintOptions(l, path, out))
	if err == nil {
		err = checkOutHoldsNoBot(out, l.plan, l.root) // now with the files of the bots' commands
	}
	if err != nil {
		return nil, nil, err
	}
	lock, err := engine.LockDir(out)
	if err != nil {
		return nil, nil, err
	}
	if w := engine.OwnerWarning(out); w != "" {
		c.logger(stderr).Warn(w)
	}
	after, err := checkCompiled(since, path, out, allow)
	if err != nil {
		lock.Unlock()
		return nil, nil, err
	}
	var changes []engine.BotChange
	if after != nil {
		changes = after.Changes
	}
	// Before the log, the shard record, anything else. The change is
	// recorded, and said, as plan.json records the bots as they are now:
	// a new one right after it (StartPlanDir), one out holds once the
	// resume's comparison took them (the run, engine.SincePlan), so that
	// a run refused there records no change to files no result is played
	// with.
	if err := engine.StartPlanDir(out, l.plan, after); err != nil {
		lock.Unlock()
		return nil, nil, err
	}
	if after != nil && after.Changes == nil {
		for _, ch := range changes {
			c.logger(stderr).Warn("changed since the plan was compiled; going on (-allow-changed-bots)", "plan", path, "change", ch.String())
		}
	}
	return lock, after, nil
}

// checkOutHoldsNoBot refuses a results directory out that is, or holds,
// a bot's folder or a file its command names: the sandbox covers the
// results directory with an empty folder, hiding them from the bot, and
// fingerprints leave it out as arbiter's.
func checkOutHoldsNoBot(out string, p *plan.Plan, root string) error {
	return checkHoldsNoBot("-out", out, p, root, "the results directory is arbiter's alone: the sandbox hides it from the bots (the bot would not find its own files) and it is never part of a bot's fingerprint; choose another -out")
}

// checkNotInBotsFrom refuses a directory of arbiter's, given with flag,
// that lies directly in the folder of a bots_from block of cfg (nil: a
// saved plan, none): every folder there is read as a player, and one
// without an info.txt makes the configuration invalid from then on. A
// hidden folder (its name begins with a dot) is not read as a player.
func checkNotInBotsFrom(flag, dir string, cfg *config.Config) error {
	if cfg == nil {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil || strings.HasPrefix(filepath.Base(abs), ".") {
		return nil
	}
	parent := realOrSelf(filepath.Dir(abs))
	for _, bf := range cfg.BotsFrom {
		if realOrSelf(bf.Dir) == parent {
			return fmt.Errorf("%s %s lies in %s, the folder of bots_from %q, where every folder is read as a player (and this one would hold no %s, making the configuration invalid): choose another %s, or one whose name begins with a dot",
				flag, shell.Word(dir), shell.Word(parent), bf.Name, config.InfoFile, flag)
		}
	}
	return nil
}

// barTerminal reports whether fd is a terminal that can show a progress
// bar: one that says its size (a terminal that reports 0 rows, as a pty
// made by script(1) without stty rows, draws no bar, and would show no
// progress at all).
func barTerminal(fd int) bool {
	if !term.IsTerminal(fd) {
		return false
	}
	w, h, err := term.GetSize(fd)
	return err == nil && w > 0 && h > 0
}
