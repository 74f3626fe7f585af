package proc

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/filetail"
	"golang.org/x/sys/unix"
)

// Spec says how to start a bot and how to keep its clock.
type Spec struct {
	Bot    string   // name for messages
	Argv   []string // Argv[0] is looked up in PATH, or relative to Dir if it has a slash
	Dir    string
	Env    []string // added to the arbiter's environment
	Stderr string   // file that receives the bot's stderr; "" discards it
	Clock  drivers.Clock
	// OnSend and OnRecv see every line written and read, for transcripts;
	// OnRecv gets the time the line was read, which for a line held
	// (Hold) is before it is passed on.
	OnSend func(line string)
	OnRecv func(line string, at time.Time)
	// MaxLine caps one line of output (default 64 KiB): longer is a
	// protocol fault, not unbounded memory.
	MaxLine int
	// Grace is how long a bot may take to exit after "quit" before it is
	// killed (default 500ms); a game that reads quit's answer waits for
	// it as long (Session.Grace).
	Grace time.Duration
	// MaxStderr caps the stderr file (default 16 MiB); the rest is drained
	// and dropped so the bot never blocks on a full pipe.
	MaxStderr int64
	// Limits confine the process (see Prepare); Limits.Output caps the
	// bytes of one answer (default 1 MiB).
	Limits drivers.Limits
	// NoStart, when set, is why the bot cannot be started (its build
	// failed: drivers.Seat.Unbuilt): Start starts nothing and fails with
	// a drivers.FaultStart fault of this detail.
	NoStart string
	// Setup says whether a command belongs to the bot's set-up, which
	// the start-up allowance (Clock.Startup) covers: every command up to
	// the first one it says does not. A bot may spend its start on any
	// set-up command (a course player built on the last one), so the
	// commands share the allowance. Nil: the allowance is the first
	// exchange's alone.
	Setup func(cmd string) bool
	// Explain has a time fault after which nothing arrived record what
	// the bot had done with its input (Fault.Slow), for a hint that
	// tells a bot that lost its input, or waits for more of it, from a
	// slow one: arbiter check and console, and the session games'
	// referees, whose fault details say when the bot waited for more
	// input, set it. The look reads /proc for each of the bot's threads:
	// some microseconds a thread, paid only at a time fault, which has
	// already waited out a limit. A session without it (a test's, a
	// benchmark's) does not look.
	Explain bool
}

