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

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/tournament"
)

// The files of a results directory that record the stages a run paired
// (package pairing) and the stopping rule that ended it (package stop).

// RoundsDir holds, in a results directory, the rounds and playoffs that
// the run paired: r<round>.json and playoff-<stage>.json, and the stages
// it made: stage-<name>.json.
const RoundsDir = "rounds"

func roundName(r int) string   { return fmt.Sprintf("r%03d.json", r) }
func playoffName(k int) string { return fmt.Sprintf("playoff-%d.json", k) }

// loadPairings reads the paired stages of a results directory in the
// order the run made them, up to the first one missing: each step's file
// is the first of those it may have (nextNames) that dir holds.
func loadPairings(dir string, p *plan.Plan) ([]*pairing.Pairing, error) {
	known := *p
	known.Matches = slices.Clone(p.Matches)
	var out []*pairing.Pairing
	for step := 0; ; step++ {
		pr, _, err := readNext(dir, &known, step)
		if err != nil || pr == nil {
			return out, err
		}
		out = append(out, pr)
		known.Matches = append(known.Matches, pr.Matches...)
	}
}

// readNext reads the file of later step number step of p, which holds the
// matches of the steps before it: the first of the names it may have
// (nextNames) that dir's rounds/ holds, nil when it holds none.
func readNext(dir string, p *plan.Plan, step int) (*pairing.Pairing, string, error) {
	for _, name := range nextNames(p, step) {
		pr, err := readPairing(filepath.Join(dir, RoundsDir, name))
		if err != nil || pr != nil {
			return pr, name, err
		}
	}
	return nil, "", nil
}

// readPairing reads one stage of rounds/, nil when its file is missing.
func readPairing(path string) (*pairing.Pairing, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var pr pairing.Pairing
	if err := json.Unmarshal(b, &pr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &pr, nil
}

// pairingEqual compares two pairings as they are written.
func pairingEqual(a, b *pairing.Pairing) bool {
	return bytes.Equal(mustIndent(a), mustIndent(b))
}

// StopFile is written to the results directory when a stopping rule ends
// the run.
const StopFile = "stopped.json"

// ReadStopped reads a results directory's stop, or nil when its run was
// not stopped.
func ReadStopped(dir string) (*stop.Stopped, error) {
	b, err := os.ReadFile(filepath.Join(dir, StopFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s stop.Stopped
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StopFile), err)
	}
	return &s, nil
}

// addLater adds pr, a later step made, to p, which holds the steps
// before it: its matches, and, for a stage, its name (plan.Plan.Made),
// so that a stage made without a match is not read as to come.
func addLater(p *plan.Plan, pr *pairing.Pairing) {
	p.Matches = append(p.Matches, pr.Matches...)
	if pr.Rule == stages.Rule {
		p.Made = append(p.Made, pr.Stage)
	}
}

// stageFiles are the later stages of a plan in stages as loadStages
// found them in a results directory.
type stageFiles struct {
	dir    string
	paired []*pairing.Pairing
	// names are the names in rounds/ of the files of paired.
	names []string
	// remade are the indexes in paired of the stages made again, whose
	// files are missing.
	remade []int
	// differs are the stage files (names in rounds/) that are not the
	// stages the plan and results make; paired holds them as they are.
	differs []string
}

// refuse refuses the first file of rounds/ that differs, for a run or merge
// that would go on from it.
func (sf *stageFiles) refuse() error {
	if len(sf.differs) == 0 {
		return nil
	}
	return stageDiffers(sf.dir, sf.differs[0])
}

// warnings say which files of rounds/ differ, for a reader, which reads
// them as they are: what was played.
func (sf *stageFiles) warnings() []string {
	var out []string
	for _, name := range sf.differs {
		path := filepath.Join(sf.dir, RoundsDir, name)
		out = append(out, fmt.Sprintf("%s is not the %s that the plan and %s make (one of them was edited, or written by another version of arbiter): its matches are read as the file records them, and arbiter run refuses to go on from it",
			path, laterKind(name), filepath.Join(sf.dir, ResultsFile)))
	}
	return out
}

