package engine

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// watch notices a bot whose files change while a run goes on (a student
// pushes a fix, or the bot rewrites a file of its own), so that every
// result carries the hash of the files it was played with.
//
// Before a match starts and after it ends, every file of its bots'
// fingerprints is stat'ed again (fingerprint.Signature): cheap, and
// nothing is read unless a signature differs from the one taken when the
// file was last hashed. Then the file is hashed again; another content,
// mode or link target, or a file gone, is a change of the bot, as a
// resumed run would see it (compareBot): files new since the fingerprint
// was taken are not part of it.
//
// A change is refused, unless the run may go on (-allow-changed-bots):
// then it is recorded in changes.jsonl and plan.json as a resume records
// it, and the results after it carry the new hash. A match during which
// one of its bots changed is never journaled (see session.playWatched).
type watch struct {
	mu    sync.Mutex
	dir   string
	allow bool
	log   hclog.Logger
	// recorded is the plan as plan.json holds it: replaced, with a new
	// fingerprint, at each change allowed; never changed in place.
	recorded *plan.Plan
	bots     map[string]*watched
	// results says how many results the directory holds now.
	results func() int
}

// watched is one bot's fingerprint as it is now, and how many times it
// changed during the run.
type watched struct {
	fp   *plan.Fingerprint
	sigs []plan.FileStat // by index of fp.Files
	gen  int
}

// version is the state of a match's bots when it started: each bot's
// generation (how many changes the run saw) and hash.
type version struct {
	gens   map[string]int
	hashes map[string]string
}

// newWatch watches the bots of p, whose fingerprints plan.json of dir
// records. A file that the fingerprint holds no signature of (one compared
// by rule, see compareBot) gets the one it has now.
func newWatch(dir string, p *plan.Plan, allow bool, log hclog.Logger) *watch {
	w := &watch{dir: dir, allow: allow, log: log, recorded: p, bots: map[string]*watched{}, results: func() int { return 0 }}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.Fingerprint == nil {
			continue
		}
		wb := &watched{fp: b.Fingerprint, sigs: make([]plan.FileStat, len(b.Fingerprint.Files))}
		for k, f := range b.Fingerprint.Files {
			sig, ok := b.Fingerprint.Stats[f.Path]
			if !ok {
				sig = fingerprint.Signature(filePath(b.Fingerprint, f.Path))
			}
			wb.sigs[k] = sig
		}
		w.bots[b.Name] = wb
	}
	return w
}

// filePath is where the file name of fingerprint fp is: in its directory,
// or, for a file the command names outside it, the absolute path.
func filePath(fp *plan.Fingerprint, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(fp.Dir, filepath.FromSlash(name))
}

// ChangedDuringRunError stops a run whose bot changed while it went on.
type ChangedDuringRunError struct {
	Dir     string
	Match   string
	Changes []BotChange
	// During: the change was found when the match ended, so it may have
	// played with either version; otherwise before it started.
	During bool
	// Again: the match played a second time (-allow-changed-bots) and the
	// bot changed once more: it rewrites its own files as it plays.
	Again bool
}

func (e *ChangedDuringRunError) Error() string {
	var b strings.Builder
	switch {
	case e.Again:
		fmt.Fprintf(&b, "a bot changed again while match %s was played again after a change, so it rewrites its own files as it plays "+
			"(a log or table it keeps, which its fingerprint covers):\n", e.Match)
	case e.During:
		fmt.Fprintf(&b, "a bot changed while match %s was played, so the match may have played with either version; its result is not recorded:\n", e.Match)
	default:
		fmt.Fprintf(&b, "a bot changed while the run went on, before match %s started:\n", e.Match)
	}
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	if e.Again {
		fmt.Fprintf(&b, "The results so far are kept in %s. Let the bot write files with new names (the match id is in ARBITER_MATCH), or outside its directory", e.Dir)
		return b.String()
	}
	fmt.Fprintf(&b, "The run stops; the results so far are kept in %s, each with the hashes of the bots it was played with. "+
		"Restore the bot and run again, or run again with -allow-changed-bots to go on with the bot as it is now and record the change in %s",
		e.Dir, filepath.Join(e.Dir, ChangesFile))
	return b.String()
}

// before checks the bots of m before it starts and returns the version
// it plays with. A change refused is an error naming the match.
func (w *watch) before(m *plan.Match) (version, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if changes := w.check(m.Seats); len(changes) > 0 {
		if err := w.changed(m, changes, false); err != nil {
			return version{}, err
		}
	}
	v := version{gens: map[string]int{}, hashes: map[string]string{}}
	for _, name := range m.Seats {
		if wb := w.bots[name]; wb != nil {
			v.gens[name], v.hashes[name] = wb.gen, wb.fp.Hash
		}
	}
	return v, nil
}