// Session is a running bot.
type Session struct {
	spec  Spec
	cmd   *exec.Cmd
	token string
	in    *os.File // our end of the bot's stdin
	out   *os.File // our end of the bot's stdout
	// outConn is out's, for Await; nil if out has none.
	outConn syscall.RawConn
	// inConn is in's when in is non-blocking (it takes deadlines): a
	// write the pipe takes at once is made on it (writeNow, bound once
	// as writeFn), and the write deadline is armed only for what has to
	// wait. nil: every write goes through in with its deadline.
	inConn  syscall.RawConn
	writeFn func(fd uintptr)
	// text is the last write's bytes, wrote how many of them writeNow
	// wrote; inqFn is markEarly's look at the output pipe (readInq),
	// bound once, and inq what it found.
	text  []byte
	wrote int
	inqFn func(fd uintptr)
	inq   int
	r     *bufio.Reader
	box   *Box // nil without limits
	// watch reads the box's counters while the bot is waited on; nil
	// when there is nothing to watch.
	watch *limitWatch
	// answered is how many bytes the bot wrote since the last command.
	answered int64
	// heard says a byte of the bot's output was read since the clock of
	// the command it is on started (the write, or for a command queued
	// behind others of its write, the read of the answer before it),
	// for a time fault to say whether nothing at all arrived
	// (Fault.Silent); queued says the command is such a one
	// (Fault.Queued).
	heard, queued bool
	// earlyLeft is how many bytes still to be read were waiting in the
	// bot's output when the last command was written; answerEarly says
	// that the answer being read started in them, textSeen that its
	// first line with text was read; lastSent is the last line of the
	// last write, strayAfter that of the write after whose answers
	// output no command asked for began; strayRead says an answer read
	// in the session was early (early.go).
	earlyLeft                        int
	textSeen, answerEarly, strayRead bool
	lastSent, strayAfter             string

	limited bool
	left    time.Duration
	used    time.Duration
	// turnUsed is the clock time charged since the bot's last decision
	// (EndTurn), against Clock.Turn; startup is what is left of the
	// start-up allowance (Clock.Startup), which the set-up's exchanges
	// share (Spec.Setup) and which is dropped when the set-up ends.
	turnUsed time.Duration
	startup  time.Duration
	// cpuAt is the CPU the bot's processes had used when its last answer
	// was read, if cpuKnown; offMove is what the clock was charged for
	// CPU they used while not on move (offmove.go).
	cpuAt    time.Duration
	cpuKnown bool
	offMove  time.Duration
	answerAt time.Time // when cpuAt was read
	// sentCPU is the CPU the bot's processes had used at sentCPUAt,
	// when the write of the command it is on was due (at start, before
	// any), or as its clock started, for one written behind others after
	// a slow answer (rebaseSentCPU), if sentCPUKnown: a time fault says
	// whether it computed while it waited (busy.go).
	sentCPU      time.Duration
	sentCPUAt    time.Time
	sentCPUKnown bool

	exited  chan struct{} // closed when the process has been waited for
	waitErr error
	// endSeen says a fault found the process ended (crashed).
	endSeen bool
	errDone chan struct{} // closed when stderr is fully drained
	// errSink drains the bot's stderr into its file (nil without one).
	// errMark is where verdict starts reading the file: how much of it
	// the sink had written when the command before the last one was
	// written (markAtPreviousWrite is that count at the last write).
	// Taken at a write, not when a line is read, it does not depend on
	// how far the drainer had got: everything the bot wrote after its
	// last answer, even an instant after it, lies past the mark, since
	// the bot wrote it after reading the command before the last.
	errSink             *stderrSink
	errMark             int64
	markAtPreviousWrite int64

	// The exchange in progress (Send to Receive): when its command was
	// written, its deadline, and the error writing it.
	sentAt   time.Time
	deadline time.Time
	sendErr  error
	// bound is what set deadline, for a time fault to say (limitSaid);
	// its kind is noLimit when nothing limits the answer.
	bound limitSet
	// readBy and writeBy are the deadlines set on out and in.
	readBy, writeBy time.Time
	// due is how many answers the commands of the last Send still owe;
	// next is the first of those not yet answered.
	due  int
	next []string
	// holding keeps the lines read in held, with the time each was read,
	// instead of passing them to OnRecv, until Release (see Hold).
	holding bool
	held    []heldLine
	// late is the snapshot of the pipe taken at the first look after the
	// current command's deadline (late.go); nil otherwise.
	late *bytes.Reader
	// lateEnded says that the drain of that look reached the end of the
	// output: the bot will write nothing more.
	lateEnded bool
	// rest is what a snapshot left, which r reads before the pipe
	// (resumeAfterLate); nil if r reads the pipe alone.
	rest *bytes.Reader

	// ctx is Start's: a bot's end that a stop of the run could have
	// caused waits for it to be cancelled (crashed).
	ctx       context.Context
	mu        sync.Mutex // guards cancelled and over against deadline changes
	cancelled bool
	ctxErr    error
	over      *Fault // the limit the watch found the bot over
	stopCtx   func() bool
	closeOnce sync.Once
}

// Start starts the bot. A failure to start is a *Fault of kind
// drivers.FaultStart, like every other thing a bot can do wrong, but a
// failure of arbiter's own: a *SetupError when what confines the bot
// could not be set up, another error when its pipes or stderr file could
// not be made.
func Start(ctx context.Context, spec Spec) (*Session, error) {
	if spec.NoStart != "" {
		return nil, faultf(drivers.FaultStart, "%s", spec.NoStart)
	}
	if len(spec.Argv) == 0 {
		return nil, faultf(drivers.FaultStart, "bot %s has an empty command", spec.Bot)
	}
	spec = withSessionDefaults(spec)
	becomeSubreaper()

	s := &Session{spec: spec, ctx: ctx, exited: make(chan struct{}), errDone: make(chan struct{})}
	s.limited = spec.Clock.Total > 0
	s.left = time.Duration(spec.Clock.Total)
	s.startup = time.Duration(spec.Clock.Startup)
	var tok [12]byte
	_, _ = rand.Read(tok[:])
	s.token = hex.EncodeToString(tok[:])

	// files are the child's ends, closed once it has them.
	files, err := s.command()
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	if err := s.launch(); err != nil {
		s.closePipes()
		for _, f := range files {
			f.Close()
		}
		files = nil
		<-s.errDone
		return nil, err
	}
	s.watch = s.box.watch(s.overLimit)
	s.sentCPU, s.sentCPUKnown = s.box.cpuUsed()
	s.sentCPUAt = time.Now()
	go func() {
		awaitExit(s.cmd.Process)
		s.waitErr = s.cmd.Wait()
		children.Lock()
		delete(children.pids, s.cmd.Process.Pid)
		children.Unlock()
		close(s.exited)
	}()
	s.stopCtx = context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.cancelled, s.ctxErr = true, ctx.Err()
		past := time.Unix(1, 0)
		_ = s.out.SetReadDeadline(past)
		_ = s.in.SetWriteDeadline(past)
	})
	return s, nil
}

// withSessionDefaults fills in the caps and grace a spec leaves at zero.
func withSessionDefaults(spec Spec) Spec {
	if spec.MaxLine <= 0 {
		spec.MaxLine = 64 << 10
	}
	if spec.Grace <= 0 {
		spec.Grace = 500 * time.Millisecond
	}
	if spec.MaxStderr <= 0 {
		spec.MaxStderr = 16 << 20
	}
	if spec.Limits.Output <= 0 {
		spec.Limits.Output = 1 << 20
	}
	return spec
}

