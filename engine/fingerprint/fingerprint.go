// Package fingerprint hashes what a plan's bots run, and identifies the
// arbiter build that runs them, so that a results directory can tell when
// a bot or arbiter changed between two runs of the same tournament.
//
// An external bot's fingerprint covers every file of its directory,
// recursively in path order (path, mode and content of each), and the
// files its command names outside that directory: the program when it is
// a file (found in the directory or on PATH), every argument that names
// an existing file, and the entries of a class path list it gives (-cp
// LIST, or its env's CLASSPATH): a file, a folder hashed as the bot's
// directory is, or the jars of a folder (Java's "lib/*"); and, when the
// program is a version manager's shim, the interpreter that runs in its
// place (plan.Fingerprint.Program), by path and content. A house bot is
// part of arbiter, so its fingerprint is its name and arbiter's build.
//
// Nothing is left out silently: what a fingerprint does not hash (the
// configuration's files, saved plans, version control metadata, results
// directories of arbiter, links to directories, what lies beyond the size
// caps) is listed in its Skipped lines. The configuration's files are also
// recorded (plan.Fingerprint.Config), so that a saved plan leaves out the
// same files where the configuration is not at hand.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// Caps on what one bot's fingerprint reads: a directory beyond them is
// hashed up to the cap, and the fingerprint says so. Variables for tests.
var (
	MaxFiles       = 20_000
	MaxBytes int64 = 1 << 30
)

// Options are what Plan needs besides the plan.
type Options struct {
	// Root is the configuration's directory: relative bot dirs are in it.
	Root string
	// Results are results directories, never hashed: the run's own may lie
	// inside a bot's directory.
	Results []string
	// Config are the configuration's files, never hashed: what they mean
	// is the plan, whose hash a results directory checks already, and a
	// new comment or tournament in them changes no bot. A plan's own
	// fingerprints add the files they record as the configuration's
	// (plan.Fingerprint.Config), so a saved plan leaves out the files its
	// configuration did.
	Config []string
	// Plans are saved plan files that the command reads, never hashed (any
	// file that begins as a saved plan is left out too; see isSavedPlan).
	Plans []string
	// Output is the file that the command writes a plan to (arbiter plan
	// -json > FILE), never hashed: when it lies in a bot's directory, it
	// is a saved plan by the time another command reads that directory.
	Output fs.FileInfo
	// Work are the work directories of the arbiter slurm job being
	// written, never hashed (arbiter slurm has checked that they hold
	// nothing but arbiter's files).
	Work []string
}

// Why a file is left out of a fingerprint by rule. The skipped line of a
// configuration's file is what an older arbiter recorded in plans that
// had no Fingerprint.Config yet: those plans are read by it.
const (
	whyResults = "a results directory of this run"
	whyWork    = "the slurm work directory of this job"
	whyConfig  = "a file of the configuration (the plan's hash covers what it says)"
	whyPlan    = "a saved arbiter plan (arbiter's data, not the bot's)"
)

// Plan sets the fingerprint of every bot of p and p.Arbiter, from the
// files as they are now. The files that p's fingerprints, if any, record
// as the configuration's are left out, as those of o.Config are.
func Plan(p *plan.Plan, o Options) error {
	a, err := Build()
	if err != nil {
		return err
	}
	p.Arbiter = a
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return err
	}
	dirs := make([]string, len(p.Bots))
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			continue
		}
		dir := filepath.FromSlash(b.Dir)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if dirs[i], err = filepath.Abs(dir); err != nil {
			return err
		}
	}
	exclude := o.exclude()
	for i := range p.Bots {
		if dirs[i] == "" || p.Bots[i].Fingerprint == nil {
			continue
		}
		real := realPath(dirs[i])
		for _, rel := range configFiles(p.Bots[i].Fingerprint) {
			exclude[filepath.Join(real, filepath.FromSlash(rel))] = whyConfig
		}
	}
	// Bots that share a directory share its walk.
	walked := map[string]*walker{}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			b.Fingerprint = House(b.House, a)
			continue
		}
		dir := dirs[i]
		w := walked[dir]
		if w == nil {
			w = &walker{fp: &plan.Fingerprint{Dir: dir}, exclude: exclude, out: o.Output}
			w.walk(dir)
			walked[dir] = w
		}
		command, classPath, program := hashedWords(b, dir)
		b.Fingerprint = w.finish(command, classPath, program)
		if !filepath.IsAbs(filepath.FromSlash(b.Dir)) {
			b.Fingerprint.Root = root
		}
	}
	return nil
}

// hashedWords are what of bot b's command and CLASSPATH its fingerprint
// hashes (only the words of its own folder for a submitted command, see
// ownWords), and the program that runs in place of the one its command
// names: in the sandbox, the one its plan resolved
// (drivers.Sandbox.Program), which the sandbox runs; outside it, the one
// the version manager's shim on PATH chooses now, resolved the same way,
// which the run then runs in the shim's place (engine's runsCommand).
func hashedWords(b *plan.Bot, dir string) (command []string, classPath, program string) {
	command, classPath = b.Command, b.Env["CLASSPATH"]
	if b.Limits == nil || b.Limits.Sandbox == nil {
		env := make([]string, 0, len(b.Env))
		for _, k := range slices.Sorted(maps.Keys(b.Env)) {
			env = append(env, k+"="+b.Env[k])
		}
		return command, classPath, drivers.ResolveSandbox(command, dir, env).Program
	}
	sb := b.Limits.Sandbox
	if sb.Submitted {
		command, classPath = ownWords(dir, command), ownEntries(dir, classPath)
	}
	return command, classPath, sb.Program
}

