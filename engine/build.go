package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// BuildsDir is where a results directory keeps every bot's build: its
// output (<bot>.log) and its verdict (<bot>.json).
const BuildsDir = "builds"

// FaultBuild is the verdict of every seat of a bot whose build failed.
const FaultBuild = "build"

// BuildRecord is a build's verdict, kept in builds/<bot>.json. Its
// Fingerprint is the bot's fingerprint hash as the build left its files
// (files the build made are new files, which do not count; what it
// rewrote among the recorded ones is the bot's as built): a later run
// whose bot has that fingerprint takes the verdict instead of building
// again.
type BuildRecord struct {
	Bot         string   `json:"bot"`
	Command     []string `json:"command"`
	Fingerprint string   `json:"fingerprint,omitempty"`
	OK          bool     `json:"ok"`
	Detail      string   `json:"detail,omitempty"`
	ElapsedMS   int64    `json:"elapsed_ms"`
	// Made are the files of the bot's dir that its builds made (not
	// there before the build; relative, slash separated, sorted), this
	// build's and those still there of the builds recorded before it:
	// a resume says that such a new file is the build's, not the bot's
	// own writing or a person's (reconcileBots).
	Made []string `json:"made,omitempty"`
	// Outputs are the files of the bot's folder after its build that its
	// fingerprint does not cover (new since the fingerprint was
	// recorded: what the build made, or what the bot wrote before), as
	// the build left them. A later run keeps the verdict only while they
	// are so: a built file replaced or removed between two runs is built
	// again from the files the fingerprint covers, never played.
	Outputs []plan.FileSum `json:"outputs,omitempty"`
	// Setup is the hash of what the build ran with beside the bot's files
	// (buildSetup): a verdict is kept only while it is the same.
	Setup string `json:"setup,omitempty"`
}

