package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/internal/filetail"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Runner executes a plan into a results directory. It needs nothing but
// the plan and the drivers: the game that plays is the one the plan's
// driver rebuilds from the plan's settings (drivers.Driver.LoadGame).
type Runner struct {
	Plan *plan.Plan
	// Drivers finds a game driver by name, like drivers/all.Driver.
	Drivers func(name string) (drivers.Driver, bool)
	// Root is the directory that bot dirs in the plan are relative to:
	// the configuration's directory when the plan was compiled.
	Root string
	// Out is the results directory.
	Out string
	// Jobs is how many matches run at once (at least 1).
	Jobs int
	// Only restricts the run to these match ids (all when empty).
	Only []string
	// Slice says that Only is the whole selection even when it is empty:
	// a shard (see Shard) may have no match to play.
	Slice bool
	// Earlier is, for a shard of a stage after 0, the merged results
	// directory its stage was paired in (ShardPlan.From): in a game that
	// carries its bots' state, a bot's first match of the stage starts
	// from the state its last match of an earlier stage left there.
	Earlier string
	// Self is the arbiter executable, which runs house bots as
	// `Self bot <driver>/<name>`.
	Self string
	Log  hclog.Logger
	// Progress, if set, hears about every match that starts and ends.
	Progress Progress
	// SincePlan, when set, is what a run of a saved plan into a results
	// directory that holds no results of it yet checks after the builds,
	// before any match: the files new since the plan of bots with a
	// build; and the changes since the plan found before them, which the
	// run records once the resume's comparison took them (see SincePlan).
	SincePlan *SincePlan
	// AllowChangedBots lets a run resume into a results directory whose
	// bots or arbiter build changed (see CompareFingerprints); the change
	// is recorded in changes.jsonl. Without it such a run is refused.
	AllowChangedBots bool
	// Compress writes each match's transcript gzip-compressed
	// (events.jsonl.gz); readers take either (OpenTranscript).
	Compress bool
	// Snapshot, if set, hears of the run so far (the plan with the rounds
	// paired so far, every result) at most once every reportEvery while
	// results come in (and once the wait is over, when results came in
	// during it), and once at the end; the summary must not be kept.
	Snapshot func(*Summary) error

	// CPUs, when set, plays the matches in worker processes (`Self
	// worker`), one for each share of CPUs, pinned to it (see CPUShares
	// and worker.go); Jobs is then len(CPUs). Nil plays them all in this
	// process, their bots on any CPU.
	CPUs [][]int
	// Unpinned, when CPUs is nil, is why (see Pinning); the log says it
	// where a pinned run says how it pinned its matches.
	Unpinned string

	// workers is set by Run when CPUs is.
	workers *workerPool
	// builds is set by Run: each bot's build, once per version of the
	// bot it plays.
	builds *builds
	// out is set by Run: the bots disqualified before the first match.
	out map[string]string
	// carry is set by Run for a game that carries its bots' state
	// (drivers.Carrier); carryFrom is the results directory a replay
	// takes each match's starting state from.
	carry     *carry
	carryFrom string
	// watch is set by Run: the bots' files, checked around every match.
	watch *watch
	// outside is set by BuildOutside, for a build of arbiter check or
	// console: its verdict says where its output is by its full path,
	// and held, when set, is the bot's folder of arbiter's state, whose
	// cache the build is given. A run's builds have none: they start
	// from an empty cache.
	outside bool
	held    *heldState
}

// Progress follows a run.
type Progress interface {
	// Begin is called once with the number of matches to run and the
	// number already finished before this run.
	Begin(todo, done int)
	Started(m *plan.Match)
	Finished(m *plan.Match, r *Result)
}

// ProgressMore is a Progress that also hears of the matches of rounds
// paired during the run. Begin's todo already counts an estimate of the
// rounds to be paired (each as large as a listed round); More's todo is
// the change to it once a round is paired (negative when the estimate was
// too high, as when a resumed run finds some of them finished, done).
type ProgressMore interface {
	More(todo, done int)
}

// ProgressStages is a Progress that hears, before Begin, the stages of a
// tournament played in stages, in order: a stage's matches are counted
// only once it is made (who advances decides them), so a progress that
// shows the time left says which stages it does not cover yet.
type ProgressStages interface {
	Stages(names []string)
}

// Summary says what a run did.
type Summary struct {
	Planned  int // matches selected
	Skipped  int // already finished before this run
	Finished int // finished by this run
	// Results are all results of the directory after the run.
	Results []Result
	// Plan is the plan with every match known after the run: the listed
	// ones, then the rounds and playoffs paired from results.
	Plan *plan.Plan
	// Stopped is set when a stopping rule ended the tournament.
	Stopped *stop.Stopped
	// Seats is the game's: whether it can seat a number of bots, which
	// tells the standings a tie whose playoff is to come from one the
	// game cannot seat (Rank).
	Seats func(n int) error
}

// ErrInterrupted is returned when the run was cancelled: every finished
// match is journaled and a re-run resumes.
var ErrInterrupted = errors.New("interrupted")

// UnplayedError refuses matches picked to play (run -match, a shard)
// that must follow a match of one of their bots which is neither played
// nor picked: the game decides in plan order (carried state,
// disqualification). The same command is refused again; Need is the
// match to add to the -match list ("" when a shard cannot add it).
type UnplayedError struct {
	Msg  string
	Need string
}

func (e *UnplayedError) Error() string { return e.Msg }

