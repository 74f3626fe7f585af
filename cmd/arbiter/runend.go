package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
)

// keepOnWithoutReader makes a write to a stdout or stderr whose reader is
// gone (a pipe into head that has ended, a closed terminal) fail with
// EPIPE instead of ending the process with SIGPIPE: a run goes on to its
// end whoever reads its output (see lostOut), as it does when its reader
// is slow. Notified rather than ignored, so that the bots and workers the
// run starts get SIGPIPE back at its default. It is never undone: the
// last words of the run (its error) are written as it returns.
func keepOnWithoutReader() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// lostOut is the run's stdout, stderr or terminal, which may lose its
// reader: a write that fails is dropped, and so is every write after it;
// the run's log (arbiter.log, which receives every log line as well)
// notes it once. Its writes never fail, so that what is written beside
// it (the log file, in a MultiWriter with it; standings.txt, after the
// standings) is.
type lostOut struct {
	w    io.Writer
	name string
	// then says what becomes of what it would have shown.
	then string
	mu   sync.Mutex
	err  error        // the write that failed, once one has
	log  hclog.Logger // where to note it; nil until the log is open
	told bool
}

func (o *lostOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return len(p), nil
	}
	if _, err := o.w.Write(p); err != nil {
		o.err = err
		o.tell()
	}
	return len(p), nil
}

// noteIn has log (the run's log file's alone: a write to a lostOut may
// be one of a logger that writes to it, which holds that logger's lock)
// note a lost output, also one lost before the log was open.
func (o *lostOut) noteIn(log hclog.Logger) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.log = log
	o.tell()
}

// tell notes the lost output once; o.mu is held.
func (o *lostOut) tell() {
	if o.err == nil || o.log == nil || o.told {
		return
	}
	o.told = true
	o.log.Warn(o.name+" cannot be written: the run goes on, "+o.then, "error", o.err.Error())
}

// lost makes o lost with err, a failed write of someone else's to what
// o writes to (mpb's, drawing the bar on the terminal).
func (o *lostOut) lost(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		o.err = err
		o.tell()
	}
}

// logFileOut is the run's arbiter.log. A line it cannot take whole (a
// full disk, a quota) is cut off again (atomicfile.AppendLine), and it
// takes no line after that one, also once there is room again: the file
// ends with whole lines, the next run's first line on a line of its own,
// and it has no gap that it does not show (the run says on stderr that
// the rest of its log is there alone; lostOut). Its lock is held only
// while it writes, so that the run's log (through a lostOut, which notes
// the failure on stderr) and the log of the file alone (runEnd.log,
// which notes a lost stderr) may both write to it.
type logFileOut struct {
	f   *os.File
	mu  sync.Mutex
	err error // the write that failed, once one has
}

func (l *logFileOut) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = atomicfile.AppendLine(l.f, p)
	}
	if l.err != nil {
		return 0, l.err
	}
	return len(p), nil
}

// lostWriter takes the error mpb writes to its debug output when drawing
// the bar failed, and makes the terminal lost with it (lostOut.lost).
type lostWriter struct{ o *lostOut }

func (w lostWriter) Write(p []byte) (int, error) {
	w.o.lost(errors.New(strings.TrimSpace(string(p))))
	return len(p), nil
}

// runOuts are a run's stdout and stderr, each a lostOut.
type runOuts struct{ stdout, stderr *lostOut }

// newRunOuts makes stdout and stderr a run's, which it writes to as long
// as they have a reader, and goes on without (keepOnWithoutReader).
func newRunOuts(stdout, stderr io.Writer) *runOuts {
	keepOnWithoutReader()
	return &runOuts{
		stdout: &lostOut{w: stdout, name: "stdout", then: "its standings in standings.txt alone"},
		stderr: &lostOut{w: stderr, name: "stderr", then: "its log in arbiter.log alone"},
	}
}

// noteIn has log note either of them lost (lostOut.noteIn).
func (o *runOuts) noteIn(log hclog.Logger) {
	o.stdout.noteIn(log)
	o.stderr.noteIn(log)
}

// signalCause is the cause of a run's context cancelled by a signal.
type signalCause struct{ sig os.Signal }

func (e signalCause) Error() string { return signalName(e.sig) + " received" }

