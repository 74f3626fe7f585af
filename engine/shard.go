package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/tournament"
)

// ShardFile is the shard record a shard's results directory holds beside
// its plan.json (which is the whole plan, byte for byte as a one-machine
// run writes it).
const ShardFile = "shard.json"

// Shard names one slice of one stage of a plan.
type Shard struct {
	// K is the shard's index, 0 ≤ K < N.
	K int `json:"shard"`
	N int `json:"of"`
	// Stage is 0 for the plan's listed matches, s for the matches of the
	// s-th later stage (paired round or playoff) in rounds/.
	Stage int `json:"stage"`
}

func (s Shard) String() string { return fmt.Sprintf("shard %d/%d of stage %d", s.K, s.N, s.Stage) }

// ParseShard parses K/N, 0 ≤ K < N.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("-shard %q: expected K/N, the K-th of N shards counted from 0, like 0/8", v)
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("-shard %q: N must be at least 1", v)
	}
	if k < 0 || k >= n {
		return Shard{}, fmt.Errorf("-shard %q: K is out of range; the shards of %d are 0/%d to %d/%d", v, n, n, n-1, n)
	}
	return Shard{K: k, N: n}, nil
}

// StageMatches are the matches of stage stage: the plan's listed matches
// (within a max_matches rule) for stage 0, the matches of paired[stage-1]
// after. paired are the later stages of a results directory (rounds/).
func StageMatches(p *plan.Plan, paired []*pairing.Pairing, stage int) ([]plan.Match, error) {
	if stage == 0 {
		ms := p.Matches
		if p.Stop != nil && p.Stop.MaxMatches > 0 && len(ms) > p.Stop.MaxMatches {
			ms = ms[:p.Stop.MaxMatches]
		}
		return ms, nil
	}
	if stage > len(paired) {
		return nil, fmt.Errorf("stage %d is not paired yet (%d later stage(s) are)", stage, len(paired))
	}
	ms := paired[stage-1].Matches
	if p.Stop != nil && p.Stop.MaxMatches > 0 {
		// Positions continue after the listed matches and earlier stages.
		pos := len(p.Matches)
		for _, pr := range paired[:stage-1] {
			pos += len(pr.Matches)
		}
		var out []plan.Match
		for i, m := range ms {
			if pos+i < p.Stop.MaxMatches || stats.IsPlayoff(m.ID) {
				out = append(out, m)
			}
		}
		ms = out
	}
	return ms, nil
}

// ShardMatches assigns the matches ms of one stage to N shards and
// returns the ids of shard k's, in plan order. The unit of assignment is
// a group of a round (all matches with the same round and group: the
// seatings of one group on the same deals), so a group never spans
// shards; units are taken in plan order and each goes to the shard that
// holds the fewest matches so far (the lowest index on a tie). The
// assignment depends on the plan alone.
func ShardMatches(ms []plan.Match, k, n int) []string {
	type unit struct{ round, group int }
	owner := map[unit]int{}
	load := make([]int, n)
	var out []string
	for _, m := range ms {
		u := unit{m.Round, m.Group}
		o, ok := owner[u]
		if !ok {
			o = 0
			for i := range load {
				if load[i] < load[o] {
					o = i
				}
			}
			owner[u] = o
		}
		load[o]++
		if o == k {
			out = append(out, m.ID)
		}
	}
	return out
}

// Units is the number of units of assignment (groups of a round) among
// the matches ms of one stage: at most that many of its shards play
// anything (ShardMatches).
func Units(ms []plan.Match) int {
	type unit struct{ round, group int }
	seen := map[unit]bool{}
	for _, m := range ms {
		seen[unit{m.Round, m.Group}] = true
	}
	return len(seen)
}

// ShardPlan is what a shard plays: its match ids, and the later stages
// its results directory needs (copied to its rounds/) so that every match
// it plays is known there.
type ShardPlan struct {
	Shard   Shard
	Matches []string
	Paired  []*pairing.Pairing
	// Finished is set for a stage after the last one: the tournament is
	// complete (or stopped) and the shard has nothing to play.
	Finished bool
	// From is, for a stage after 0, the merged results directory the
	// stage was paired in, which holds the stages before it: a game that
	// carries its bots' state starts them from there (Runner.Earlier).
	From string
}