// session is the state of one Run.
type session struct {
	r       *Runner
	game    drivers.Game
	log     hclog.Logger
	j       *journal
	full    plan.Plan
	done    map[string]*Result
	sum     *Summary
	stopper *stop.Stopper
	queue   chan *plan.Match
	cancel  context.CancelFunc
	// pending counts the matches fed and not yet finished.
	pending sync.WaitGroup

	mu       sync.Mutex
	firstErr error
	// reportedAt and reported say when the game's own files (see
	// drivers.Reporter) were last rewritten, and from how many results;
	// reportCost how long that took (see reportDue).
	reportedAt time.Time
	reported   int
	reportCost time.Duration
	// trailing, when set, rewrites them once the wait is over from the
	// results that came in during it (see reportLater); ended stops it
	// for good once the run's last rewrite is under way.
	trailing *time.Timer
	ended    bool
	// expected is how many matches of rounds not paired yet the progress
	// counts (see expectUnpaired).
	expected int
	// halt is closed when a stopping rule triggers: no more matches are fed.
	halt chan struct{}
	// verdicts decides disqualifications when the game's rules do (nil
	// otherwise).
	verdicts *verdicts
	// warned are the warnings of making later steps said so far: a step
	// tried again (the next playoff of a stage whose other group's tie
	// the game cannot seat, a listed stage's at every step) says each
	// once (stepLog).
	warned map[string]bool
}

// Run runs every selected match that the results directory does not hold
// yet, holding the directory's lock (LockDir) unless its caller does. Cancelling ctx stops the run: matches in progress are abandoned
// (their bots killed) and run again next time.
//
// A plan whose later rounds depend on results (plan.Later) runs in
// stages: the listed matches, then each paired round once every match
// before it has finished, then playoffs. Each stage is a pure function of
// the plan and the results before it, written to rounds/ and checked
// against that file when a run resumes.
func (r *Runner) Run(ctx context.Context) (*Summary, error) {
	log := r.engineLog()
	release, err := lockUnlessHeld(r.Out)
	if err != nil {
		return nil, err
	}
	defer release()
	game, out, err := r.loadGame()
	if err != nil {
		return nil, err
	}
	j, prior, err := openJournal(r.Out, r.Plan, r.Root)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	r.hideAndGiveBack(log)
	p, err := reconcileBots(r.Out, r.Plan, r.AllowChangedBots, len(prior), log, r.recordSincePlan)
	if err != nil {
		return nil, err
	}
	run := *r
	run.Plan, run.builds, run.out, run.carry, run.watch = p, &builds{}, out, newCarry(game, r.carryFrom), newWatch(r.Out, p, r.AllowChangedBots, log)
	r = &run
	if err := r.checkSincePlan(ctx); err != nil {
		return nil, err
	}
	if err := r.pin(log); err != nil {
		return nil, err
	}
	if r.workers != nil {
		defer r.workers.close()
	}
	paired, known, err := r.known(prior, game, log)
	if err != nil {
		return nil, err
	}
	s := &session{r: r, game: game, log: log, j: j, done: map[string]*Result{}, halt: make(chan struct{}),
		sum: &Summary{Results: prior, Seats: game.Seats}}
	s.verdicts = verdictsFor(game, known, prior, out)
	r.watch.results = s.resultCount
	for i := range prior {
		s.done[prior[i].Match] = &prior[i]
	}
	warnUntranscribed(r.Out, prior, log)
	s.full = *r.Plan
	s.full.Matches = slices.Clone(r.Plan.Matches)
	if len(r.Only) > 0 || r.Slice {
		// Only the named matches, among those listed or already paired:
		// no pairing and no stopping rule, which need the whole run.
		s.full = *known
	} else {
		s.stopper = stop.New(r.Plan)
	}
	s.sum.Plan = &s.full

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.cancel = cancel
	err = s.work(ctx, paired)
	// However the run ends, the game's own files hold every result,
	// also when a resume had nothing left to play.
	if rerr := s.finalReport(); rerr != nil && err == nil && s.firstErr == nil {
		s.firstErr = rerr
	}
	if err != nil {
		return s.sum, err
	}
	if s.firstErr != nil {
		return s.sum, s.firstErr
	}
	if ctx.Err() != nil {
		return s.sum, ErrInterrupted
	}
	if err := s.writeStop(); err != nil {
		return s.sum, err
	}
	return s.sum, nil
}

// hideAndGiveBack hides the results directory, and those of earlier runs
// found in the bots' folders, from every sandboxed bot, and gives back
// the bot folders that ended arbiters left lent: each is its owner's
// again before any match, whether or not this run builds it.
func (r *Runner) hideAndGiveBack(log hclog.Logger) {
	proc.Conceal(r.Out) // no sandboxed bot sees the results, wherever they are
	concealFound(r.Plan)
	GiveBackLent(log.Warn)
}

// concealFound hides from every sandboxed bot the results and slurm work
// directories of earlier runs that p's fingerprints found in the bots'
// folders (fingerprint.Concealed): their transcripts hold the deals and
// boards that the same seed makes again.
func concealFound(p *plan.Plan) {
	for i := range p.Bots {
		for _, path := range fingerprint.Concealed(p.Bots[i].Fingerprint) {
			proc.Conceal(path)
		}
	}
}

// engineLog is the run's log, named for the engine.
func (r *Runner) engineLog() hclog.Logger {
	if r.Log == nil {
		return hclog.NewNullLogger()
	}
	return r.Log.Named("engine")
}

// known is the plan with the rounds paired so far (in rounds/), whose
// matches the results so far must all be. A stage whose file is missing
// is made again from the results and written (loadStages). A shard of a
// later stage learns which earlier matches its bots' state follows from
// (carry.earlierStages).
func (r *Runner) known(prior []Result, game drivers.Game, log hclog.Logger) ([]*pairing.Pairing, *plan.Plan, error) {
	sf, err := loadStages(r.Out, r.Plan, prior, game)
	if err != nil {
		return nil, nil, err
	}
	if err := sf.refuse(); err != nil {
		return nil, nil, err
	}
	if err := sf.writeRemade(r.Out); err != nil {
		return nil, nil, err
	}
	for _, i := range sf.remade {
		log.Warn("a "+laterKind(sf.names[i])+" file was missing: made it again from the results", "file", filepath.Join(r.Out, RoundsDir, sf.names[i]))
	}
	paired := sf.paired
	known := *r.Plan
	known.Matches = slices.Clone(r.Plan.Matches)
	for _, pr := range paired {
		known.Matches = append(known.Matches, pr.Matches...)
	}
	if err := checkResults(&known, prior, filepath.Join(r.Out, ResultsFile)); err != nil {
		return nil, nil, err
	}
	if err := r.carry.earlierStages(r.Earlier, paired); err != nil {
		return nil, nil, err
	}
	return paired, &known, nil
}