// realPath is path with its links resolved, or path when that fails (it
// does not exist).
func realPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// exclude maps the absolute real paths not to hash to why.
func (o Options) exclude() map[string]string {
	out := map[string]string{}
	add := func(paths []string, why string) {
		for _, p := range paths {
			abs, err := filepath.Abs(p)
			if err != nil {
				continue
			}
			out[realPath(abs)] = why
		}
	}
	add(o.Results, whyResults)
	add(o.Work, whyWork)
	add(o.Config, whyConfig)
	add(o.Plans, whyPlan)
	return out
}

// House is the fingerprint of house bot name ("<driver>/<bot>") of build a.
func House(name string, a *plan.Arbiter) *plan.Fingerprint {
	build, err := json.Marshal(a)
	if err != nil {
		panic(err) // strings and a bool
	}
	sum := sha256.Sum256([]byte("house " + name + "\n" + string(build) + "\n"))
	return &plan.Fingerprint{Hash: "sha256:" + hex.EncodeToString(sum[:]), House: name + " of arbiter " + a.ID()}
}

// Bot is the fingerprint of an external bot that runs command in dir.
// The files and directories of exclude (absolute real paths) are not
// hashed; those inside dir are listed as skipped, with the reason given.
func Bot(dir string, command []string, exclude map[string]string) *plan.Fingerprint {
	w := &walker{fp: &plan.Fingerprint{Dir: dir}, exclude: exclude}
	w.walk(dir)
	return w.finish(command, "", "")
}

// Uncovered is what the walk of dir that Bot makes (the files and
// directories of exclude left out) records of the files that covered (by
// relative, slash separated path) does not hold: only those are read,
// and count toward the caps, past which a file is recorded by its mode
// only (FileMode).
func Uncovered(dir string, covered map[string]bool, exclude map[string]string) []plan.FileSum {
	w := &walker{fp: &plan.Fingerprint{Dir: dir}, exclude: exclude, pass: func(rel string) bool { return covered[rel] }}
	w.walk(dir)
	return w.fp.Files
}

// finish adds the files of command, of the class path list of the bot's
// CLASSPATH (its env's; "" for none) and the program that runs in place
// of the command's (see hashedWords; "" for none) to a copy of the
// walked directory's fingerprint and hashes it.
// Java reads CLASSPATH when the command gives no class path, the sandbox
// shows it whatever the command is, and a bot's script may pass it on:
// it is hashed as a -cp list. The program is the interpreter a shim on
// PATH would choose: the shim is hashed as the command names it, and the
// interpreter too, which is what runs.
func (w *walker) finish(command []string, classPath, program string) *plan.Fingerprint {
	c := &walker{fp: &plan.Fingerprint{
		Dir: w.fp.Dir, Files: slices.Clone(w.fp.Files), Skipped: slices.Clone(w.fp.Skipped),
		Config: slices.Clone(w.fp.Config), LeftOut: maps.Clone(w.fp.LeftOut), Stats: maps.Clone(w.fp.Stats),
	}, exclude: w.exclude, out: w.out, bytes: w.bytes, full: w.full, seen: map[string]bool{}}
	c.command(w.fp.Dir, command)
	c.classPath(w.fp.Dir, classPath)
	if program != "" {
		c.fp.Program = filepath.Clean(program)
		if !inside(c.fp.Program, w.fp.Dir) && !c.once(c.fp.Program) {
			c.file(c.fp.Program, c.fp.Program)
		}
	}
	c.fp.Hash = Hash(c.fp)
	return c.fp
}

// Sum is the hash of a list of files: "sha256:<hex>" of one line per file.
func Sum(files []plan.FileSum) string {
	return sum("", "", files)
}

// Hash is the hash of fingerprint fp's files and of the program that runs
// in place of its command's (fp.Program): Sum of its files for a bot that
// runs its command's own program, so that a fingerprint without one
// hashes as it always did.
func Hash(fp *plan.Fingerprint) string {
	return sum(fp.Program, fp.Resolved, fp.Files)
}

