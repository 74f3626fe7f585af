package engine_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// totals records what a run tells its progress: the total it counts
// (Begin's todo plus every More) and how many matches finished.
type totals struct {
	mu       sync.Mutex
	total    int
	atFirst  int // the total when the first match finished
	finished int
	cancelAt int // cancel once this many finished (0: never)
	cancel   context.CancelFunc
}

func (p *totals) Begin(todo, done int) { p.total = todo }
func (p *totals) More(todo, done int) {
	p.mu.Lock()
	p.total += todo
	p.mu.Unlock()
}
func (p *totals) Started(*plan.Match) {}
func (p *totals) Finished(*plan.Match, *engine.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	if p.finished == 1 {
		p.atFirst = p.total
	}
	if p.finished == p.cancelAt {
		p.cancel()
	}
}

// The progress counts the rounds still to be paired from the start, so
// its ETA is the whole tournament's ("176/180" of a 1,200-match run was
// the rounds paired so far), also when a run resumes.
func TestProgressCountsRoundsNotPairedYet(t *testing.T) {
	for _, tt := range []struct{ format, opts string }{
		{"groups", "groups { random_rounds = 1 }"},
		{"swiss", ""},
	} {
		t.Run(tt.format, func(t *testing.T) {
			tour := strings.Replace(fmtAdaptive(tt.format, tt.opts), "bot.g2, bot.r3]", "bot.g2]", 1)
			out := t.TempDir()
			r := runner(t, 3, tour, out, 2)
			p := &totals{}
			r.Progress = p
			sum, err := r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if sum.Finished != 16 || p.atFirst != 16 || p.total != 16 {
				t.Errorf("played %d; progress counted %d at the first result, %d at the end; want 16 throughout", sum.Finished, p.atFirst, p.total)
			}

			// Interrupted in round 2 and resumed: the resumed run counts
			// what it has left.
			out = t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			r = runner(t, 3, tour, out, 1)
			r.Progress = &totals{cancelAt: 6, cancel: cancel}
			if _, err := r.Run(ctx); !errors.Is(err, engine.ErrInterrupted) {
				t.Fatalf("interrupted run: %v", err)
			}
			r = runner(t, 3, tour, out, 2)
			p = &totals{}
			r.Progress = p
			if sum, err = r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if p.atFirst != sum.Finished || p.total != sum.Finished {
				t.Errorf("resumed run played %d; progress counted %d at the first result, %d at the end", sum.Finished, p.atFirst, p.total)
			}
		})
	}
}

func fmtAdaptive(format, opts string) string {
	return strings.NewReplacer("format  = \"%s\"", "format  = \""+format+"\"", "  %s\n", "  "+opts+"\n").Replace(adaptive)
}

// The runner's Snapshot hears of the results as they come in: at the
// first result (so standings.txt exists during a long run), then at most
// once a second, and at the end with every result.
func TestSnapshotAsResultsComeIn(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1, bot.r2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  rounds  = 3
`
	r := runner(t, 3, tour, t.TempDir(), 1)
	var seen []int
	var at []time.Time
	r.Snapshot = func(sum *engine.Summary) error {
		seen = append(seen, len(sum.Results))
		at = append(at, time.Now())
		return nil
	}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 2 || seen[0] != 1 || seen[len(seen)-1] != 18 {
		t.Fatalf("snapshots of %v results; want the first result first and all 18 last", seen)
	}
	for i := 1; i+1 < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < time.Second {
			t.Errorf("snapshots %d and %d are %v apart", i, i+1, gap)
		}
	}
}

// A snapshot that takes long (ranking the results of many bots does)
// puts off the next one four times as long as it took, counted from its
// end: reported every second from its start, one that took a second held
// the session's lock again at the next match's end, and the run played a
// match a snapshot.
func TestSlowSnapshotPutsOffTheNext(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1, bot.r2, bot.g2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  rounds  = 12
`
	r := runner(t, 3, tour, t.TempDir(), 1)
	const took = 300 * time.Millisecond
	var starts, ends []time.Time
	var ended atomic.Int32
	r.Snapshot = func(sum *engine.Summary) error {
		starts = append(starts, time.Now())
		time.Sleep(took)
		ends = append(ends, time.Now())
		ended.Add(1)
		return nil
	}
	// Its matches take 20 ms or more each until the second snapshot, so
	// that results still come in when the first one's wait is over, and
	// after it, however fast the host plays them.
	r.Progress = pace{while: func() bool { return ended.Load() < 2 }}
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The last snapshot is the one at the end, which is not put off.
	if len(starts) < 3 {
		t.Fatalf("%d snapshots: the run was too short to show the wait between two", len(starts))
	}
	for i := 1; i+1 < len(starts); i++ {
		if gap, want := starts[i].Sub(ends[i-1]), 4*ends[i-1].Sub(starts[i-1]); gap < want {
			t.Errorf("snapshot %d began %v after snapshot %d ended, which took %v: want at least %v", i+1, gap, i, ends[i-1].Sub(starts[i-1]), want)
		}
	}
}

