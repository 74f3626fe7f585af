package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
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
// was taken are not part of it, and a file recorded by its mode only
// (past the byte cap) is compared by its mode only.
//
// The stats are taken without w.mu held, so that matches played at once
// (-j N) check their bots at once; what they found is merged under it,
// and taken again when another check merged first.
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
	// shard is set when dir is a shard's: a change is refused, also with
	// -allow-changed-bots (see shardChangedAdvice).
	shard *Shard
}

// watched is one bot's files as last checked, and how many times it
// changed during the run.
type watched struct {
	now *botState
	gen int
}

// botState is a bot's fingerprint and the signatures its files had when
// they were hashed; never changed in place, so that a check can stat the
// files without w.mu and tell, by the pointer, whether another check
// merged meanwhile.
type botState struct {
	fp    *plan.Fingerprint
	paths []string        // where each file of fp.Files is
	sigs  []plan.FileStat // by index of fp.Files
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
	if sh, _ := readShardRecord(dir); sh != nil {
		w.shard, w.allow = sh, false
	}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.Fingerprint == nil {
			continue
		}
		s := &botState{fp: b.Fingerprint, paths: make([]string, len(b.Fingerprint.Files)), sigs: make([]plan.FileStat, len(b.Fingerprint.Files))}
		for k, f := range b.Fingerprint.Files {
			s.paths[k] = filePath(b.Fingerprint, f.Path)
			sig, ok := b.Fingerprint.Stats[f.Path]
			if !ok {
				sig = fingerprint.Signature(s.paths[k])
			}
			s.sigs[k] = sig
		}
		w.bots[b.Name] = &watched{now: s}
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
	// Shard is set when Dir is a shard's, which goes on with no change.
	Shard *Shard
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
	if e.Shard != nil {
		fmt.Fprintf(&b, "The shard stops; its results so far are kept. %s", shardChangedAdvice(e.Dir, *e.Shard))
		return b.String()
	}
	fmt.Fprintf(&b, "The run stops; the results so far are kept in %s, each with the hashes of the bots it was played with. "+
		"Restore the bot and run again, or run again with -allow-changed-bots to go on with the bot as it is now and record the change in %s",
		e.Dir, filepath.Join(e.Dir, ChangesFile))
	return b.String()
}

// ChangedSinceBuiltError stops a run whose bots changed between their
// build and the start of a match, build after build: something rewrites
// their files all the time.
type ChangedSinceBuiltError struct {
	Match   string
	Times   int
	Changes []BotChange
}

func (e *ChangedSinceBuiltError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "match %s could not start: its bots were built %d times and each time changed before it started:\n", e.Match, e.Times)
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	b.WriteString("Something rewrites their files as the run goes on (an editor, a sync, another program): stop it, then run the same command again to resume")
	return b.String()
}

// before checks the bots of m before it starts and returns the version
// it plays with. A change refused is an error naming the match.
func (w *watch) before(m *plan.Match) (version, error) {
	_, err := w.check(m, false)
	defer w.mu.Unlock()
	if err != nil {
		return version{}, err
	}
	v := version{gens: map[string]int{}, hashes: map[string]string{}}
	for _, name := range m.Seats {
		if wb := w.bots[name]; wb != nil {
			v.gens[name], v.hashes[name] = wb.gen, wb.now.fp.Hash
		}
	}
	return v, nil
}

// after checks the bots of m once it has ended, and returns the changes
// since it started with version v: none when its result may be recorded.
// Without -allow-changed-bots any change is refused, also one that
// another match's check saw first (that one stops the run).
func (w *watch) after(m *plan.Match, v version) ([]BotChange, error) {
	changes, err := w.check(m, true)
	defer w.mu.Unlock()
	if err != nil {
		return changes, err
	}
	for _, name := range m.Seats {
		if wb := w.bots[name]; wb != nil && wb.gen != v.gens[name] && !slices.ContainsFunc(changes, func(c BotChange) bool { return c.Bot == name }) {
			// Changed since m started, seen by another match's check.
			changes = append(changes, BotChange{Bot: name, From: short(v.hashes[name]), To: short(wb.now.fp.Hash)})
		}
	}
	if len(changes) > 0 && !w.allow {
		return changes, &ChangedDuringRunError{Dir: w.dir, Match: m.ID, Changes: changes, During: true, Shard: w.shard}
	}
	return changes, nil
}