// command makes the session's pipes (stderr to its file, drained) and
// the bot's command in s.cmd. It returns the child's ends of the pipes,
// which the caller closes once the child has them; on an error nothing
// is left open but those.
func (s *Session) command() (files []*os.File, err error) {
	spec := s.spec
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("bot %s: stdin pipe: %w", spec.Bot, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("bot %s: stdout pipe: %w", spec.Bot, err)
	}
	files = append(files, inR, outW)
	s.in, s.out = inW, outR
	s.r = bufio.NewReaderSize(outR, spec.MaxLine)
	s.outConn, _ = outR.SyscallConn()
	s.inqFn = s.readInq
	if inW.SetWriteDeadline(time.Time{}) == nil { // non-blocking, polled
		s.inConn, _ = inW.SyscallConn()
		s.writeFn = s.writeNow
	}

	cmd := Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(append(HostEnviron(spec.Limits), spec.Env...), "ARBITER_TOKEN="+s.token)
	cmd.Stdin, cmd.Stdout = inR, outW
	// A session of its own (so a process group of its own too): no
	// controlling terminal, so the bot cannot open /dev/tty and type into
	// the organiser's shell (TIOCSTI) or read what is typed there.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	s.cmd = cmd
	if spec.Stderr == "" {
		close(s.errDone)
		return files, nil
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		s.closePipes()
		return files, fmt.Errorf("bot %s: stderr pipe: %w", spec.Bot, err)
	}
	f, err := os.Create(spec.Stderr)
	if err != nil {
		errR.Close()
		errW.Close()
		s.closePipes()
		return files, fmt.Errorf("bot %s: %w", spec.Bot, err)
	}
	files = append(files, errW)
	cmd.Stderr = errW
	// Without a run to stop (check, console), the failure is at least
	// said where the user sees arbiter's own messages.
	failed := func(err error) {
		fmt.Fprintf(stderrLostNotices, "arbiter: cannot keep the stderr of bot %s in %s: %v\n", spec.Bot, spec.Stderr, err)
	}
	if report := stderrFailed(s.ctx); report != nil {
		failed = func(err error) { report(stderrFailure(spec.Bot, err)) }
	}
	s.errSink = newStderrSink(f, spec.MaxStderr, spec.MaxStderr, failed)
	go drainStderr(errR, s.errSink, s.errDone)
	return files, nil
}

// launch confines s.cmd to the session's limits and starts it; an error
// is a start fault, or a *SetupError of arbiter's own.
func (s *Session) launch() error {
	if f := crlfFault(s.spec.Argv, s.spec.Dir); f != nil {
		return f
	}
	var err error
	s.box, err = Prepare(s.cmd, s.spec.Limits, s.spec.Clock)
	var f *Fault
	if err != nil && !errors.As(err, &f) {
		// Not the bot's: arbiter could not make its cgroup, its folder.
		err = &SetupError{Err: err}
	}
	if err == nil {
		children.Lock()
		err = StartCmd(s.cmd, s.box)
		if err == nil {
			children.pids[s.cmd.Process.Pid] = true
		}
		children.Unlock()
	}
	if err == nil {
		return nil
	}
	s.box.Close()
	if se, ok := setupOf(err, s.spec.Bot); ok {
		return se
	}
	if errors.As(err, &f) {
		return f
	}
	return startFault(s.spec.Argv, s.spec.Dir, err)
}

// Pid is the bot's process id.
func (s *Session) Pid() int { return s.cmd.Process.Pid }

// Token is the value of ARBITER_TOKEN that the bot and all its descendants carry.
func (s *Session) Token() string { return s.token }

// Left is the bot's remaining clock; ok is false when the clock is unlimited.
func (s *Session) Left() (left time.Duration, ok bool) { return s.left, s.limited }

// Grace is the bot's grace to end (Spec.Grace, its default filled in):
// a bot that does what it should on quit, answers and exits, has done so
// within it.
func (s *Session) Grace() time.Duration { return s.spec.Grace }

// Used is the clock time the bot has used so far.
func (s *Session) Used() time.Duration { return s.used }

// setDeadline arms a deadline on f unless the session is already
// stopped (see cancelErr). last is the deadline f has: setting the same
// one again is skipped, since every change re-arms a runtime timer and
// the lines of one answer share a deadline. (A stopped session's files
// get a deadline in the past that nothing changes again.)
func (s *Session) setDeadline(set func(time.Time) error, last *time.Time, t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.stopped(); err != nil {
		return err
	}
	if t.Equal(*last) {
		return nil
	}
	if err := set(t); err != nil {
		return err
	}
	*last = t
	return nil
}

// cancelErr returns the context's error if the session was cancelled, or
// the limit the bot went over while it was waited on.
func (s *Session) cancelErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped()
}