// work plays the stages on the runner's workers, and returns when they
// are done.
func (s *session) work(ctx context.Context, paired []*pairing.Pairing) error {
	s.queue = make(chan *plan.Match)
	var workers sync.WaitGroup
	for w := 0; w < max(s.r.Jobs, 1); w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for m := range s.queue {
				s.play(ctx, m)
			}
		}()
	}
	err := s.stages(ctx, paired)
	close(s.queue)
	workers.Wait()
	s.flush(ctx)
	return err
}

// stages feeds the listed matches, then pairs and feeds each later stage.
func (s *session) stages(ctx context.Context, paired []*pairing.Pairing) error {
	r := s.r
	if len(r.Only) > 0 || r.Slice {
		selected, err := r.selected(&s.full)
		if err != nil {
			return err
		}
		s.sum.Planned = len(selected)
		var todo []*plan.Match
		for _, m := range selected {
			if s.done[m.ID] == nil {
				todo = append(todo, m)
			}
		}
		s.sum.Skipped = len(selected) - len(todo)
		s.begin(len(todo))
		s.feed(ctx, todo)
		return nil
	}
	s.mu.Lock()
	s.advanceStop()
	s.mu.Unlock()
	s.sum.Planned = len(s.full.Matches)
	s.sum.Skipped = s.count(s.full.Matches)
	if s.halted() {
		s.begin(0)
	} else {
		s.begin(len(s.todo()) + s.expectUnpaired())
	}
	for stage := 0; ; stage++ {
		s.feed(ctx, s.todo())
		s.pending.Wait()
		s.flush(ctx)
		if ctx.Err() != nil || s.halted() {
			return nil
		}
		pr, err := s.pairNext(stage, paired)
		if err != nil || pr == nil {
			return err
		}
		s.mu.Lock()
		from := len(s.full.Matches)
		addLater(&s.full, pr)
		s.sum.Planned += len(pr.Matches)
		skipped := s.count(pr.Matches)
		s.sum.Skipped += skipped
		s.advanceStop()
		s.mu.Unlock()
		s.log.Info("paired", "round", pr.Round, "stage", pr.Stage, "rule", pr.Rule, "matches", len(pr.Matches), "finished_before", skipped)
		s.paired(from, pr)
	}
}

func (s *session) begin(todo int) {
	s.log.Info("run", "plan", s.r.Plan.Hash[:12], "matches", s.sum.Planned, "finished_before", s.sum.Skipped, "to_run", todo, "jobs", s.r.Jobs)
	if s.r.Progress != nil {
		if ps, ok := s.r.Progress.(ProgressStages); ok && len(s.full.Stages) > 0 {
			names := make([]string, len(s.full.Stages))
			for k, st := range s.full.Stages {
				names[k] = st.Name
			}
			ps.Stages(names)
		}
		s.r.Progress.Begin(todo, s.sum.Skipped)
	}
}

func (s *session) count(ms []plan.Match) int {
	n := 0
	for _, m := range ms {
		if s.done[m.ID] != nil {
			n++
		}
	}
	return n
}

// todo lists the known matches not finished yet, in plan order, within
// the stopping rule's max_matches.
func (s *session) todo() []*plan.Match {
	var out []*plan.Match
	for i := range s.full.Matches {
		m := &s.full.Matches[i]
		if st := s.full.Stop; st != nil && st.MaxMatches > 0 && i >= st.MaxMatches && !stats.IsPlayoff(m.ID) {
			break
		}
		if s.done[m.ID] == nil {
			out = append(out, m)
		}
	}
	return out
}

func (s *session) feed(ctx context.Context, todo []*plan.Match) {
	if s.verdicts != nil {
		s.mu.Lock()
		if len(s.r.Only) > 0 && !s.r.Slice && s.r.carryFrom == "" && s.firstErr == nil { // a selection, not a shard or a replay
			s.firstErr = s.verdicts.unplayedBefore(&s.full, todo, s.done)
		}
		if s.firstErr != nil {
			s.mu.Unlock()
			s.cancel()
			return
		}
		s.verdicts.expect(&s.full, todo)
		s.mu.Unlock()
	}
	if c := s.r.carry; c != nil && c.from == "" {
		s.feedCarried(ctx, todo)
		return
	}
	for _, m := range todo {
		if s.halted() {
			return
		}
		s.pending.Add(1)
		select {
		case s.queue <- m:
		case <-ctx.Done():
			s.pending.Done()
			return
		case <-s.halt:
			s.pending.Done()
			return
		}
	}
}

func (s *session) halted() bool {
	select {
	case <-s.halt:
		return true
	default:
		return false
	}
}

// play runs one match and journals it.
func (s *session) play(ctx context.Context, m *plan.Match) {
	defer s.pending.Done()
	r := s.r
	if r.Progress != nil {
		r.Progress.Started(m)
	}
	res, err := s.playWatched(ctx, m)
	if err == nil && s.verdicts != nil {
		s.mu.Lock()
		done := s.journal(ctx, s.verdicts.finish(m, res))
		s.mu.Unlock()
		s.progress(done)
		return
	}
	if err == nil {
		err = s.j.Append(res)
	}
	s.mu.Lock()
	if err != nil {
		s.fail(ctx, m, err)
		s.mu.Unlock()
		return
	}
	s.finished(res)
	s.mu.Unlock()
	if r.Progress != nil {
		r.Progress.Finished(m, res)
	}
}