// PlanShard works out shard sh of plan p. For a stage after 0, from is
// the merged results directory whose rounds/ holds the stage's pairing.
func PlanShard(p *plan.Plan, sh Shard, from string, drv func(string) (drivers.Driver, bool)) (*ShardPlan, error) {
	var paired []*pairing.Pairing
	if sh.Stage > 0 {
		var err error
		// A stage whose file from is missing is made again from its
		// results (readDir).
		_, _, sf, err := readDir(from, drv)
		if err != nil {
			return nil, err
		}
		if err := sf.refuse(); err != nil {
			return nil, err
		}
		paired = sf.paired
		if sh.Stage > len(paired) {
			complete, err := Complete(from, drv)
			if err != nil {
				return nil, err
			}
			if !complete {
				return nil, notPairedYet(sh.Stage, from, len(paired))
			}
			return &ShardPlan{Shard: sh, Finished: true}, nil
		}
		paired = paired[:sh.Stage]
	}
	sp, err := shardOf(p, paired, sh)
	if err != nil || sh.Stage == 0 {
		return sp, err
	}
	sp.From = from
	return sp, nil
}

// notPairedYet refuses a shard of stage, which from, holding paired
// later stages and not complete, has not paired yet. The merge that
// pairs it is that of the stage before it; the next merge due is that of
// the last stage paired, which pairs the step after it, and so on.
func notPairedYet(stage int, from string, paired int) error {
	then := ""
	if stage-1 > paired {
		then = fmt.Sprintf(", then those of each stage after it as it is paired, up to stage %d (once the tournament is complete, a later stage plays nothing)", stage-1)
	}
	return fmt.Errorf("stage %d is not paired yet in %s (it has %d later stage(s)): merge the shards of stage %d into it first%s",
		stage, from, paired, paired, then)
}

// shardOf is what shard sh plays of p, whose stages before sh's are
// paired.
func shardOf(p *plan.Plan, paired []*pairing.Pairing, sh Shard) (*ShardPlan, error) {
	ms, err := StageMatches(p, paired, sh.Stage)
	if err != nil {
		return nil, err
	}
	return &ShardPlan{Shard: sh, Matches: ShardMatches(ms, sh.K, sh.N), Paired: paired}, nil
}

// ReadShard works out what the shard whose results directory is dir
// plays, from its shard record and the stages in its rounds/; nil when dir
// holds no shard record (it is not a shard's). A pairing of its stages
// missing there is refused (lostStage), unless the shard is of a stage
// after the last (Finished), which has none.
func ReadShard(dir string) (*ShardPlan, error) {
	rec, err := readShardRecord(dir)
	if rec == nil || err != nil {
		return nil, err
	}
	sh := *rec
	p, err := ReadPlan(dir)
	if err != nil {
		return nil, err
	}
	results, err := readResultsFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		return nil, err
	}
	if err := lostStage(dir, p, sh, resultIDs(results)); err != nil {
		return nil, err
	}
	paired, err := loadPairings(dir, p)
	if err != nil {
		return nil, err
	}
	if sh.Stage > len(paired) { // a stage after the last: nothing to play
		return &ShardPlan{Shard: sh, Finished: true}, nil
	}
	return shardOf(p, paired[:sh.Stage], sh)
}