// stopped is cancelErr with s.mu held.
func (s *Session) stopped() error {
	switch {
	case s.cancelled:
		return s.ctxErr
	case s.over != nil:
		return s.over
	}
	return nil
}

// overLimit ends the exchange in progress with the limit the watch found
// the bot over: the pending read or write returns at once.
func (s *Session) overLimit(f *Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancelled || s.over != nil {
		return
	}
	s.over = f
	past := time.Unix(1, 0)
	_ = s.out.SetReadDeadline(past)
	_ = s.in.SetWriteDeadline(past)
}

// budget is the deadline for the answer to cmd, which starts now: the
// least of what is left of the total clock, the move limit and what is
// left of the turn's, plus what is left of the start-up allowance while
// the set-up lasts. A command that is not the set-up's ends it (Spec.Setup).
func (s *Session) budget(start time.Time, cmd string) time.Time {
	if s.startup > 0 && s.spec.Setup != nil && !s.spec.Setup(cmd) {
		s.startup = 0
	}
	d, bound := s.turnLeft()
	bound.startup = s.startup
	if bound.kind == clockLimit {
		bound.offMove = s.offMove
	}
	s.bound = bound
	if bound.kind == noLimit {
		return time.Time{}
	}
	return start.Add(d + s.startup)
}

// limitSet is which limit set an answer's deadline, with what was left of
// it and its whole, and the start-up allowance added to it: kept as
// numbers on every command, said in words only for a time fault.
type limitSet struct {
	kind     uint8
	left, of time.Duration
	startup  time.Duration
	offMove  time.Duration // of the clock, charged for CPU off move
}

// The kinds of limitSet.
const (
	noLimit uint8 = iota
	clockLimit
	moveLimit
	turnLimit
)

// String says the limit as a time fault does: "its move limit of 1s",
// "the 298ms left of its turn of 800ms", "its clock of 5m0s and the 10s
// left of its start-up allowance". To the millisecond: what rounds to
// the whole is the whole.
func (l limitSet) String() string {
	var s string
	whole := l.left.Round(time.Millisecond) == l.of.Round(time.Millisecond)
	switch {
	case l.kind == moveLimit:
		s = fmt.Sprintf("its move limit of %v", l.of)
	case l.kind == clockLimit && whole:
		s = fmt.Sprintf("its clock of %v", l.of)
	case l.kind == clockLimit:
		s = fmt.Sprintf("the %v left of its clock of %v", l.left.Round(time.Millisecond), l.of)
	case l.kind == turnLimit && whole:
		s = fmt.Sprintf("its turn of %v", l.of)
	case l.kind == turnLimit:
		s = fmt.Sprintf("the %v left of its turn of %v", l.left.Round(time.Millisecond), l.of)
	default:
		return ""
	}
	if l.startup > 0 {
		s += fmt.Sprintf(" and the %v left of its start-up allowance", l.startup.Round(time.Millisecond))
	}
	return s + offMoveSaid(l.offMove)
}

// offMoveSaid is what a time fault adds when the clock was charged for
// CPU the bot's processes used while it was not on move (offmove.go).
func offMoveSaid(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%v of its clock went on CPU its processes used while it was not on move)", d.Round(time.Millisecond))
}

// TurnLeft is what the bot may spend on its next answer, start-up
// allowance aside: the least of what is left of its total clock, its move
// limit and what is left of its turn; ok is false when nothing limits it.
func (s *Session) TurnLeft() (left time.Duration, ok bool) {
	d, bound := s.turnLeft()
	return d, bound.kind != noLimit
}

// turnLeft is TurnLeft, with the limit that sets it (limitSet; its kind
// noLimit when nothing limits the answer).
func (s *Session) turnLeft() (d time.Duration, bound limitSet) {
	d = -1
	if s.limited {
		d, bound = s.left, limitSet{kind: clockLimit, left: s.left, of: time.Duration(s.spec.Clock.Total)}
	}
	if m := time.Duration(s.spec.Clock.Move); m > 0 && (d < 0 || m < d) {
		d, bound = m, limitSet{kind: moveLimit, left: m, of: m}
	}
	if t := time.Duration(s.spec.Clock.Turn); t > 0 && (d < 0 || t-s.turnUsed < d) {
		d = max(t-s.turnUsed, 0)
		bound = limitSet{kind: turnLimit, left: d, of: t}
	}
	return d, bound
}

// within is what a time fault says the bot had for the answer it owes:
// the limit that set the read's deadline, or the time from the command to
// a deadline the game chose (a soft limit inside the session's).
func (s *Session) within() string {
	if s.bound.kind != noLimit && s.readBy.Equal(s.deadline) {
		return s.bound.String()
	}
	return s.readBy.Sub(s.sentAt).Round(time.Millisecond).String()
}