// resultCount is how many results the directory holds now.
func (s *session) resultCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sum.Results)
}

// playWatched plays m with its bots built and their files checked before
// it starts and after it ends (see watch): the result carries the hashes
// of the files it was played with. A match during which one of its bots
// changed is not recorded: without -allow-changed-bots the run stops (a
// resume plays it again); with it, the change is recorded and the match
// played again at once, with the bot as it is now. A bot that changes
// during that second play too rewrites its own files as it plays, and
// stops the run (another bot of the match changing then is one more
// play).
func (s *session) playWatched(ctx context.Context, m *plan.Match) (*Result, error) {
	log := s.log.With("match", m.ID)
	changed := map[string]bool{}
	for rebuilt := 0; ; {
		res, changes, err := s.playOnce(ctx, m, log)
		if err != nil || res != nil && len(changes) == 0 {
			return res, err
		}
		if res == nil {
			if rebuilt++; rebuilt >= maxBuilds {
				return nil, &ChangedSinceBuiltError{Match: m.ID, Times: rebuilt, Changes: changes}
			}
			continue
		}
		for _, c := range changes {
			if changed[c.Bot] {
				return nil, &ChangedDuringRunError{Dir: s.r.watch.dir, Match: m.ID, Changes: changes, During: true, Again: true}
			}
		}
		for _, c := range changes {
			changed[c.Bot] = true
			log.Warn("a bot changed while the match was played: its result is not recorded, and the match plays again with the bot as it is now", "change", c.String())
		}
	}
}

// playOnce builds m's bots for their files as they are now, checks them,
// plays m and checks them again, holding the bots' builds (builtFor) so
// that none is rebuilt meanwhile. No result, and changes: those bots
// changed between their build and the check, and m is to be built and
// started again.
func (s *session) playOnce(ctx context.Context, m *plan.Match, log hclog.Logger) (*Result, []BotChange, error) {
	w := s.r.watch
	verdicts, release, err := s.r.builtFor(ctx, m)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	v, err := w.before(m)
	if err != nil {
		return nil, nil, err
	}
	var since []BotChange
	for _, name := range m.Seats {
		if rec, ok := verdicts[name]; ok && rec.Fingerprint != v.hashes[name] && !slices.ContainsFunc(since, func(c BotChange) bool { return c.Bot == name }) {
			since = append(since, BotChange{Bot: name, From: short(rec.Fingerprint), To: short(v.hashes[name])})
		}
	}
	if len(since) > 0 {
		return nil, since, nil // changed since it was built: built again first
	}
	res, err := s.r.playMatch(ctx, s.game, m, log, v.fingerprints(m.Seats), verdicts)
	if err != nil {
		return nil, nil, err
	}
	changes, err := w.after(m, v)
	return res, changes, err
}

// fail stops the run at the first error of the arbiter's own; s.mu is
// held.
func (s *session) fail(ctx context.Context, m *plan.Match, err error) {
	if s.firstErr == nil && ctx.Err() == nil {
		s.firstErr = fmt.Errorf("match %s: %w", m.ID, err)
		ce, se := (*ChangedDuringRunError)(nil), (*ChangedSinceBuiltError)(nil)
		if errors.As(err, &ce) || errors.As(err, &se) {
			s.firstErr = err // it names the match
		}
		// In the log too, where what ended the run is looked for later.
		s.log.Error("the run stops", "match", m.ID, "error", err)
		s.cancel()
	}
}

// journal appends results released by the verdicts, in their order, and
// returns those journaled; s.mu is held, so that the journal holds for
// each bot a prefix of its matches in plan order even after a kill.
func (s *session) journal(ctx context.Context, ready []finished) []finished {
	for k, f := range ready {
		if err := s.j.Append(f.res); err != nil {
			s.fail(ctx, f.m, err)
			return ready[:k]
		}
		s.finished(f.res)
	}
	return ready
}

func (s *session) progress(done []finished) {
	if s.r.Progress != nil {
		for _, f := range done {
			s.r.Progress.Finished(f.m, f.res)
		}
	}
}

// flush journals the results the verdicts still hold once a stage has
// ended, unless the run was cancelled (they play again when it resumes).
func (s *session) flush(ctx context.Context) {
	if s.verdicts == nil || ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	done := s.journal(ctx, s.verdicts.flush())
	s.mu.Unlock()
	s.progress(done)
}

// finished counts a journaled result; s.mu is held.
func (s *session) finished(res *Result) {
	s.sum.Finished++
	s.sum.Results = append(s.sum.Results, *res)
	s.done[res.Match] = &s.sum.Results[len(s.sum.Results)-1]
	s.reportOrLater()
	s.advanceStop()
	s.r.carry.notify() // a match waiting for this one may be fed
}

// advanceStop evaluates the stopping rule; s.mu is held.
func (s *session) advanceStop() {
	if s.sum.Stopped != nil {
		return
	}
	if st := s.stopper.Advance(&s.full, s.done); st != nil {
		s.sum.Stopped = st
		s.log.Info("stopped", "rule", st.Rule, "matches", st.Matches, "reason", st.Reason)
		close(s.halt)
	}
}

// writeStop records the stop in the results directory.
func (s *session) writeStop() error {
	if s.sum.Stopped == nil {
		return nil
	}
	return writeFileAtomic(filepath.Join(s.r.Out, StopFile), mustIndent(s.sum.Stopped))
}

// pairNext makes the next later stage, or returns nil when there is none.
// A stage already written to rounds/ must come out the same.
func (s *session) pairNext(stage int, paired []*pairing.Pairing) (*pairing.Pairing, error) {
	pr, write, err := s.nextStage(stage, paired)
	if err != nil || write == nil {
		return pr, err
	}
	return pr, write()
}