// buildSetup is the hash of what bot b's build runs with beside its
// files: its command, its environment, its limits and its timeout. A
// change to any of them can change what the build makes, or whether it
// succeeds, so a verdict of a build with another is not kept.
func buildSetup(b *plan.Bot) string {
	data, err := json.Marshal(struct {
		Command []string          `json:"command"`
		Env     map[string]string `json:"env,omitempty"`
		Limits  *drivers.Limits   `json:"limits,omitempty"`
		Timeout drivers.Duration  `json:"timeout,omitempty"`
	}{b.Build, b.Env, b.Limits, b.BuildTimeout})
	if err != nil {
		panic(fmt.Sprintf("bot %s's build setup: %v", b.Name, err)) // plain data: cannot fail
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// builds holds, for each bot that has a build, its build's verdict for
// the version of the bot it was last built for, and the gate of each bot
// folder.
type builds struct {
	mu    sync.Mutex
	bots  map[string]*botBuild
	gates map[string]*sync.RWMutex
}

// botBuild is one bot's build. hash is the version its verdict holds
// for: the bot's fingerprint hash as its build left its files ("" for a
// bot without a fingerprint). gate is its folder's (by real path): held
// shared by each match of a bot of that folder, from before the match
// starts until it has been checked after it ends, and alone by a build:
// a build never rewrites a folder while a match of a bot of it (another
// version of the bot, or another bot that shares the folder) is played.
// Its fields are the gate's.
type botBuild struct {
	gate *sync.RWMutex
	done bool
	hash string
	rec  BuildRecord
}

// bot is bot name's build, whose folder is dir.
func (bs *builds) bot(name, dir string) *botBuild {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if bs.bots == nil {
		bs.bots, bs.gates = map[string]*botBuild{}, map[string]*sync.RWMutex{}
	}
	bb := bs.bots[name]
	if bb == nil {
		gate := bs.gates[dir]
		if gate == nil {
			gate = &sync.RWMutex{}
			bs.gates[dir] = gate
		}
		bb = &botBuild{gate: gate}
		bs.bots[name] = bb
	}
	return bb
}

// find is bot name's build, nil before bot made it.
func (bs *builds) find(name string) *botBuild {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	return bs.bots[name]
}

// folder is the bots of m that share a folder (its real path) and its
// gate; names sorted.
type folder struct {
	dir   string
	gate  *sync.RWMutex
	names []string
}

// folders are m's bots that have a build, by folder, sorted by the
// folder's path.
func (r *Runner) folders(m *plan.Match) []*folder {
	var out []*folder
	for _, name := range m.Seats {
		b := r.Plan.Bot(name)
		if b == nil || len(b.Build) == 0 {
			continue
		}
		dir := realDir(b.DirIn(r.Root))
		gate := r.builds.bot(name, dir).gate
		k := slices.IndexFunc(out, func(f *folder) bool { return f.dir == dir })
		if k < 0 {
			out = append(out, &folder{dir: dir, gate: gate})
			k = len(out) - 1
		}
		if !slices.Contains(out[k].names, name) {
			out[k].names = append(out[k].names, name)
		}
	}
	for _, f := range out {
		slices.Sort(f.names)
	}
	slices.SortFunc(out, func(a, b *folder) int { return strings.Compare(a.dir, b.dir) })
	return out
}

// maxBuilds is how many times a folder's bots are built for one match
// before the run stops: each build leaving another bot of it changed.
const maxBuilds = 3

// builtFor builds each bot of m that has a build unless it is built for
// its files as they are now (in this run, or in an earlier one whose
// verdict has the same fingerprint), and returns the verdicts, by bot,
// holding each such bot's folder gate until release. A bot changed since
// its last build (see watch), back to an earlier version too, is built
// again. The error is the arbiter's own, ctx's, a change refused, or
// builds that keep changing each other's bots; a failed build is a
// record with OK false.
func (r *Runner) builtFor(ctx context.Context, m *plan.Match) (map[string]BuildRecord, func(), error) {
	if r.builds == nil {
		r.builds = &builds{}
	}
	verdicts := map[string]BuildRecord{}
	var held []*sync.RWMutex
	release := func() {
		for _, g := range held {
			g.RUnlock()
		}
	}
	// Taken in the order of the folders, so that two matches never wait
	// on each other.
	for _, f := range r.folders(m) {
		for try := 0; ; try++ {
			f.gate.RLock()
			if r.builtNow(f.names) {
				break
			}
			f.gate.RUnlock()
			err := r.rebuildFolder(ctx, m, f, try)
			if err != nil {
				release()
				return nil, nil, err
			}
		}
		held = append(held, f.gate)
		for _, name := range f.names {
			verdicts[name] = r.builds.bot(name, f.dir).rec
		}
	}
	return verdicts, release, nil
}

// builtNow says whether each bot of names is built for its files as they
// are now; their folder's gate is held.
func (r *Runner) builtNow(names []string) bool {
	for _, name := range names {
		if bb := r.builds.find(name); !bb.done || bb.hash != r.watch.hash(name) {
			return false
		}
	}
	return true
}

// rebuildFolder builds the bots of f that are not built for their files
// as they are now, f's gate held alone; try is how many times it did so
// for this match already.
func (r *Runner) rebuildFolder(ctx context.Context, m *plan.Match, f *folder, try int) error {
	if try >= maxBuilds {
		return fmt.Errorf("bots %s were built %d times for match %s and each build left one of them changed: "+
			"their builds write files of each other's folder (they share %s, or one holds the other's); "+
			"give each bot a folder of its own, or make their builds write the same files each time",
			strings.Join(f.names, ", "), try, m.ID, f.dir)
	}
	f.gate.Lock()
	defer f.gate.Unlock()
	for _, name := range f.names {
		if err := ctx.Err(); err != nil {
			return err // cancelled while it waited: no build started
		}
		if err := r.rebuild(ctx, m, r.Plan.Bot(name), r.builds.bot(name, f.dir)); err != nil {
			return err
		}
	}
	return nil
}

// rebuild builds bot b, its folder's gate held alone, unless it is built
// for its files as they are now. They are checked first, with those of
// the bots that share its folder, as before a match (a change is refused
// or recorded); then what the build writes
// among them, and among the files of the bots that share its folder, is
// theirs as built (watch.built), not a change: a bot of the same folder
// built for the files before is built for them as they are after.
func (r *Runner) rebuild(ctx context.Context, m *plan.Match, b *plan.Bot, bb *botBuild) error {
	// The bots of its folder too: a change of one before the build is
	// that bot's change, not the build's.
	if _, err := r.watch.before(&plan.Match{ID: m.ID, Seats: r.watch.sharingWith(b.Name)}); err != nil {
		return err
	}
	h := r.watch.hash(b.Name)
	if bb.done && bb.hash == h {
		return nil
	}
	var took map[string]moved
	rec, err := r.build(ctx, b, h, func() (string, error) {
		var err error
		took, err = r.watch.built(m, b.Name, r.gated(b))
		return took[b.Name].To, err
	})
	if err != nil {
		// A cancelled build is tried again by the next run.
		return err
	}
	bb.done, bb.hash, bb.rec = true, rec.Fingerprint, rec
	for _, name := range slices.Sorted(maps.Keys(took)) {
		mv := took[name]
		if other := r.builds.find(name); other != nil && other != bb && other.gate == bb.gate && other.done && other.hash == mv.From {
			other.hash, other.rec.Fingerprint = mv.To, mv.To
			// Its verdict holds for its files, and its outputs, as the
			// build left them: so says its record, or the next run would
			// build it again (the build rewrote an output of both).
			other.rec.Outputs = r.outputs(r.Plan.Bot(name))
			if err := r.writeBuildRecord(name, other.rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// gated are the bots of the plan that have a build and b's very folder:
// those that hold its gate, so that none of their matches is played
// while b builds, and whose files b's build writes are theirs as built
// (watch.built). A bot of another folder, or without a build, may be
// playing: what the build writes among its files is a change of it.
func (r *Runner) gated(b *plan.Bot) []string {
	dir := realDir(b.DirIn(r.Root))
	var names []string
	for i := range r.Plan.Bots {
		o := &r.Plan.Bots[i]
		if o.Name == b.Name || len(o.Build) > 0 && o.House == "" && realDir(o.DirIn(r.Root)) == dir {
			names = append(names, o.Name)
		}
	}
	slices.Sort(names)
	return names
}

// writeBuildRecord writes rec, bot name's build verdict, into the
// results directory's builds/, over the one kept there: a run of another
// user's (root's) may have written that one (OwnerHint).
func (r *Runner) writeBuildRecord(name string, rec BuildRecord) error {
	data, _ := json.MarshalIndent(rec, "", "  ")
	return OwnerHint(os.WriteFile(filepath.Join(r.Out, BuildsDir, fileName(name)+".json"), append(data, '\n'), 0o644))
}

// readBuildRecord is the verdict of bot name's last build kept in the
// results directory out; nil when there is none.
func readBuildRecord(out, name string) (*BuildRecord, error) {
	data, err := os.ReadFile(filepath.Join(out, BuildsDir, fileName(name)+".json"))
	if err != nil {
		return nil, err
	}
	var rec BuildRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// dirFiles are the files (not folders) under dir, by relative, slash
// separated path, as a fingerprint names them.
func dirFiles(dir string) map[string]bool {
	files := map[string]bool{}
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if rel, rerr := filepath.Rel(dir, path); rerr == nil {
				files[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	return files
}

// madeFiles are the files of after that a build made, sorted: those not
// in before, and those an earlier build made (old's Made) that are still
// there.
func madeFiles(before, after map[string]bool, old *BuildRecord) []string {
	var made []string
	for f := range after {
		if !before[f] || old != nil && slices.Contains(old.Made, f) {
			made = append(made, f)
		}
	}
	slices.Sort(made)
	return made
}

// build runs bot b's build, unless the verdict kept in the results
// directory holds for it (kept). The verdict records the hash that built
// says the bot has after it.
func (r *Runner) build(ctx context.Context, b *plan.Bot, fp string, built func() (string, error)) (BuildRecord, error) {
	rec, old := r.kept(b, fp)
	if rec != nil {
		return *rec, nil
	}
	return r.buildAnew(ctx, b, old, built)
}

// kept is the verdict kept in the results directory of bot b's last build
// when it holds for b as it is now: of the same command, environment,
// limits and timeout (buildSetup) and fingerprint fp (the bot's hash
// before the build), its outputs as it left them; else nil, and old is
// the verdict kept (nil for none).
func (r *Runner) kept(b *plan.Bot, fp string) (rec, old *BuildRecord) {
	old, _ = readBuildRecord(r.Out, b.Name)
	// A verdict an arbiter before buildSetup kept has no setup: in a
	// results directory, whose plan's hash covers the bot's environment
	// and limits, they are those of its build, so it holds.
	if old != nil && fp != "" && old.Fingerprint == fp && strings.Join(old.Command, "\x00") == strings.Join(b.Build, "\x00") &&
		(old.Setup == buildSetup(b) || old.Setup == "") {
		changed := changedOutput(b.DirIn(r.Root), old.Outputs)
		if changed == "" {
			r.logger().Info("bot unchanged since its build, not built again", "bot", b.Name, "ok", old.OK)
			return old, old
		}
		r.logger().Warn("a file the bot's build left is not as it left it (replaced or removed): built again", "bot", b.Name, "file", changed)
	}
	return nil, old
}

// buildAnew runs bot b's build and records its verdict; old is the one
// kept before, nil for none.
func (r *Runner) buildAnew(ctx context.Context, b *plan.Bot, old *BuildRecord, built func() (string, error)) (BuildRecord, error) {
	dir, file := filepath.Join(r.Out, BuildsDir), fileName(b.Name)
	if err := mkdirResults(dir); err != nil {
		return BuildRecord{}, err
	}
	r.logger().Info("building bot", "bot", b.Name, "command", strings.Join(b.Build, " "))
	rec := BuildRecord{Bot: b.Name, Command: b.Build, Setup: buildSetup(b)}
	botDir := b.DirIn(r.Root)
	before := dirFiles(botDir)
	start := time.Now()
	log := filepath.Join(dir, file+".log")
	detail, err := runBuild(ctx, b, botDir, log, buildCache(b, r.held, r.logger().Warn), r.logger().Warn)
	rec.ElapsedMS = time.Since(start).Milliseconds()
	if detail != "" {
		detail += unwritableNote(botDir)
	}
	rec.Made = madeFiles(before, dirFiles(botDir), old)
	if err != nil {
		// Cancelled (or the arbiter's own failure): what the build wrote
		// is the bot's all the same, which plan.json records, so that
		// the resume sees no change; no verdict, so that it builds again.
		if _, berr := built(); berr != nil {
			err = errors.Join(err, berr)
		}
		return rec, err
	}
	if rec.Fingerprint, err = built(); err != nil {
		return rec, err
	}
	rec.Outputs = r.outputs(b)
	rec.OK, rec.Detail = detail == "", detail
	if !rec.OK && r.outside {
		// Its command says so itself, naming the log by its full path:
		// there is no results directory for it to be relative to.
		rec.Detail = fmt.Sprintf("%s (its output is in %s)", detail, log)
	} else if !rec.OK {
		rec.Detail = fmt.Sprintf("%s (its output is in %s)", detail, filepath.Join(BuildsDir, file+".log"))
		r.logger().Warn("build failed", "bot", b.Name, "detail", rec.Detail)
	}
	return rec, r.writeBuildRecord(b.Name, rec)
}

// outputs are the files of bot b's folder that its fingerprint, as
// plan.json records it now, does not cover, with their hashes: those a
// build made (BuildRecord.Outputs). Only they are read, under the
// fingerprint's caps: one past them is recorded by its mode only. The
// run's results directory is left out.
func (r *Runner) outputs(b *plan.Bot) []plan.FileSum {
	return fingerprint.Uncovered(b.DirIn(r.Root), r.watch.covered(b), map[string]string{realDir(r.Out): "a results directory of this run"})
}

// changedOutput is the first of a build's outputs (relative to dir) that
// is not as the build left it, or "". One recorded by its mode only (past
// the fingerprint's byte cap: no SHA-256) is compared by its mode only,
// as it was recorded.
func changedOutput(dir string, outputs []plan.FileSum) string {
	for _, o := range outputs {
		read := fingerprint.File
		if o.SHA256 == "" {
			read = fingerprint.FileMode
		}
		if now, ok := read(filepath.Join(dir, filepath.FromSlash(o.Path)), o.Path); !ok || now != o {
			return o.Path
		}
	}
	return ""
}

func (r *Runner) logger() interface {
	Info(string, ...any)
	Warn(string, ...any)
} {
	if r.Log == nil {
		return nopLog{}
	}
	return r.Log
}

type nopLog struct{}

func (nopLog) Info(string, ...any) {}
func (nopLog) Warn(string, ...any) {}

// GiveBackLent gives back the bot folders that arbiters which ended
// during a build (killed, or the machine stopped) left lent to the
// sandbox's uid (proc.GiveBackAbandoned), and tells warn of each. Every
// command that builds calls it first, and each build again before it
// lends its folder: what an arbiter ended since is given back before the
// folder's owner is read.
func GiveBackLent(warn func(msg string, args ...any)) {
	for _, a := range proc.GiveBackAbandoned() {
		if a.Err != nil {
			warn("a bot folder lent for a build by an arbiter that ended is left as it is", "dir", a.Dir, "pid", a.Pid, "error", a.Err)
			continue
		}
		warn("gave back a bot folder lent for a build by an arbiter that ended during it", "dir", a.Dir, "pid", a.Pid)
	}
}

// envList is a bot's env as NAME=value, sorted.
func envList(env map[string]string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// runBuild runs the build command in dir under the bot's limits (the same
// confinement as the bot: proc.Prepare), its stdout and stderr to log,
// within the bot's build timeout. detail says why the build failed, or is
// empty; err is the arbiter's own failure or ctx's. Folders that ended
// arbiters left lent are given back first (GiveBackLent, to warn). cache,
// when not "", is the build's cache folder kept between builds
// (buildCache); a run's builds have none.
func runBuild(ctx context.Context, b *plan.Bot, dir, log, cache string, warn func(msg string, args ...any)) (detail string, err error) {
	out, err := os.Create(log)
	if err != nil {
		// The log of an earlier build, which a run of another user's
		// (root's) may have written.
		return "", OwnerHint(err)
	}
	defer out.Close()
	defer holdDir(dir)()
	release, err := holdFolder(ctx, b, dir, warn)
	if err != nil {
		return "", err
	}
	defer release()
	GiveBackLent(warn)
	timeout := time.Duration(b.BuildTimeout)
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	cmd := exec.Command(b.Build[0], b.Build[1:]...)
	cmd.Dir = dir
	botEnv := envList(b.Env)
	cmd.Stdout, cmd.Stderr = out, out
	// A session of its own (so a process group of its own too): no
	// controlling terminal, so the bot cannot open /dev/tty and type into
	// the organiser's shell (TIOCSTI) or read what is typed there.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	lim := buildLimits(b, dir, botEnv)
	cmd.Env = append(proc.HostEnviron(lim), botEnv...)
	box, err := proc.PrepareBuild(cmd, lim, drivers.Clock{Total: drivers.Duration(timeout)}, cache)
	if err != nil {
		var f *proc.Fault
		if !errors.As(err, &f) {
			err = &proc.SetupError{Bot: b.Name, Err: err}
		}
		return buildStartFailure(b, err)
	}
	defer func() {
		box.Close()
		if err := box.GiveBackError(); err != nil {
			warn("the folder lent to a build could not be given back; the next arbiter gives it back", "bot", b.Name, "error", err)
		}
	}()
	if err := proc.StartCmd(cmd, box); err != nil {
		return buildStartFailure(b, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() {
		box.Kill()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	select {
	case err := <-done:
		if err == nil {
			return "", nil
		}
		if f := box.Explain(drivers.FaultCrash, cmd.ProcessState, ""); f != nil {
			return fmt.Sprintf("the build %q went over a limit: %s", strings.Join(b.Build, " "), f.Detail), nil
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Sprintf("the build %q failed: %v%s", strings.Join(b.Build, " "), ee, killedBy(ee.ProcessState, timeout, log)), nil
		}
		return fmt.Sprintf("the build %q failed: %v", strings.Join(b.Build, " "), err), nil
	case <-time.After(timeout):
		kill()
		return fmt.Sprintf("the build %q took longer than its limit of %s", strings.Join(b.Build, " "), timeout), nil
	case <-ctx.Done():
		kill()
		return "", ctx.Err()
	}
}

// killedBy says, of a build ended by SIGKILL that arbiter did not send
// (not at its build_timeout, and no limit of arbiter's explains it:
// box.Explain found none), who else may have: another program, or the
// kernel's OOM killer, which leaves nothing in the build's own log but
// says so in the kernel's. "" for a build that ended otherwise.
func killedBy(ps *os.ProcessState, timeout time.Duration, log string) string {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		return ""
	}
	empty := ""
	if st, err := os.Stat(log); err == nil && st.Size() == 0 {
		empty = ", its log is empty"
	}
	return fmt.Sprintf(" (a signal arbiter did not send: not its build_timeout of %v, nor a limit of arbiter's%s; another program killed it, "+
		"or the kernel's OOM killer did when the machine ran short of memory: see dmesg or journalctl -k)", timeout, empty)
}

// building holds the dirs of the builds running in this process. A build
// in the sandbox is lent its dir's files (given to the sandbox's uid) and
// they are given back after it, to the owner the dir had before: two
// builds of one dir, or of a dir and one inside it (bots that share a
// folder, built at once under -j), would take each other's lending for
// the owner, and one would walk the tree while the other changes it. So
// they run one after the other; other builds run at once.
var building struct {
	sync.Mutex
	cond *sync.Cond
	dirs []string
}

// buildLimits are bot b's limits for its build in dir, with env.
func buildLimits(b *plan.Bot, dir string, env []string) drivers.Limits {
	var lim drivers.Limits
	if b.Limits != nil {
		lim = *b.Limits
	}
	if lim.Sandbox != nil {
		// What the sandbox holds was resolved for the bot's command (its
		// interpreter, the program a version manager's shim runs); the
		// build runs its own command, which needs its own, beside the
		// bot's.
		sb := drivers.ResolveSandbox(b.Build, dir, env)
		for _, r := range lim.Sandbox.Read {
			if !slices.Contains(sb.Read, r) {
				sb.Read = append(sb.Read, r)
			}
		}
		lim.Sandbox = &sb
	}
	return lim
}

// holdFolder waits until no other arbiter builds in dir, in a folder
// that holds it or in one inside it (proc.HoldFolder), telling warn whom
// it waits for (the pid, when the kernel shows it), and marks it as
// this one's until release. An error is arbiter's own (a
// *proc.SetupError naming bot b), or ctx's.
func holdFolder(ctx context.Context, b *plan.Bot, dir string, warn func(msg string, args ...any)) (release func(), err error) {
	release, err = proc.HoldFolder(ctx, dir, func(pid int) {
		args := []any{"bot", b.Name, "dir", dir}
		if pid > 0 {
			args = append(args, "pid", pid)
		}
		warn("waiting for another arbiter's build in the bot's folder, or in a folder that holds it or that it holds, to end", args...)
	})
	if err != nil && ctx.Err() == nil {
		err = &proc.SetupError{Bot: b.Name, Err: fmt.Errorf("marking its folder as built by this arbiter: %w", err)}
	}
	return release, err
}

// buildStartFailure is what runBuild says of a build that could not be
// started for err: the build's failure (its command, its folder), or, a
// *proc.SetupError, arbiter's own error (its lending record not written,
// a cgroup not made, the sandbox not entered), which is not the bot's:
// the run stops, and a resume builds it again.
func buildStartFailure(b *plan.Bot, err error) (detail string, _ error) {
	var se *proc.SetupError
	if errors.As(err, &se) {
		se.Bot = b.Name
		return "", fmt.Errorf("%w (its build %q)", se, strings.Join(b.Build, " "))
	}
	return fmt.Sprintf("the build %q could not be started: %v", strings.Join(b.Build, " "), err), nil
}

// holdDir waits until no build of a dir that overlaps dir runs, and
// marks dir's; release unmarks it.
func holdDir(dir string) (release func()) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	overlaps := func(d string) bool { return drivers.Within(d, dir) || drivers.Within(dir, d) }
	building.Lock()
	if building.cond == nil {
		building.cond = sync.NewCond(&building.Mutex)
	}
	for slices.ContainsFunc(building.dirs, overlaps) {
		building.cond.Wait()
	}
	building.dirs = append(building.dirs, dir)
	building.Unlock()
	return func() {
		building.Lock()
		if i := slices.Index(building.dirs, dir); i >= 0 {
			building.dirs = slices.Delete(building.dirs, i, i+1)
		}
		building.cond.Broadcast()
		building.Unlock()
	}
}

// fileName keeps a bot name usable as a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == 0 || r == '\\' {
			return '_'
		}
		return r
	}, name)
}

// unbuilt marks the seats of a bot whose build failed
// (drivers.Seat.Unbuilt), by the verdicts of builtFor: the match is
// played all the same, the game treating such a seat as a bot that cannot
// start (in Auction the others play on; in a duel the other wins), and
// the seat's fault is then the build's (playStaged).
func unbuilt(seats []drivers.Seat, verdicts map[string]BuildRecord) {
	for i := range seats {
		if rec, ok := verdicts[seats[i].Bot]; ok && !rec.OK {
			seats[i].Unbuilt = rec.Detail
		}
	}
}