// sum hashes files, and the program that runs in place of the command's
// and the file of the bot's folder the command's program resolved to
// when set: each only then, so that a fingerprint without them hashes
// as it did before they were recorded.
func sum(program, resolved string, files []plan.FileSum) string {
	h := sha256.New()
	if program != "" {
		fmt.Fprintf(h, "runs %q\n", program)
	}
	if resolved != "" {
		fmt.Fprintf(h, "resolves to %q\n", resolved)
	}
	for _, f := range files {
		fmt.Fprintf(h, "%s %q %s %q\n", f.Mode, f.Path, f.SHA256, f.Link)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

type walker struct {
	fp      *plan.Fingerprint
	exclude map[string]string
	// partial are the directories marked as results directories that
	// hold something else too: only what is not arbiter's is hashed.
	partial map[string]bool
	// out is the file the command writes its plan to, if any.
	out   fs.FileInfo
	bytes int64
	full  bool
	// at is the folder of a class path outside the bot's directory being
	// walked, as the command names it: its files are recorded by their
	// paths in it, not relative to the bot's directory.
	at string
	// seen are the paths outside the bot's directory hashed already: a
	// file that the command names twice, or that two entries of its class
	// path hold, is recorded once.
	seen map[string]bool
	// modeOnly records files by their mode only, their content not read
	// (FileMode).
	modeOnly bool
	// pass, when set, says which files the walk passes over: neither
	// read nor recorded, nor counted toward the caps (Uncovered).
	pass func(rel string) bool
}

// name is the name under which the file or folder rel (relative to the
// folder being walked) is recorded.
func (w *walker) name(rel string) string {
	if w.at != "" {
		rel = filepath.Join(w.at, rel)
	}
	return filepath.ToSlash(rel)
}

// atCap says whether the fingerprint holds MaxFiles files already, and
// says so in the skipped lines the first time.
func (w *walker) atCap() bool {
	if w.full {
		return true
	}
	if len(w.fp.Files) < MaxFiles {
		return false
	}
	w.skip("everything after %s: the directory holds more than %d files, only the first %d in path order are hashed", w.fp.Files[len(w.fp.Files)-1].Path, MaxFiles, MaxFiles)
	w.full = true
	return true
}

func (w *walker) skip(format string, args ...any) {
	w.fp.Skipped = append(w.fp.Skipped, fmt.Sprintf(format, args...))
}

// walk hashes the files of dir in path order. A directory that cannot be
// read is recorded as skipped: its bot will not start either, and the
// match says so.
func (w *walker) walk(dir string) {
	dir = realPath(dir)
	w.config(dir)
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		rel = w.name(rel)
		if err != nil {
			w.skip("%s: %v", rel, err)
			if path == dir {
				return filepath.SkipAll
			}
			return nil
		}
		if w.full {
			return filepath.SkipAll
		}
		if parent := filepath.Dir(path); w.partial[parent] && resultsEntry(parent, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil // arbiter's, in a results directory that holds more
		}
		if d.IsDir() {
			if path == dir {
				return nil
			}
			return w.enter(path, rel, d)
		}
		if w.leaveOut(path, rel, d) || w.at != "" && w.once(rel) || w.pass != nil && w.pass(rel) {
			return nil
		}
		if w.atCap() {
			return filepath.SkipAll
		}
		w.file(path, rel)
		return nil
	})
}

// config lists in the fingerprint the configuration's files that lie in
// dir (those excluded as the configuration's), whether they are there now
// or not: a saved plan carries them to a machine without them. They are
// listed relative to the bot's directory, which dir is, or holds, or is
// a folder of the bot's class path ("../t.hcl").
func (w *walker) config(dir string) {
	own := realPath(w.fp.Dir)
	for path, why := range w.exclude {
		if why != whyConfig || path == dir || !drivers.Within(path, dir) {
			continue
		}
		rel, err := filepath.Rel(own, path)
		if err != nil || slices.Contains(w.fp.Config, filepath.ToSlash(rel)) {
			continue
		}
		w.fp.Config = append(w.fp.Config, filepath.ToSlash(rel))
	}
	slices.Sort(w.fp.Config)
}

// leaveOut reports whether the file at path is left out by rule, and
// says so in the skipped lines: a file excluded by the options, the
// command's own output, or a saved plan. The configuration's files and
// saved plans are noted in LeftOut.
func (w *walker) leaveOut(path, rel string, d fs.DirEntry) bool {
	why, ok := w.exclude[path]
	if !ok && w.out != nil {
		if fi, err := d.Info(); err == nil && os.SameFile(fi, w.out) {
			why, ok = whyPlan, true
		}
	}
	if !ok && isSavedPlan(path) {
		why, ok = whyPlan, true
	}
	if !ok {
		return false
	}
	w.skip("%s: %s", rel, why)
	if why == whyConfig || why == whyPlan {
		if w.fp.LeftOut == nil {
			w.fp.LeftOut = map[string]string{}
		}
		w.fp.LeftOut[rel] = path
	}
	return true
}

// isSavedPlan reports whether path is a saved plan: a .json file that
// begins as arbiter plan -json and a results directory's plan.json begin,
// with the plan's version and hash, and that is a whole plan whose hash
// is that of its content. A plan is arbiter's data, never a bot's: one
// saved in a bot's directory (arbiter plan -json CONF > CONF/plan.json)
// is left out of its fingerprint, whether the run reads the configuration
// or that plan. A bot's own file that merely begins like one (a table
// under a plan's first lines) is no plan, and is hashed.
//
// A whole plan is read to check its hash, and the same plan.json is met
// for every bot whose folder holds its results directory: the answer is
// kept for the file as it is (its size and modification time).
func isSavedPlan(path string) bool {
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return false
	}
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	key := savedPlanKey{path, fi.Size(), fi.ModTime().UnixNano()}
	if ok, seen := savedPlans.Load(key); seen {
		return ok.(bool)
	}
	ok := readsAsPlan(f)
	savedPlans.Store(key, ok)
	return ok
}

// savedPlans are isSavedPlan's answers, by file as it was.
var savedPlans sync.Map

type savedPlanKey struct {
	path        string
	size, mtime int64
}

