package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// Result is one line of results.jsonl: a finished match (see stats.Result).
type Result = stats.Result

// SeatResult is one seat of a finished match.
type SeatResult = stats.SeatResult

// Files of a results directory.
const (
	PlanFile    = "plan.json"
	ResultsFile = "results.jsonl"
	LogFile     = "arbiter.log"
	MatchesDir  = "matches"
)

// journal is the results directory of one plan: plan.json, and
// results.jsonl to which every finished match is appended as one line,
// synced to disk before the match counts as done.
type journal struct {
	dir string
	mu  sync.Mutex
	f   *os.File
	// torn is the failed Append that left a torn line it could not cut
	// off: no result is appended after it (see Append).
	torn error
}

// CheckPlanDir refuses a directory whose plan.json is not plan p's (by
// hash), saying what differs (DifferentPlan); known says dir has p's
// plan.json already, false when it has none. again says how to carry on
// with dir's plan instead (nil: not said).
func CheckPlanDir(dir string, p *plan.Plan, again Again) (known bool, err error) {
	planPath := filepath.Join(dir, PlanFile)
	// One the user may not read (root's, of 0600) says so, and whose it
	// is, as ReadPlan does (readPlanFile).
	b, err := readPlanFile(dir, func(err error) error { return err })
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var old struct {
		Hash       string `json:"hash"`
		Tournament string `json:"tournament"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return false, fmt.Errorf("%s is not a plan (%v); choose another -out directory", planPath, err)
	}
	if old.Hash != p.Hash {
		return false, DifferentPlan(dir, b, p, again)
	}
	return true, nil
}

// shownDiffs is how many differences a refusal of another plan lists.
const shownDiffs = 8

// DifferentPlan is the refusal of results directory dir, whose plan.json
// holds raw, the plan of other results, to plan p: it names both, lists
// what differs (DiffLines), and says how to carry on with the plan dir's
// results belong to: give its plan.json in place of p (again, the
// command that does, when not nil).
func DifferentPlan(dir string, raw []byte, p *plan.Plan, again Again) error {
	var old plan.Plan
	var saved *plan.Plan // old, when it reads
	var b strings.Builder
	if err := json.Unmarshal(raw, &old); err != nil {
		var head struct {
			Hash       string `json:"hash"`
			Tournament string `json:"tournament"`
		}
		_ = json.Unmarshal(raw, &head)
		fmt.Fprintf(&b, "%s holds results of a different plan (tournament %q, hash %.12s; this plan is %q, hash %.12s), "+
			"whose %s this arbiter cannot compare with this plan (%v)", dir, head.Tournament, head.Hash, p.Tournament, p.Hash, PlanFile, err)
	} else {
		saved = &old
		fmt.Fprintf(&b, "%s holds results of a different plan (tournament %q, hash %.12s; this plan is %q, hash %.12s)",
			dir, old.Tournament, old.Hash, p.Tournament, p.Hash)
		b.WriteString(DiffLines(&old, p, filepath.Join(dir, PlanFile), "this plan"))
	}
	fmt.Fprintf(&b, "\nTo carry on with the plan of those results, give its saved plan, %s, in place of this one", filepath.Join(dir, PlanFile))
	if again != nil {
		fmt.Fprintf(&b, " (%s)", again(filepath.Join(dir, PlanFile), saved))
	}
	fmt.Fprintf(&b, ". Otherwise use another directory, or remove %s to start over", dir)
	return errors.New(b.String())
}

// Again is the command line that carries on with the saved plan at
// planPath, for a refusal of another plan's directory (DifferentPlan);
// saved is that plan as read there (nil when it does not read).
type Again func(planPath string, saved *plan.Plan) string

// RunAgain is `arbiter run` of a saved plan into out, with its bots'
// dirs relative to root ("" to leave -root out; CarryRoot when it would
// not hold them) and flags, each word quoted for the shell when it needs
// to be, so that it can be pasted.
func RunAgain(out, root string, flags ...string) Again {
	return func(planPath string, saved *plan.Plan) string {
		args := []string{"arbiter", "run", planPath}
		if root := CarryRoot(saved, root, planPath); root != "" {
			args = append(args, "-root", root)
		}
		args = append(args, flags...)
		return shell.Line(append(args, "-out", out)...)
	}
}

// CarryRoot is the -root to run the saved plan at planPath, saved, with:
// root, this run's, where it holds the saved plan's bots ("": the plan
// file's directory, -root's default), else the root its bots were
// compiled in, as its fingerprints record it (SavedRoot). The saved plan
// may come from another configuration folder than this run's, whose
// -root would then find none of its bots' files.
//
// A root whose bots' folders hold the files by name, but not as the
// fingerprints record them (another copy of the configuration folder,
// edited since), would have the plan refused as changed since it was
// compiled: the recorded root is taken instead when its files are the
// recorded ones.
func CarryRoot(saved *plan.Plan, root, planPath string) string {
	here := root
	if here == "" {
		here = filepath.Dir(planPath)
	}
	if saved == nil {
		return root
	}
	rec, err := saved.BotRoot()
	known := err == nil && rec != ""
	if !saved.RunsIn(here) {
		if known {
			return rec
		}
		return root
	}
	if known && !sameDir(rec, here) && !holdsRecorded(saved, here) && saved.RunsIn(rec) && holdsRecorded(saved, rec) {
		return rec
	}
	return root
}

// holdsRecorded says whether the folders of p's bots with relative dirs,
// under root, hold the files their fingerprints record relative to them
// as recorded (content, mode, link), the way a resume compares them
// (rehash).
func holdsRecorded(p *plan.Plan, root string) bool {
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" || b.Fingerprint == nil || filepath.IsAbs(filepath.FromSlash(b.Dir)) {
			continue
		}
		dir := b.DirIn(root)
		for _, f := range b.Fingerprint.Files {
			if filepath.IsAbs(f.Path) {
				continue
			}
			if now, ok := rehash(filepath.Join(dir, filepath.FromSlash(f.Path)), f); !ok || now != f {
				return false
			}
		}
	}
	return true
}

// DiffLines is what differs from plan old (called from) to plan p
// (called to), as indented lines after a colon, the first shownDiffs of
// them and how many more.
func DiffLines(old, p *plan.Plan, from, to string) string {
	diffs := plan.Diff(old, p)
	if len(diffs) == 0 {
		return ": they differ in their hashes only (another plan format?)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, ". What differs, from %s to %s:", from, to)
	for i, d := range diffs {
		if i == shownDiffs {
			fmt.Fprintf(&b, "\n  and %d more", len(diffs)-shownDiffs)
			break
		}
		b.WriteString("\n  " + d)
	}
	return b.String()
}

// openJournal opens dir for plan p, creating it if needed; the caller
// holds dir's lock. A directory that holds another plan's results, or
// results without a plan.json, is refused. It returns the results
// already there; a torn last line (the arbiter was killed while writing
// it) is cut off, so that match runs again.
func openJournal(dir string, p *plan.Plan, root string) (*journal, []Result, error) {
	if err := mkdirResults(dir); err != nil {
		return nil, nil, err
	}
	planPath := filepath.Join(dir, PlanFile)
	if known, err := CheckPlanDir(dir, p, RunAgain(dir, root)); err != nil {
		return nil, nil, err
	} else if !known {
		if err := orphanResults(dir); err != nil {
			return nil, nil, err
		}
		if err := writeFileAtomic(planPath, mustIndent(p)); err != nil {
			return nil, nil, err
		}
	}

	resultsPath := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(resultsPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		// The results a run of another user's (root's) wrote.
		return nil, nil, OwnerHint(err)
	}
	results, good, err := readResults(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", resultsPath, err)
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &journal{dir: dir, f: f}, results, nil
}

// StartPlanDir writes plan p's plan.json into the results directory dir
// when it has none, right after its caller took dir's lock (LockDir) and
// fingerprinted the bots: so the directory is a results directory by its
// plan from its first moments, before its log, shard record or pairings,
// and a run killed then leaves one that another run's fingerprints know
// as arbiter's. A directory that holds results but no plan.json is left
// as it is, for the run to refuse (openJournal), and so is a merge's
// that has its mark but no plan.json yet (a merge killed between the
// two), for the run to refuse (PrepareRun, PrepareShard): the next merge
// would find a plan.json there that it did not write.
//
// Before it writes plan.json, it records since's changes since the saved
// plan was compiled (SincePlan.Changes; since may be nil), and leaves
// them nil: killed in between, the directory holds no plan that plays
// the bots as changed without a note (the next run finds the same change
// and records it again, noted once). A directory that holds a plan.json
// already is resumed: Run records them once the resume's comparison took
// the bots as they are now, which may refuse them.
func StartPlanDir(dir string, p *plan.Plan, since *SincePlan) error {
	planPath := filepath.Join(dir, PlanFile)
	if _, err := os.Lstat(planPath); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if orphanResults(dir) != nil {
		return nil
	}
	if merge, _ := IsMergeDir(dir); merge {
		return nil
	}
	if since != nil && len(since.Changes) > 0 {
		if err := RecordCompiledChanges(dir, since.Plan, since.Changes); err != nil {
			return err
		}
		since.Changes = nil
	}
	return writeFileAtomic(planPath, mustIndent(p))
}

// readResults reads complete lines; it returns the offset after the last
// good one. Only the last line may be torn; a bad line in the middle is an
// error, because results must never be silently dropped.
func readResults(r io.Reader) ([]Result, int64, error) {
	var results []Result
	var good int64
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			var res Result
			if jerr := json.Unmarshal(bytes.TrimSpace(b), &res); jerr != nil {
				if _, peek := br.Peek(1); peek == io.EOF {
					return results, good, nil // torn last line
				}
				return nil, 0, fmt.Errorf("line %d is not a result: %v", line, jerr)
			}
			results = append(results, res)
			good += int64(len(b))
		}
		if err == io.EOF {
			return results, good, nil // a last line without newline is torn
		}
		if err != nil {
			return nil, 0, err
		}
	}
}

// Append writes one result and syncs it to disk (atomicfile.AppendLine: a line the
// disk cannot take whole is cut off again, so that a reader while the run
// stops, rank or a script, is not left a torn line, and the line of a
// match that finishes after room came back is not glued to it, which
// would make a bad line in the middle that a resume refuses).
func (j *journal) Append(r *Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.torn != nil {
		// Glued to the torn line, it would make a bad line, which the
		// resume refuses once another follows: it plays again instead.
		return fmt.Errorf("not appended after the torn line: %w", j.torn)
	}
	if err := atomicfile.AppendLine(j.f, append(b, '\n')); err != nil {
		if errors.As(err, new(*atomicfile.TornError)) {
			j.torn = err
		}
		return err
	}
	return j.f.Sync()
}

func (j *journal) Close() error { return j.f.Close() }

// orphanResults refuses a directory that holds results but no plan.json
// (it was removed, or the results were copied in): nothing says which
// plan they belong to, and adopting them would mix another plan's
// matches, another seed's say, into this one.
func orphanResults(dir string) error {
	path := filepath.Join(dir, ResultsFile)
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s holds results but %s has no %s, so nothing says which plan they belong to. "+
		"Put back the %s they were written with, or use another -out directory (or move %s away) to start over",
		path, dir, PlanFile, PlanFile, ResultsFile)
}

// checkResults refuses results that are not p's: a match p does not
// know, a match twice, a match with another seed or other bots than p
// gives it. results[i] is line i+1 of path: readResults keeps no line
// after a bad one.
func checkResults(p *plan.Plan, results []Result, path string) error {
	matches := make(map[string]*plan.Match, len(p.Matches))
	for i := range p.Matches {
		matches[p.Matches[i].ID] = &p.Matches[i]
	}
	const redo = "; these results do not belong to this plan (a copied or edited file?). Use another results directory, or remove this one to start over"
	first := map[string]int{}
	for i := range results {
		r, line := &results[i], i+1
		m := matches[r.Match]
		if m == nil {
			if err := unmadeStage(p, results, path, line, r.Match); err != nil {
				return err
			}
			return fmt.Errorf("%s, line %d: match %q is not in the plan%s", path, line, r.Match, redo)
		}
		if f, ok := first[r.Match]; ok {
			return fmt.Errorf("%s, line %d: match %q has a result already on line %d; a match has one result%s",
				path, line, r.Match, f, redo)
		}
		first[r.Match] = line
		if r.Seed != m.Seed {
			return fmt.Errorf("%s, line %d: match %q was played with seed %d, but the plan gives it seed %d%s",
				path, line, r.Match, r.Seed, m.Seed, redo)
		}
		bots := make([]string, len(r.Seats))
		for k, s := range r.Seats {
			bots[k] = s.Bot
		}
		if !slices.Equal(bots, m.Seats) {
			return fmt.Errorf("%s, line %d: match %q was played by %s, but the plan seats %s%s",
				path, line, r.Match, strings.Join(bots, ", "), strings.Join(m.Seats, ", "), redo)
		}
	}
	return nil
}

// unmadeStage explains a result of match id, on line of path, that p does
// not know because it is a match of a later stage that p does not hold:
// its file in rounds/ is missing and the stage could not be made again.
// It returns nil when id is not such a match.
func unmadeStage(p *plan.Plan, results []Result, path string, line int, id string) error {
	if err := unmadePlayoff(p, results, path, line, id); err != nil {
		return err
	}
	k := stageOfID(p, id)
	if k < p.ListedStages() {
		return nil
	}
	name := p.Stages[k].Name
	for _, m := range p.Matches {
		if m.Stage == name {
			return nil // the stage is made: id is not one of its matches
		}
	}
	file := filepath.Join(filepath.Dir(path), RoundsDir, stages.FileName(name))
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	for _, m := range p.Matches {
		if !done[m.ID] {
			return fmt.Errorf("%s, line %d: match %q is of stage %s, whose file %s is missing, and the stage cannot be made again from the results: match %q before it has none in %s (a copied or edited file?). Put back the stage file or the missing results, or use another results directory",
				path, line, id, name, file, m.ID, path)
		}
	}
	dir := filepath.Dir(path)
	return fmt.Errorf("%s, line %d: match %q is of stage %s, whose file %s is missing: %s makes it again from the results",
		path, line, id, name, file, RunAgain(dir, SavedRoot(p))(filepath.Join(dir, PlanFile), p))
}

// unmadePlayoff is unmadeStage of the id of a stage's playoff
// (playoff-<stage>-<group>-<k>-...) whose file is missing while a match
// before it has no result, so that it cannot be made again; nil for any
// other id.
func unmadePlayoff(p *plan.Plan, results []Result, path string, line int, id string) error {
	for k := range p.Stages {
		st := &p.Stages[k]
		rest, ok := strings.CutPrefix(id, stats.PlayoffPrefix+st.Name+"-")
		if !ok || !st.Playoffs {
			continue
		}
		var group string
		var n int
		if _, err := fmt.Sscanf(strings.ReplaceAll(rest, "-", " "), "%s %d", &group, &n); err != nil {
			return nil
		}
		done := make(map[string]bool, len(results))
		for _, r := range results {
			done[r.Match] = true
		}
		for _, m := range p.Matches {
			if !done[m.ID] {
				file := filepath.Join(filepath.Dir(path), RoundsDir, stages.PlayoffFileName(st.Name, n))
				return fmt.Errorf("%s, line %d: match %q is of playoff %d of stage %s, whose file %s is missing, and the playoff cannot be made again from the results: match %q before it has none in %s (a copied or edited file?). Put back the playoff's file or the missing results, or use another results directory",
					path, line, id, n, st.Name, file, m.ID, path)
			}
		}
	}
	return nil
}

// stageOfID is the index of the stage of p whose matches' ids id has the
// form of (the longest name, should one stage's name begin another's), or
// -1.
func stageOfID(p *plan.Plan, id string) int {
	at := -1
	for k := range p.Stages {
		if strings.HasPrefix(id, p.Stages[k].Name+"-") && (at < 0 || len(p.Stages[k].Name) > len(p.Stages[at].Name)) {
			at = k
		}
	}
	return at
}

// ReadDir reads the plan and results of a results directory. The plan's
// matches are followed by those of the rounds and playoffs that the run
// paired (rounds/), so every result has its match. It reads the stages of
// a plan in stages as they are in rounds/, up to the first missing: to
// check them and make a missing one again, as a run does, use
// ReadDirWith.
func ReadDir(dir string) (*plan.Plan, []Result, error) {
	p, results, _, err := ReadDirWith(dir, nil)
	return p, results, err
}

// ReadDirWith is ReadDir with the game drivers (like drivers/all.Driver):
// the stages of a plan in stages are checked against those the plan and
// results make, and a stage whose file is missing is made again from
// them (loadStages), without writing it. A stage file that differs is
// read as it is, what was played, and named in warnings, which a reader
// shows.
func ReadDirWith(dir string, drv func(string) (drivers.Driver, bool)) (*plan.Plan, []Result, []string, error) {
	p, results, sf, err := readDir(dir, drv)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, results, sf.warnings(), nil
}

// readDir is ReadDirWith, with the later stages that the plan's matches
// are followed by.
func readDir(dir string, drv func(string) (drivers.Driver, bool)) (*plan.Plan, []Result, *stageFiles, error) {
	p, err := ReadPlan(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	path := filepath.Join(dir, ResultsFile)
	results, err := readResultsFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if sh, err := readShardRecord(dir); err != nil {
		return nil, nil, nil, err
	} else if sh != nil {
		if err := lostStage(dir, p, *sh, resultIDs(results)); err != nil {
			return nil, nil, nil, err
		}
	}
	var game drivers.Game
	if drv != nil && p.MakesLater() {
		if game, err = (&Runner{Plan: p, Drivers: drv}).loadGameSettings(); err != nil {
			return nil, nil, nil, err
		}
	}
	sf, err := loadStages(dir, p, results, game)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, pr := range sf.paired {
		addLater(p, pr)
	}
	p.Unrecorded = sf.unrecorded(results)
	if err := checkResults(p, results, path); err != nil {
		if len(sf.differs) > 0 { // the stage file, not the results
			return nil, nil, nil, sf.refuse()
		}
		return nil, nil, nil, err
	}
	return p, results, sf, nil
}

// readResultsFile reads a results file, none when it does not exist.
func readResultsFile(path string) ([]Result, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	results, _, err := readResults(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return results, nil
}

func mustIndent(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// writeFileAtomic replaces the file path of a results directory with b
// (atomicfile.Write); a refusal says whose the folder is when it is
// another user's (OwnerHint): a run of root's made it.
func writeFileAtomic(path string, b []byte) error { return OwnerHint(atomicfile.Write(path, b, 0o644)) }