// nextStage makes the next later stage as pairNext does, writing
// nothing: write writes it to rounds/, nil when it is written already
// (or there is none).
func (s *session) nextStage(stage int, paired []*pairing.Pairing) (pr *pairing.Pairing, write func() error, err error) {
	pr, name, err := s.makeNext(stage)
	if err != nil || pr == nil {
		return nil, nil, err
	}
	if stage < len(paired) {
		if !pairingEqual(paired[stage], pr) && pr.Rule == stages.Rule {
			return nil, nil, stageDiffers(s.r.Out, name)
		}
		if !pairingEqual(paired[stage], pr) {
			return nil, nil, fmt.Errorf("%s was paired from other results than %s now holds (the results or arbiter's pairing changed); remove %s to start over",
				filepath.Join(s.r.Out, RoundsDir, name), ResultsFile, s.r.Out)
		}
		return pr, nil, nil
	}
	return pr, func() error {
		if err := mkdirResults(filepath.Join(s.r.Out, RoundsDir)); err != nil {
			return err
		}
		return writeFileAtomic(filepath.Join(s.r.Out, RoundsDir, name), mustIndent(pr))
	}, nil
}

// makeNext pairs later stage number stage (0: the first one not listed)
// from the results of the matches known so far, writing nothing; it
// returns nil when there is no such stage, and the stage's file name in
// rounds/.
func (s *session) makeNext(stage int) (*pairing.Pairing, string, error) {
	p := &s.full
	// Only the results of matches known so far: a resumed run already
	// holds results of the rounds it is about to pair again.
	if s.warned == nil {
		s.warned = map[string]bool{}
	}
	return makeLater(p, stage, knownResults(p, s.sum.Results), s.game, &stepLog{Logger: s.log, said: s.warned})
}

// stepLog is the log of making later steps: it says each warning once
// (the same message with the same fields), however often the steps that
// find it are made.
type stepLog struct {
	hclog.Logger
	said map[string]bool
}

func (l *stepLog) Warn(msg string, args ...any) {
	key := msg + fmt.Sprintf("%#v", args)
	if !l.said[key] {
		l.said[key] = true
		l.Logger.Warn(msg, args...)
	}
}

// makeLater pairs later stage number stage (0: the first one not listed)
// of p, which holds the matches made so far, from results, theirs: a
// stage of a plan in stages, a round paired by rating or score, or a
// placement playoff. It returns nil when there is no such stage, and the
// stage's file name in rounds/. log is told of ties the game cannot play
// off.
func makeLater(p *plan.Plan, stage int, results []Result, game drivers.Game, log hclog.Logger) (*pairing.Pairing, string, error) {
	switch {
	case !p.MakesLater():
		return nil, "", nil
	case len(p.Stages) > 0:
		return makeStageLater(p, stage, results, game, log)
	}
	if round := p.Later.From + stage; p.Later.Pairing != tournament.NoPairing && round <= p.Rounds {
		pr, err := pairing.Round(p, round, results)
		if err != nil {
			return nil, "", err
		}
		return pr, roundName(round), nil
	}
	if !p.Later.Playoffs {
		return nil, "", nil
	}
	k := stage + 1
	if p.Later.Pairing != tournament.NoPairing {
		k -= p.Rounds - p.Later.From + 1
	}
	if k > plan.MaxPlayoffs {
		return nil, "", nil
	}
	var groups [][]string
	for _, g := range stats.PlacementTies(p, results) {
		if err := game.Seats(len(g)); err != nil {
			log.Warn("tie not played off: the game cannot seat the tied bots", "bots", g, "problem", err.Error())
			continue
		}
		groups = append(groups, g)
	}
	if len(groups) == 0 {
		return nil, "", nil
	}
	return &pairing.Pairing{Round: p.Rounds + k, Rule: "playoff", Groups: groups, Matches: p.PlayoffMatches(k, groups)}, playoffName(k), nil
}

// makeStageLater is makeLater of a plan in stages: later step number
// step (0: the first after the listed matches) is the next of nextSteps
// that is made: a playoff of a stage whose ties the game can seat, or
// the next stage.
func makeStageLater(p *plan.Plan, step int, results []Result, game drivers.Game, log hclog.Logger) (*pairing.Pairing, string, error) {
	for _, st := range nextSteps(p, step) {
		if st.n > 0 {
			pr, unseated, err := stages.Playoff(p, st.k, st.n, results, game.Seats)
			if err != nil {
				return nil, st.name(p), err
			}
			for _, u := range unseated {
				log.Warn("tie not played off: the game cannot seat the tied bots", "stage", u.Stage, "group", u.Group, "bots", u.Bots, "problem", u.Problem.Error())
			}
			if pr != nil {
				return pr, st.name(p), nil
			}
			continue
		}
		pr, err := stages.Make(p, st.k, results, game.Seats)
		if err != nil {
			return nil, st.name(p), err
		}
		cuts, err := stages.StageCuts(p, st.k, results)
		if err != nil {
			return nil, st.name(p), err
		}
		for _, c := range cuts {
			log.Warn("a pick's cut fell between bots no playoff separated: decided by "+c.DecidedBy, "cut", c.String())
		}
		return pr, st.name(p), nil
	}
	return nil, "", nil
}

// loadGame rebuilds the plan's game with its driver, and holds the bots
// to its submission rules; out are the bots disqualified by them.
func (r *Runner) loadGame() (drivers.Game, map[string]string, error) {
	game, err := r.loadGameSettings()
	if err != nil {
		return nil, nil, err
	}
	out, err := r.checkEntries(game)
	return game, out, err
}

// loadGameSettings rebuilds the plan's game with its driver.
func (r *Runner) loadGameSettings() (drivers.Game, error) {
	g := r.Plan.Game
	var drv drivers.Driver
	if r.Drivers != nil {
		drv, _ = r.Drivers(g.Driver)
	}
	if drv == nil {
		return nil, fmt.Errorf("the plan's game %q is played by the driver %q, which this arbiter does not have", g.Name, g.Driver)
	}
	game, err := drv.LoadGame(g.Settings)
	if err != nil {
		return nil, fmt.Errorf("the plan's settings of game %q do not load (%w); was the plan written by another version of arbiter?", g.Name, err)
	}
	// Before anything is written: a game that cannot seat the plan's
	// matches would fail (or a referee refuse) in the first of them.
	if err := r.Plan.CheckGame(game); err != nil {
		return nil, fmt.Errorf("the plan cannot be played: %w", err)
	}
	return game, nil
}

