package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// isPlanFile reports whether path names a saved plan (the output of
// arbiter plan -json, or a results directory's plan.json) rather than a
// configuration: configurations are .hcl files, plans .json files.
func isPlanFile(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".json")
}

// registerBot adds the flags of check's and console's -bot NAME [PATH]:
// the configuration's, and a saved plan's -root.
func (c *configFlags) registerBot(fs *flag.FlagSet) {
	c.register(fs)
	c.registerRoot(fs)
}

// registerRoot adds -root, the directory that a saved plan's relative bot
// dirs are relative to.
func (c *configFlags) registerRoot(fs *flag.FlagSet) {
	fs.StringVar(&c.root, "root", "", "with a saved plan (a .json file): the directory its relative bot dirs are in, as the configuration's directory was (default: the plan file's directory)")
}

// loadPlan reads the saved plan at path; its bots' relative dirs are
// relative to -root, or else to the plan file's directory.
func (c *configFlags) loadPlan(path string) (*loaded, error) {
	return c.readPlan(path, func(path string) (*plan.Plan, int, error) {
		p, err := plan.Read(path)
		if err != nil {
			return nil, 0, err
		}
		return p, len(p.Matches), nil
	})
}

// checkPlan is loadPlan for a plan that is only checked: its matches are
// checked and hashed as they are read, not held (plan.Check), and
// l.plan.Matches is nil.
func (c *configFlags) checkPlan(path string) (*loaded, error) {
	return c.readPlan(path, plan.Check)
}

func (c *configFlags) readPlan(path string, read func(string) (*plan.Plan, int, error)) (*loaded, error) {
	if len(c.vars) > 0 || len(c.varFiles) > 0 || c.tournament != "" {
		return nil, usageError("%s is a saved plan, already compiled: -var, -var-file and -tournament apply to an HCL configuration only", path)
	}
	p, n, err := read(path)
	if err != nil {
		return nil, err
	}
	root, err := rootDir(c.root, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	return &loaded{plan: p, root: root, matches: p.All(), count: n}, nil
}

// rootDir is the directory that a plan's relative bot dirs are taken
// from: the -root given (flag), else dflt, made absolute. Every command's
// -root goes through it: a relative -root names a directory relative to
// where arbiter was started, also where the bots run elsewhere (their
// sandbox, their working directory).
func rootDir(flag, dflt string) (string, error) {
	root := flag
	if root == "" {
		root = dflt
	}
	if root == "" {
		return "", nil
	}
	return filepath.Abs(root)
}

// checkSaved checks what a saved plan needs of this machine and this
// arbiter: its game's driver, which must rebuild the game from the plan's
// settings, and the dirs of its bots under root. (A compiled
// configuration was checked by loading it.)
func checkSaved(p *plan.Plan, root string) []string {
	var problems []string
	drv, ok := all.Driver(p.Game.Driver)
	if !ok {
		problems = append(problems, fmt.Sprintf("the game %q is played by the driver %q, which this arbiter does not have (it has %s)",
			p.Game.Name, p.Game.Driver, strings.Join(all.Names(), ", ")))
	} else if g, err := drv.LoadGame(p.Game.Settings); err != nil {
		problems = append(problems, fmt.Sprintf("the settings of game %q do not load: %v", p.Game.Name, err))
	} else if err := p.CheckGame(g); err != nil {
		problems = append(problems, err.Error())
	}
	for i := range p.Bots {
		b := &p.Bots[i]
		if b.House != "" {
			if pr := houseProblem(b, drv); pr != "" {
				problems = append(problems, pr)
			}
			continue
		}
		if pr := savedDirProblem(b, root); pr != "" {
			problems = append(problems, pr)
		}
	}
	return problems
}

// savedDirProblem says why bot b of a saved plan, not a house bot,
// cannot run in its dir under root, or "": /tmp itself in the sandbox,
// a dir that is not there, or one that holds none of its files.
func savedDirProblem(b *plan.Bot, root string) string {
	dir := b.DirIn(root)
	if pr := sandboxTmpProblem(b, dir); pr != "" {
		return pr
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		how := "relative to the root " + root + " (-root, default: the plan file's directory)"
		if filepath.IsAbs(b.Dir) {
			how = "an absolute path in the plan"
		}
		return fmt.Sprintf("bot %q runs in %s (dir %q, %s), which is not a directory here", b.Name, dir, b.Dir, how)
	}
	return filesAbsent(b, dir)
}

// sandboxTmpProblem says so when bot b of a saved plan would run in the
// sandbox in dir, its folder under the plan's root, and dir is /tmp
// itself, or "": the rule its configuration is held to
// (config.CheckSandboxDir), checked by the same code, before the bot's
// folder is fingerprinted (all of the machine's /tmp) or anything is
// written.
func sandboxTmpProblem(b *plan.Bot, dir string) string {
	if b.Limits == nil || b.Limits.Sandbox == nil || !drivers.IsSandboxTmp(dir) {
		return ""
	}
	where := ""
	if dir != b.Dir {
		where = ", " + dir
	}
	return fmt.Sprintf("bot %q runs in the sandbox with /tmp itself as its folder (dir %q%s), where the sandbox mounts the bot's private /tmp, so it would not see its files there and could never start; "+
		"put the bot in a folder of its own (e.g. dir = \"/tmp/%s\") or run it outside the sandbox (sandbox = false in its limits block), and compile the plan again",
		b.Name, b.Dir, where, b.Name)
}

// houseProblem says why house bot b cannot play the plan's game, played
// by drv (nil: a driver this arbiter does not have), or "": as the
// configuration refuses a house bot of another game, which would not
// understand its protocol and lose every match.
func houseProblem(b *plan.Bot, drv drivers.Driver) string {
	if drv == nil {
		return ""
	}
	game, name, _ := strings.Cut(b.House, "/")
	var own []string
	for _, hb := range drv.HouseBots() {
		if game == drv.Name() && hb.Name == name {
			return ""
		}
		own = append(own, drv.Name()+"/"+hb.Name)
	}
	return fmt.Sprintf("bot %q is the house bot %q, which does not play %s; its house bots are %s", b.Name, b.House, drv.Name(), strings.Join(own, ", "))
}

// filesAbsent says so when none of the files the plan recorded of bot b
// (its fingerprint's, relative to its dir) is in dir: dir is then not the
// bot's, most likely for want of the right -root, and every match of the
// bot would fail to start. A bot with some of its files is left to the
// comparison of fingerprints, which names what changed.
func filesAbsent(b *plan.Bot, dir string) string {
	rel, held := b.FilesIn(dir)
	if held {
		return ""
	}
	shown := rel[:min(len(rel), 3)]
	more := ""
	if len(rel) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(rel)-len(shown))
	}
	was := ""
	if b.Fingerprint.Dir != "" {
		was = " (it was in " + b.Fingerprint.Dir + " when the plan was compiled"
		if _, err := os.Stat(b.Fingerprint.Dir); errors.Is(err, fs.ErrNotExist) {
			was += ", which is not there any more: the folder moved, or was removed"
		}
		was += ")"
	}
	return fmt.Sprintf("bot %q runs in %s, which holds none of its files (%s%s)%s: give -root the directory its dir %q is relative to",
		b.Name, dir, strings.Join(shown, ", "), more, was, b.Dir)
}