// lostStage refuses the directory dir of shard sh of plan p whose
// rounds/ lacks a pairing of the stages 1..sh.Stage it was run from,
// which PrepareShard wrote there: a shard holds its own results alone,
// not those of the stages before its own, so the stage cannot be made
// again from them (loadStages) and must come back from the merged
// directory the shard was run from. A shard of a stage after the last,
// which plays nothing, has none of them (nor results): that is not a
// loss. own are the ids of dir's results.
func lostStage(dir string, p *plan.Plan, sh Shard, own []string) error {
	ways, held, err := shardLost(dir, p, sh.Stage, own)
	if err != nil {
		return err
	}
	if len(ways) == 0 || len(own) == 0 && !held {
		return nil
	}
	// One way the steps went: every file it lacks is named. Several (a
	// step that may be a stage's playoff or the next stage, when the
	// results that tell which are not here): the first file each lacks.
	lost := ways[0]
	if len(ways) > 1 {
		lost = nil
		for _, w := range ways {
			if !slices.Contains(lost, w[0]) {
				lost = append(lost, w[0])
			}
		}
	}
	var paths, files []string
	for _, name := range lost {
		paths = append(paths, filepath.Join(dir, RoundsDir, name))
		files = append(files, filepath.Join(RoundsDir, name))
	}
	alt := len(ways) > 1
	verb, that := "is", "that file"
	if !alt && len(lost) > 1 {
		verb, that = "are", "those files"
	}
	return fmt.Errorf("%s %s missing: %s holds %s (its %s), run from the pairing in %s; a shard's directory holds its own results alone, not those of the stages before its own, "+
		"so the pairing cannot be made again from them: it comes from the merged directory the shard was run from. "+
		"Run the shard again (%s, MERGED that directory), which writes the file back and plays only what the shard has not played, "+
		"or copy %s from the merged directory into %s",
		lostText(paths, alt), verb, dir, sh, ShardFile, that, shardAgain(dir, SavedRoot(p), sh)("MERGED/plan.json", nil), lostText(files, alt), filepath.Join(dir, RoundsDir))
}

// lostText names the files s of rounds/: all of them ("a and b"), or,
// when alt, one of them ("a (or, when no tie was played off before it,
// b)" of a playoff's file and the next stage's).
func lostText(s []string, alt bool) string {
	switch {
	case len(s) == 1:
		return s[0]
	case !alt:
		return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	case len(s) == 2 && laterKind(filepath.Base(s[1])) == "stage":
		return s[0] + " (or, when no tie was played off before it, " + s[1] + ")"
	}
	return s[0] + " (or " + strings.Join(s[1:], " or ") + ": the files left do not tell which)"
}

// shardLost finds the files of rounds/ that dir, the directory of a
// shard of stage steps, lost: it holds its first steps later steps, the
// last its own (PrepareShard copies them), and own are the ids of its
// results, all of that last step. A lost playoff's file must not be
// taken for the next stage's, which the shard also holds: ways are the
// ways the plan's steps may have gone (lostWalk) that hold every file
// dir holds and fit own, each with the files dir lacks of it in order
// (none when it holds as many as it ran from). held says dir holds some
// pairing.
func shardLost(dir string, p *plan.Plan, steps int, own []string) (ways [][]string, held bool, err error) {
	w := &lostWalk{steps: steps, own: own, files: map[string]*pairing.Pairing{}, seen: map[string]bool{}}
	for _, name := range stageNames(p) {
		pr, err := readPairing(filepath.Join(dir, RoundsDir, name))
		if err != nil {
			return nil, false, err
		}
		if pr != nil {
			w.files[name] = pr
		}
	}
	if held, err = holdsPairing(dir); err != nil || len(w.files) >= steps {
		return nil, held, err
	}
	known := *p
	known.Matches = slices.Clone(p.Matches)
	w.walk(&known, 0, nil)
	if len(w.ways) == 0 || w.looks > lostLooks { // no way fits (an edited file), or too many to try: the first gap
		lost, err := greedyLost(dir, p, steps)
		for _, name := range lost {
			ways = append(ways, []string{name})
		}
		return ways, held, err
	}
	return w.ways, held, nil
}

// lostLooks bounds lostWalk's search: the ways a plan's steps may go
// grow as the factorial of its stages' playoffs (static stages whose
// playoffs interleave), so past this many steps tried shardLost names
// the first gap instead (greedyLost).
const lostLooks = 4096

// lostWalk is shardLost's search.
type lostWalk struct {
	steps int
	own   []string
	files map[string]*pairing.Pairing // the files dir holds, by name
	ways  [][]string
	seen  map[string]bool // ways by the files they lack: one of each
	looks int             // steps tried
}