// CheckOnly refuses, before anything is written, a match id of only that
// names no match of p nor of a round already paired in out, the results
// directory (which need not exist yet): the check Run makes of
// Runner.Only, made before the run creates out and its files. A stage
// whose file out is missing is made again from its results, as Run does.
// A directory whose rounds cannot be read is left to Run, which says why.
func CheckOnly(out string, p *plan.Plan, only []string, drv func(string) (drivers.Driver, bool)) error {
	if len(only) == 0 {
		return nil
	}
	var game drivers.Game
	if p.MakesLater() {
		var err error
		if game, err = (&Runner{Plan: p, Drivers: drv}).loadGameSettings(); err != nil {
			return nil
		}
	}
	results, err := readResultsFile(filepath.Join(out, ResultsFile))
	if err != nil {
		return nil
	}
	sf, err := loadStages(out, p, results, game)
	if err != nil {
		return nil
	}
	paired := sf.paired
	known := *p
	known.Matches = slices.Clone(p.Matches)
	for _, pr := range paired {
		known.Matches = append(known.Matches, pr.Matches...)
	}
	_, err = (&Runner{Only: only}).selected(&known)
	return err
}

// selected are the matches named by Only, among those of p.
func (r *Runner) selected(p *plan.Plan) ([]*plan.Match, error) {
	var out []*plan.Match
	seen := map[string]bool{}
	// By index: a shard names thousands of matches.
	index := make(map[string]*plan.Match, len(p.Matches))
	for i := range p.Matches {
		index[p.Matches[i].ID] = &p.Matches[i]
	}
	for _, id := range r.Only {
		m := index[id]
		if why := impossibleID(p, id); m == nil && why != "" {
			return nil, fmt.Errorf("the plan has no match %q, and this configuration makes none by that id, now or later: %s", id, why)
		}
		if m == nil && notMadeYet(p, id) != "" {
			return nil, fmt.Errorf("%q is a match of %s (a run without -match makes it)", id, notMadeYet(p, id))
		}
		if m == nil {
			return nil, fmt.Errorf("the plan has no match %q (ids look like %s; see arbiter plan)", id, idExample(p, id))
		}
		if !seen[id] {
			out = append(out, m)
			seen[id] = true
		}
	}
	return out, nil
}

// playMatch runs one match in a fresh matches/<id> directory: in this
// process, or in a worker process of the run's (Runner.CPUs). A bot's
// misbehaviour is part of the result; only cancellation and the arbiter's
// own I/O failures are errors.
func (r *Runner) playMatch(ctx context.Context, game drivers.Game, m *plan.Match, log hclog.Logger, fps map[string]string, verdicts map[string]BuildRecord) (*Result, error) {
	st, err := r.stageMatch(m, fps, verdicts)
	if err != nil {
		return nil, err
	}
	if r.workers != nil {
		return r.workers.play(ctx, m, st)
	}
	return r.playStaged(ctx, game, m, st, log)
}

// staged is a match made ready to play: its directory made afresh, its
// bots built and seated, the state they carry in place.
type staged struct {
	dir   string
	seats []drivers.Seat
	// fingerprints are the hashes of the bots' files as the match starts
	// (see watch), which its result records.
	fingerprints map[string]string
}

