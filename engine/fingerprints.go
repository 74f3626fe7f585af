package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
)

// ChangesFile records, in a results directory, every change of a bot or of
// arbiter's build that a run was allowed to go on with (-allow-changed-bots),
// one JSON line per run.
const ChangesFile = "changes.jsonl"

// BotChange is how one bot, or arbiter's build (Bot ""), differs from what
// a results directory recorded.
type BotChange struct {
	Bot  string `json:"bot,omitempty"`
	From string `json:"from"`
	To   string `json:"to"`
	// Changed and Removed are files of the bot's fingerprint whose mode or
	// content differ now, or that are gone (or a directory now).
	Changed []string `json:"changed,omitempty"`
	Removed []string `json:"removed,omitempty"`
	// Missing is the directory the bot would run in now when it is not
	// there at all (moved or removed); Removed still lists its files.
	Missing string `json:"missing,omitempty"`
	// Runs is set when the bot runs another program than recorded in
	// place of the one its command names (plan.Fingerprint.Program): a
	// version manager's shim chooses another interpreter now.
	Runs *ProgramChange `json:"runs,omitempty"`
	// Resolves is set when the program its command names (a word looked
	// up on PATH) resolves to another file than recorded: PATH differs,
	// or a file on it came or went. Runs is then set too when what runs
	// in the program's place differs, and String says both in one.
	Resolves *Resolution `json:"resolves,omitempty"`
	// Unused are files of the recorded fingerprint that are still there
	// but no longer part of the bot's: outside its folder, a file its
	// command no longer uses (but the one its program resolved to, which
	// Resolves names); in its folder, one a rule leaves out now (see the
	// fingerprint's skipped list). Neither is removed.
	Unused []string `json:"unused,omitempty"`
	// Added are files new since a saved plan was compiled (SincePlan),
	// which its fingerprint does not cover: a file of the bot's folder
	// can change what plays (a Python bot imports random.py from its
	// folder before the standard library's).
	Added []string `json:"added,omitempty"`
}

// ProgramChange is the program a bot ran (From) and runs now (To) in
// place of the one its command names; "" for the command's own.
type ProgramChange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (r ProgramChange) String() string {
	switch {
	case r.From == "":
		return fmt.Sprintf("runs %s, which its recorded fingerprint did not name (recorded by an arbiter that hashed only the shim its command names)", r.To)
	case r.To == "":
		return fmt.Sprintf("runs the program its command names, was %s", r.From)
	}
	return fmt.Sprintf("runs %s, was %s", r.To, r.From)
}

// Resolution is the file that the program a bot's command names resolved
// to on PATH (From) and resolves to now (To), each an absolute path, or
// a path relative to the bot's folder for a file of it, and for each the
// program a version manager's shim ran in its place, or runs now ("" for
// none: the file itself runs).
type Resolution struct {
	Name     string `json:"name"`
	From     string `json:"from"`
	To       string `json:"to"`
	FromRuns string `json:"from_runs,omitempty"`
	ToRuns   string `json:"to_runs,omitempty"`
}

func (r Resolution) String() string {
	to, from := ownFile(r.To), ownFile(r.From)
	if r.ToRuns != "" {
		to += fmt.Sprintf(" (a version manager's shim, which runs %s)", r.ToRuns)
	}
	if r.FromRuns != "" {
		from += fmt.Sprintf(" (a version manager's shim, which ran %s)", r.FromRuns)
	}
	return fmt.Sprintf("%s, the program its command names, now resolves on PATH to %s, was %s: PATH differs, or a file on it came or went", r.Name, to, from)
}

// ownFile says which file path of a Resolution is: an absolute path as
// it is, one relative to the bot's folder as the bot's own.
func ownFile(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return "the bot's own " + path + " (in its folder)"
}

// BotMove is a bot whose files are the ones recorded, in another
// directory: the configuration's folder (or a saved plan's -root) moved.
type BotMove struct {
	Bot string `json:"bot"`
	// From and To are the directories it ran in before and runs in now.
	From string `json:"from"`
	To   string `json:"to"`
}