// readsAsPlan reports whether f holds a whole plan whose hash is that of
// its content (isSavedPlan).
func readsAsPlan(f *os.File) bool {
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	if !planHead.Match(head[:n]) {
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var p plan.Plan
	if dec.Decode(&p) != nil || dec.More() {
		return false
	}
	return p.Hash != "" && p.ComputeHash() == p.Hash
}

var planHead = regexp.MustCompile(`^\s*\{\s*"version"\s*:\s*[0-9]+\s*,\s*"hash"\s*:\s*"[0-9a-f]{64}"`)

// configFiles are the configuration's files that fp records (see
// plan.Fingerprint.Config); for a fingerprint recorded before arbiter
// recorded them, those its skipped lines name as the configuration's.
func configFiles(fp *plan.Fingerprint) []string {
	if fp.Config != nil {
		return fp.Config
	}
	var out []string
	for _, line := range fp.Skipped {
		if rel, ok := strings.CutSuffix(line, ": "+whyConfig); ok {
			out = append(out, rel)
		}
	}
	return out
}

// File is the entry of one file of a bot's directory, at path, as a
// fingerprint records it under name; false when it cannot be read.
func File(path, name string) (plan.FileSum, bool) {
	w := &walker{fp: &plan.Fingerprint{}}
	w.file(path, name)
	if len(w.fp.Files) == 0 {
		return plan.FileSum{}, false
	}
	return w.fp.Files[0], true
}

// FileMode is the entry of one file as a fingerprint records it past the
// byte cap: its mode (and a link's target), its content not read.
func FileMode(path, name string) (plan.FileSum, bool) {
	w := &walker{fp: &plan.Fingerprint{}, modeOnly: true}
	w.file(path, name)
	if len(w.fp.Files) == 0 {
		return plan.FileSum{}, false
	}
	return w.fp.Files[0], true
}

// enter decides whether the walk goes into a directory.
func (w *walker) enter(path, rel string, d fs.DirEntry) error {
	if w.at != "" && path == realPath(w.fp.Dir) {
		return filepath.SkipDir // the bot's directory, in a folder of its class path: hashed as such
	}
	if why, ok := w.exclude[path]; ok {
		w.skip("%s/: %s", rel, why)
		return filepath.SkipDir
	}
	switch {
	case IsVCS(path):
		w.skip("%s/: %s", rel, whyVCS)
		return filepath.SkipDir
	case isResultsDir(path):
		w.skip("%s/: %s", rel, whyResultsDir)
		return filepath.SkipDir
	case IsSlurmWork(path):
		w.skip("%s/: %s", rel, whySlurmWork)
		return filepath.SkipDir
	case resultsMarked(path):
		// Marked as a results directory, but holding something arbiter
		// does not write there (an exported PGN, a note, or a file a
		// bot's author hid there): arbiter's files are left out, the
		// others hashed with the bot.
		foreignIn := foreign(path, resultsEntry, -1)
		w.skip("%s/: %s, but for %s, not arbiter's, which %s hashed", rel, whyResultsDir, strings.Join(foreignIn, ", "), map[bool]string{true: "is", false: "are"}[len(foreignIn) == 1])
		if w.partial == nil {
			w.partial = map[string]bool{}
		}
		w.partial[path] = true
	}
	return nil
}

// Why a folder found in a bot's dir is left out as arbiter's own, by what
// it holds.
const (
	whyResultsDir = "an arbiter results directory"
	whySlurmWork  = "an arbiter slurm work directory"
	// whyVCS is not arbiter's, but left out by its name all the same, and
	// named by a run as the others are: a bot could keep code there.
	whyVCS = "version control metadata"
)

// FoundArbiters are the skipped lines of fp that leave out what was
// found in the bot's dir to be arbiter's own by what it holds, not
// because the command named it: results and slurm work directories
// ("REL/: why"), and saved plans ("REL: why", the plan a command reads
// among them). A bot's author could make a folder look like arbiter's,
// so a run names them all, for the organiser to see.
func FoundArbiters(fp *plan.Fingerprint) []string {
	var out []string
	for _, line := range fp.Skipped {
		if strings.HasSuffix(line, ": "+whyResultsDir) || strings.Contains(line, ": "+whyResultsDir+", but for ") ||
			strings.HasSuffix(line, ": "+whySlurmWork) || strings.HasSuffix(line, ": "+whyPlan) || strings.HasSuffix(line, ": "+whyVCS) {
			out = append(out, line)
		}
	}
	return out
}

// Concealed are the paths in fp's dir that no sandboxed bot is shown
// (proc.Conceal): what is found there to be arbiter's by what it holds,
// results directories and slurm work directories of earlier runs, whose
// transcripts hold every deal a seed made; of a results directory that
// holds files of the bot's own too (hashed with it), arbiter's entries
// only, as they are now. dir is walked for them past the cap on the
// files a fingerprint hashes, up to concealWalkMost entries; the folders
// of its class path are taken from fp's skipped lines. Absolute paths.
func Concealed(fp *plan.Fingerprint) []string {
	if fp == nil || fp.Dir == "" {
		return nil
	}
	var out []string
	seen := 0
	_ = filepath.WalkDir(fp.Dir, func(path string, d fs.DirEntry, err error) error {
		if seen++; seen > concealWalkMost {
			return filepath.SkipAll
		}
		if err != nil || !d.IsDir() {
			return nil
		}
		found := arbitersIn(path)
		out = append(out, found...)
		if len(found) > 0 && found[0] == path || IsVCS(path) {
			return filepath.SkipDir
		}
		return nil
	})
	for _, line := range fp.Skipped {
		for _, why := range []string{whyResultsDir, whySlurmWork} {
			if rel, ok := strings.CutSuffix(line, "/: "+why); ok && filepath.IsAbs(rel) {
				out = append(out, arbitersIn(rel)...)
			}
		}
		if i := strings.Index(line, "/: "+whyResultsDir+", but for "); i > 0 && filepath.IsAbs(line[:i]) {
			out = append(out, arbitersIn(line[:i])...)
		}
	}
	return out
}

// concealWalkMost bounds the entries of a bot's folder that Concealed
// looks through: a folder that holds more (a dir of "/") is not a bot's.
const concealWalkMost = 1 << 20

// arbitersIn is what of the folder path Concealed conceals: path itself
// when it is a results or slurm work directory of arbiter's, its entries
// of arbiter's when it is marked as a results directory but holds other
// files too, nothing otherwise.
func arbitersIn(path string) []string {
	switch {
	case isResultsDir(path), IsSlurmWork(path):
		return []string{path}
	case !resultsMarked(path):
		return nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if resultsEntry(path, e) {
			out = append(out, filepath.Join(path, e.Name()))
		}
	}
	return out
}

// IsVCS says whether path names a version control folder (.git, .hg,
// .svn), which fingerprints leave out by its name.
func IsVCS(path string) bool {
	switch filepath.Base(path) {
	case ".git", ".hg", ".svn":
		return true
	}
	return false
}

// LockFile is the lock file of a results directory (engine.LockFile): the
// first file a run or a merge writes there, before its plan.json.
const LockFile = ".lock"

// isResultsDir reports whether dir is a results directory of arbiter's: it
// holds one's marks (plan.json and results.jsonl; or, for a run or merge
// killed in its first moments, arbiter's lock file or a saved plan.json)
// and nothing but what arbiter writes into one (ResultsForeign). A mark
// alone proves nothing: anyone can write a lock file, and a bot's folder
// that holds a bot's files besides is the bot's, and hashed.
func isResultsDir(dir string) bool {
	return resultsMarked(dir) && len(foreign(dir, resultsEntry, 1)) == 0
}

// resultsMarked reports whether dir holds a results directory's marks
// (see isResultsDir), whatever else it holds.
func resultsMarked(dir string) bool {
	return exists(filepath.Join(dir, "plan.json")) && exists(filepath.Join(dir, "results.jsonl")) ||
		isLockFile(filepath.Join(dir, LockFile)) || isSavedPlan(filepath.Join(dir, "plan.json"))
}

// resultsFiles are the files arbiter writes at the top of a results
// directory (run, shard, merge, report, the games' Reporter files; each
// also as its temporary file NAME.tmp, while it is replaced), and
// resultsDirs its folders, with what each may hold.
var (
	resultsFiles = map[string]bool{
		"plan.json": true, "results.jsonl": true, "arbiter.log": true, "standings.txt": true,
		"shard.json": true, "merged.json": true, "changes.jsonl": true, LockFile: true, "stopped.json": true,
		"report.html": true,
		// drivers/bricks: the original referee's files.
		"duels.txt": true, "score.txt": true, "err.txt": true,
	}
	resultsDirs = map[string]func(path string, e fs.DirEntry) bool{
		// Each match's own folder: its transcript, the game's files and
		// the bots' state, whose names are the game's.
		"matches": func(_ string, e fs.DirEntry) bool { return e.IsDir() },
		"rounds":  filesLike(regexp.MustCompile(`^[^/]+\.json(\.tmp)?$`)),
		"builds":  filesLike(regexp.MustCompile(`^[^/]+\.(json|log)(\.tmp)?$`)),
		"duels":   filesLike(regexp.MustCompile(`^[0-9]+\.txt(\.tmp)?$`)),
		// arbiter report's default output, report.html, keeps the
		// transcripts it does not inline here.
		"report-matches": filesLike(regexp.MustCompile(`^[^/]+\.js$`)),
	}
)

// filesLike accepts regular files whose names match re.
func filesLike(re *regexp.Regexp) func(string, fs.DirEntry) bool {
	return func(_ string, e fs.DirEntry) bool { return e.Type().IsRegular() && re.MatchString(e.Name()) }
}

// resultsEntry says whether the entry e of the folder dir is one that
// arbiter writes into a results directory.
func resultsEntry(dir string, e fs.DirEntry) bool {
	name := e.Name()
	if name == "plan.json" {
		// A plan whose hash is its content's: a file under that name
		// holding anything else is not arbiter's.
		return isSavedPlan(filepath.Join(dir, name))
	}
	if e.Type().IsRegular() {
		return resultsFiles[name] || resultsFiles[strings.TrimSuffix(name, ".tmp")]
	}
	ok := resultsDirs[name]
	return e.IsDir() && ok != nil && len(foreign(filepath.Join(dir, name), ok, 1)) == 0
}

// foreign lists (up to most; -1: all) the entries of dir that entry does
// not take as arbiter's, by their paths relative to dir; dir itself when
// it cannot be read.
func foreign(dir string, entry func(string, fs.DirEntry) bool, most int) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{"."}
	}
	var out []string
	for _, e := range entries {
		if !entry(dir, e) {
			name := e.Name()
			if e.IsDir() {
				name += "/"
			}
			out = append(out, name)
			if len(out) == most {
				break
			}
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// isLockFile reports whether path is arbiter's lock file of a results
// directory: a regular file, empty (released, or just made) or saying
// who holds it (engine.Holder).
func isLockFile(path string) bool {
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	if err != nil {
		return false
	}
	if len(b) == 0 {
		return true
	}
	var h struct {
		PID     int      `json:"pid"`
		Host    *string  `json:"host"`
		Since   *string  `json:"since"`
		Command []string `json:"command"`
	}
	return json.Unmarshal(b, &h) == nil && h.PID > 0 && h.Host != nil && h.Since != nil
}

// SlurmFile marks a work directory of arbiter slurm (its job scripts,
// logs, plan and shard directories): the first file arbiter slurm writes
// there. Such a directory, when it holds nothing but what arbiter slurm
// and its jobs write there, is arbiter's, never a bot's, also when it
// lies in a bot's dir.
const SlurmFile = "slurm.json"

// SlurmJobsFile, in a work directory of arbiter slurm, records the jobs
// that arbiter slurm -submit submitted last.
const SlurmJobsFile = "jobs.json"

// SlurmSbatchErrors, in a work directory of arbiter slurm, is where its
// submit.sh keeps what each sbatch says on stderr until it has shown it
// and read why a failed one failed; left there when submit.sh is killed.
const SlurmSbatchErrors = "sbatch.err"

// SlurmWork is what SlurmFile holds; Arbiter is SlurmWorkKind. Plan is
// the hash of the plan the jobs run: it tells which tournament wrote the
// directory, but a work directory of any plan is left out of a bot (the
// plans of two tournaments may share the bots' folder, and each must not
// see the other's logs grow).
type SlurmWork struct {
	Arbiter string `json:"arbiter"`
	Plan    string `json:"plan"`
	Out     string `json:"out"`
	Shards  int    `json:"shards"`
}

// SlurmWorkKind is SlurmWork.Arbiter.
const SlurmWorkKind = "slurm work directory"

// IsSlurmWork reports whether dir is a work directory of arbiter slurm:
// marked by its SlurmFile, and holding nothing else than what arbiter
// slurm and its jobs write there (SlurmForeign).
func IsSlurmWork(dir string) bool {
	f, err := openRegular(filepath.Join(dir, SlurmFile))
	if err != nil {
		return false
	}
	defer f.Close()
	var sw SlurmWork
	return json.NewDecoder(io.LimitReader(f, 1<<16)).Decode(&sw) == nil && sw.Arbiter == SlurmWorkKind &&
		len(foreign(dir, slurmEntry, 1)) == 0
}

// SlurmForeign lists the entries of dir, a would-be work directory of
// arbiter slurm, that are not what arbiter slurm and its jobs write there
// (relative to dir; "." when dir cannot be read); none for a folder that
// does not exist.
func SlurmForeign(dir string) []string {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return foreign(dir, slurmEntry, -1)
}

var (
	slurmScript = regexp.MustCompile(`^stage[0-9]+-(shards|merge)\.sbatch$`)
	slurmLog    = regexp.MustCompile(`^stage[0-9]+-(shard[0-9]+|merge)\.log$`)
)

// slurmEntry says whether the entry e of the folder dir is one that
// arbiter slurm or its jobs write into a work directory: its marker, plan
// and scripts, logs/ and shards/ (each shard's results directory), and
// what submit.sh writes, jobs.json and sbatch's errors (SlurmSbatchErrors).
func slurmEntry(dir string, e fs.DirEntry) bool {
	name := e.Name()
	if e.Type().IsRegular() {
		switch strings.TrimSuffix(name, ".tmp") {
		case SlurmFile, SlurmJobsFile, SlurmSbatchErrors, "plan.json":
			return true
		}
		return name == "submit.sh" || slurmScript.MatchString(name)
	}
	if !e.IsDir() {
		return false
	}
	switch name {
	case "logs":
		return len(foreign(filepath.Join(dir, name), filesLike(slurmLog), 1)) == 0
	case "shards":
		shard := func(parent string, e fs.DirEntry) bool {
			return e.IsDir() && len(foreign(filepath.Join(parent, e.Name()), resultsEntry, 1)) == 0
		}
		return len(foreign(filepath.Join(dir, name), shard, 1)) == 0
	}
	return false
}

// file adds one file (a regular file, a link or anything else) to the
// fingerprint.
func (w *walker) file(path, name string) {
	// Taken before the file is read: a change while it is hashed shows.
	sig := Signature(path)
	fi, err := os.Lstat(path)
	if err != nil {
		w.skip("%s: %v", name, err)
		return
	}
	defer func() {
		if len(w.fp.Files) > 0 && w.fp.Files[len(w.fp.Files)-1].Path == name {
			if w.fp.Stats == nil {
				w.fp.Stats = map[string]plan.FileStat{}
			}
			w.fp.Stats[name] = sig
		}
	}()
	f := plan.FileSum{Path: name, Mode: fi.Mode().String()}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if f.Link, err = os.Readlink(path); err != nil {
			w.skip("%s: %v", name, err)
			return
		}
		// A dangling link is recorded as a link only.
		target, err := os.Stat(path)
		switch {
		case err != nil:
		case target.IsDir():
			w.skip("%s/: a link to a directory, not followed", name)
		case target.Mode().IsRegular() && !w.mayFollow(path):
			w.skip("%s: a link to a file outside the bot's folder that not everyone may read, not followed", name)
		case target.Mode().IsRegular():
			fi = target
		}
	}
	if fi.Mode().IsRegular() && !w.modeOnly {
		if w.bytes+fi.Size() > MaxBytes {
			w.skip("%s: hashing its %d bytes would pass the cap of %d bytes per bot, so only its mode is recorded", name, fi.Size(), MaxBytes)
		} else if f.SHA256, err = hashFile(path); err != nil {
			w.skip("%s: %v", name, err)
			f.SHA256 = "unreadable"
		} else {
			w.bytes += fi.Size()
		}
	}
	w.fp.Files = append(w.fp.Files, f)
}

// mayFollow says whether the walk may read the file the link path leads
// to: one in the bot's folder (or the class path folder being walked), or
// one everyone may read. A link in a bot's folder to a file only arbiter's
// rights can read (/etc/shadow) is not read, so that its hash is never
// published in the plan: arbiter never reads with its own rights what the
// bot, which runs as another user in the sandbox, could not.
func (w *walker) mayFollow(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return false
	}
	for _, dir := range []string{w.fp.Dir, w.at} {
		if abs, err := filepath.Abs(realPath(dir)); dir != "" && err == nil && drivers.Within(real, abs) {
			return true
		}
	}
	return w.fp.Dir == "" && w.at == "" || everyoneReads(real)
}