// stageMatch does what comes before a match plays, all of which needs
// the run's state (builds, disqualifications, carried state): the
// arbiter that runs the plan does it, wherever the match then plays.
func (r *Runner) stageMatch(m *plan.Match, fps map[string]string, verdicts map[string]BuildRecord) (*staged, error) {
	dir := filepath.Join(r.Out, MatchesDir, m.ID)
	if err := os.RemoveAll(dir); err != nil {
		return nil, OwnerHint(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, OwnerHint(err)
	}
	st := &staged{dir: dir, fingerprints: fps}
	for i, name := range m.Seats {
		seat, err := r.seat(m, i, name, dir)
		if err != nil {
			return nil, err
		}
		st.seats = append(st.seats, seat)
	}
	unbuilt(st.seats, verdicts)
	if r.carry != nil {
		if err := r.carry.prepare(r.Out, dir, m, st.seats); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// judgeUnbuilt gives every seat of a bot whose build failed the build's
// verdict. The game saw such a seat as a bot that cannot start; a seat it
// did not judge (a duel ends at the first seat that does not start, and a
// later one is never tried) loses all the same: no score, and the last
// place where the game gives places. The session games start every seat
// at once and judge each seat that does not start.
func judgeUnbuilt(out *drivers.Outcome, seats []drivers.Seat) {
	placed := false
	for _, s := range out.Seats {
		placed = placed || s.Place != 0
	}
	for i, s := range seats {
		if s.Unbuilt == "" || i >= len(out.Seats) {
			continue
		}
		o := &out.Seats[i]
		if o.Fault == "" {
			o.Score = 0
			if placed {
				o.Place = float64(len(out.Seats))
			}
		}
		o.Fault, o.Detail = FaultBuild, s.Unbuilt
	}
}

// bystanders says a match has seats that a fault in it did not touch:
// more than two seats, one of them at fault. Only then does a result say
// whether the game played on (Result.PlayedOut).
func bystanders(out *drivers.Outcome) bool {
	return len(out.Seats) > 2 && slices.ContainsFunc(out.Seats, func(s drivers.SeatResult) bool { return s.Fault != "" })
}

// playStaged plays a staged match and writes its transcript.
func (r *Runner) playStaged(ctx context.Context, game drivers.Game, m *plan.Match, st *staged, log hclog.Logger) (*Result, error) {
	tr, err := newTranscript(st.dir, r.Compress)
	if err != nil {
		return nil, err
	}
	match := &drivers.Match{ID: m.ID, Seed: m.Seed, Round: m.Round, Variant: m.Variant, Dir: st.dir,
		Clock: m.Clock, Record: tr, Log: log, Seats: st.seats}
	// The match event is every transcript's first line (docs/events.md),
	// a seat's failed build after it (before 2026-11-24 the build's fault
	// came first: readTranscript reads such a transcript in today's order).
	tr.Event("match", map[string]any{"id": m.ID, "seed": m.Seed, "seats": m.Seats})
	for i, s := range st.seats {
		if s.Unbuilt != "" {
			tr.Event("fault", map[string]any{"seat": i, "kind": FaultBuild, "detail": s.Unbuilt})
		}
	}
	log.Debug("match started", "seats", m.Seats)
	// A bot's stderr file that cannot be written (a full disk) leaves the
	// match's records incomplete by the machine's fault: the match stops
	// at once and is not judged, like one whose transcript cannot be
	// written, and the run stops with the error (a resumed run plays it
	// again). The bot itself never notices (drivers/proc/stderr.go).
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var lostMu sync.Mutex
	var lost error
	ctx = proc.StderrFailures(ctx, func(err error) {
		lostMu.Lock()
		lost = cmp.Or(lost, err)
		lostMu.Unlock()
		stop()
	})
	start := time.Now()
	out, err := game.Play(ctx, match)
	elapsed := time.Since(start)
	lostMu.Lock()
	if lost != nil {
		err = lost
	}
	lostMu.Unlock()
	if err != nil {
		tr.Close()
		return nil, err
	}
	judgeUnbuilt(out, st.seats)
	res := &Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed, ElapsedMS: elapsed.Milliseconds(),
		PlayedOut:    out.PlayedOut && bystanders(out),
		Fingerprints: st.fingerprints}
	for i, s := range out.Seats {
		res.Seats = append(res.Seats, SeatResult{Bot: m.Seats[i], SeatResult: s})
		if s.Fault != "" {
			log.Warn("bot fault", append([]any{"seat", i, "bot", m.Seats[i], "fault", s.Fault, "detail", s.Detail},
				faultStderr(st.seats[i].Stderr, s.Fault)...)...)
		}
		if n := stats.ReplacedAnswers(s); n > 0 {
			// The match went on with the game's defaults; without a word
			// here the bot's author would see only a weak score. A bot
			// that never started has its fault's line above instead.
			log.Warn("answers replaced by the game's defaults", "seat", i, "bot", m.Seats[i], "replaced", n, "first", s.DefaultDetail)
		}
	}
	for _, f := range stages.MatchGateFaults(r.Plan, m.Stage, res) {
		log.Warn("the gate's own bot failed: this gate match admits no one", "stage", f.Stage, "gate_bot", f.Bot, "failure", f.Failure)
	}
	tr.NoteCuts()
	tr.Event("result", res)
	if err := tr.Close(); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return res, nil
}

// warnUntranscribed says which finished matches of the results directory
// out have lost their transcript (removed by hand, a copy that left them
// out). Their results stand and a resumed run does not play them again,
// but nothing else would tell that they cannot be followed, reported or
// compared any more; replay plays such a match again and writes its
// transcript.
func warnUntranscribed(out string, prior []Result, log hclog.Logger) {
	const most = 10 // named; the rest counted
	var missing []string
	n := 0
	for _, res := range prior {
		if fileExists(TranscriptPath(filepath.Join(out, MatchesDir, res.Match))) {
			continue
		}
		if n++; n <= most {
			missing = append(missing, res.Match)
		}
	}
	if n == 0 {
		return
	}
	names := strings.Join(missing, " ")
	if n > most {
		names += fmt.Sprintf(" and %d more", n-most)
	}
	log.Warn(fmt.Sprintf("finished matches without their transcript (%s missing): their results stand; "+
		"arbiter replay %s MATCH -out DIR2 plays one again and writes its transcript in DIR2", TranscriptFile, out),
		"count", n, "matches", names)
}

// stderrEndMost is the most bytes of a crashed bot's last stderr line
// that its "bot fault" log line quotes.
const stderrEndMost = 200

// faultStderr are the fields a "bot fault" log line adds for the fault
// of the given kind of a bot whose stderr went to the file at path:
// stderr, the file, when the bot wrote to it, and for a crash
// stderr_end, its last line that holds more than spaces (a traceback's
// last line says what went wrong; the log quotes it with Go's escapes
// when it holds a control character), or stderr_cut when the file ends
// with the arbiter's note that it reached its cap (proc.StderrCutNote),
// whose last line is then not the bot's. Only the log says them: what a
// bot writes to stderr is not part of the match's record (the fault's
// detail, its transcript), which a replay compares and the bot's stderr
// need not repeat.
func faultStderr(path, kind string) []any {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil
	}
	fields := []any{"stderr", path}
	if kind == drivers.FaultCrash {
		switch end := filetail.LastLine(path, stderrEndMost); {
		case proc.IsStderrCutNote(end):
			// The arbiter's note, not the bot's: its last lines were
			// dropped at the file's cap.
			fields = append(fields, "stderr_cut", true)
		case end != "":
			fields = append(fields, "stderr_end", end)
		}
	}
	return fields
}

// StderrFile is the file of a match's directory that the stderr of the
// bot of seat i goes to (drivers.Seat.Stderr; a game that runs its bots
// itself may name its own, like Euchre's per position).
func StderrFile(i int, bot string) string { return fmt.Sprintf("seat%d-%s.stderr", i, bot) }

func (r *Runner) seat(m *plan.Match, i int, name, dir string) (drivers.Seat, error) {
	b := r.Plan.Bot(name)
	if b == nil {
		return drivers.Seat{}, fmt.Errorf("the plan has no bot %q", name)
	}
	seat := drivers.Seat{
		Bot:    name,
		Nick:   cmp.Or(b.Nick, name),
		Limits: limitsOf(b),
		Stderr: filepath.Join(dir, StderrFile(i, name)),
		Out:    r.out[name],
	}
	keys := make([]string, 0, len(b.Env))
	for k := range b.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		seat.Env = append(seat.Env, k+"="+b.Env[k])
	}
	// Last, so that arbiter's own win over a plan's env (the last of
	// equal names counts), also in a plan.json edited by hand.
	seat.Env = append(seat.Env, drivers.BotEnv(m.ID, i, m.Seed)...)
	if b.House != "" {
		seat.Command = []string{r.Self, "bot", b.House}
		seat.Dir = dir
		return seat, nil
	}
	seat.Command = runsCommand(b)
	seat.Dir, seat.PlanDir = b.DirIn(r.Root), b.Dir
	seat.Limits = seat.Limits.WithBotDir(seat.Dir) // its dir, even where it runs in a game's folder
	return seat, nil
}