// walk tries every step that may be later step number step of p, which
// holds the matches of the steps before it (missing: the files of those
// that dir lacks), up to the shard's own.
func (w *lostWalk) walk(p *plan.Plan, step int, missing []string) {
	if step == w.steps {
		if key := strings.Join(missing, "\x00"); len(missing) > 0 && !w.seen[key] {
			w.seen[key] = true
			w.ways = append(w.ways, missing)
		}
		return
	}
	for _, s := range nextSteps(p, step) {
		if w.looks++; w.looks > lostLooks {
			return
		}
		name := s.name(p)
		next := *p
		next.Matches = slices.Clone(p.Matches)
		pr, gone := w.files[name], missing
		switch {
		case pr != nil:
			next.Matches = append(next.Matches, pr.Matches...)
		case len(missing)+len(w.files) >= w.steps:
			continue // more lost than dir lacks
		default:
			gone = append(slices.Clone(missing), name)
			if s.n > 0 { // a stand-in match, so that the playoff counts as made
				st := &p.Stages[s.k]
				next.Matches = append(next.Matches, plan.Match{ID: plan.StagePlayoffID(st.Name, 1, s.n, 1, 1), Stage: st.Name, Round: st.Rounds + s.n})
			}
		}
		if step < w.steps-1 || w.ownStep(p, s, pr) {
			w.walk(&next, step+1, gone)
		}
	}
}

// ownStep says whether every result of the shard (own) may be of step s
// of p, the shard's own: a match of its file pr when dir holds it, else
// an id of the step's form (a playoff of its stage and number, or a
// match of its stage).
func (w *lostWalk) ownStep(p *plan.Plan, s laterStep, pr *pairing.Pairing) bool {
	for _, id := range w.own {
		var ok bool
		switch {
		case pr != nil:
			ok = slices.ContainsFunc(pr.Matches, func(m plan.Match) bool { return m.ID == id })
		case s.n > 0:
			rest, _ := strings.CutPrefix(id, stats.PlayoffPrefix)
			_, n, _, _, parsed := parsePlayoffID(strings.TrimPrefix(rest, p.Stages[s.k].Name+"-"))
			ok = stats.IsPlayoff(id) && playoffStage(p, rest) == s.k && parsed && n == s.n
		default:
			ok = !stats.IsPlayoff(id) && stageOfID(p, id) == s.k
		}
		if !ok {
			return false
		}
	}
	return true
}

// greedyLost is the first step of the first steps later steps of p that
// dir's rounds/ lacks, read in order (readNext): the files it may have
// (nextNames).
func greedyLost(dir string, p *plan.Plan, steps int) ([]string, error) {
	known := *p
	known.Matches = slices.Clone(p.Matches)
	for step := 0; step < steps; step++ {
		pr, _, err := readNext(dir, &known, step)
		if err != nil || pr == nil {
			return nextNames(&known, step), err
		}
		known.Matches = append(known.Matches, pr.Matches...)
	}
	return nil, nil
}

// resultIDs are the match ids of results.
func resultIDs(results []Result) []string {
	ids := make([]string, len(results))
	for i, r := range results {
		ids[i] = r.Match
	}
	return ids
}

// SavedRoot is the -root that runs p's bots from a results directory's
// saved plan.json (a merge's or a run's), which lies where the bots are
// not: the root their fingerprints record (plan.BotRoot), "" when no bot
// has a relative dir, or a placeholder when the fingerprints do not tell.
func SavedRoot(p *plan.Plan) string {
	root, err := p.BotRoot()
	if err != nil {
		return "CONFIG_DIR"
	}
	return root
}