// Signature is what a stat of path says of it, cheaply compared to tell
// that the file may have changed since: device, inode, mode, size, and
// the times of its last change of content and of status, of the path and,
// for a link, its target and the same of what it leads to. A file
// rewritten in place, replaced (a new inode), touched or gone has another
// signature; one with the same signature has not been written since (as
// far as the file system's clock tells). The zero value when path cannot
// be stat'ed.
func Signature(path string) plan.FileStat {
	fi, err := os.Lstat(path)
	if err != nil {
		return plan.FileStat{}
	}
	sig := plan.FileStat{Stat: statOf(fi)}
	if fi.Mode()&fs.ModeSymlink != 0 {
		sig.Link, _ = os.Readlink(path)
		if target, err := os.Stat(path); err == nil {
			sig.Target = statOf(target)
		}
	}
	return sig
}

func statOf(fi fs.FileInfo) plan.Stat {
	st := plan.Stat{Mode: fi.Mode(), Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Dev, st.Ino, st.Ctime = uint64(sys.Dev), sys.Ino, sys.Ctim.Nano()
	}
	return st
}

// command adds the files that command names outside dir: the program
// (with a slash, relative to dir; else found on PATH), every argument
// that names an existing file relative to dir or absolutely, and what the
// entries of a class path list name (classPath).
func (w *walker) command(dir string, command []string) {
	lists := maps.Collect(javacmd.ClassPaths(command))
	for i, a := range command {
		if list, ok := lists[i]; ok {
			w.classPath(dir, list)
			continue
		}
		if a == "" || i > 0 && strings.HasPrefix(a, "-") {
			continue
		}
		path := a
		switch {
		case filepath.IsAbs(a):
		case i > 0 || strings.ContainsRune(a, '/'):
			path = filepath.Join(dir, a)
		default:
			p, err := exec.LookPath(a)
			if err != nil {
				w.skip("%s: the program is not found on PATH (%v)", a, err)
				continue
			}
			if path, err = filepath.Abs(p); err != nil {
				continue
			}
		}
		path = filepath.Clean(path)
		if inside(path, dir) {
			if i == 0 && !filepath.IsAbs(a) && !strings.ContainsRune(a, '/') {
				w.resolvedIn(dir, path) // found on PATH
			}
			continue // hashed with the directory
		}
		fi, err := os.Stat(path)
		if err != nil || w.seen[path] {
			continue // an argument that is no file, or one already hashed
		}
		if fi.IsDir() {
			w.skip("%s/: a directory named by the command, outside the bot's directory: not hashed", path)
			continue
		}
		w.once(path)
		w.file(path, path)
	}
}