// runsCommand is bot b's command with the program its plan records in
// place of a version manager's shim (plan.Fingerprint.Program): the
// interpreter the shim chose when the plan was made runs, in the sandbox
// (which runs drivers.Sandbox.Program, the same file) and outside it, so
// a version file changed while the run goes on does not make the bot run
// another one than plan.json and its results say.
func runsCommand(b *plan.Bot) []string {
	if b.Fingerprint == nil || b.Fingerprint.Program == "" || len(b.Command) == 0 {
		return b.Command
	}
	return append([]string{b.Fingerprint.Program}, b.Command[1:]...)
}

// reportEvery is how often the game's own files are rewritten during a
// run: rewriting them from every result after every match would cost a
// tournament time quadratic in its matches. They are rewritten at its end
// too.
const reportEvery = time.Second

// reportBackoff is how many times as long as the last report took the
// run waits after it before the next one, when that is longer than
// reportEvery. The standings a snapshot ranks cost time that grows with
// the results and the bots (BayesElo's intervals of 200 bots over 12,000
// results took a second), and s.mu is held meanwhile: reported every
// second, a report that takes one ran after every match, and the run
// played one match a report.
const reportBackoff = 4

// reportDue says whether a result finished now rewrites the reports: the
// first one does, later ones once reportEvery, and four times as long as
// the last report took, have passed since it ended; s.mu is held.
func (s *session) reportDue() bool {
	return time.Since(s.reportedAt) >= max(reportEvery, reportBackoff*s.reportCost)
}

// reportOrLater rewrites the reports from the results so far if that is
// due, or else has them rewritten once the wait is over (reportLater), so
// that the last results before a quiet spell (a stage's last matches, the
// next one waiting for them) do not wait for the next result to show;
// s.mu is held.
func (s *session) reportOrLater() {
	if !s.reportDue() {
		s.reportLater()
		return
	}
	if err := s.report(); err != nil && s.firstErr == nil {
		s.firstErr = err
		s.cancel()
	}
}

// reportLater sets the one timer that rewrites the reports when the wait
// since the last rewrite is over, unless it is set already or the run has
// made its last rewrite; s.mu is held.
func (s *session) reportLater() {
	if s.trailing != nil || s.ended {
		return
	}
	wait := max(reportEvery, reportBackoff*s.reportCost) - time.Since(s.reportedAt)
	s.trailing = time.AfterFunc(wait, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.trailing = nil
		if !s.ended && s.reported != len(s.sum.Results) {
			s.reportOrLater()
		}
	})
}

// finalReport stops the trailing rewrite, if one is set, and rewrites the
// reports from every result: the last files the run writes, after any
// trailing rewrite under way has ended (s.mu).
func (s *session) finalReport() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	if s.trailing != nil {
		s.trailing.Stop()
		s.trailing = nil
	}
	return s.report()
}

// report lets a game that keeps files of its own formats rewrite them from
// every finished match, in plan order, and hands the run so far to the
// runner's Snapshot; s.mu is held, or the workers are done.
func (s *session) report() error {
	if s.reported == len(s.sum.Results) && !s.reportedAt.IsZero() {
		return nil
	}
	start := time.Now()
	s.reportedAt, s.reported = start, len(s.sum.Results)
	defer func() { s.reportedAt = time.Now(); s.reportCost = s.reportedAt.Sub(start) }()
	if s.r.Snapshot != nil {
		if err := s.r.Snapshot(s.sum); err != nil {
			return err
		}
	}
	rep, ok := s.game.(drivers.Reporter)
	if !ok {
		return nil
	}
	p := &s.full
	index := map[string]int{}
	for i, m := range p.Matches {
		index[m.ID] = i
	}
	nicks := map[string]string{}
	for _, b := range p.Bots {
		nicks[b.Name] = cmp.Or(b.Nick, b.Name)
	}
	var done []drivers.ReportedMatch
	for _, res := range stats.InPlanOrder(p, s.sum.Results) {
		i, ok := index[res.Match]
		if !ok {
			continue
		}
		rm := drivers.ReportedMatch{Index: i + 1, ID: res.Match, Dir: filepath.Join(s.r.Out, MatchesDir, res.Match)}
		for _, seat := range res.Seats {
			rm.Bots = append(rm.Bots, seat.Bot)
			rm.Nicks = append(rm.Nicks, cmp.Or(nicks[seat.Bot], seat.Bot))
			rm.Outcome.Seats = append(rm.Outcome.Seats, seat.SeatResult)
		}
		done = append(done, rm)
	}
	if err := rep.Report(s.r.Out, done); err != nil {
		return fmt.Errorf("writing the %s files: %w", s.r.Plan.Game.Driver, err)
	}
	return nil
}

func limitsOf(b *plan.Bot) drivers.Limits {
	if b.Limits == nil {
		return drivers.Limits{}
	}
	return *b.Limits
}