// readShardRecord reads dir's shard record; nil when it has none. It is
// the one reader of the record, and refuses one out of range (a copied
// or edited file), which PrepareShard never writes: the readers would
// cut slices by it.
func readShardRecord(dir string) (*Shard, error) {
	path := filepath.Join(dir, ShardFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var sh Shard
	if err := json.Unmarshal(b, &sh); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := sh.inRange(dir); err != nil {
		return nil, fmt.Errorf("%s: %v (a copied or edited file?); use another results directory, or remove this one and run the shard again", path, err)
	}
	return &sh, nil
}

// inRange refuses a shard out of range, or of a stage out of the range
// of the plan in dir, when it holds one that reads (its readers say
// what is wrong with one that does not).
func (s Shard) inRange(dir string) error {
	switch {
	case s.N < 1:
		return fmt.Errorf("%d shards: there is at least 1", s.N)
	case s.K < 0 || s.K >= s.N:
		return fmt.Errorf("shard %d/%d is out of range: the shards of %d are 0/%d to %d/%d", s.K, s.N, s.N, s.N, s.N-1, s.N)
	}
	last := -1
	if p, err := ReadPlan(dir); err == nil {
		last = Stages(p) - 1
	}
	if s.Stage < 0 || last >= 0 && s.Stage > last {
		if last < 0 {
			return fmt.Errorf("stage %d is out of range: stages count from 0", s.Stage)
		}
		return fmt.Errorf("stage %d is out of range: this plan runs in stages 0 to %d", s.Stage, last)
	}
	return nil
}

// PrepareShard makes out a shard's results directory for sp: it refuses
// a directory of another plan or another shard, and writes the shard
// record and the later stages the shard's matches belong to. The caller
// holds out's lock; root is where p's bot dirs are (DifferentPlan).
func PrepareShard(out string, p *plan.Plan, sp *ShardPlan, root string) error {
	if b, err := os.ReadFile(filepath.Join(out, PlanFile)); err == nil {
		var old struct {
			Hash string `json:"hash"`
		}
		if json.Unmarshal(b, &old) == nil && old.Hash != p.Hash {
			return DifferentPlan(out, b, p, dirShardAgain(out, root, sp.Shard))
		}
	}
	rec := mustIndent(sp.Shard)
	recPath := filepath.Join(out, ShardFile)
	if b, err := os.ReadFile(recPath); err == nil {
		if !bytes.Equal(b, rec) {
			var old Shard
			_ = json.Unmarshal(b, &old)
			return fmt.Errorf("%s holds %s, not %s: use another -out directory", out, old, sp.Shard)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	} else if err := notMergeDir(out, p, shardAgain(out, root, sp.Shard)); err != nil {
		return err
	} else if _, err := os.Stat(filepath.Join(out, ResultsFile)); err == nil {
		return fmt.Errorf("%s holds results but no %s, so it is not a shard's directory: use another -out directory", out, ShardFile)
	}
	if len(sp.Paired) > 0 { // stage 0's shards have no pairing: no empty rounds/
		if err := mkdirResults(filepath.Join(out, RoundsDir)); err != nil {
			return err
		}
	}
	for _, pr := range sp.Paired {
		path := filepath.Join(out, RoundsDir, pairingName(p, pr))
		want := mustIndent(pr)
		if b, err := os.ReadFile(path); err == nil && !bytes.Equal(b, want) {
			return fmt.Errorf("%s differs from the pairing it is run with: %s holds a shard of another run; use another -out directory", path, out)
		}
		if err := writeFileAtomic(path, want); err != nil {
			return err
		}
	}
	return writeFileAtomic(recPath, rec)
}

// MergedFile marks a merge's results directory: arbiter merge writes it
// first into a directory it writes, before its plan.json.
const MergedFile = "merged.json"

// mergedMark is what MergedFile holds.
var mergedMark = []byte("{\n  \"arbiter\": \"merge\"\n}\n")

// PrepareRun refuses a run that is not a shard's (the whole plan, or the
// matches -match names) into a shard's results directory out, whose
// results would then no longer be its shard's, and into a merge's
// (notMergeDir). The caller holds out's lock; root is where p's bot dirs
// are (DifferentPlan).
func PrepareRun(out string, p *plan.Plan, root string) error {
	b, err := os.ReadFile(filepath.Join(out, ShardFile))
	if errors.Is(err, os.ErrNotExist) {
		return notMergeDir(out, p, RunAgain(out, root))
	} else if err != nil {
		return err
	}
	var sh Shard
	if err := json.Unmarshal(b, &sh); err != nil {
		return fmt.Errorf("%s holds a %s, so it is a shard's directory: use another -out directory", out, ShardFile)
	}
	return fmt.Errorf("%s holds %s (its %s), so it is a shard's directory: use another -out directory, or resume the shard with -shard %d/%d -stage %d",
		out, sh, ShardFile, sh.K, sh.N, sh.Stage)
}

// shardAgain is RunAgain of shard sh into out.
func shardAgain(out, root string, sh Shard) Again {
	return RunAgain(out, root, "-shard", fmt.Sprintf("%d/%d", sh.K, sh.N), "-stage", fmt.Sprint(sh.Stage))
}

// dirShardAgain is shardAgain of the shard whose results directory out
// is, from its shard record: the shard asked for, when out has none yet,
// may not be the one out holds, which refuses any other. Without a
// record, out holds no shard to resume: a merge's directory or one with
// results (a plain run's) refuses every -shard, so it gets no command;
// only one holding nothing but its plan.json (and the lock) may become
// the asked shard's. Nil (no command) when out cannot be read.
func dirShardAgain(out, root string, asked Shard) Again {
	rec, err := readShardRecord(out)
	switch {
	case err != nil:
		return nil
	case rec != nil:
		return shardAgain(out, root, *rec)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if e.Name() != PlanFile && e.Name() != LockFile {
			return nil
		}
	}
	return shardAgain(out, root, asked)
}

// notMergeDir refuses a merge's results directory (IsMergeDir) to a run
// of plan p, with or without -shard, also one that would play nothing:
// its arbiter.log or shard.json would make it a run's or a shard's,
// refused to every later merge, so the shards not merged yet could never
// be. A directory of another plan is refused as that, saying how to carry
// on with its plan (again).
func notMergeDir(out string, p *plan.Plan, again Again) error {
	if _, err := CheckPlanDir(out, p, again); err != nil {
		return err
	}
	merge, marked := IsMergeDir(out)
	if !merge {
		return nil
	}
	err := fmt.Errorf("%s holds the merged results of shards (arbiter merge), not of arbiter run: a run into it, with or without -shard, would make it a run's or a shard's directory, "+
		"into which no shard could be merged again. To play the matches it lacks, run their shards (arbiter run PLAN -shard K/N -stage S -out SHARD_DIR, "+
		"on the cluster or here) and merge them into it; or run the plan into another -out directory", out)
	if !marked {
		err = fmt.Errorf("%w. (It has results but neither %s, %s nor %s; if it is a run's directory whose %s was removed, create an empty %s and run again)",
			err, MergedFile, ShardFile, LogFile, LogFile, filepath.Join(out, LogFile))
	}
	return err
}

// IsMergeDir says whether dir is a merge's results directory: it holds
// the mark a merge writes first (marked), or, written before merges
// marked theirs, a plan.json and results (results.jsonl or matches/) but
// neither a shard record nor the log of arbiter run (IsRunDir).
func IsMergeDir(dir string) (merge, marked bool) {
	if _, err := os.Lstat(filepath.Join(dir, ShardFile)); !errors.Is(err, os.ErrNotExist) {
		return false, false
	}
	if _, err := os.Lstat(filepath.Join(dir, MergedFile)); err == nil {
		return true, true
	}
	if IsRunDir(dir) {
		return false, false
	}
	if _, err := os.Stat(filepath.Join(dir, PlanFile)); err != nil {
		return false, false
	}
	for _, name := range []string{ResultsFile, MatchesDir} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true, false
		}
	}
	return false, false
}