// resolvedIn records the file path of the folder dir as the one that the
// command's program, a bare word, resolved to on PATH (Resolved).
func (w *walker) resolvedIn(dir, path string) {
	if rel, err := filepath.Rel(dir, path); err == nil {
		w.fp.Resolved = filepath.ToSlash(rel)
	}
}

// inside says whether path lies in dir (cleaned paths, relative or
// absolute alike), where the walk of dir hashes it.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// once says whether the file or folder named name outside the bot's
// directory was hashed already, and marks it as hashed.
func (w *walker) once(name string) bool {
	if w.seen[name] {
		return true
	}
	w.seen[name] = true
	return false
}

// classPath adds what the entries of a class path list (relative to dir,
// or absolute) name outside dir, as Java reads them: a file (a jar, a
// zip) by its content; a folder of classes recursively, as the bot's
// directory is walked, under the same caps; and a wildcard "lib/*" as
// the jars of lib (jars). An entry that names nothing is left out, as an
// argument that names no file is: Java passes over it too.
func (w *walker) classPath(dir, list string) {
	for _, e := range filepath.SplitList(list) {
		if e == "" {
			continue // Java reads no folder for an empty entry
		}
		if folder, ok := javacmd.Wildcard(e); ok {
			w.jars(dir, folder)
			continue
		}
		path := filepath.Clean(e)
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, e)
		}
		fi, err := os.Stat(path)
		if inside(path, dir) || err != nil || w.once(path) {
			continue
		}
		if !fi.IsDir() {
			w.file(path, path)
			continue
		}
		w.at = path
		w.walk(path)
		w.at = ""
	}
}