// EndTurn starts the bot's next turn: Clock.Turn is counted from here.
// A game calls it once the bot has answered its decision.
func (s *Session) EndTurn() { s.turnUsed = 0 }

// Write writes one line to the bot. It fails with a fault if the bot does
// not take it before deadline (zero: no deadline) or has closed its input.
func (s *Session) Write(line string, deadline time.Time) error {
	return s.write(line, nil, deadline)
}

// write writes line and the lines of more to the bot in one write, as
// Write does one line.
func (s *Session) write(line string, more []string, deadline time.Time) error {
	s.text = append(append(s.text[:0], line...), '\n')
	for _, l := range more {
		s.text = append(append(s.text, l...), '\n')
	}
	if s.spec.OnSend != nil {
		s.spec.OnSend(line)
		for _, l := range more {
			s.spec.OnSend(l)
		}
	}
	s.answered, s.heard, s.queued = 0, false, false
	if s.late != nil {
		s.resumeAfterLate()
	}
	if len(more) > 0 {
		s.markEarly(more[len(more)-1])
	} else {
		s.markEarly(line)
	}
	if s.errSink != nil {
		s.errMark, s.markAtPreviousWrite = s.markAtPreviousWrite, s.errSink.Written()
	}
	err := s.put(deadline)
	if err == nil {
		return nil
	}
	if cerr := s.cancelErr(); cerr != nil {
		return cerr
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return faultf(drivers.FaultTime, "did not read its input in time (command %q)", truncate(line))
	}
	return s.crashed(inputClosed)
}

// put writes s.text to the bot's input by deadline. What the pipe takes
// at once (a command is short, and a bot reads its input between
// commands) is written without arming the write deadline, which re-arms
// a runtime timer whenever it changes, and every command has a deadline
// of its own; the rest, if any, is written through the file under the
// deadline. A session stopped (cancelErr) writes nothing, as it would
// with its deadline in the past; nor does a deadline already past (a
// clock read, not a timer): the command would reach the bot, and an
// answer in the pipe at the read's first look would be taken as in time.
func (s *Session) put(deadline time.Time) error {
	s.wrote = 0
	if s.inConn != nil {
		if err := s.cancelErr(); err != nil {
			return err
		}
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			return os.ErrDeadlineExceeded
		}
		_ = s.inConn.Control(s.writeFn) // closed: the file's write says so
		if s.wrote == len(s.text) {
			return nil
		}
	}
	if err := s.setDeadline(s.in.SetWriteDeadline, &s.writeBy, deadline); err != nil {
		return err
	}
	n, err := s.in.Write(s.text[s.wrote:])
	s.wrote += n
	return err
}