// hash is bot name's hash as last checked: "" for a bot not watched.
func (w *watch) hash(name string) string {
	if w == nil || w.bots[name] == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bots[name].now.fp.Hash
}

// check stats the files of m's bots (each once) without w.mu, then takes
// it, merges what it found, and hands the changes since they were last
// checked to changed, which records or refuses them. It returns with
// w.mu held.
func (w *watch) check(m *plan.Match, during bool) ([]BotChange, error) {
	var names []string
	for _, name := range m.Seats {
		if w.bots[name] != nil && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	states := make([]*botState, len(names))
	next := make([]*botState, len(names))
	found := make([]BotChange, len(names))
	changed := make([]bool, len(names))
	w.mu.Lock()
	todo := make([]bool, len(names))
	for i, name := range names {
		states[i], todo[i] = w.bots[name].now, true
	}
	for slices.Contains(todo, true) {
		w.mu.Unlock()
		for i := range names {
			if todo[i] {
				next[i], found[i], changed[i] = states[i].rescan()
			}
		}
		w.mu.Lock()
		for i, name := range names {
			// Another check merged meanwhile: what this one found is
			// compared with that, unless it found nothing.
			now := w.bots[name].now
			todo[i] = now != states[i] && next[i] != states[i]
			if now != states[i] {
				states[i], next[i], changed[i] = now, now, false
			}
		}
	}
	var changes []BotChange
	for i, name := range names {
		wb := w.bots[name]
		wb.now = next[i]
		if changed[i] {
			wb.gen++
			found[i].Bot = name
			changes = append(changes, found[i])
		}
	}
	if len(changes) == 0 {
		return nil, nil
	}
	return changes, w.changed(m, changes, during)
}

// rescan stats the files of s and returns their state now: s itself when
// no signature differs; the same fingerprint with the new signatures when
// the files whose signature differs hash as before (touched, written
// again with the same content); or a new fingerprint, and the change.
func (s *botState) rescan() (*botState, BotChange, bool) {
	var sigs []plan.FileStat
	var stale []bool
	for k, path := range s.paths {
		sig := fingerprint.Signature(path)
		if sig == s.sigs[k] {
			continue
		}
		if sigs == nil {
			sigs, stale = slices.Clone(s.sigs), make([]bool, len(s.paths))
		}
		sigs[k], stale[k] = sig, true
	}
	if sigs == nil {
		return s, BotChange{}, false
	}
	c := BotChange{From: short(s.fp.Hash)}
	fp := *s.fp
	fp.Files = make([]plan.FileSum, 0, len(s.fp.Files))
	next := &botState{fp: &fp}
	for k, f := range s.fp.Files {
		g := f
		if stale[k] {
			var ok bool
			if g, ok = rehash(s.paths[k], f); !ok || sigs[k] == (plan.FileStat{}) {
				c.Removed = append(c.Removed, f.Path)
				continue
			}
			if g != f {
				c.Changed = append(c.Changed, f.Path)
			}
		}
		fp.Files = append(fp.Files, g)
		next.paths = append(next.paths, s.paths[k])
		next.sigs = append(next.sigs, sigs[k])
	}
	if len(c.Changed) == 0 && len(c.Removed) == 0 {
		return &botState{fp: s.fp, paths: s.paths, sigs: sigs}, BotChange{}, false
	}
	fp.Hash = fingerprint.Hash(&fp)
	c.To = short(fp.Hash)
	return next, c, true
}

// rehash is the entry of the file at path that entry f of a fingerprint
// recorded, as it is now. A file recorded by its mode only (its content
// would have passed the byte cap) is taken by its mode only, as the
// resume's walk, under the same cap, takes it: touched, it is no change.
func rehash(path string, f plan.FileSum) (plan.FileSum, bool) {
	if f.SHA256 == "" {
		return fingerprint.FileMode(path, f.Path)
	}
	return fingerprint.File(path, f.Path)
}

// changed stops the run at changes found around match m, or, allowed,
// logs them and records them as a resume does: a line of changes.jsonl,
// and plan.json with the bots as they are now; w.mu is held. The line
// comes first: killed in between, the resume records the change again,
// which ReadChanges notes once, while plan.json first would leave the
// change unrecorded.
func (w *watch) changed(m *plan.Match, changes []BotChange, during bool) error {
	if !w.allow {
		return &ChangedDuringRunError{Dir: w.dir, Match: m.ID, Changes: changes, During: during, Shard: w.shard}
	}
	for _, c := range changes {
		w.log.Warn("a bot changed while the run went on; going on with it as it is now (-allow-changed-bots)", "match", m.ID, "change", c.String())
	}
	if err := appendChanges(w.dir, changeRecord{Time: time.Now().UTC().Format(time.RFC3339), Results: w.results(),
		Changes: changes, Match: m.ID}); err != nil {
		return err
	}
	return w.record()
}

// record writes plan.json with the bots as they are now; w.mu is held.
func (w *watch) record() error {
	rec := *w.recorded
	rec.Bots = slices.Clone(w.recorded.Bots)
	for i := range rec.Bots {
		if wb := w.bots[rec.Bots[i].Name]; wb != nil {
			rec.Bots[i].Fingerprint = wb.now.fp
		}
	}
	w.recorded = &rec
	return writeFileAtomic(filepath.Join(w.dir, PlanFile), mustIndent(&rec))
}

// built takes the files of bot name as its build left them as the bot's
// version: what a build writes among the files of the bot's fingerprint
// (an output an earlier run left there, a stamp of the time) is the
// build's, not a change. So too for the other bots of gated, those with
// a build and the built one's very folder (Runner.gated), which hold the
// folder's build gate: it is held alone (builtFor), so none of their
// matches is being played. Any other bot whose files the build wrote (one
// without a build, or of a folder around or inside it) may be playing:
// the next check sees a change of it. plan.json records what changed,
// so that a resume compares with it. It returns, by bot taken in, its
// hash before and after.
func (w *watch) built(m *plan.Match, name string, gated []string) (map[string]moved, error) {
	if w == nil || w.bots[name] == nil {
		return nil, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]moved{}
	record := false
	for _, n := range gated {
		wb := w.bots[n]
		if wb == nil {
			continue
		}
		for {
			s := wb.now
			w.mu.Unlock()
			next, c, changed := s.rescan()
			w.mu.Lock()
			if wb.now != s {
				continue // another check merged meanwhile
			}
			wb.now = next
			out[n] = moved{From: s.fp.Hash, To: next.fp.Hash}
			if changed {
				record = true
				w.log.Info("the build wrote files of the bot's fingerprint: the bot is as the build left it, which plan.json records",
					"bot", n, "built", name, "match", m.ID, "changed", shortList(c.Changed), "removed", shortList(c.Removed))
			}
			break
		}
	}
	if !record {
		return out, nil
	}
	return out, w.record()
}

// covered are the paths of the files bot b's fingerprint covers, as
// plan.json records it now (b's own, as the plan gives it, without a
// watch).
func (w *watch) covered(b *plan.Bot) map[string]bool {
	fp := b.Fingerprint
	if w != nil {
		w.mu.Lock()
		if rb := w.recorded.Bot(b.Name); rb != nil {
			fp = rb.Fingerprint
		}
		w.mu.Unlock()
	}
	out := map[string]bool{}
	if fp != nil {
		for _, f := range fp.Files {
			out[f.Path] = true
		}
	}
	return out
}

// moved is a bot's hash before a build and after it.
type moved struct{ From, To string }

// sharing is bot name and the bots whose folder holds its folder or is
// held by it, by name; w.mu is held.
func (w *watch) sharing(name string) []string {
	dir := realDir(w.bots[name].now.fp.Dir)
	var names []string
	for n, wb := range w.bots {
		if d := realDir(wb.now.fp.Dir); n == name || wb.now.fp.Dir != "" && (drivers.Within(d, dir) || drivers.Within(dir, d)) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// sharingWith is bot name and the bots whose folder holds its folder or
// is held by it, by name; only name for a bot not watched.
func (w *watch) sharingWith(name string) []string {
	if w == nil || w.bots[name] == nil {
		return []string{name}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sharing(name)
}

// realDir is dir with its links resolved, as far as they resolve.
func realDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
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
