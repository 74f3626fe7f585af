package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// barProgress draws a live progress bar on a terminal; logs written
// through it appear above the bar.
type barProgress struct {
	p       *mpb.Progress
	bar     *mpb.Bar
	running atomic.Int64
	total   atomic.Int64
	once    sync.Once
}

func newBarProgress(ctx context.Context, w io.Writer) *barProgress {
	return &barProgress{p: mpb.NewWithContext(ctx, mpb.WithOutput(w), mpb.WithWidth(40))}
}

func (b *barProgress) Begin(todo, done int) {
	// A total of 0 keeps the bar open for rounds paired later (More).
	b.bar = b.p.AddBar(0,
		mpb.PrependDecorators(
			decor.Name("matches "),
			decor.CountersNoUnit("%d/%d"),
			decor.Any(func(decor.Statistics) string { return fmt.Sprintf("  running %d", b.running.Load()) }),
		),
		mpb.AppendDecorators(
			decor.Percentage(),
			decor.Name("  ETA "),
			decor.AverageETA(decor.ET_STYLE_MMSS),
		),
	)
	b.More(todo, done)
}

// More adds the matches of a round paired during the run.
func (b *barProgress) More(todo, done int) {
	b.bar.SetTotal(b.total.Add(int64(todo)), false)
}

func (b *barProgress) Started(*plan.Match) { b.running.Add(1) }

func (b *barProgress) Finished(*plan.Match, *engine.Result) {
	b.running.Add(-1)
	b.bar.Increment()
}

func (b *barProgress) Write(p []byte) (int, error) { return b.p.Write(p) }

// Wait stops the bar (also after an interrupted run) and waits until it
// is drawn for the last time.
func (b *barProgress) Wait() {
	b.once.Do(func() {
		if b.bar != nil && !b.bar.Completed() {
			b.bar.Abort(false)
		}
		b.p.Wait()
	})
}

// logProgress reports progress as log lines, for logs and pipes.
type logProgress struct {
	log   hclog.Logger
	mu    sync.Mutex
	todo  int
	done  int
	start time.Time
}

func (l *logProgress) Begin(todo, done int) {
	l.todo, l.start = todo, time.Now()
}

// More adds the matches of a round paired during the run.
func (l *logProgress) More(todo, done int) {
	l.mu.Lock()
	l.todo += todo
	l.mu.Unlock()
}

func (l *logProgress) Started(*plan.Match) {}

func (l *logProgress) Finished(m *plan.Match, r *engine.Result) {
	l.mu.Lock()
	l.done++
	done, todo := l.done, l.todo
	l.mu.Unlock()
	elapsed := time.Since(l.start)
	eta := time.Duration(float64(elapsed) / float64(done) * float64(todo-done)).Round(time.Second)
	args := []any{"match", m.ID, "done", fmt.Sprintf("%d/%d", done, todo), "eta", eta.String()}
	for _, s := range r.Seats {
		v := fmt.Sprint(s.Score)
		if s.Fault != "" {
			v += " (" + s.Fault + ")"
		}
		args = append(args, s.Bot, v)
	}
	l.log.Info("finished", args...)
}