// writeNow writes what the input pipe takes of s.text without waiting
// (fd is non-blocking), adding to s.wrote. A full pipe, or an error (a
// bot that closed its input), leaves the rest to the file's write, which
// waits or fails as it would have.
func (s *Session) writeNow(fd uintptr) {
	for s.wrote < len(s.text) {
		n, err := unix.Write(int(fd), s.text[s.wrote:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		s.wrote += n
	}
}

// inputClosed is what a write to a bot that took no more input found.
const inputClosed = "closed its input"

// ReadLine reads one line of the bot's output, without its line ending.
func (s *Session) ReadLine(deadline time.Time) (string, error) {
	if s.late != nil {
		return s.readLate() // the deadline has passed: only what was there then
	}
	if err := s.setDeadline(s.out.SetReadDeadline, &s.readBy, deadline); err != nil {
		return "", err
	}
	b, err := s.r.ReadSlice('\n')
	s.answered += int64(len(b))
	s.heard = s.heard || len(b) > 0
	s.readEarly(b)
	if s.answered > s.spec.Limits.Output {
		return "", faultf(drivers.FaultOutput, "wrote more than %s for one answer", Size(s.spec.Limits.Output))
	}
	if err != nil {
		if cerr := s.cancelErr(); cerr != nil {
			return "", cerr
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return "", faultf(drivers.FaultOutput, "wrote a line longer than %d bytes", s.spec.MaxLine)
		case errors.Is(err, os.ErrDeadlineExceeded):
			s.takeLate(b) // the first look after the deadline (late.go)
			return s.readLate()
		default:
			return "", s.outputEnded(b)
		}
	}
	line := strings.TrimRight(string(b), "\r\n")
	s.deliver(line)
	return line, nil
}

// outputEnded is the crash fault of a bot whose output ended after b,
// the part of a line it wrote last.
func (s *Session) outputEnded(b []byte) error {
	if len(b) > 0 {
		return s.crashed(fmt.Sprintf("output ended in the middle of a line %q", truncate(string(b))))
	}
	return s.crashed("output ended")
}

// heldLine is a line read while the session holds its lines, and when.
type heldLine struct {
	line string
	at   time.Time
}

// deliver passes a line read to OnRecv, or keeps it while the session
// holds its lines (Hold).
func (s *Session) deliver(line string) {
	if s.holding {
		s.held = append(s.held, heldLine{line, time.Now()})
	} else if s.spec.OnRecv != nil {
		s.spec.OnRecv(line, time.Now())
	}
}

// Hold keeps the lines the session reads from now on, instead of passing
// each to OnRecv as it is read, until Release passes them on in order,
// each with the time it was read. A referee that reads several bots'
// answers at once holds their lines so that its transcript records them
// in an order of its choosing, not in the order the reads happened to
// finish, while each line keeps its own time.
func (s *Session) Hold() { s.holding = true }

// Release passes the lines held since Hold to OnRecv, in the order they
// were read, and stops holding.
func (s *Session) Release() { s.ReleaseFirst(len(s.held)) }

// Held is how many lines the session holds (see Hold).
func (s *Session) Held() int { return len(s.held) }

// ReleaseFirst is Release that passes only the first n lines held and
// drops the rest: a referee that reads ahead of what it will judge keeps
// its transcript to what it judged.
func (s *Session) ReleaseFirst(n int) {
	s.holding = false
	if s.spec.OnRecv != nil {
		for _, h := range s.held[:min(n, len(s.held))] {
			s.spec.OnRecv(h.line, h.at)
		}
	}
	s.held = s.held[:0]
}

// Abandon gives up the answers the last Send still owes: they are left
// unread and uncharged, and the limit watch stops. It returns what
// Receive left to a later answer after the last one read (a
// cancellation, or a limit the bot is over), nil if nothing.
func (s *Session) Abandon() error {
	if s.due == 0 {
		return nil
	}
	s.due, s.next = 0, nil
	s.watch.disarm()
	s.offMoveFrom(time.Now())
	return s.stillFine()
}

// stillFine is what is wrong with the session after an answer was read:
// its match cancelled, or its bot over a limit; nil if nothing.
func (s *Session) stillFine() error {
	if err := s.cancelErr(); err != nil {
		return err
	}
	if f := s.box.Check(); f != nil {
		return f
	}
	return nil
}

// Exchange runs a timed request: it writes cmd, calls read (which reads
// the answer with ReadLine and the deadline it is given, framing it as the
// game's protocol says, e.g. drivers/gtp) until it returns, and charges
// the elapsed time to the clock. Running out of clock or move time is a
// time fault; an error of read is the bot's fault (a *Fault) or ctx's.
//
// Exchange is Send then Receive.
func (s *Session) Exchange(cmd string, read func(deadline time.Time) error) error {
	s.Send(cmd)
	return s.Receive(read)
}

// Send starts a timed request: the bot's clock runs from now, and cmd is
// written. Receive, which must follow before the session is used again,
// reads the answer and charges the clock; a failure to write is reported
// by Receive. Between the two the caller may send to other bots, and the
// Receives of different sessions may run at the same time: that is how a
// command goes out to several bots at once, each charged from when its
// own command was written to when its own answer arrived.
//
// Several commands may go in one Send, written at once (a protocol whose
// bots answer commands in order, such as GTP's, saves a round trip per
// command after the first); one Receive follows for each, in order. The
// first is charged from the write, every other one from when the answer
// before it was read, since until then the bot was busy with that one:
// each command is charged and bounded as if it had been sent alone, the
// moment its predecessor was answered.
func (s *Session) Send(cmd string, more ...string) {
	s.sentAt = time.Now()
	if s.chargeOffMove(s.sentAt) {
		s.sentAt = time.Now() // the read is arbiter's time, not the bot's
	}
	s.deadline = s.budget(s.sentAt, cmd)
	s.due = 1 + len(more)
	s.next = more
	s.watch.arm()
	if f := s.spent(); f != nil {
		// Nothing left to answer with: the command is not written, and
		// the time fault says why, not that the bot did not read it.
		s.sendErr = f
		return
	}
	s.sendErr = s.write(cmd, more, s.deadline)
}

// spent is the time fault of a bot with nothing left of its total clock
// or of its turn when a command is due; nil otherwise.
func (s *Session) spent() *Fault {
	if s.startup > 0 {
		return nil
	}
	if s.limited && s.left <= 0 {
		return faultf(drivers.FaultTime, "had used up its clock of %v%s", time.Duration(s.spec.Clock.Total), offMoveSaid(s.offMove))
	}
	if t := time.Duration(s.spec.Clock.Turn); t > 0 && s.turnUsed >= t {
		return faultf(drivers.FaultTime, "had used up its turn of %v", t)
	}
	return nil
}

// Receive ends the request Send started (see Exchange): it calls read
// unless the command could not be written, charges the clock, and
// returns the fault, if any. After a Send of several commands, it reads
// the answer to the first not yet read.
func (s *Session) Receive(read func(deadline time.Time) error) error {
	start, deadline := s.sentAt, s.deadline
	err := s.sendErr
	if err == nil {
		err = read(deadline)
	}
	now := time.Now()
	elapsed := now.Sub(start)
	if err == nil && !deadline.IsZero() {
		// Read by the deadline: arbiter's own delay since is not the
		// bot's (late.go).
		elapsed = min(elapsed, deadline.Sub(start))
	}
	// The start-up allowance pays first; what is left of it goes to the
	// set-up's next exchange (Spec.Setup), or with no set-up named, to
	// none: it is the first exchange's, used or not.
	allowed := min(elapsed, s.startup)
	charged := elapsed - allowed
	s.startup -= allowed
	if s.spec.Setup == nil {
		s.startup = 0
	}
	s.used += charged
	s.turnUsed += charged
	if s.limited {
		s.left -= charged
		if s.left < 0 {
			s.left = 0
		}
	}
	var after error // cancelled, or over a limit just as it answered
	if err == nil && s.due <= 1 {
		// With answers still due, a limit the bot is found over is left
		// to the one that fails next, or to the last, or to Abandon: the
		// bot has the commands after this one already and may have gone
		// over it working on them. (Over a limit the watch counts, or
		// cancelled, its next read fails at once.)
		after = s.stillFine()
	}
	s.due--
	if err == nil && after == nil && s.due > 0 {
		// The next command has waited in the bot's input: its clock
		// starts as this answer was done with.
		s.sentAt = start.Add(elapsed)
		s.rebaseSentCPU()
		s.deadline = s.budget(s.sentAt, s.next[0])
		s.next = s.next[1:]
		s.answered, s.heard, s.queued = 0, false, true
		s.textSeen, s.answerEarly = false, false
		if s.late != nil {
			s.resumeAfterLate()
		}
	} else {
		s.due, s.next = 0, nil
		s.watch.disarm()
		s.offMoveFrom(now)
	}
	if err != nil {
		return s.verdict(err)
	}
	return after
}

// exitStatus describes how the process ended, waiting briefly for it:
// "exited with status 2", "killed by signal 9", or "still running".
func (s *Session) exitStatus() string {
	select {
	case <-s.exited:
	case <-time.After(200 * time.Millisecond):
		return "still running"
	}
	var ee *exec.ExitError
	if errors.As(s.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String() + s.box.abortNote(ws)
		}
		return fmt.Sprintf("exited with status %d", ee.ExitCode())
	}
	if s.waitErr != nil {
		return s.waitErr.Error()
	}
	return "exited with status 0"
}

// crashed is the crash fault of a bot whose input or output ended before
// the match did (what says which; how its process ended follows), or the
// match's cancellation when a stop of the run ended the bot (see
// stopGrace).
func (s *Session) crashed(what string) error {
	how := s.exitStatus()
	s.endSeen = how != "still running"
	if what == inputClosed && how != "still running" {
		// A bot that exited closed its input and its output together:
		// whether a write or a read noticed first is the scheduler's
		// choice, so the verdict is the same either way, and a match
		// replays to the same bytes.
		what = "output ended"
	}
	select {
	case <-s.exited:
		if waitStopLike(s.waitErr) && cancelledMeanwhile(s.ctx) {
			return s.ctx.Err()
		}
	default:
	}
	return faultf(drivers.FaultCrash, "%s (%s)", what, how)
}

// Ended says whether the bot's process had ended when arbiter judged its
// fault: a crash whose detail says how the process ended ("exited with
// status 0"). A game that writes its bots a last line at the end (Bricks's
// STOP) writes none to such a bot. It does not look at the process now:
// whether a bot exited since is a matter of timing, and a match's
// transcript records what was sent.
func (s *Session) Ended() bool { return s.endSeen }

// Close ends a bot that did nothing wrong. If quit is not empty it is
// written as a last command (its answer is not awaited); then the bot's
// input is closed and it gets the grace period to exit on its own before
// its process group and every escaped descendant are killed and reaped.
// Close and Kill are safe to call more than once.
func (s *Session) Close(quit string) {
	s.closeOnce.Do(func() {
		s.stopCtx()
		if quit != "" && s.cancelErr() == nil {
			if s.Write(quit, time.Now().Add(s.spec.Grace)) == nil {
				// Drain the answer so the bot is not blocked writing it.
				go func() { _, _ = io.Copy(io.Discard, s.out) }()
			}
		}
		_ = s.in.Close()
		if s.cancelErr() == nil {
			select {
			case <-s.exited:
			case <-time.After(s.spec.Grace):
			}
		}
		s.kill()
	})
}

// Kill ends a bot at once: after a fault there is nothing to wait for.
func (s *Session) Kill() {
	s.closeOnce.Do(func() {
		s.stopCtx()
		_ = s.in.Close()
		s.kill()
	})
}

// kill kills the process group (or the box's PID namespace), waits for
// the bot, then kills every process with the session's token and reaps
// adopted descendants if any process left the group.
//
// Once the bot has exited, every descendant it left is either in its PID
// namespace, which the box's Kill ended, or our child: orphans are
// reparented to us (becomeSubreaper) before the bot's exit can be waited
// for, and a descendant whose parent lives on descends from such an
// orphan. So when the bot was contained, or we have no child that os/exec
// did not start, nothing escaped and the scans of every process on the
// machine for the token are skipped: they cost milliseconds a session,
// most of the end of a game of quick bots.
func (s *Session) kill() {
	pid := s.cmd.Process.Pid
	s.watch.disarm()
	s.box.Kill()
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	<-s.exited
	if !s.box.Contained() && anyAdopted() {
		killTokened(s.token)
		// Killed descendants reparent to us and turn into zombies as the
		// kernel gets to them; reap until none of our adopted children is
		// left alive.
		for i := 0; i < 2000; i++ {
			reapOrphans()
			if !adoptedPending(s.token) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	select {
	case <-s.errDone:
	case <-time.After(time.Second):
		// Only a process outside our reach still holds stderr open.
	}
	_ = s.out.Close()
	s.box.Close()
}

// verdict turns a fault into the limit that caused it, if one did: a bot
// killed at its memory limit shows up first as output that ended.
func (s *Session) verdict(err error) error {
	var f *Fault
	if s.box == nil || !errors.As(err, &f) {
		return err
	}
	var ps *os.ProcessState
	if f.Kind == drivers.FaultCrash || s.box.jvmReportsMemory(f.Kind) {
		// (A JVM that could not get its memory under RLIMIT_DATA prints
		// its fatal error report, read as a wrong answer, and exits.)
		wait := 200 * time.Millisecond
		if f.Kind != drivers.FaultCrash {
			wait = jvmExitWait
		}
		select {
		case <-s.exited:
			ps = s.cmd.ProcessState
		case <-time.After(wait):
		}
	}
	var tail string
	if ps != nil && s.spec.Stderr != "" {
		select {
		case <-s.errDone:
		case <-time.After(100 * time.Millisecond):
		}
		// Only what the bot wrote since the command before the last one
		// (errMark): a refused fork it recovered from moves ago does not
		// explain this crash, while one written just after its last
		// answer always does, however late the drainer copied it.
		tail = s.stderrSince()
	}
	if g := s.box.Explain(f.Kind, ps, tail); g != nil {
		return g
	}
	return err
}

// stderrSince is the end (4 KiB at most) of what the bot wrote on its
// stderr since the command before the last one (errMark), "" without a
// stderr file.
func (s *Session) stderrSince() string { return stderrFrom(s.spec.Stderr, s.errMark) }

// stderrFrom is the end (4 KiB at most) of what the stderr file at path
// holds past offset from, "" for no file (path "") or nothing past it.
func stderrFrom(path string, from int64) string {
	if path == "" {
		return ""
	}
	if n := fileSize(path) - from; n > 0 {
		return fileTail(path, min(4096, n))
	}
	return ""
}

// jvmExitWait is how long a session's verdict waits for a JVM under
// RLIMIT_DATA whose answer was refused to exit, as one that printed its
// fatal error report does once it has written its error file
// (hs_err_pid): 200 ms, a crash's wait, was too short on a loaded
// machine, and the report was judged a wrong answer "#". Only a JVM
// bot under RLIMIT_DATA alone whose answer was refused waits so (its
// stderr's warning, which comes before the report, may not be copied
// to its file yet, so it cannot tell the report from another wrong
// answer): the bot is faulted either way, so the wait costs at most
// 3 s of the match, never a verdict or another bot's clock.
const jvmExitWait = 3 * time.Second

// ExplainAnswer is the verdict of a limit on answer, a line the game
// read from the session and refuses (a protocol fault of its own, as
// Bricks's referee judges a move that does not parse): a JVM that could
// not get its memory under RLIMIT_DATA prints its fatal error report
// ('#' lines) where its answer was due and exits, which is the memory
// verdict, as it is of a wrong answer Receive's read finds (verdict).
// Nil when no limit explains it: any line but the report's.
func (s *Session) ExplainAnswer(answer string) *Fault {
	if !jvmReportLine(answer) || !s.box.jvmReportsMemory(drivers.FaultProtocol) {
		return nil
	}
	var g *Fault
	if err := s.verdict(faultf(drivers.FaultProtocol, "answered %q", answer)); errors.As(err, &g) && g.Kind == drivers.FaultMemory {
		return g
	}
	return nil
}

// Folder is the bot's private writable folder, "" if it has none.
func (s *Session) Folder() string { return s.box.Folder() }

// fileTail is the last n bytes of the file at path; cut from a longer
// file, it begins at a character (UTF-8), not with the rest of one, as a
// fault's detail may quote it.
func fileTail(path string, n int64) string {
	tail, _ := filetail.Read(path, n)
	return tail
}

func (s *Session) closePipes() {
	for _, f := range []*os.File{s.in, s.out} {
		if f != nil {
			f.Close()
		}
	}
}

func truncate(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
