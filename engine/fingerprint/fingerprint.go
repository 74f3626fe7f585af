// Package fingerprint hashes what a plan's bots run, and identifies the
// arbiter build that runs them, so that a results directory can tell when
// a bot or arbiter changed between two runs of the same tournament.
//
// An external bot's fingerprint covers every file of its directory,
// recursively in path order (path, mode and content of each), and the
// files its command names outside that directory: the program when it is
// a file (found in the directory or on PATH) and every argument that names
// an existing file. A house bot is part of arbiter, so its fingerprint is
// its name and arbiter's build.
//
// Nothing is left out silently: what a fingerprint does not hash (version
// control metadata, results directories of arbiter, links to directories,
// what lies beyond the size caps) is listed in its Skipped lines.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-contests/arbiter/engine/plan"
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
	// new comment or tournament in them changes no bot.
	Config []string
}

// Plan sets the fingerprint of every bot of p and p.Arbiter, from the
// files as they are now.
func Plan(p *plan.Plan, o Options) error {
	a, err := Build()
	if err != nil {
		return err
	}
	p.Arbiter = a
	exclude := o.exclude()
	// Bots that share a directory share its walk.
	walked := map[string]*walker{}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			b.Fingerprint = House(b.House, a)
			continue
		}
		dir := filepath.FromSlash(b.Dir)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(o.Root, dir)
		}
		if dir, err = filepath.Abs(dir); err != nil {
			return err
		}
		w := walked[dir]
		if w == nil {
			w = &walker{fp: &plan.Fingerprint{Dir: dir}, exclude: exclude}
			w.walk(dir)
			walked[dir] = w
		}
		b.Fingerprint = w.finish(b.Command)
	}
	return nil
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
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			}
			out[abs] = why
		}
	}
	add(o.Results, "a results directory of this run")
	add(o.Config, "a file of the configuration (the plan's hash covers what it says)")
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
	return w.finish(command)
}

// finish adds the files of command to a copy of the walked directory's
// fingerprint and hashes it.
func (w *walker) finish(command []string) *plan.Fingerprint {
	c := &walker{fp: &plan.Fingerprint{Dir: w.fp.Dir, Files: slices.Clone(w.fp.Files), Skipped: slices.Clone(w.fp.Skipped)}, bytes: w.bytes}
	c.command(w.fp.Dir, command)
	c.fp.Hash = Sum(c.fp.Files)
	return c.fp
}

// Sum is the hash of a list of files: "sha256:<hex>" of one line per file.
func Sum(files []plan.FileSum) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %q %s %q\n", f.Mode, f.Path, f.SHA256, f.Link)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

type walker struct {
	fp      *plan.Fingerprint
	exclude map[string]string
	bytes   int64
	full    bool
}

func (w *walker) skip(format string, args ...any) {
	w.fp.Skipped = append(w.fp.Skipped, fmt.Sprintf(format, args...))
}

// walk hashes the files of dir in path order. A directory that cannot be
// read is recorded as skipped: its bot will not start either, and the
// match says so.
func (w *walker) walk(dir string) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
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
		if d.IsDir() {
			return w.enter(path, rel, d)
		}
		if why, ok := w.exclude[path]; ok {
			w.skip("%s: %s", rel, why)
			return nil
		}
		if len(w.fp.Files) >= MaxFiles {
			w.skip("everything after %s: the directory holds more than %d files, only the first %d in path order are hashed", w.fp.Files[len(w.fp.Files)-1].Path, MaxFiles, MaxFiles)
			w.full = true
			return filepath.SkipAll
		}
		w.file(path, rel)
		return nil
	})
}

// enter decides whether the walk goes into a directory.
func (w *walker) enter(path, rel string, d fs.DirEntry) error {
	if rel == "." {
		return nil
	}
	if why, ok := w.exclude[path]; ok {
		w.skip("%s/: %s", rel, why)
		return filepath.SkipDir
	}
	switch {
	case d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn":
		w.skip("%s/: version control metadata", rel)
		return filepath.SkipDir
	case isResultsDir(path):
		w.skip("%s/: an arbiter results directory", rel)
		return filepath.SkipDir
	}
	return nil
}

// isResultsDir reports whether dir holds a results directory's files.
func isResultsDir(dir string) bool {
	for _, f := range []string{"plan.json", "results.jsonl"} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

// file adds one file (a regular file, a link or anything else) to the
// fingerprint.
func (w *walker) file(path, name string) {
	fi, err := os.Lstat(path)
	if err != nil {
		w.skip("%s: %v", name, err)
		return
	}
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
		case target.Mode().IsRegular():
			fi = target
		}
	}
	if fi.Mode().IsRegular() {
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

// command adds the files that command names outside dir: the program
// (with a slash, relative to dir; else found on PATH) and every argument
// that names an existing file relative to dir or absolutely.
func (w *walker) command(dir string, command []string) {
	seen := map[string]bool{}
	for i, a := range command {
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
		if rel, err := filepath.Rel(dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			continue // hashed with the directory
		}
		fi, err := os.Stat(path)
		if err != nil || seen[path] {
			continue // an argument that is no file, or one already hashed
		}
		seen[path] = true
		if fi.IsDir() {
			w.skip("%s/: a directory named by the command, outside the bot's directory: not hashed", path)
			continue
		}
		w.file(path, path)
	}
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
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
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding arbiter's executable to fingerprint its build: %w", err)
	}
	sum, err := hashFile(exe)
	if err != nil {
		return nil, fmt.Errorf("fingerprinting arbiter's build: %w", err)
	}
	a.Executable = "sha256:" + sum
	return a, nil
}