// savedError is the error of a saved plan that cannot run here.
func savedError(path string, problems []string) error {
	if len(problems) == 1 {
		return fmt.Errorf("%s cannot run here: %s", path, problems[0])
	}
	return fmt.Errorf("%s cannot run here:\n  %s", path, strings.Join(problems, "\n  "))
}

// validatePlan is validate of a saved plan: it reads and checks the plan
// and what running it needs here.
func validatePlan(cf *configFlags, path string, asJSON bool, stdout io.Writer) error {
	l, err := cf.checkPlan(path)
	var problems []string
	if err != nil {
		problems = []string{err.Error()}
	} else if problems = checkSaved(l.plan, l.root); len(problems) == 0 {
		var ferr error
		if problems, ferr = compiledProblems(cf, l, path); ferr != nil {
			problems = []string{ferr.Error()}
		}
	}
	if asJSON {
		res := jsonResult{Valid: len(problems) == 0, ErrorCount: len(problems), Diagnostics: []jsonDiag{}}
		for _, pr := range problems {
			res.Diagnostics = append(res.Diagnostics, jsonDiag{Severity: "error", Summary: "Saved plan cannot run", Detail: pr})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	switch {
	case len(problems) > 0 && asJSON:
		return reportedAs(err)
	case err != nil:
		return err
	case len(problems) > 0:
		return savedError(path, problems)
	}
	if !asJSON {
		p := l.plan
		fmt.Fprintf(stdout, "The plan is valid and can run here: tournament %q, game %s %s, %d bot(s), %d match(es), plan %.12s; bot dirs relative to %s.\n",
			p.Tournament, p.Game.Driver, p.Game.Name, len(p.Bots), l.count, p.Hash, l.root)
	}
	return nil
}

// compiledProblems are the changes of l's bots, and of arbiter's build,
// since the saved plan at path was compiled, as validate reports them:
// arbiter run refuses each (checkCompiled). Files new since the plan in
// the folder of a bot with a build are left to the run, which tells the
// build's own from the others only after the build.
func compiledProblems(cf *configFlags, l *loaded, path string) ([]string, error) {
	since, err := compareCompiled(l, cf.fingerprintOptions(l, path))
	if err != nil || since == nil {
		return nil, err
	}
	var problems []string
	for _, b := range since.saved.Bots {
		if b.House == "" && b.Fingerprint == nil {
			// Arbiter writes a fingerprint of every bot beside its
			// build's: the plan was edited since, and binds nothing of
			// this bot.
			problems = append(problems, fmt.Sprintf("bot %q has no fingerprint in the plan, which records arbiter's build: it was edited after arbiter wrote it, "+
				"so nothing binds what plays as that bot; compile the plan again (arbiter plan -json) and review it", b.Name))
		}
	}
	for _, c := range since.changes {
		problems = append(problems, fmt.Sprintf("changed since the plan was compiled: %s (arbiter run refuses the plan unless given -allow-changed-bots; "+
			"compile the plan again to review the bots as they are now)", c))
	}
	return problems, nil
}

// sincePlan is what a saved plan's fingerprints, compared with its bots
// found now, say (engine.CompareSincePlan): saved, the bots and build as
// the plan recorded them; changes, the changes since, new files of bots
// without a build among them; built, the new files of bots with one.
type sincePlan struct {
	saved   *plan.Plan
	changes []engine.BotChange
	built   map[string][]string
}

// compareCompiled fingerprints a copy of l's plan as its bots are now
// (with the options o) and compares it with the fingerprints that l's
// saved plan recorded: nil for a configuration, or a plan saved without
// fingerprints.
func compareCompiled(l *loaded, o fingerprint.Options) (*sincePlan, error) {
	now := *l.plan
	now.Bots = slices.Clone(l.plan.Bots)
	return compareAgain(l, &now, o)
}

// compareAgain is compareCompiled with now, l's plan or a copy of it,
// fingerprinted in place.
func compareAgain(l *loaded, now *plan.Plan, o fingerprint.Options) (*sincePlan, error) {
	saved := savedFingerprints(l)
	if err := fingerprint.Plan(now, o); err != nil || saved == nil {
		return nil, err
	}
	changes, built := engine.CompareSincePlan(saved, now)
	return &sincePlan{saved: saved, changes: changes, built: built}, nil
}

// savedFingerprints is a copy of the bots and build that l's saved plan
// recorded when it was compiled, before they are fingerprinted afresh;
// nil for a configuration, or a plan saved without fingerprints.
func savedFingerprints(l *loaded) *plan.Plan {
	if l.cfg != nil || l.plan.Arbiter == nil {
		return nil
	}
	p := *l.plan
	p.Bots = slices.Clone(l.plan.Bots)
	return &p
}

// checkCompiled is what a saved plan's fingerprints, compared with its
// bots found now (since; nil: none to compare), ask of a run into the
// results directory out, as a resume compares them: a recorded file
// changed or gone, another interpreter, another build of arbiter, and a
// file new since the plan is a change. The plan reviewed is what runs,
// so a change is refused, unless allow: then it returns what the run
// records once out's plan.json records the bots as they are now (its
// Changes, see engine.SincePlan) and checks after the builds (the new
// files of bots with a build). A results directory out whose
// plan.json records the saved plan's fingerprints (the plan is out's
// own, or out was begun from it) is left to the resume's comparison,
// which refuses the same changes as changed since out was run: the files
// new since then are the bots' own writing or their builds', not
// compared (docs/fingerprints.md).
func checkCompiled(since *sincePlan, path, out string, allow bool) (*engine.SincePlan, error) {
	if since == nil || recordsFingerprints(out, since.saved) {
		return nil, nil
	}
	if len(since.changes) > 0 && !allow {
		return nil, &compiledError{plan: path, out: out, changes: since.changes}
	}
	if len(since.built) == 0 && len(since.changes) == 0 {
		return nil, nil
	}
	after := &engine.SincePlan{Plan: path, Added: since.built, From: map[string]string{}, Changes: since.changes}
	for name := range since.built {
		after.From[name] = since.saved.Bot(name).Fingerprint.Hash
	}
	return after, nil
}

// recordsFingerprints says whether the results directory dir's plan.json
// records the fingerprints of p: the same build of arbiter, and each bot
// with the same hash.
func recordsFingerprints(dir string, p *plan.Plan) bool {
	b, err := os.ReadFile(filepath.Join(dir, engine.PlanFile))
	if err != nil {
		return false
	}
	var rec struct {
		Arbiter *plan.Arbiter `json:"arbiter"`
		Bots    []plan.Bot    `json:"bots"`
	}
	if json.Unmarshal(b, &rec) != nil || rec.Arbiter == nil || *rec.Arbiter != *p.Arbiter || len(rec.Bots) != len(p.Bots) {
		return false
	}
	for i := range p.Bots {
		a, r := p.Bots[i].Fingerprint, (&plan.Plan{Bots: rec.Bots}).Bot(p.Bots[i].Name)
		if r == nil || (a == nil) != (r.Fingerprint == nil) || a != nil && a.Hash != r.Fingerprint.Hash {
			return false
		}
	}
	return true
}

// compiledError refuses to run a saved plan whose bots, or arbiter's
// build, changed since it was compiled: what would run is not the plan
// that was reviewed.
type compiledError struct {
	plan, out string
	changes   []engine.BotChange
	// shards, for arbiter slurm, is the folder of its shards' results
	// directories: each records the change in its own.
	shards string
}

func (e *compiledError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the bots or arbiter changed since the plan %s was compiled, so what would run is not the plan that was reviewed:\n", e.plan)
	for _, c := range e.changes {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	if e.shards != "" {
		fmt.Fprintf(&b, "Restore them; or compile the plan again (arbiter plan -json) and review it; "+
			"or give -allow-changed-bots to play the bots as they are now: each shard records the change in the %s of its results directory in %s, and the merge carries it", engine.ChangesFile, e.shards)
		return b.String()
	}
	if dir := e.resultsDir(); dir != "" {
		// Compiled again, the plan is another, which dir's results are
		// not of: a shard of a later stage is paired in dir alone.
		build := ""
		if slices.ContainsFunc(e.changes, func(c engine.BotChange) bool { return c.Bot == "" }) {
			build = " (arbiter's build: run this with the build that played " + dir + ", as above)"
		}
		fmt.Fprintf(&b, "Restore them%s; or give -allow-changed-bots to play the bots as they are now and record the change in %s. "+
			"The plan compiled again (arbiter plan -json) would be another, of which %s holds no results: it starts over in another results directory",
			build, filepath.Join(e.out, engine.ChangesFile), dir)
		return b.String()
	}
	fmt.Fprintf(&b, "Restore them; or compile the plan again (arbiter plan -json) and review it; "+
		"or give -allow-changed-bots to play the bots as they are now and record the change in %s", filepath.Join(e.out, engine.ChangesFile))
	if e.recorded() {
		// The change was allowed before: out's plan.json records the
		// bots as they were then, and its changes.jsonl says so.
		fmt.Fprintf(&b, ". To go on with the bots as %s records them, run its own plan: %s, with the same -root", e.out, filepath.Join(e.out, engine.PlanFile))
	}
	return b.String()
}

// resultsDir is the results directory whose own plan.json e.plan is,
// when it holds results (merged shards, a later stage paired there):
// "" for a plan saved elsewhere.
func (e *compiledError) resultsDir() string {
	dir := filepath.Dir(e.plan)
	if filepath.Base(e.plan) != engine.PlanFile || !fileExists(filepath.Join(dir, engine.ResultsFile)) {
		return ""
	}
	return dir
}

// recorded says whether e.out's changes.jsonl records each of e's bots'
// changes from the plan (the same bot, from the same hash) against the
// same plan file: a run given -allow-changed-bots recorded them, and
// out's plan.json, written after, records the bots as that run played
// them. A plan.json without that record (out begun from the
// configuration, or a run killed before it recorded the change) is not
// offered: its own plan would play the changed bots with no note.
func (e *compiledError) recorded() bool {
	if _, err := os.Stat(filepath.Join(e.out, engine.PlanFile)); err != nil {
		return false
	}
	notes, err := engine.ReadChanges(e.out)
	if err != nil {
		return false
	}
	for _, c := range e.changes {
		if !slices.ContainsFunc(notes, func(n engine.ChangeNote) bool { return n.Plan == e.plan && n.Bot == c.Bot && n.From == c.From }) {
			return false
		}
	}
	return true
}