// The results that finished within the wait after a snapshot are
// snapshotted once the wait is over, also when no result follows for a
// while (a stage's last matches, the next stage waiting for them):
// standings.txt showed them only once the next match finished. Two jobs
// play the first two matches; the first one's snapshot returns only once
// the second's result is journaled, so that the second finishes within
// its wait, and the third match starts only once a snapshot holds both:
// no later result can have made that snapshot, nor the run's last.
func TestSnapshotTrailsTheLastResults(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1, bot.r2]
  format  = "round-robin"
  players = 2
  seats   = "swap"
  rounds  = 1
`
	out := t.TempDir()
	r := runner(t, 3, tour, out, 2)
	q := &quiet{}
	q.cond = sync.NewCond(&q.mu)
	r.Snapshot = func(sum *engine.Summary) error {
		if len(sum.Results) == 1 {
			if err := journaled(filepath.Join(out, engine.ResultsFile), 2); err != nil {
				return err
			}
		}
		q.mu.Lock()
		q.seen = len(sum.Results)
		q.cond.Broadcast()
		q.mu.Unlock()
		return nil
	}
	r.Progress = q
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if q.late != "" {
		t.Fatal(q.late)
	}
}

// journaled waits until results.jsonl at path holds n results, for a
// minute at most.
func journaled(path string, n int) error {
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got := bytes.Count(b, []byte("\n"))
		if got >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s holds %d results after a minute; want %d", path, got, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// quiet is a Progress that holds the third match back until a snapshot
// holds the two results before it, or a minute has passed, which it
// notes in late.
type quiet struct {
	mu      sync.Mutex
	cond    *sync.Cond
	seen    int
	started int
	late    string
}

func (q *quiet) Begin(todo, done int) {}
func (q *quiet) Started(m *plan.Match) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.started++
	if q.started != 3 {
		return
	}
	deadline := time.AfterFunc(time.Minute, func() {
		q.mu.Lock()
		q.late = fmt.Sprintf("match %s waited a minute for a snapshot of the 2 results before it; the last held %d", m.ID, q.seen)
		q.cond.Broadcast()
		q.mu.Unlock()
	})
	defer deadline.Stop()
	for q.seen < 2 && q.late == "" {
		q.cond.Wait()
	}
}
func (q *quiet) Finished(*plan.Match, *engine.Result) {}

// pace is a Progress that makes each match begin 20 ms late while while
// says so.
type pace struct{ while func() bool }

func (p pace) Begin(todo, done int) {}
func (p pace) Started(*plan.Match) {
	if p.while() {
		time.Sleep(20 * time.Millisecond)
	}
}
func (p pace) Finished(*plan.Match, *engine.Result) {}

// A compressed run writes events.jsonl.gz; replay and every reader take
// it as they take events.jsonl.
func TestCompressedTranscripts(t *testing.T) {
	tour := `
  bots    = [bot.r1, bot.g1]
  format  = "round-robin"
  players = 2
  seats   = "swap"
`
	plain, packed := t.TempDir(), t.TempDir()
	if _, err := runner(t, 5, tour, plain, 1).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := runner(t, 5, tour, packed, 1)
	r.Compress = true
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	id := r.Plan.Matches[0].ID
	dir := filepath.Join(packed, engine.MatchesDir, id)
	if _, err := os.Stat(filepath.Join(dir, engine.TranscriptFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a compressed run wrote %s (%v)", engine.TranscriptFile, err)
	}
	if got := engine.TranscriptPath(dir); got != filepath.Join(dir, engine.TranscriptGzFile) {
		t.Errorf("TranscriptPath = %s", got)
	}
	lines := func(dir string) []string {
		f, err := engine.OpenTranscript(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var out []string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			out = append(out, sc.Text())
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := lines(filepath.Join(plain, engine.MatchesDir, id)), lines(dir)
	if len(a) < 5 || len(a) != len(b) || !strings.Contains(b[0], `"event":"match"`) {
		t.Fatalf("plain transcript of %d lines, compressed of %d: %q", len(a), len(b), b)
	}
	// The compressed transcript against its own lines, uncompressed.
	unpacked := filepath.Join(t.TempDir(), engine.TranscriptFile)
	if err := os.WriteFile(unpacked, []byte(strings.Join(b, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, diff, err := engine.CompareTranscripts(engine.TranscriptPath(dir), unpacked)
	if err != nil || diff != "" || n != len(b) {
		t.Errorf("a compressed transcript against its lines: %d lines, diff %q, %v", n, diff, err)
	}
	// Replay reads the recorded, compressed transcript (the fake game's
	// end event holds the bots' times, so the lines may differ there).
	rp := runner(t, 5, tour, t.TempDir(), 1)
	rp.Only = []string{id}
	replayed, err := rp.Replay(context.Background(), packed)
	if err != nil || len(replayed) != 1 || replayed[0].Lines != len(b) {
		t.Errorf("replaying a compressed match: %+v, %v", replayed, err)
	}
}