// IsRunDir says whether arbiter run played into dir: it holds the log a
// run writes (also as a link, dangling or not).
func IsRunDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, LogFile))
	return !errors.Is(err, os.ErrNotExist)
}

// stageNames are the file names in rounds/ of every later stage that p
// may make, in order: those of a plan without stages always in this
// order, up to the first one not made (see loadPairings); those of a plan
// in stages are each stage's file and its playoffs', which are made only
// when bots tie (nextSteps).
func stageNames(p *plan.Plan) []string {
	var names []string
	for k := range p.Stages {
		if k >= p.ListedStages() {
			names = append(names, stages.FileName(p.Stages[k].Name))
		}
		if p.Stages[k].Playoffs {
			for n := 1; n <= plan.MaxPlayoffs; n++ {
				names = append(names, stages.PlayoffFileName(p.Stages[k].Name, n))
			}
		}
	}
	if p.Later == nil {
		return names
	}
	if p.Later.Pairing != tournament.NoPairing {
		for r := p.Later.From; r <= p.Rounds; r++ {
			names = append(names, roundName(r))
		}
	}
	if p.Later.Playoffs {
		for k := 1; k <= plan.MaxPlayoffs; k++ {
			names = append(names, playoffName(k))
		}
	}
	return names
}

// laterStep is a later step of a plan in stages: stage k made (n 0), or
// its playoff n.
type laterStep struct{ k, n int }