// jars adds the jars of the class path folder that a wildcard entry names
// (Java's "folder/*": the files of folder, not of its subfolders, whose
// names end in .jar or .JAR), in name order. A folder that is not there
// is left out as a class path entry that names nothing is.
func (w *walker) jars(dir, folder string) {
	path := filepath.Join(dir, folder)
	if filepath.IsAbs(folder) {
		path = filepath.Clean(folder)
	}
	if inside(path, dir) {
		return // hashed with the directory
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.skip("%s/*: %v", path, err)
		}
		return
	}
	for _, e := range entries {
		jar := filepath.Join(path, e.Name())
		if e.IsDir() || !javacmd.ClassPathJar(e.Name()) || w.once(jar) {
			continue
		}
		if w.atCap() {
			return
		}
		w.file(jar, jar)
	}
}

// ownWords is a submitted command (a bots_from player's info.txt) with
// only the words whose files arbiter may read on the player's behalf:
// the program the PATH finds, the files in dir, and the program that runs
// when the command names it in the system's folders (/usr/bin/python3 is
// hashed as a bot block's same command hashes it; see systemProgram).
// Arbiter runs as whoever starts it, often root: any other file the
// command names (/etc/shadow, another player's file, a file of /etc that
// changes all the time) is neither read, hashed, nor published in the
// plan, and its changes do not change this bot's fingerprint
// (drivers.ResolveSubmitted). A program out of both, which it cannot
// start, leaves nothing of the command. A class path list keeps the
// entries in dir.
func ownWords(dir string, command []string) []string {
	lists := maps.Collect(javacmd.ClassPaths(command))
	var out []string
	for i, a := range command {
		if list, ok := lists[i]; ok {
			out = append(out, strings.TrimSuffix(a, list)+ownEntries(dir, list))
			continue
		}
		switch {
		case i == 0 && !strings.ContainsRune(a, '/'), i > 0 && strings.HasPrefix(a, "-"):
		case inOwn(a, dir):
		case i == 0 && systemProgram(a, dir):
		case i == 0:
			return nil // a program it is not shown, or not everyone's: not read
		default:
			continue
		}
		out = append(out, a)
	}
	return out
}