// String says what changed in a few words.
func (c BotChange) String() string {
	if c.Bot == "" {
		return fmt.Sprintf("arbiter's build changed (it referees every match and plays the house bots): was %s, is %s", c.From, c.To)
	}
	var parts []string
	if c.Missing != "" {
		// Its files in the folder are all gone: not listed one by one.
		parts = append(parts, fmt.Sprintf("its folder %s is not there (moved or removed?), nor any of its files", c.Missing))
	}
	switch {
	case c.Resolves != nil:
		parts = append(parts, c.Resolves.String())
	case c.Runs != nil:
		parts = append(parts, c.Runs.String())
	}
	if len(c.Changed) > 0 {
		parts = append(parts, "changed "+shortList(c.Changed))
	}
	if len(c.Removed) > 0 && c.Missing == "" {
		parts = append(parts, "removed "+shortList(c.Removed))
	}
	if len(c.Added) > 0 {
		parts = append(parts, "added "+shortList(c.Added))
	}
	if outside, in := c.unused(); len(outside) > 0 || len(in) > 0 {
		parts = append(parts, unusedPhrase(outside, in))
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("was %s, is %s", c.From, c.To))
	}
	return fmt.Sprintf("bot %q: %s", c.Bot, strings.Join(parts, "; "))
}

// unused splits c.Unused into the files outside the bot's folder
// (absolute paths) and those in it.
func (c BotChange) unused() (outside, in []string) {
	for _, f := range c.Unused {
		if filepath.IsAbs(f) {
			outside = append(outside, f)
		} else {
			in = append(in, f)
		}
	}
	return outside, in
}

func unusedPhrase(outside, in []string) string {
	var parts []string
	if len(outside) > 0 {
		parts = append(parts, "no longer uses "+shortList(outside)+" (still there)")
	}
	if len(in) > 0 {
		parts = append(parts, "no longer hashes "+shortList(in)+" (still there, left out now)")
	}
	return strings.Join(parts, "; ")
}