// loadStages reads the later stages of p that dir's run made (in
// rounds/: stage-<name>.json of a plan in stages, r<round>.json of rounds
// paired by rating or score, playoff-<k>.json), in order, checking each
// against the one that the plan and results make again: each is a pure
// function of them (makeLater), so a file that differs was edited, or the
// results were, or another version of arbiter made it (differs). A stage
// whose file is missing is made again once every match before it has its
// result (the run made it then, or makes it next), so that a directory
// copied without rounds/, or whose file was removed, reads as it did
// (remade; not written to rounds/); after the run was stopped by its
// stopping rule (stopped.json, or the rule stops on the results before
// it), only if it played a match of it. Without
// the game (nil), and for a plan
// without later stages, the files are read unchecked up to the first
// missing (loadPairings).
func loadStages(dir string, p *plan.Plan, results []Result, game drivers.Game) (*stageFiles, error) {
	sf := &stageFiles{dir: dir}
	if game == nil || !p.MakesLater() {
		var err error
		sf.paired, err = loadPairings(dir, p)
		return sf, err
	}
	known := *p
	known.Matches = slices.Clone(p.Matches)
	done := make(map[string]bool, len(results))
	byID := make(map[string]*Result, len(results))
	for i, r := range results {
		done[r.Match] = true
		byID[r.Match] = &results[i]
	}
	// A run its stopping rule stopped makes no later stage: its file
	// may be lost, or the run killed before it wrote stopped.json.
	_, err := os.Stat(filepath.Join(dir, StopFile))
	stopped := err == nil
	stopper := stop.New(p)
	for i := 0; ; i++ {
		// Not due yet, or the results before it are not all there:
		// the run checks the file once they are.
		due := allFinished(known.Matches, done)
		var made *pairing.Pairing
		var name string
		var merr error
		if due {
			made, name, merr = makeLater(&known, i, knownResults(&known, results), game, hclog.NewNullLogger())
		}
		file, fname, err := readNamed(dir, &known, i, name)
		if err != nil {
			return nil, err
		}
		if name == "" {
			name = fname
		}
		if c := nextNames(&known, i); name == "" && len(c) > 0 {
			name = c[0]
		}
		if !due && file == nil {
			break
		}
		if due && file == nil && !stopped {
			stopped = stopper.Advance(&known, byID) != nil
		}
		if due {
			switch {
			case merr != nil && file == nil && len(sf.differs) > 0:
				// Made from a file that differs, which the readers
				// name: what follows it cannot be made.
				return sf, nil
			case merr != nil && file == nil:
				return nil, unmadeLater(name, filepath.Join(dir, ResultsFile), merr)
			case made == nil && file == nil, file == nil && stopped && !anyPlayed(made.Matches, done):
				// No tie left to play off, or the run stopped
				// before it played any match of it.
				return sf, nil
			case file == nil:
				sf.remade = append(sf.remade, len(sf.paired))
				file = made
			case merr != nil || made == nil || !pairingEqual(file, made):
				sf.differs = append(sf.differs, name)
			}
		}
		sf.paired = append(sf.paired, file)
		sf.names = append(sf.names, name)
		known.Matches = append(known.Matches, file.Matches...)
	}
	return sf, nil
}

// unmadeLater is the error of a later stage, round or playoff, whose
// file in rounds/ is name, that cannot be made from the results file
// path: merr, which says the round or stage only once (a
// *pairing.RoundError names the round too, a *stages.PoolError the stage).
func unmadeLater(name, path string, merr error) error {
	var re *pairing.RoundError
	var pe *stages.PoolError
	switch {
	case laterKind(name) == "round" && errors.As(merr, &re) && laterID(name) == strconv.Itoa(re.Round):
		merr = re.Err
	case laterKind(name) == "stage" && errors.As(merr, &pe) && laterID(name) == pe.Stage:
		merr = fmt.Errorf("pool %s: %w", plan.PoolName(pe.Pool), pe.Err)
	}
	return fmt.Errorf("%s %s cannot be made from %s: %w", laterKind(name), laterID(name), path, merr)
}

// readNamed reads the file of later step number step of p (see
// readNext): the one called name when it is not "" (the step that the
// plan and results make), else the first that dir holds of those it may
// have, with its name.
func readNamed(dir string, p *plan.Plan, step int, name string) (*pairing.Pairing, string, error) {
	if name == "" {
		return readNext(dir, p, step)
	}
	pr, err := readPairing(filepath.Join(dir, RoundsDir, name))
	return pr, name, err
}

// laterKind is what the file name of rounds/ holds: "stage", "round" or
// "playoff".
func laterKind(name string) string {
	switch {
	case strings.HasPrefix(name, "stage-"):
		return "stage"
	case strings.HasPrefix(name, "playoff-"):
		return "playoff"
	}
	return "round"
}

// laterID is the name or number of the stage, round or playoff whose file
// in rounds/ is name: "final" of stage-final.json, "3" of r003.json.
func laterID(name string) string {
	id := strings.TrimSuffix(name, ".json")
	switch laterKind(name) {
	case "stage":
		return strings.TrimPrefix(id, "stage-")
	case "playoff":
		return strings.TrimPrefix(id, "playoff-")
	}
	return strings.TrimLeft(strings.TrimPrefix(id, "r"), "0")
}

// allFinished reports whether every match of ms has its result.
func allFinished(ms []plan.Match, done map[string]bool) bool {
	for _, m := range ms {
		if !done[m.ID] {
			return false
		}
	}
	return true
}