// ownEntries is a class path list with only the entries that lie in dir.
func ownEntries(dir, list string) string {
	var own []string
	for _, e := range filepath.SplitList(list) {
		if inOwn(e, dir) {
			own = append(own, e)
		}
	}
	return strings.Join(own, string(filepath.ListSeparator))
}

// systemProgram says whether the program p of a submitted command
// (absolute, or relative to dir) is one of the system's that everyone
// may read: its links resolved, it lies in the system's folders (which
// every sandbox shows) and not in the bots_from folder that holds dir (a
// link in /usr to another player's file is that player's), and it is a
// regular file readable by everyone in folders everyone may pass
// through. Arbiter never reads with its own rights what the player
// could not.
func systemProgram(p, dir string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil || !drivers.InSystem(real) || drivers.Within(real, filepath.Dir(realPath(dir))) {
		return false
	}
	return everyoneReads(real)
}

// everyoneReads says whether the real path p is a regular file that any
// user may read: o+r, and o+x on each folder above it.
func everyoneReads(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o004 == 0 {
		return false
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// inOwn says whether the path p (absolute, or relative to dir) lies in
// dir, the submitted bot's folder.
func inOwn(p, dir string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return drivers.Within(p, dir)
}

// openRegular opens path for reading if it is a regular file. A bot's
// folder is the bot author's (and its build's): a FIFO there would block
// an open for reading until someone writes, so the open does not wait,
// and anything but a regular file is refused.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return f, nil
}

func hashFile(path string) (string, error) {
	f, err := openRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Build identifies the running arbiter: its module version and version
// control revision from the build information, and a hash of its
// executable when those do not identify the build (a test binary, a build
// outside version control, or from a modified tree).
func Build() (*plan.Arbiter, error) {
	buildOnce.Do(func() { build, buildErr = readBuild() })
	if buildErr != nil {
		return nil, buildErr
	}
	a := *build
	return &a, nil
}

var (
	buildOnce sync.Once
	build     *plan.Arbiter
	buildErr  error
)

func readBuild() (*plan.Arbiter, error) {
	a := &plan.Arbiter{Version: "unknown"}
	if info, ok := debug.ReadBuildInfo(); ok {
		a.Go = info.GoVersion
		if info.Main.Version != "" {
			a.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				a.Revision = s.Value
			case "vcs.modified":
				a.Modified = s.Value == "true"
			}
		}
	}
	if a.Revision != "" && !a.Modified {
		return a, nil
	}
	// The image this process runs, not the file at its path
	// (os.Executable), which may be another build since it started: the
	// build recorded is the one that referees and plays the house bots
	// (proc.OwnImage).
	sum, err := hashFile("/proc/self/exe")
	if err != nil {
		return nil, fmt.Errorf("fingerprinting arbiter's build: %w", err)
	}
	a.Executable = "sha256:" + sum
	return a, nil
}
