// Package conform runs a game's conformance cases (drivers.Checker) against
// one bot and gives the helpers the cases are written with: a GTP-like
// session, a line session and a run of a per-move bot, each failing with
// a sentence a bot's author understands.
package conform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// Options say how to run a suite.
type Options struct {
	// Move is how long the bot has for one answer (default 5s).
	Move time.Duration
	// Case is how long one whole case may take (default 2m): a case
	// that runs over fails, it never hangs.
	Case time.Duration
	// Only runs the cases with these names (all when empty).
	Only []string
	// Game and Clock are the game the bot is checked for and the clock
	// of its matches (drivers.CheckOptions): nil and zero for the game's
	// defaults.
	Game  drivers.Game
	Clock drivers.Clock
	// Players are the numbers of players of the tournament's matches
	// (drivers.CheckOptions.Players): a case of another number is
	// skipped. Nil: every case runs.
	Players []int
}

// Result is the verdict of one case.
type Result struct {
	Case string `json:"case"`
	Doc  string `json:"doc"`
	OK   bool   `json:"ok"`
	// Skipped is a case that cannot happen in the tournament the bot is
	// checked for (OK, with the Reason why).
	Skipped bool   `json:"skipped,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Exchange is the end of the transcript of a failed case: lines sent
	// ("> ") and received ("< ").
	Exchange []string `json:"exchange,omitempty"`
	// Stderr is the end of what the bot wrote to stderr in a failed case.
	Stderr    string `json:"stderr,omitempty"`
	ElapsedMS int64  `json:"elapsed_ms"`
}

// exchangeLines is how much of a failed case's transcript a result keeps.
const exchangeLines = 12

// Run runs cases against the bot bot (its Stderr is ignored: each case's
// stderr goes to a file in a temporary directory), one after the other.
func Run(ctx context.Context, cases []drivers.CheckCase, bot drivers.Seat, o Options) ([]Result, error) {
	if o.Move <= 0 {
		o.Move = 5 * time.Second
	}
	if o.Case <= 0 {
		o.Case = 2 * time.Minute
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.Name)
	}
	for _, name := range o.Only {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("no case named %s; the cases: %s", name, strings.Join(names, ", "))
		}
	}
	tmp, err := os.MkdirTemp("", "arbiter-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var out []Result
	for _, c := range cases {
		if len(o.Only) > 0 && !contains(o.Only, c.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if c.Players > 0 && len(o.Players) > 0 && !slices.Contains(o.Players, c.Players) {
			out = append(out, Result{Case: c.Name, Doc: c.Doc, OK: true, Skipped: true,
				Reason: fmt.Sprintf("it plays %d players, and the tournament's matches have %s", c.Players, players(o.Players))})
			continue
		}
		out = append(out, runCase(ctx, c, bot, o, filepath.Join(tmp, c.Name+".stderr")))
	}
	return out, ctx.Err()
}

// players says how many players matches have: "4", "2 or 4".
func players(n []int) string {
	s := make([]string, len(n))
	for i, k := range n {
		s[i] = strconv.Itoa(k)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func runCase(ctx context.Context, c drivers.CheckCase, bot drivers.Seat, o Options, stderr string) Result {
	cctx, cancel := context.WithTimeout(ctx, o.Case)
	defer cancel()
	bot.Stderr = stderr
	rec := &Transcript{}
	start := time.Now()
	err := c.Run(cctx, bot, drivers.CheckOptions{Move: drivers.Duration(o.Move), Game: o.Game, Clock: o.Clock, Players: o.Players}, rec)
	r := Result{Case: c.Name, Doc: c.Doc, OK: err == nil, ElapsedMS: time.Since(start).Milliseconds()}
	if err == nil {
		return r
	}
	r.Reason = err.Error()
	if ctx.Err() == nil && cctx.Err() != nil {
		r.Reason = fmt.Sprintf("the case did not finish within %s (%s)", o.Case, r.Reason)
	}
	r.Exchange = rec.Tail(exchangeLines)
	r.Stderr = tail(stderr, 1500)
	return r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func tail(path string, n int64) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if int64(len(b)) > n {
		b = b[int64(len(b))-n:]
	}
	return strings.TrimSpace(string(b))
}

// Transcript records a case's exchange; it is a drivers.Recorder.
type Transcript struct {
	mu    sync.Mutex
	lines []string
}

func (t *Transcript) add(s string) {
	t.mu.Lock()
	t.lines = append(t.lines, s)
	t.mu.Unlock()
}

func (t *Transcript) Sent(_ int, line string)     { t.add("> " + line) }
func (t *Transcript) Received(_ int, line string) { t.add("< " + line) }

// Event records a note about the case (a file written, a run started).
// Only faults and warnings are kept: the rest of a referee's events
// would drown the exchange.
func (t *Transcript) Event(kind string, data any) {
	if kind == "note" {
		t.add(fmt.Sprintf("# %v", data))
	} else if kind == "fault" || kind == "warning" {
		t.add("# " + kind + ": " + eventText(data))
	}
}

// eventText writes a referee's event in words for an author: "seat 2,
// time: no answer within its move limit of 1s" for a fault, "seat 1 answered "? no" to
// "declare 0 1"" for a warning; any other event as its JSON, as the
// transcript has it, never as a Go struct.
func eventText(data any) string {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Sprint(data)
	}
	var e struct {
		Seat    *int   `json:"seat"`
		Kind    string `json:"kind"`
		Detail  string `json:"detail"`
		Command string `json:"command"`
		Answer  string `json:"answer"`
	}
	if json.Unmarshal(b, &e) != nil || e.Seat == nil {
		return string(b)
	}
	switch {
	case e.Kind != "":
		return fmt.Sprintf("seat %d, %s: %s", *e.Seat, e.Kind, drivers.WithoutArrivedNote(e.Detail))
	case e.Command != "":
		return fmt.Sprintf("seat %d answered %q to %q", *e.Seat, e.Answer, e.Command)
	}
	return string(b)
}

// Tail is the last n lines.
func (t *Transcript) Tail(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) > n {
		return append([]string{"..."}, t.lines[len(t.lines)-n:]...)
	}
	return append([]string(nil), t.lines...)
}

// Failf is a case's failure.
func Failf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// flushHint is what a bot that answers but is not heard most often
// forgot: its output sits in its own buffer until it flushes it.
const flushHint = "if it did answer, it may not have flushed its output: " + drivers.FlushCalls

// computedHint is what a bot that used the CPU for much of its wait
// (drivers.Computed) without answering most often did: it is stuck in a
// loop, or searches longer than its clock allows. Flushing is not its
// trouble, so the hint does not send the author to it.
const computedHint = "it kept computing without answering: an endless loop, or a search too slow for the clock " +
	"(a search should look at the time it has left and answer with the best it found by then)"

// silentHint is hint, what most likely kept the answer of err, a time
// fault after which nothing arrived, from the referee, or what the
// referee found instead: that the bot kept computing, or, for a flush
// hint, that it had read all that was written and waited for more input
// (drivers.Waiting): an unflushed answer, or a bot that reads to the end
// of its input or more lines than were sent; or, for a command
// that asks for no move (the flush hint with everyHint: play, set_*),
// that it read the command and was at something other than reading
// (sleeping, waiting, computing where its CPU is not counted): it was
// slow on a command whose answer takes no thought, as readHint says of
// a command written behind others. What follows the flush hint
// (everyHint) stays.
func silentHint(err error, hint string) string {
	if drivers.Computed(err) {
		return computedHint
	}
	rest, ok := strings.CutPrefix(hint, flushHint)
	if !ok || strings.HasPrefix(rest, lostMark) {
		return hint
	}
	sl, _ := drivers.SlownessOf(err)
	switch {
	case drivers.Waiting(err):
		return drivers.WaitingCause + rest
	case sl.Input == drivers.InputTaken && rest == "; "+everyHint:
		return "it " + drivers.TakenSlow + spent(sl) + rest
	}
	return hint
}

// SilentHint is silentHint of the flush hint, for arbiter console.
func SilentHint(err error) string { return silentHint(err, flushHint) }

// ReadHint is readHint, for arbiter console.
func ReadHint(err error, after string) string { return readHint(err, after) }

// readHint is what a bot most likely did that answered a command and
// then nothing while the commands written with it wait (after, a quoted
// command it answered in the same write), err the time fault of the one
// it did not answer. When the referee saw the bot waiting in a read of
// its emptied input (drivers.SlownessOf), it read more than one line at
// once into a buffer it then dropped, so the rest of the write is gone;
// when it saw the command still in the pipe, or read from it by a bot
// doing something else than reading, it was slow, and the hint says so
// with the CPU it used when that is known. When it could not tell (a
// thread reading the input while another was at something else, a
// thread in poll or select), the hint names both.
func readHint(err error, after string) string {
	answered := "it answered " + after + ", written in the same write as this one, then "
	lost := "reads more than one line at a time and drops what it read beyond the first line, " +
		"so it lost the rest of the referee's write " + readerFix
	sl, _ := drivers.SlownessOf(err)
	switch sl.Input {
	case drivers.InputUnread:
		return answered + "had not read this command when the time ran out: it was slow, " +
			"still busy after that answer (sleeping, waiting or computing)" + spent(sl)
	case drivers.InputTaken:
		return answered + drivers.TakenSlow + spent(sl)
	case drivers.InputWaiting:
		return answered + "nothing: it probably " + lost
	}
	return answered + "nothing, and the referee could not tell why: either it " + lost +
		"; or it read this command and was slow on it (a thread that reads the input and hands the lines to " +
		"another that was still at work, say)" + spent(sl)
}

// spent says how much CPU a slow bot used in its wait, when known.
func spent(sl drivers.Slowness) string {
	if !sl.CPUKnown {
		return ""
	}
	return fmt.Sprintf("; it used %s of CPU in its %s wait", sl.CPU.Round(time.Millisecond), sl.Wait.Round(time.Millisecond))
}

// writeHint is readHint for lines[k], the k-th of lines written in one
// write, when its answer never came (answers[k].Err, its time fault): the
// bot answered lines[k-1], so it read that write, and most likely lost
// the rest of it; unless that answer carried text where a command that
// asks for nothing was answered (shiftedHint). "" for the write's first
// line (k == 0), which the bot may simply not have read.
func writeHint(lines []string, answers []gtp.Answer, k int) string {
	if k == 0 {
		return ""
	}
	if h := shiftedHint(lines[k-1], answers[k-1]); h != "" {
		return h
	}
	return readHint(answers[k].Err, quote(lines[k-1]))
}

// shiftedHint is what a bot most likely did whose answer read for cmd,
// a command that asks for no text (not gen_*), was a, "=" with text, and
// that then answered nothing: it wrote no answer to the commands that ask for
// nothing (or wrote its decision before it was asked), so the answer it
// wrote to a later command, a decision, was read for cmd. "" when cmd is
// a gen_* or a is a refusal ('?', allowed) or carries no text.
func shiftedHint(cmd string, a gtp.Answer) string {
	if !a.OK || a.Text == "" || strings.HasPrefix(cmd, "gen_") {
		return ""
	}
	name, _, _ := strings.Cut(cmd, " ")
	return fmt.Sprintf("the answer read for %s, written in the same write as this one, was %s, text where %s wants none "+
		"(its answer is \"=\" and an empty line): most likely the bot answers only the commands that ask "+
		"for a decision (gen_*) or wrote a decision before it was asked, and an answer meant for a later command was read for %s; "+
		"every command gets exactly one answer, in the order sent",
		quote(cmd), quote("= "+a.Text), name, name)
}

// lostHint is flushHint for a command written after a line that wants no
// answer (before, quoted): the bot may have read both at once and lost
// the command.
func lostHint(before string) string {
	return flushHint + lostMark + "lost this command with the line " +
		before + " before it " + readerFix
}

// lostMark follows flushHint in lostHint.
const lostMark = "; or it reads more than one line at a time and "

// readerFix is how a bot stops losing lines the referee writes together.
const readerFix = "(a new Scanner or BufferedReader per command in Java, a new BufReader per command in Rust): " +
	"the referee writes several commands at once, so make one reader before the loop and read each command as one line from it"

// noAnswer starts the detail of a time fault when nothing of the answer
// arrived (proc's "no answer within its move limit of 1s"), the fault
// that flushHint, readHint and lostHint explain.
const noAnswer = "no answer within "

// silent says whether err is a time fault in which nothing of the answer
// arrived.
func silent(err error) bool {
	var f interface {
		FaultKind() string
		FaultDetail() string
	}
	return errors.As(err, &f) && f.FaultKind() == drivers.FaultTime && strings.HasPrefix(f.FaultDetail(), noAnswer)
}

// explain is the sentence of a fault (read without importing gtp or
// proc) that came while the bot was doing what (a quoted command, "its
// run"), move the time it had for one answer.
func explain(err error, what string, move time.Duration) error {
	return explainHint(err, what, move, flushHint)
}

// explainHint is explain with hint as the likely cause of an answer that
// never arrived.
func explainHint(err error, what string, move time.Duration, hint string) error {
	var f interface {
		FaultKind() string
		FaultDetail() string
	}
	if !errors.As(err, &f) {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fmt.Errorf("stopped while waiting for %s", what)
		}
		return fmt.Errorf("%s: %v", what, err)
	}
	d := f.FaultDetail()
	switch f.FaultKind() {
	case drivers.FaultTime:
		// The detail names the limit the bot had ("no answer within its
		// move limit of 1s"); -move sets the move limit.
		seeMove := func(limit string) string {
			if strings.HasPrefix(limit, "its move limit ") || limit == move.String() {
				return limit + " (see -move)"
			}
			return limit
		}
		if limit, ok := strings.CutPrefix(d, noAnswer); ok {
			hint = silentHint(err, hint)
			return fmt.Errorf("no answer to %s within %s: nothing arrived; %s", what, seeMove(limit), hint)
		}
		for _, prefix := range []string{"no full answer within ", "no full line within "} {
			if rest, ok := strings.CutPrefix(d, prefix); ok {
				// "… within LIMIT: only "OK" arrived, without its line's end"
				// (drivers.WithoutLineEnd).
				if limit, arrived, ok := strings.Cut(rest, ": "); ok {
					return fmt.Errorf("no complete answer to %s within %s: %s; %s",
						what, seeMove(limit), arrived, flushHint)
				}
			}
		}
		if strings.HasPrefix(d, "answered ") {
			return fmt.Errorf("no complete answer to %s within %s: it %s", what, seeMove(move.String()), d)
		}
		return fmt.Errorf("no answer to %s in time: %s", what, d)
	case drivers.FaultCrash:
		return fmt.Errorf("the bot stopped before answering %s: %s", what, d)
	case drivers.FaultStart:
		return fmt.Errorf("the bot could not be started: %s", d)
	case drivers.FaultMemory, drivers.FaultProcesses, drivers.FaultOutput, drivers.FaultFiles, drivers.FaultNetwork:
		return fmt.Errorf("over a limit (%s) while answering %s: %s", f.FaultKind(), what, d)
	}
	// The detail may name the command already ("answered "x" to "cmd"").
	return fmt.Errorf("wrong answer to %s: %s", what, strings.Replace(d, " to "+what, "", 1))
}