func shortList(names []string) string {
	const most = 5
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

// ChangedError refuses to add results of changed bots to a results
// directory.
type ChangedError struct {
	Dir     string
	Changes []BotChange
	// Replay: the refusal is of a replay, which records nothing in Dir.
	Replay bool
	// Shard is set when Dir is a shard's (its shard.json): its results
	// of two versions would not merge, -allow-changed-bots or not.
	Shard *Shard
}

func (e *ChangedError) Error() string {
	var b strings.Builder
	if e.Replay {
		fmt.Fprintf(&b, "the bots or arbiter changed since %s was run, so a replay would not play its matches again:\n", e.Dir)
	} else {
		fmt.Fprintf(&b, "the bots or arbiter changed since %s was run, so its results would mix two versions:\n", e.Dir)
	}
	for _, c := range e.Changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	if e.missing() {
		// A replay refuses a missing folder before (botDirsThere).
		b.WriteString("A bot without its folder cannot play, -allow-changed-bots or not. If the folder moved, run the configuration where it is now, " +
			"or the saved plan with -root, the directory that holds the configuration now; or restore the folder")
		return b.String()
	}
	if e.Replay {
		b.WriteString("Restore them, or give -allow-changed-bots to replay with the bots as they are now")
		return b.String()
	}

	if e.Shard != nil {
		b.WriteString(shardChangedAdvice(e.Dir, *e.Shard))
		return b.String()
	}
	fmt.Fprintf(&b, "Restore them, use another -out directory, or give -allow-changed-bots to go on and record the change in %s",
		filepath.Join(e.Dir, ChangesFile))
	return b.String()
}

// shardChangedAdvice is how to go on when the bots changed since the
// shard sh in dir played some of its matches: its results of the other
// files stay in it, so the merge would refuse it (foreignFingerprint,
// sameShardPlan) with -allow-changed-bots too, which a shard is not
// given for such a change.
func shardChangedAdvice(dir string, sh Shard) string {
	return fmt.Sprintf("%s holds %s, whose results were played with the bots as its plan.json records them, and the merge takes a shard's results only "+
		"when all of them, and every other shard's, were played with the same files (-allow-changed-bots does not go on here: the shard would hold results of both versions). "+
		"Restore the bots as they were and run the shard again (as its Slurm job does when submitted again): it resumes; "+
		"or, to play the bots as they are now, run the stage's every shard again, each into a new -out directory, and merge those into a new -out directory",
		dir, sh)
}

// missing says whether a bot's folder is not there at all.
func (e *ChangedError) missing() bool {
	return slices.ContainsFunc(e.Changes, func(c BotChange) bool { return c.Missing != "" })
}

// CompareFingerprints compares the fingerprints that recorded holds with
// those of now, the same plan fingerprinted afresh. It returns now with
// the fingerprints to go on with, the changes, and per bot the files that
// are new since the fingerprint was recorded.
//
// New files are not part of a recorded fingerprint: a bot runs in its
// directory and may write there (logs, caches, compiled modules), and
// that must not make the next run refuse. So once recorded, a bot's
// fingerprint covers the files recorded then: one of them changed or
// removed is a change; a file added is noted, not compared. A recorded
// file that is now left out by rule (the configuration's files and saved
// plans, which an older arbiter hashed when it ran a saved plan) is still
// compared, so that such a results directory goes on as it was.
func CompareFingerprints(recorded, now *plan.Plan) (*plan.Plan, []BotChange, map[string][]string) {
	out := *now
	out.Bots = slices.Clone(now.Bots)
	var changes []BotChange
	if recorded.Arbiter != nil && now.Arbiter != nil && *recorded.Arbiter != *now.Arbiter {
		changes = append(changes, BotChange{From: recorded.Arbiter.ID(), To: now.Arbiter.ID()})
	}
	added := map[string][]string{}
	for i := range out.Bots {
		b := &out.Bots[i]
		old := recorded.Bot(b.Name)
		if old == nil || old.Fingerprint == nil || b.Fingerprint == nil {
			continue
		}
		if b.House != "" {
			continue // a house bot changes with arbiter's build, reported above
		}
		fp, c, add := compareBot(old.Fingerprint, b.Fingerprint, pathWord(b.Command))
		b.Fingerprint = fp
		if fp.Hash != old.Fingerprint.Hash {
			c.Bot = b.Name
			changes = append(changes, c)
		}
		if len(add) > 0 {
			added[b.Name] = add
		}
	}
	return &out, changes, added
}

// pathWord is the program command names when it is looked up on PATH
// (a word without a slash), or "".
func pathWord(command []string) string {
	if len(command) == 0 || command[0] == "" || strings.ContainsRune(command[0], '/') {
		return ""
	}
	return command[0]
}

// resolved is the file that fp records the program name (pathWord) as
// resolved to on PATH, or "" for none: the file of the bot's folder it
// names (plan.Fingerprint.Resolved), else its file outside the bot's
// folder by that name that is not the program run in its place (a shim's
// interpreter), as a fingerprint recorded before Resolved says it.
func resolved(fp *plan.Fingerprint, name string) string {
	if name == "" {
		return ""
	}
	if fp.Resolved != "" {
		return fp.Resolved
	}
	for _, f := range fp.Files {
		if filepath.IsAbs(f.Path) && filepath.Base(f.Path) == name && f.Path != fp.Program {
			return f.Path
		}
	}
	return ""
}

// compareBot compares one bot's fingerprints: the one to go on with covers
// the recorded files as they are now, and the program the bot runs now
// (plan.Fingerprint.Program) in place of the one it ran, and the file
// the program its command names resolves to now (name, a word looked up
// on PATH: pathWord) in place of the one it resolved to.
func compareBot(old, now *plan.Fingerprint, name string) (*plan.Fingerprint, BotChange, []string) {
	c := BotChange{From: short(old.Hash)}
	current := map[string]plan.FileSum{}
	for _, f := range now.Files {
		current[f.Path] = f
	}
	fp := *now
	fp.Files = nil
	// Another program run, or another file resolved to, is a change
	// whatever its file holds; the file of the one it ran is no longer
	// the bot's (unless it still is otherwise), the one it runs now is.
	runsNow := map[string]bool{}
	if old.Program != now.Program {
		c.Runs = &ProgramChange{From: old.Program, To: now.Program}
		runsNow[now.Program] = true
	}
	c.Resolves = resolution(old, now, name)
	if c.Resolves != nil {
		runsNow[c.Resolves.To] = true
	} else if resolved(old, name) == "" {
		// Recorded without saying where it resolved (before Resolved,
		// or not found then): goes on as recorded, as a new file does.
		fp.Resolved = ""
	}
	recorded := map[string]bool{}
	for _, f := range old.Files {
		if _, kept := current[f.Path]; !kept && replaced(f.Path, old.Program, c) {
			continue // Runs or Resolves names it (one gone is removed too)
		}
		recorded[f.Path] = true
		g, ok := current[f.Path]
		if path, left := now.LeftOut[f.Path]; !ok && left {
			// Recorded by an arbiter that hashed the configuration's
			// files and saved plans: the directory goes on comparing it.
			g, ok = fingerprint.File(path, f.Path)
		}
		switch {
		case !ok && stillThere(f.Path, now.Dir):
			c.Unused = append(c.Unused, f.Path)
			continue
		case !ok:
			c.Removed = append(c.Removed, f.Path)
			continue
		case g != f:
			c.Changed = append(c.Changed, f.Path)
		}
		fp.Files = append(fp.Files, g)
	}
	var added []string
	for _, f := range now.Files {
		switch {
		case recorded[f.Path]:
		case runsNow[f.Path]:
			fp.Files = append(fp.Files, f)
		default:
			added = append(added, f.Path)
		}
	}
	fp.Hash = fingerprint.Hash(&fp)
	c.To = short(fp.Hash)
	if len(c.Removed) > 0 && now.Dir != "" {
		if _, err := os.Stat(now.Dir); errors.Is(err, fs.ErrNotExist) {
			c.Missing = now.Dir
		}
	}
	return &fp, c, added
}

// resolution is the change of the file that the program name (pathWord)
// resolves to on PATH from old to now, or nil when it is the same one, or
// when either does not say.
func resolution(old, now *plan.Fingerprint, name string) *Resolution {
	from, to := resolved(old, name), resolved(now, name)
	if from == "" || to == "" || from == to {
		return nil
	}
	return &Resolution{Name: name, From: from, To: to, FromRuns: old.Program, ToRuns: now.Program}
}

// replaced says whether the recorded file path, which the bot's files no
// longer hold, is one that change c names in place of another: the
// program run in place of the command's (program) when it runs another
// now, and the file the command's program resolved to when that is
// another now and the old one is still there (one gone is removed).
func replaced(path, program string, c BotChange) bool {
	if c.Runs != nil && path == program {
		return true
	}
	return c.Resolves != nil && path == c.Resolves.From && filepath.IsAbs(path) && stillThere(path, "")
}

// stillThere says whether the recorded file path (absolute, or relative
// to the bot's folder dir) is there now, still a file (or a link, as a
// fingerprint records one): a directory in its place replaced it.
func stillThere(path, dir string) bool {
	if !filepath.IsAbs(path) {
		if dir == "" {
			return false
		}
		path = filepath.Join(dir, filepath.FromSlash(path))
	}
	fi, err := os.Lstat(path)
	return err == nil && !fi.IsDir()
}

// moves are the bots of now whose files are those recorded but in
// another directory than recorded says: not a change of the bot, but
// plan.json must say where its files are now, so that replay finds them.
// A directory reached by another path (a link) is the same one.
func moves(recorded, now *plan.Plan) []BotMove {
	var out []BotMove
	for i := range now.Bots {
		b := &now.Bots[i]
		old := recorded.Bot(b.Name)
		if b.House != "" || old == nil || old.Fingerprint == nil || b.Fingerprint == nil || old.Fingerprint.Dir == "" {
			continue
		}
		from, to := old.Fingerprint, b.Fingerprint
		if from.Dir == to.Dir && (from.Root == "" || from.Root == to.Root) {
			continue
		}
		if sameDir(from.Dir, to.Dir) && (from.Root == "" || sameDir(from.Root, to.Root)) {
			continue
		}
		out = append(out, BotMove{Bot: b.Name, From: from.Dir, To: to.Dir})
	}
	return out
}

// sameDir says whether a and b are the same existing directory.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

func short(hash string) string {
	if len(hash) > len("sha256:")+12 {
		return hash[:len("sha256:")+12]
	}
	return hash
}

// changeRecord is one line of changes.jsonl.
type changeRecord struct {
	Time string `json:"time"`
	// Results is how many results the directory held before the change.
	Results int         `json:"results_before"`
	Changes []BotChange `json:"changes,omitempty"`
	// Moved are the bots found in another directory, with their files
	// as recorded.
	Moved []BotMove `json:"moved,omitempty"`
	// Match is set for a change seen during a run (see watch): the match
	// about to start, or just ended, when it was seen.
	Match string `json:"match,omitempty"`
	// Plan is set for a change since a saved plan was compiled (see
	// RecordCompiledChanges): the plan file that recorded the bots as
	// they were.
	Plan string `json:"plan,omitempty"`
}

// RecordCompiledChanges appends to the results directory dir's
// changes.jsonl the changes of the bots, and of arbiter's build, since
// the saved plan planPath was compiled, which a run of it was allowed to
// go on with (-allow-changed-bots): the matches it plays are not those
// of the plan reviewed, and rank and report say so (ReadChanges), also
// when no result came before.
func RecordCompiledChanges(dir, planPath string, changes []BotChange) error {
	results, _, err := readRaw(filepath.Join(dir, ResultsFile))
	if err != nil {
		return err
	}
	return appendChanges(dir, changeRecord{Time: time.Now().UTC().Format(time.RFC3339), Results: len(results), Changes: changes, Plan: planPath})
}

// byBuild splits files, new files of bot's folder, into those its builds
// made (BuildRecord.Made, kept in the results directory dir) and the
// others.
func byBuild(dir, bot string, files []string) (made, other []string) {
	rec, _ := readBuildRecord(dir, bot)
	for _, f := range files {
		if rec != nil && slices.Contains(rec.Made, f) {
			made = append(made, f)
		} else {
			other = append(other, f)
		}
	}
	return made, other
}

// reconcileBots compares the bots and build of p with those recorded in
// the results directory dir, whose plan.json openJournal has checked or
// written. It returns the plan to run: p with the fingerprints to go on
// with. Changes are refused unless allow; allowed, they are logged,
// appended to changes.jsonl and written to plan.json. taken is called
// once the bots as they are now are taken, before plan.json records them:
// the run records then the changes since its saved plan was compiled
// (Runner.recordSincePlan), which a refusal here must not leave.
func reconcileBots(dir string, p *plan.Plan, allow bool, results int, log hclog.Logger, taken func() error) (*plan.Plan, error) {
	if p.Arbiter == nil {
		return p, taken() // a plan without fingerprints: nothing to compare
	}
	planPath := filepath.Join(dir, PlanFile)
	b, err := os.ReadFile(planPath)
	if err != nil {
		return nil, err
	}
	// Only what fingerprints are about: a plan's matches may be many.
	var recorded plan.Plan
	var part struct {
		Arbiter *plan.Arbiter `json:"arbiter"`
		Bots    []plan.Bot    `json:"bots"`
	}
	if err := json.Unmarshal(b, &part); err != nil {
		return nil, fmt.Errorf("%s: %w", planPath, err)
	}
	recorded.Arbiter, recorded.Bots = part.Arbiter, part.Bots
	if recorded.Arbiter == nil {
		log.Info("fingerprints recorded for the first time: the results before this run were made by an arbiter that did not record them", "results", results)
		if err := taken(); err != nil {
			return nil, err
		}
		return p, writeFileAtomic(planPath, mustIndent(p))
	}
	now, changes, added := CompareFingerprints(&recorded, p)
	for _, bot := range sortedKeys(added) {
		made, other := byBuild(dir, bot, added[bot])
		if len(made) > 0 {
			log.Info("files the bot's build made are new since its fingerprint was recorded, so not part of it, as a build's files never are",
				"bot", bot, "files", shortList(made))
		}
		if len(other) > 0 {
			log.Info("files new since the bot's fingerprint was recorded are not part of it (written by the bot, or added by hand)",
				"bot", bot, "files", shortList(other))
		}
	}
	moved := moves(&recorded, now)
	if len(changes) == 0 && len(moved) == 0 {
		return now, taken()
	}
	sh, err := readShardRecord(dir)
	if err != nil {
		return nil, err
	}
	if sh != nil && results > 0 {
		allow = false // see shardChangedAdvice
	}
	if ce := (&ChangedError{Dir: dir, Changes: changes, Shard: sh}); len(changes) > 0 && !allow || ce.missing() {
		// A bot without its folder would only fault at every start.
		return nil, ce
	}
	for _, c := range changes {
		log.Warn("changed since the results directory was run; going on (-allow-changed-bots)", "change", c.String())
	}
	for _, mv := range moved {
		log.Info("the bot's files are in another directory than when the results directory was run; plan.json records where they are now",
			"bot", mv.Bot, "was", mv.From, "is", mv.To)
	}
	if err := appendChanges(dir, changeRecord{Time: time.Now().UTC().Format(time.RFC3339), Results: results, Changes: changes, Moved: moved}); err != nil {
		return nil, err
	}
	if err := taken(); err != nil {
		return nil, err
	}
	return now, writeFileAtomic(planPath, mustIndent(now))
}

// appendChanges appends rec to dir's changes.jsonl, synced.
func appendChanges(dir string, rec changeRecord) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, ChangesFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		// A resume of another user's (root's, with another build)
		// may have begun the file.
		return OwnerHint(err)
	}
	if err := atomicfile.AppendLine(f, append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ChangeNote says that a bot of a results directory, or arbiter's build
// (Bot ""), changed after some of its results were recorded, as
// changes.jsonl records it (a run given -allow-changed-bots): the
// standings then count matches of two versions of it.
type ChangeNote struct {
	Bot string `json:"bot,omitempty"`
	// After is how many results the directory held before the change.
	After int    `json:"after"`
	From  string `json:"from"`
	To    string `json:"to"`
	// Match is set for a change seen while a run went on: the match about
	// to start, or just ended, when it was seen.
	Match string `json:"match,omitempty"`
	// Plan is set for a change since the saved plan it names was
	// compiled: the run played the bot as it is now, not as the plan
	// reviewed recorded it.
	Plan string `json:"plan,omitempty"`
}

func (n ChangeNote) String() string {
	who := fmt.Sprintf("bot %q", n.Bot)
	if n.Bot == "" {
		who = "arbiter's build (the referee and the house bots)"
	}
	if n.Plan != "" {
		s := fmt.Sprintf("%s changed since the saved plan %s was compiled", who, n.Plan)
		if n.After > 0 {
			s += fmt.Sprintf(", after %d result(s)", n.After)
		}
		return s + fmt.Sprintf(", from %s to %s", n.From, n.To)
	}
	s := fmt.Sprintf("%s changed after %d result(s)", who, n.After)
	if n.Match != "" {
		s += fmt.Sprintf(", while a run went on (seen at match %s)", n.Match)
	}
	return s + fmt.Sprintf(", from %s to %s", n.From, n.To)
}

// Meaning says what the change means for the standings.
func (n ChangeNote) Meaning() string {
	if n.Plan != "" && n.After == 0 {
		return "its matches played it as it is now, not as the plan recorded it"
	}
	return "the standings count the matches of both versions"
}

// ReadChanges lists the changes of dir's changes.jsonl that came after
// some results: those with none before them mixed nothing. None when
// there is no such file. A change since a saved plan was compiled is
// listed also when no result came before it: the results are not of the
// plan's bots.
func ReadChanges(dir string) ([]ChangeNote, error) {
	path := filepath.Join(dir, ChangesFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ChangeNote
	// A change is recorded before plan.json says the bot is as it is now
	// (see watch.changed): killed in between, the next run records the
	// same change again. It is the same when the bot's change before it
	// was that one too: a bot changed again changes from what it became.
	// A change since a saved plan was compiled is compared with the last
	// of those, and a resume's with the last of the others: a resume of a
	// saved plan records one of each before plan.json, so killed after
	// both, the next run records the two again, one after the other.
	type track struct {
		bot      string
		compiled bool
	}
	last := map[track]BotChange{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var rec changeRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		for _, c := range rec.Changes {
			k := track{c.Bot, rec.Plan != ""}
			again := last[k].From == c.From && last[k].To == c.To
			last[k] = c
			if (rec.Results > 0 || rec.Plan != "") && !again {
				out = append(out, ChangeNote{Bot: c.Bot, After: rec.Results, From: c.From, To: c.To, Match: rec.Match, Plan: rec.Plan})
			}
		}
	}
	return out, nil
}
