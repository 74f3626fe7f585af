package main

import (
	"fmt"
	"os"
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
	p *mpb.Progress
	// term is the terminal as a lostOut: where what is written after the
	// bar is gone goes, and what notes the terminal lost.
	term    *lostOut
	bar     *mpb.Bar
	running atomic.Int64
	total   atomic.Int64
	once    sync.Once
	stages  stageCount
}

// stageCount follows the stage of the matches a run plays, in a
// tournament played in stages: the later stages' matches are not yet in
// the total, nor in the time left.
type stageCount struct {
	names []string
	at    atomic.Int64 // the index of the latest stage a match started in, +1
}

func (c *stageCount) set(names []string) { c.names = names }

func (c *stageCount) saw(m *plan.Match) {
	for k, n := range c.names {
		if n == m.Stage && int64(k+1) > c.at.Load() {
			c.at.Store(int64(k + 1))
		}
	}
}

// later is how many stages come after the latest one played, and that
// one's name and number; 0 and "" when the run has no stages or has not
// started a match.
func (c *stageCount) later() (n int, name string, k int) {
	k = int(c.at.Load())
	if k == 0 {
		return 0, "", 0
	}
	return len(c.names) - k, c.names[k-1], k
}

// Stages hears the run's stages (engine.ProgressStages).
func (b *barProgress) Stages(names []string) { b.stages.set(names) }

// newBarProgress draws the bar on tty, the terminal term writes to.
// mpb gets the *os.File itself: it draws and refreshes only on what it
// can tell is a terminal, and asks that for its width (a wrapper such as
// term would get no bar until the end, and the log lines held back with
// it). A write that fails ends mpb's drawing; mpb reports it on its debug
// output, here term's, which notes the terminal lost, and Write then
// hands the lines to term, which drops them. The bar is not tied to the
// run's context: an interrupted run's last log lines are still shown
// above it, until Wait.
func newBarProgress(tty *os.File, term *lostOut) *barProgress {
	p := mpb.New(mpb.WithOutput(tty), mpb.WithAutoRefresh(), mpb.WithWidth(40),
		mpb.WithDebugOutput(lostWriter{term}))
	return &barProgress{p: p, term: term}
}

func (b *barProgress) Begin(todo, done int) {
	// A total of 0 keeps the bar open for rounds paired later (More). A
	// terminal lost before the run began has ended mpb: then there is no
	// bar, and the run plays on with its log.
	bar, err := b.p.Add(0, mpb.BarStyle().Build(),
		mpb.PrependDecorators(
			decor.Name("matches "),
			decor.CountersNoUnit("%d/%d"),
			decor.Any(func(decor.Statistics) string { return fmt.Sprintf("  running %d", b.running.Load()) }),
			decor.Any(func(decor.Statistics) string {
				if _, name, k := b.stages.later(); k > 0 {
					return fmt.Sprintf("  stage %s (%d of %d)", name, k, len(b.stages.names))
				}
				return ""
			}),
		),
		mpb.AppendDecorators(
			decor.Percentage(),
			decor.Any(func(decor.Statistics) string {
				if n, _, _ := b.stages.later(); n > 0 {
					return fmt.Sprintf("  ETA (%s to come) ", plural(n, "stage"))
				}
				return "  ETA "
			}),
			decor.AverageETA(decor.ET_STYLE_MMSS),
		),
	)
	if err != nil {
		return
	}
	b.bar = bar
	b.More(todo, done)
}

// More adds the matches of a round paired during the run.
func (b *barProgress) More(todo, done int) {
	total := b.total.Add(int64(todo))
	if b.bar != nil {
		b.bar.SetTotal(total, false)
	}
}

func (b *barProgress) Started(m *plan.Match) {
	b.stages.saw(m)
	b.running.Add(1)
}

func (b *barProgress) Finished(*plan.Match, *engine.Result) {
	b.running.Add(-1)
	if b.bar != nil {
		b.bar.Increment()
	}
}

// Write shows p above the bar; once the bar is gone (after Wait, or the
// terminal lost), on the terminal as it is, or nowhere.
func (b *barProgress) Write(p []byte) (int, error) {
	if _, err := b.p.Write(p); err != nil {
		return b.term.Write(p)
	}
	return len(p), nil
}

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
	log    hclog.Logger
	mu     sync.Mutex
	todo   int
	done   int
	start  time.Time
	stages stageCount
}

// Stages hears the run's stages (engine.ProgressStages).
func (l *logProgress) Stages(names []string) { l.stages.set(names) }

func (l *logProgress) Begin(todo, done int) {
	l.todo, l.start = todo, time.Now()
}

// More adds the matches of a round paired during the run.
func (l *logProgress) More(todo, done int) {
	l.mu.Lock()
	l.todo += todo
	l.mu.Unlock()
}

func (l *logProgress) Started(m *plan.Match) { l.stages.saw(m) }

func (l *logProgress) Finished(m *plan.Match, r *engine.Result) {
	l.mu.Lock()
	l.done++
	done, todo := l.done, l.todo
	l.mu.Unlock()
	elapsed := time.Since(l.start)
	eta := time.Duration(float64(elapsed) / float64(done) * float64(todo-done)).Round(time.Second)
	args := []any{"match", m.ID, "done", fmt.Sprintf("%d/%d", done, todo), "eta", eta.String()}
	if n, name, _ := l.stages.later(); n > 0 {
		// done and eta count the stages made so far.
		args = append(args, "stage", name, "stages_to_come", n)
	}
	for _, s := range r.Seats {
		v := fmt.Sprint(s.Score)
		if s.Fault != "" {
			v += " (" + s.Fault + ")"
		}
		args = append(args, s.Bot, v)
	}
	l.log.Info("finished", args...)
}