// anyPlayed says whether a match of ms has its result.
func anyPlayed(ms []plan.Match, done map[string]bool) bool {
	return slices.ContainsFunc(ms, func(m plan.Match) bool { return done[m.ID] })
}

// knownResults are the results of p's matches, in p's order: those a
// stage or round after p's matches is made from.
func knownResults(p *plan.Plan, results []Result) []Result {
	known := make(map[string]bool, len(p.Matches))
	for _, m := range p.Matches {
		known[m.ID] = true
	}
	var out []Result
	for _, res := range stats.InPlanOrder(p, results) {
		if known[res.Match] {
			out = append(out, res)
		}
	}
	return out
}

// unrecorded are the names in rounds/ of the steps that loadStages made
// again (their files missing) none of whose matches is done: the
// directory does not record that its run made them (plan.Plan.Unrecorded).
func (sf *stageFiles) unrecorded(results []Result) []string {
	done := make(map[string]bool, len(results))
	for _, r := range results {
		done[r.Match] = true
	}
	var out []string
	for _, i := range sf.remade {
		if !anyPlayed(sf.paired[i].Matches, done) {
			out = append(out, sf.names[i])
		}
	}
	return out
}

// writeRemade writes to dir's rounds/ the stages that loadStages made
// again.
func (sf *stageFiles) writeRemade(dir string) error {
	for _, i := range sf.remade {
		if err := mkdirResults(filepath.Join(dir, RoundsDir)); err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, RoundsDir, sf.names[i]), mustIndent(sf.paired[i])); err != nil {
			return err
		}
	}
	return nil
}

// stageDiffers refuses the file name of dir's rounds/, which is not the
// stage, round or playoff that the plan and the results make.
func stageDiffers(dir, name string) error {
	path := filepath.Join(dir, RoundsDir, name)
	kind := laterKind(name)
	return fmt.Errorf("%s is not the %s that the plan and %s make (one of them was edited, or written by another version of arbiter): if the results are right, remove %s and arbiter makes the %s again from them",
		path, kind, filepath.Join(dir, ResultsFile), path, kind)
}

// notMadeYet says, of an id of a match that the run makes from results
// and that p, which holds the matches made so far, does not hold yet,
// what match it is and when it is made ("stage final, which is made after
// stage groups finishes", "round 3, which is paired when every match
// before it has finished"); "" for any other id.
func notMadeYet(p *plan.Plan, id string) string {
	if rest, ok := strings.CutPrefix(id, stats.PlayoffPrefix); ok {
		if k := playoffStage(p, rest); k >= 0 && p.Stages[k].Playoffs {
			return fmt.Sprintf("a playoff of stage %s, which is made after the stage's matches finish when bots of a group are tied on mean place", p.Stages[k].Name)
		}
	}
	if k := stageOfID(p, id); k >= 0 {
		return stageNotMade(p, k)
	}
	return laterNotMade(p, id)
}

// stageNotMade is notMadeYet of an id of the form of stage k's matches.
func stageNotMade(p *plan.Plan, k int) string {
	if k < p.ListedStages() || k == 0 {
		return ""
	}
	name := p.Stages[k].Name
	for _, m := range p.Matches {
		if m.Stage == name {
			return ""
		}
	}
	return fmt.Sprintf("stage %s, which is made after stage %s finishes", name, p.Stages[k-1].Name)
}

// laterNotMade is notMadeYet of an id of a tournament not in stages: a
// match of a round paired from results (Later.From to Rounds) not paired
// yet, or a playoff's.
func laterNotMade(p *plan.Plan, id string) string {
	if p.Later == nil || len(p.Stages) > 0 {
		return ""
	}
	if p.Later.Playoffs && strings.HasPrefix(id, "playoff-") {
		return "a playoff, which is made after the last round finishes when bots are tied in place"
	}
	var r, g, s int
	if n, err := fmt.Sscanf(id, "r%d-g%d-s%d", &r, &g, &s); err != nil || n != 3 || id != fmt.Sprintf("r%03d-g%02d-s%d", r, g, s) {
		return ""
	}
	if p.Later.Pairing == tournament.NoPairing || r < p.Later.From || r > p.Rounds {
		return ""
	}
	for _, m := range p.Matches {
		if m.Round == r {
			return ""
		}
	}
	return fmt.Sprintf("round %d, which is paired when every match before it has finished", r)
}

// idExample is the id of a match of p to show beside id, which names
// none: the first of the stage whose ids id has the form of, else p's
// first.
func idExample(p *plan.Plan, id string) string {
	if k := stageOfID(p, id); k >= 0 {
		for _, m := range p.Matches {
			if m.Stage == p.Stages[k].Name {
				return m.ID
			}
		}
	}
	return p.Matches[0].ID
}