// name is the file name in rounds/ of step s.
func (s laterStep) name(p *plan.Plan) string {
	if s.n > 0 {
		return stages.PlayoffFileName(p.Stages[s.k].Name, s.n)
	}
	return stages.FileName(p.Stages[s.k].Name)
}

// nextSteps are the steps that may be later step number step of p, a
// plan in stages that holds the matches of the steps before it, in the
// order they are tried: the next playoff of each stage whose playoffs
// may not be over (every listed stage until a later stage is made, then
// the last stage made), then the next stage. Each playoff is made only
// when bots are tied (stages.Playoff), so the steps made are counted
// from the playoffs that p holds: the stages made are the rest.
func nextSteps(p *plan.Plan, step int) []laterStep {
	last := p.ListedStages() - 1 + step
	for k := range p.Stages {
		last -= stages.PlayoffsMade(p, k)
	}
	first := last
	if last < p.ListedStages() {
		first = 0
	}
	var out []laterStep
	for k := max(first, 0); k <= last && k < len(p.Stages); k++ {
		if n := stages.PlayoffsMade(p, k) + 1; p.Stages[k].Playoffs && n <= plan.MaxPlayoffs {
			out = append(out, laterStep{k: k, n: n})
		}
	}
	if next := last + 1; next >= p.ListedStages() && next < len(p.Stages) {
		out = append(out, laterStep{k: next})
	}
	return out
}

// nextNames are the file names in rounds/ that later step number step of
// p, which holds the matches of the steps before it, may have: one for a
// plan without stages, those of nextSteps for a plan in stages.
func nextNames(p *plan.Plan, step int) []string {
	if len(p.Stages) == 0 {
		if name, ok := laterName(p, step); ok {
			return []string{name}
		}
		return nil
	}
	var out []string
	for _, s := range nextSteps(p, step) {
		out = append(out, s.name(p))
	}
	return out
}

// laterName is stageNames(p)[step] for a plan without stages, false
// past its end, without listing the names before it: a run steps through
// them all, and a Swiss of a million rounds took its square.
func laterName(p *plan.Plan, step int) (string, bool) {
	if p.Later == nil || step < 0 {
		return "", false
	}
	if p.Later.Pairing != tournament.NoPairing {
		rounds := max(0, p.Rounds-p.Later.From+1)
		if step < rounds {
			return roundName(p.Later.From + step), true
		}
		step -= rounds
	}
	if p.Later.Playoffs && step < plan.MaxPlayoffs {
		return playoffName(step + 1), true
	}
	return "", false
}

// pairingName is the file name in rounds/ of pr, a later stage of p.
func pairingName(p *plan.Plan, pr *pairing.Pairing) string {
	switch {
	case pr.Rule == stages.Rule:
		return stages.FileName(pr.Stage)
	case pr.Rule == "playoff" && pr.Stage != "":
		if k := p.StageIndex(pr.Stage); k >= 0 {
			return stages.PlayoffFileName(pr.Stage, pr.Round-p.Stages[k].Rounds)
		}
	case pr.Rule == "playoff":
		return playoffName(pr.Round - p.Rounds)
	}
	return roundName(pr.Round)
}

// Stages is the most stages p runs in when sharded: 1 for a plan that
// lists every match, 1 + one per paired round + one per possible playoff
// stage otherwise. Playoff stages are played only when bots tie.
func Stages(p *plan.Plan) int { return 1 + len(stageNames(p)) }

// Complete reports whether the results directory dir holds a finished
// tournament: every known match has its result and no later stage
// follows (none is left, or a stopping rule ended it).
func Complete(dir string, drv func(string) (drivers.Driver, bool)) (bool, error) {
	p, results, sf, err := readDir(dir, drv)
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(filepath.Join(dir, StopFile)); err == nil {
		return true, nil
	}
	done := map[string]bool{}
	for _, r := range results {
		done[r.Match] = true
	}
	for _, m := range p.Matches {
		if !done[m.ID] {
			return false, nil
		}
	}
	s, err := newMergeSession(p, results, dir, drv)
	if err != nil {
		return false, err
	}
	pr, _, err := s.makeNext(len(sf.paired))
	return pr == nil && err == nil, err
}