// interruptedBy is the signal that cancelled ctx (runSignals.begin), or
// nil.
func interruptedBy(ctx context.Context) os.Signal {
	var c signalCause
	if errors.As(context.Cause(ctx), &c) {
		return c.sig
	}
	return nil
}

// signalName is sig's name as kill(1) and the shell's trap say it
// (SIGHUP).
func signalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok {
		if name := unix.SignalName(s); name != "" {
			return name
		}
	}
	return sig.String()
}

// runSignals hears SIGINT, SIGTERM and SIGHUP for the whole of a run,
// from its first step. Until the run begins (begin), what it does cannot
// be cancelled part way and plays no match (loading the configuration,
// which may wait on a slow disk or a pipe; locking the results directory,
// fingerprinting the bots, writing plan.json and opening arbiter.log): a
// signal then ends the program at once, saying so and what it leaves,
// with an interrupted run's exit status. Once begun, a signal cancels the
// run's context with the signal as its cause (signalCause), and the run
// ends as runEnd says.
type runSignals struct {
	stderr io.Writer
	sigs   chan os.Signal
	mu     sync.Mutex
	doing  string // what the run does before it begins; "" once begun
	left   string // what a signal while doing that leaves, said after it
	cancel context.CancelCauseFunc
}

// hearSignals starts hearing the signals of a run that is loading its
// configuration, which makes nothing, telling stderr if one comes before
// the run begins.
func hearSignals(stderr io.Writer) *runSignals {
	rs := &runSignals{stderr: stderr, sigs: make(chan os.Signal, 1), doing: "loading the configuration", left: "nothing was run"}
	signal.Notify(rs.sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		for s := range rs.sigs {
			rs.heard(s)
		}
	}()
	return rs
}

// heard acts on signal s: before the run begins, it ends the program.
func (rs *runSignals) heard(s os.Signal) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.doing != "" {
		fmt.Fprintf(rs.stderr, "arbiter run: interrupted by %s while %s; %s.\n", signalName(s), rs.doing, rs.left)
		os.Exit(1) // as an interrupted run exits (errReported)
	}
	rs.cancel(signalCause{s})
}

// preparing says that the run, loaded, now prepares its results
// directory out. What it makes of out then (its lock file; plan.json,
// once the bots are fingerprinted; arbiter.log) a run goes on from, as
// from one killed then (engine.StartPlanDir).
func (rs *runSignals) preparing(out string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.doing = "preparing " + out + " (locking it, fingerprinting the bots)"
	rs.left = "no match was played; " + out + " keeps what it holds so far, and the same command goes on from there"
}

// begin is the run's start: from here a signal cancels the context it
// returns (interruptedBy tells which).
func (rs *runSignals) begin() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	rs.mu.Lock()
	rs.doing, rs.cancel = "", cancel
	rs.mu.Unlock()
	return ctx
}

// stop stops hearing the signals (their default action is back) and
// cancels the run's context, once begun.
func (rs *runSignals) stop() {
	signal.Stop(rs.sigs)
	close(rs.sigs) // nothing is sent on it once Stop has returned
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.cancel != nil {
		rs.cancel(nil)
	}
}

// runEnd says how a run into out ended, to the person (stdout, stderr)
// and as the last line of its log (log, the log file's alone: the person
// is told in words of their own).
type runEnd struct {
	stdout, stderr io.Writer
	log            hclog.Logger
	out            string
	// sp is the shard the run played, if it was one; picked says that it
	// played only the matches -match named.
	sp     *engine.ShardPlan
	picked bool
	// by is the signal that interrupted the run, if one did.
	by os.Signal
}

