package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Runner executes a plan into a results directory.
type Runner struct {
	Plan *plan.Plan
	Game drivers.Game
	// Root is the configuration's directory; bot dirs in the plan are
	// relative to it.
	Root string
	// Out is the results directory.
	Out string
	// Jobs is how many matches run at once (at least 1).
	Jobs int
	// Only restricts the run to these match ids (all when empty).
	Only []string
	// Self is the arbiter executable, which runs house bots as
	// `Self bot <driver>/<name>`.
	Self string
	Log  hclog.Logger
	// Progress, if set, hears about every match that starts and ends.
	Progress Progress
}

// Progress follows a run.
type Progress interface {
	// Begin is called once with the number of matches to run and the
	// number already finished before this run.
	Begin(todo, done int)
	Started(m *plan.Match)
	Finished(m *plan.Match, r *Result)
}

// Summary says what a run did.
type Summary struct {
	Planned  int // matches selected
	Skipped  int // already finished before this run
	Finished int // finished by this run
	// Results are all results of the directory after the run.
	Results []Result
}

// ErrInterrupted is returned when the run was cancelled: every finished
// match is journaled and a re-run resumes.
var ErrInterrupted = errors.New("interrupted")

// Run runs every selected match that the results directory does not hold
// yet. Cancelling ctx stops the run: matches in progress are abandoned
// (their bots killed) and run again next time.
func (r *Runner) Run(ctx context.Context) (*Summary, error) {
	log := r.Log
	if log == nil {
		log = hclog.NewNullLogger()
	}
	log = log.Named("engine")
	selected, err := r.selected()
	if err != nil {
		return nil, err
	}
	j, prior, err := openJournal(r.Out, r.Plan)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	done := map[string]bool{}
	for _, res := range prior {
		done[res.Match] = true
	}
	var todo []*plan.Match
	for _, m := range selected {
		if !done[m.ID] {
			todo = append(todo, m)
		}
	}
	sum := &Summary{Planned: len(selected), Skipped: len(selected) - len(todo), Results: prior}
	log.Info("run", "plan", r.Plan.Hash[:12], "matches", len(selected), "finished_before", sum.Skipped, "to_run", len(todo), "jobs", r.Jobs)
	if r.Progress != nil {
		r.Progress.Begin(len(todo), sum.Skipped)
	}

	jobs := max(r.Jobs, 1)
	queue := make(chan *plan.Match)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range queue {
				if r.Progress != nil {
					r.Progress.Started(m)
				}
				res, err := r.playMatch(ctx, m, log.With("match", m.ID))
				if err == nil {
					err = j.Append(res)
				}
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = fmt.Errorf("match %s: %w", m.ID, err)
						cancel()
					}
					mu.Unlock()
					continue
				}
				sum.Finished++
				sum.Results = append(sum.Results, *res)
				mu.Unlock()
				if r.Progress != nil {
					r.Progress.Finished(m, res)
				}
			}
		}()
	}
feed:
	for _, m := range todo {
		select {
		case queue <- m:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		return sum, firstErr
	}
	if ctx.Err() != nil {
		return sum, ErrInterrupted
	}
	return sum, nil
}

func (r *Runner) selected() ([]*plan.Match, error) {
	var out []*plan.Match
	if len(r.Only) == 0 {
		for i := range r.Plan.Matches {
			out = append(out, &r.Plan.Matches[i])
		}
		return out, nil
	}
	seen := map[string]bool{}
	for _, id := range r.Only {
		m := r.Plan.Match(id)
		if m == nil {
			return nil, fmt.Errorf("the plan has no match %q (ids look like %s; see arbiter plan)", id, r.Plan.Matches[0].ID)
		}
		if !seen[id] {
			out = append(out, m)
			seen[id] = true
		}
	}
	return out, nil
}

// playMatch runs one match in a fresh matches/<id> directory. A bot's
// misbehaviour is part of the result; only cancellation and the arbiter's
// own I/O failures are errors.
func (r *Runner) playMatch(ctx context.Context, m *plan.Match, log hclog.Logger) (*Result, error) {
	dir := filepath.Join(r.Out, MatchesDir, m.ID)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tr, err := newTranscript(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		return nil, err
	}
	match := &drivers.Match{ID: m.ID, Seed: m.Seed, Clock: m.Clock, Record: tr, Log: log}
	for i, name := range m.Seats {
		seat, err := r.seat(m, i, name, dir)
		if err != nil {
			tr.Close()
			return nil, err
		}
		match.Seats = append(match.Seats, seat)
	}
	tr.Event("match", map[string]any{"id": m.ID, "seed": m.Seed, "seats": m.Seats})
	log.Debug("match started", "seats", m.Seats)
	start := time.Now()
	out, err := r.Game.Play(ctx, match)
	elapsed := time.Since(start)
	if err != nil {
		tr.Close()
		return nil, err
	}
	res := &Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed, ElapsedMS: elapsed.Milliseconds()}
	for i, s := range out.Seats {
		res.Seats = append(res.Seats, SeatResult{Bot: m.Seats[i], SeatResult: s})
		if s.Fault != "" {
			log.Warn("bot fault", "seat", i, "bot", m.Seats[i], "fault", s.Fault, "detail", s.Detail)
		}
	}
	tr.Event("result", res)
	if err := tr.Close(); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return res, nil
}

func (r *Runner) seat(m *plan.Match, i int, name, dir string) (drivers.Seat, error) {
	b := r.Plan.Bot(name)
	if b == nil {
		return drivers.Seat{}, fmt.Errorf("the plan has no bot %q", name)
	}
	seat := drivers.Seat{
		Bot:    name,
		Limits: limitsOf(b),
		Stderr: filepath.Join(dir, fmt.Sprintf("seat%d-%s.stderr", i, name)),
		Env: []string{
			"ARBITER_MATCH=" + m.ID,
			"ARBITER_SEAT=" + strconv.Itoa(i),
			"ARBITER_SEED=" + strconv.FormatUint(m.Seed, 10),
		},
	}
	keys := make([]string, 0, len(b.Env))
	for k := range b.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		seat.Env = append(seat.Env, k+"="+b.Env[k])
	}
	if b.House != "" {
		seat.Command = []string{r.Self, "bot", b.House}
		seat.Dir = dir
		return seat, nil
	}
	seat.Command = b.Command
	seat.Dir = b.Dir
	if !filepath.IsAbs(seat.Dir) {
		seat.Dir = filepath.Join(r.Root, filepath.FromSlash(b.Dir))
	}
	return seat, nil
}

func limitsOf(b *plan.Bot) drivers.Limits {
	if b.Limits == nil {
		return drivers.Limits{}
	}
	return *b.Limits
}