// after checks the bots of m once it has ended, and returns the changes
// since it started with version v: none when its result may be recorded.
func (w *watch) after(m *plan.Match, v version) ([]BotChange, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	changes := w.check(m.Seats)
	if len(changes) > 0 {
		if err := w.changed(m, changes, true); err != nil {
			return changes, err
		}
	}
	for _, name := range m.Seats {
		if wb := w.bots[name]; wb != nil && wb.gen != v.gens[name] && !slices.ContainsFunc(changes, func(c BotChange) bool { return c.Bot == name }) {
			// Changed since m started, seen by another match's check.
			changes = append(changes, BotChange{Bot: name, From: short(v.hashes[name]), To: short(wb.fp.Hash)})
		}
	}
	return changes, nil
}

// check stats the files of the bots named (each once) and returns their
// changes since last checked, each bot's fingerprint then as it is now;
// w.mu is held.
func (w *watch) check(names []string) []BotChange {
	var changes []BotChange
	seen := map[string]bool{}
	for _, name := range names {
		wb := w.bots[name]
		if wb == nil || seen[name] {
			continue
		}
		seen[name] = true
		if c, ok := wb.recheck(); ok {
			c.Bot = name
			changes = append(changes, c)
		}
	}
	return changes
}

// recheck stats the bot's files, hashes those whose signature changed,
// and says whether the fingerprint changed (then wb holds the new one).
func (wb *watched) recheck() (BotChange, bool) {
	old := wb.fp
	var stale []int
	sigs := slices.Clone(wb.sigs)
	for k, f := range old.Files {
		if sig := fingerprint.Signature(filePath(old, f.Path)); sig != sigs[k] {
			sigs[k] = sig
			stale = append(stale, k)
		}
	}
	if len(stale) == 0 {
		return BotChange{}, false
	}
	c := BotChange{From: short(old.Hash)}
	fp := *old
	fp.Files, fp.Stats = nil, maps.Clone(old.Stats)
	var kept []plan.FileStat
	for k, f := range old.Files {
		g := f
		if slices.Contains(stale, k) {
			var ok bool
			if g, ok = fingerprint.File(filePath(old, f.Path), f.Path); !ok || sigs[k] == (plan.FileStat{}) {
				c.Removed = append(c.Removed, f.Path)
				continue
			}
			if g != f {
				c.Changed = append(c.Changed, f.Path)
			}
		}
		fp.Files = append(fp.Files, g)
		kept = append(kept, sigs[k])
	}
	if len(c.Changed) == 0 && len(c.Removed) == 0 {
		wb.sigs = sigs // touched, or written with the same content
		return BotChange{}, false
	}
	fp.Hash = fingerprint.Sum(fp.Files)
	c.To = short(fp.Hash)
	wb.fp, wb.sigs = &fp, kept
	wb.gen++
	return c, true
}

// changed stops the run at changes found around match m, or, allowed,
// logs them and records them as a resume does: a line of changes.jsonl,
// and plan.json with the bots as they are now; w.mu is held.
func (w *watch) changed(m *plan.Match, changes []BotChange, during bool) error {
	if !w.allow {
		return &ChangedDuringRunError{Dir: w.dir, Match: m.ID, Changes: changes, During: during}
	}
	for _, c := range changes {
		w.log.Warn("a bot changed while the run went on; going on with it as it is now (-allow-changed-bots)", "match", m.ID, "change", c.String())
	}
	rec := *w.recorded
	rec.Bots = slices.Clone(w.recorded.Bots)
	for i := range rec.Bots {
		if wb := w.bots[rec.Bots[i].Name]; wb != nil {
			rec.Bots[i].Fingerprint = wb.fp
		}
	}
	w.recorded = &rec
	if err := appendChanges(w.dir, changeRecord{Time: time.Now().UTC().Format(time.RFC3339), Results: w.results(),
		Changes: changes, Match: m.ID}); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(w.dir, PlanFile), mustIndent(&rec))
}

// fingerprints are the hashes of version v of the bots of seats, as a
// result records them.
func (v version) fingerprints(seats []string) map[string]string {
	out := map[string]string{}
	for _, name := range seats {
		if h, ok := v.hashes[name]; ok {
			out[name] = h
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