// finish says how the run ended: interrupted (by which signal, and how
// to resume), failed (with the results it saved and how to resume), or
// finished with its standings (of shard sp's own matches when it is
// one); that last written to standings.txt too, whose failure is the
// run's.
func (e *runEnd) finish(sum *engine.Summary, err error) error {
	log := e.log
	if log == nil {
		log = hclog.NewNullLogger()
	}
	if errors.Is(err, engine.ErrInterrupted) {
		how := "Interrupted"
		if e.by != nil {
			how += " by " + signalName(e.by)
		}
		msg := fmt.Sprintf("%s: %s; saved in %s. Run the same command again to resume.", how, e.saved(sum), e.out)
		fmt.Fprintln(e.stderr, msg)
		log.Warn("the run ended: " + msg)
		return errReported
	}
	if err == nil {
		err = e.standings(sum)
	}
	if err == nil {
		e.logFinished(log, sum)
		return nil
	}
	if sum == nil {
		// It ended before it played: nothing of its own to resume.
		log.Error("the run ended: it failed", "error", err.Error())
		return err
	}
	resume := fmt.Sprintf("%s; saved in %s; once the cause is fixed, run the same command again to resume", e.saved(sum), e.out)
	if u := (*engine.UnplayedError)(nil); errors.As(err, &u) {
		// The same command would be refused again.
		resume = fmt.Sprintf("%s; saved in %s; the same command is refused again: ", e.saved(sum), e.out)
		if u.Need != "" {
			resume += fmt.Sprintf("add -match %s to the command (or run without -match)", u.Need)
		} else {
			resume += "change how the tournament is played, as said above"
		}
	}
	fmt.Fprintf(e.stderr, "arbiter run: %v\n%s.\n", err, resume)
	log.Error("the run ended: it failed; "+resume, "error", err.Error())
	return errReported
}

// standings prints what a finished run played and its standings, and
// writes them to standings.txt.
func (e *runEnd) standings(sum *engine.Summary) error {
	fmt.Fprintf(e.stdout, "%d match(es) played, %d already finished; results in %s\n", sum.Finished, sum.Skipped, e.out)
	if sum.Stopped != nil {
		fmt.Fprintf(e.stdout, "Stopped (%s): %s.\n", sum.Stopped.Rule, sum.Stopped.Reason)
	}
	fmt.Fprintln(e.stdout)
	return writeRunStandings(e.stdout, e.out, sum, e.sp)
}

// logFinished records a finished run's end.
func (e *runEnd) logFinished(log hclog.Logger, sum *engine.Summary) {
	args := []any{"played", sum.Finished, "already_finished", sum.Skipped, "results", e.out}
	switch {
	case sum.Stopped != nil:
		log.Info("the run ended: the tournament stopped by its rule", append(args, "rule", sum.Stopped.Rule, "reason", sum.Stopped.Reason)...)
	case e.sp != nil:
		log.Info(fmt.Sprintf("the run ended: the matches of %s are finished", e.sp.Shard), args...)
	case e.picked:
		log.Info("the run ended: the matches named by -match are finished", args...)
	default:
		log.Info("the run ended: the tournament is finished", args...)
	}
}

// saved is how many of the run's matches are finished: a shard or a
// -match run counts its own matches, not the plan's; the plan's are
// counted by finishedOf.
func (e *runEnd) saved(sum *engine.Summary) string {
	switch {
	case e.sp != nil:
		return fmt.Sprintf("%d of the %d matches of %s finished", sum.Skipped+sum.Finished, sum.Planned, e.sp.Shard)
	case e.picked:
		return fmt.Sprintf("%d of the %d matches named by -match finished", sum.Skipped+sum.Finished, sum.Planned)
	}
	return finishedOf(sum.Plan, sum.Results, sum.Seats)
}

// finishedOf counts results, the finished matches of p, in the words of
// the standings' headline (stats.Stats.Finished), which `arbiter rank`
// and the results page use too: the stages of p not made yet left out,
// the playoffs finished counted apart ("16 of 16 matches finished, 1
// playoff(s) (playoff 2 of stage groups, stage final to come)"). Unlike
// the standings of a tournament that a stopping rule ended, it counts
// every result, those after the stop too: an interrupted run's and a
// merge's (whose shards played the stage's matches after the stop) say
// how many are saved. seats is as for stages.Coming.
func finishedOf(p *plan.Plan, results []engine.Result, seats func(n int) error) string {
	count := &stats.Stats{Matches: len(results), Planned: stats.RegularMatches(p)}
	for _, r := range results {
		if stats.IsPlayoff(r.Match) {
			count.Playoffs++
		}
	}
	if p.Stop == nil {
		count.RoundsToCome = p.RoundsToCome()
	}
	// The playoffs and stages to come, as the standings' headline says
	// them. A playoff that cannot be made from the results is the next
	// run's error to report: this line then names the stages alone.
	playoffs, later, err := stages.Coming(p, results, seats)
	if err != nil {
		playoffs, later = nil, stages.ToCome(p, results)
	}
	count.PlayoffsToCome, count.StagesToCome = playoffs, later
	count.PlayoffToCome = stages.NextPlayoff(p, results, seats)
	return count.Finished()
}
