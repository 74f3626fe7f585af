package proc

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// OnceSpec says how to run a bot for one move: games whose bots are run
// once per move (Auction's strategies read files, print one line and exit)
// instead of holding a session.
type OnceSpec struct {
	Bot  string   // name for messages
	Argv []string // Argv[0] is looked up in PATH, or relative to Dir if it has a slash
	Dir  string
	Env  []string // added to the arbiter's environment
	// Stdin is written to the bot's standard input, which is then closed;
	// a bot that does not read it is fine. Empty: /dev/null.
	Stdin string
	// Timeout is how long the bot has, from its start, to print its first
	// line; zero means no limit. Within says what makes it up, as a time
	// fault says it ("its move limit of 1s and the overrun of 500ms");
	// empty, the fault gives the duration alone.
	Timeout time.Duration
	Within  string
	// MaxOutput caps the first line (default 64 KiB): a longer line, or as
	// much output without a newline, is an output fault.
	MaxOutput int
	// Stderr is a file the bot's stderr is appended to, "" to discard it.
	// The file is capped at MaxStderr (default 16 MiB) over all runs that
	// append to it; beyond that the bot's stderr is drained and dropped.
	Stderr    string
	MaxStderr int64
	// Grace is how long a bot may take to exit after printing its line
	// (default 100ms) before its process group is killed.
	Grace time.Duration
	// Limits confine the run as they confine a session (see Prepare),
	// except files: a per-move bot keeps its files in its working
	// directory, where the game counts them by its own rules, so a files
	// limit here only forbids writes anywhere else. Limits.Output caps
	// the line when MaxOutput is not set; cpu = "match" means Timeout.
	Limits drivers.Limits
	// NoStart, when set, is why the bot cannot be started (its build
	// failed: drivers.Seat.Unbuilt): RunOnce starts nothing and replies
	// with a drivers.FaultStart fault of this detail.
	NoStart string
	// Quota, when set, bounds what the bot writes in Dir during the run
	// (see FolderQuota): over it, the run is stopped with a
	// drivers.FaultFiles fault.
	Quota *FolderQuota
}

// Reply is what one run of a bot produced.
type Reply struct {
	// Line is the bot's first line of output without its line ending, or
	// all its output when its output ended or it exited in time without
	// a newline: an answer without a line end is complete only then.
	Line string
	// Exit is the exit status; 128+n when a signal n ended the process
	// (137 for a bot killed after its grace); -1 when it never started.
	Exit int
	// Killed is true when arbiter's own kill ended the process: it had
	// not exited by the end of its time, of its grace after an answer,
	// or when a limit or a stop ended the run, and SIGKILL (137) is how
	// it ended. A failing status or any other signal, or a SIGKILL from
	// elsewhere (the kernel's OOM killer, the bot itself) before that, is
	// the bot's own end.
	Killed bool
	// Used is the time from the start of the process to its first line,
	// or to its exit (for output without a line end too: it is complete
	// then), or to the time-out. An answer taken (no Fault) is charged at
	// most Timeout: it was complete at arbiter's first look after the
	// deadline, and a later look is arbiter's delay.
	Used time.Duration
	// Arrived is, of an answer without a line end, the time from the
	// start of the process to the arrival of its last byte, at most Used,
	// and more than zero (a byte arrives after the start, if within its
	// first microseconds); zero for a line. It decides nothing: LateNote says it.
	Arrived time.Duration
	// Fault is nil when the bot printed a line in time (what the line
	// means is the game's business) and kept within its limits and its
	// folder's quota until its processes were gone; otherwise why there
	// is no line, or why it is not to be taken: drivers.FaultTime, FaultOutput (a line over MaxOutput),
	// FaultProtocol (exit status 0 without output), FaultCrash (no line,
	// a failing exit status or a signal), FaultStart, or the limit that
	// ended it (FaultMemory, FaultProcesses, FaultNetwork, FaultFiles).
	Fault *Fault
}

// onceStdinDirect is how much stdin is written into the pipe before the
// bot starts, sparing a goroutine: one page always fits in a pipe, even one
// shrunk by the pipe-user-pages limits.
const onceStdinDirect = 4096

// RunOnce runs a bot once and returns its first line. Whatever the bot
// does, it and every process it started are gone when RunOnce returns
// (killed with its process group, and by its ARBITER_TOKEN if they escaped
// the group), and reaped.
//
// Runs are independent: many may run at the same time (every player of an
// Auction round bids at once), each with its own deadline and timer, so
// no bot is charged for another's time.
//
// The error is non-nil only when ctx was cancelled (ctx.Err(); also when
// it is cancelled within stopGrace of an end of the bot that the stop
// could have caused), or the arbiter itself could not make pipes, open
// the stderr file or write it (see stderr.go); a bot's misbehaviour is in
// Reply.Fault.
func RunOnce(ctx context.Context, spec OnceSpec) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{Exit: -1}, err
	}
	if spec.NoStart != "" {
		return Reply{Exit: -1, Fault: faultf(drivers.FaultStart, "%s", spec.NoStart)}, nil
	}
	if len(spec.Argv) == 0 {
		return Reply{Exit: -1, Fault: faultf(drivers.FaultStart, "bot %s has an empty command", spec.Bot)}, nil
	}
	if spec.Quota != nil && spec.Dir == "" {
		// The driver's mistake: a quota on arbiter's own working directory
		// would count whatever else is there.
		return Reply{Exit: -1}, fmt.Errorf("bot %s: a folder quota needs the run's Dir", spec.Bot)
	}
	becomeSubreaper()
	r := &onceRun{spec: withOnceDefaults(spec), exited: make(chan struct{}), ctx: ctx}
	var tok [12]byte
	_, _ = rand.Read(tok[:])
	r.token = hex.EncodeToString(tok[:])
	if reply, err, ok := r.launch(); !ok {
		return reply, err
	}
	if r.stdinW != nil {
		go r.writeStdin()
	}
	if r.spec.Timeout > 0 {
		r.deadline = r.start.Add(r.spec.Timeout)
		r.setDeadline(r.deadline)
	}
	go r.watchExit()
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { r.stop(nil) })
		defer stop()
	}
	watch := r.box.watch(r.stop)
	watch.arm()
	// The quota's watch runs on through the grace after an answer: finish
	// stops it once the bot's group is killed.
	r.quota = watchQuota(r.spec.Quota, r.spec.Dir, r.overQuotaNow)
	reply := r.read()
	watch.disarm()
	if r.cancelled.Load() {
		r.finish(false)
		r.box.Close()
		return Reply{Exit: -1}, ctx.Err()
	}
	reply = r.verdict(reply)
	r.box.Close()
	if r.errSink != nil && r.errSink.Err() != nil {
		// The bot's stderr was lost, not the bot's doing (stderr.go).
		return Reply{Exit: -1}, stderrFailure(r.spec.Bot, r.errSink.Err())
	}
	if f := reply.Fault; f != nil && f.Kind == drivers.FaultCrash && stopStatus(reply.Exit) && cancelledMeanwhile(ctx) {
		// A stop of the run ended it (see stopGrace).
		return Reply{Exit: -1}, ctx.Err()
	}
	return reply, nil
}

// withOnceDefaults fills in the caps and grace a spec leaves at zero.
func withOnceDefaults(spec OnceSpec) OnceSpec {
	if spec.MaxOutput <= 0 {
		spec.MaxOutput = intBytes(cmp.Or(spec.Limits.Output, 64<<10))
	}
	if spec.MaxStderr <= 0 {
		spec.MaxStderr = 16 << 20
	}
	if spec.Grace <= 0 {
		spec.Grace = 100 * time.Millisecond
	}
	return spec
}

// launch makes the run's pipes and starts the bot, confined. ok is false
// when it did not start; then reply and err are RunOnce's answer.
func (r *onceRun) launch() (reply Reply, err error, ok bool) {
	spec := r.spec
	if f := crlfFault(spec.Argv, spec.Dir); f != nil {
		return Reply{Exit: -1, Fault: f}, nil, false
	}
	if err := r.pipes(); err != nil {
		r.closeAll()
		return Reply{Exit: -1}, fmt.Errorf("bot %s: %w", spec.Bot, err), false
	}
	cmd := Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(append(HostEnviron(spec.Limits), spec.Env...), "ARBITER_TOKEN="+r.token)
	cmd.Stdout = r.childOut
	// A nil *os.File in an io.Reader would close the bot's fd 0: set only
	// what exists (os/exec gives /dev/null for the rest).
	if r.childIn != nil {
		cmd.Stdin = r.childIn
	}
	if r.childErr != nil {
		cmd.Stderr = r.childErr
	}
	// A session of its own (so a process group of its own too): no
	// controlling terminal, so the bot cannot open /dev/tty and type into
	// the organiser's shell (TIOCSTI) or read what is typed there.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	box, err := r.confine(cmd)
	if err != nil {
		r.closeAll()
		r.waitStderr()
		var f *Fault
		if errors.As(err, &f) {
			return Reply{Exit: -1, Fault: f}, nil, false
		}
		return Reply{Exit: -1}, &SetupError{Bot: spec.Bot, Err: err}, false
	}
	if box.jvmReportsMemory(drivers.FaultProtocol) {
		r.jvmFiles = jvmErrorFiles(spec.Dir)
	}
	start, err := startOnce(cmd, box)
	r.closeChildEnds()
	if err != nil {
		box.Close()
		r.closeAll()
		r.waitStderr()
		if se, ok := setupOf(err, spec.Bot); ok {
			return Reply{Exit: -1}, se, false
		}
		var f *Fault
		if errors.As(err, &f) {
			return Reply{Exit: -1, Fault: f}, nil, false
		}
		return Reply{Exit: -1, Fault: startFault(spec.Argv, spec.Dir, err)}, nil, false
	}
	r.cmd, r.start, r.box = cmd, start, box
	return Reply{}, nil, true
}

// verdict ends the run that answered reply and says what it was: its
// exit, and the fault of a bot that printed no line, went over a limit
// while it ran, or was ended by one.
func (r *onceRun) verdict(reply Reply) Reply {
	var over *Fault // a limit it went over while it ran
	if reply.Fault == nil {
		over = r.box.Check()
	}
	reply.Exit = r.finish(reply.Fault == nil && over == nil)
	reply.Killed = r.killed && reply.Exit == 128+int(syscall.SIGKILL)
	if reply.Fault == nil && r.noLine {
		// It exited without a line: say how.
		if reply.Exit != 0 {
			ws, _ := r.cmd.ProcessState.Sys().(syscall.WaitStatus)
			reply.Fault = faultf(drivers.FaultCrash, "%s%s without printing a line", DescribeExit(reply.Exit), r.box.abortNote(ws))
		} else {
			reply.Fault = faultf(drivers.FaultProtocol, "exited without printing anything")
		}
	}
	if over == nil {
		// A folder over its quota is most likely what went wrong with a
		// run that ended without an answer: a write beyond it failed
		// (EFBIG: Python raises OSError) or killed the bot (SIGXFSZ)
		// between two looks of the watch. After an answer, the bot may
		// have written on in its grace.
		over = r.overQuota(reply.Fault)
	}
	if g := r.jvmMemory(reply, over); g != nil {
		reply.Fault, over = g, nil
	}
	switch {
	case over != nil:
		reply.Fault = over
	case reply.Fault != nil:
		tail := r.stderrTail()
		// A limit may be what ended it: say which.
		if g := r.box.Explain(reply.Fault.Kind, r.cmd.ProcessState, tail); g != nil {
			reply.Fault = g
		} else if reply.Fault.Kind == drivers.FaultCrash && strings.Contains(tail, "Could not find or load main class") {
			reply.Fault = javaClassMissing(reply.Fault, r.spec.Argv, r.spec.Dir, r.cmd.Env)
		}
	}
	return reply
}

// jvmMemory is the memory verdict on a run that printed, where its
// answer was due, the first line of a JVM's fatal error report
// (jvmReportLine) and ended, when its stderr says the JVM could not get
// its memory under RLIMIT_DATA: judged as a session's wrong answer is
// (Box.Explain), so that a game that runs its bot once per move gives
// the verdict a game of sessions gives, not an answer "#" refused. The
// JVM's error file in the bot's folder goes (removeJVMErrorFiles); a
// folder over its quota without it keeps its files fault (over), as does
// a limit the bot went over while it ran. Nil when the run is not
// judged so.
func (r *onceRun) jvmMemory(reply Reply, over *Fault) *Fault {
	if reply.Fault != nil || !jvmReportLine(reply.Line) || !r.box.jvmReportsMemory(drivers.FaultProtocol) {
		return nil
	}
	g := r.box.Explain(drivers.FaultProtocol, r.cmd.ProcessState, r.stderrTail())
	if g == nil || g.Kind != drivers.FaultMemory {
		return nil
	}
	removeJVMErrorFiles(r.spec.Dir, r.jvmFiles)
	if over != nil && (over.Kind != drivers.FaultFiles || r.spec.Quota != nil && r.spec.Quota.left(r.spec.Dir) != nil) {
		return nil
	}
	return g
}

// overQuotaNow ends the run the quota's watch found over its quota: the
// read ends with f, and the bot's process group is killed at once, not
// once the reader has run, so that it writes no more meanwhile. Its
// leader is not reaped before the watch has stopped, so the group's id is
// still its own.
func (r *onceRun) overQuotaNow(f *Fault) {
	r.stop(f)
	_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
}

// overQuota is the files fault of a run that ended (with fault f, nil
// after an answer) and went over its quota: the watch's, when it found
// the folder over after the read had ended (in the grace after an
// answer), else a last measure of the folder, the bot's processes all
// gone. Nil without a quota, when the folder is within it, and for a
// time fault, the arbiter's own verdict from its clock, or a files fault
// already.
func (r *onceRun) overQuota(f *Fault) *Fault {
	if r.spec.Quota == nil || f != nil && (f.Kind == drivers.FaultTime || f.Kind == drivers.FaultFiles) {
		return nil
	}
	if g := r.over.Load(); g != nil && g != f && g.Kind == drivers.FaultFiles {
		return g
	}
	if f != nil {
		// Said as the watch says it: the write that failed or killed it
		// is most likely what ended it.
		return r.spec.Quota.over(r.spec.Dir)
	}
	return r.spec.Quota.left(r.spec.Dir)
}

// javaClassMissing is the crash f of a JVM that could not find the bot's
// main class, with what to do: a class named without a class path is
// looked for in dir, where the bot runs (a game may run it outside its
// own dir), so give "-cp", "."; a class that has one is not there (not
// compiled, or compiled elsewhere). An absolute CLASSPATH in env (the
// bot's environment) is a class path too, which "-cp" would replace.
func javaClassMissing(f *Fault, argv []string, dir string, env []string) *Fault {
	if class := javacmd.MainClass(argv, dir); class != "" && !javacmd.AbsoluteClassPath(javacmd.EnvClassPath(env)) {
		return faultf(drivers.FaultCrash, "%s: java could not find the bot's main class %s in %s, where it runs (put \"-cp\", \".\" before the class in its command: \".\" is made the bot's dir)", f.Detail, class, dir)
	}
	return faultf(drivers.FaultCrash, "%s: java could not find the bot's main class on the class path its command or CLASSPATH gives (is the class compiled there? a bot's build, build = [\"javac\", ...], compiles it before the matches)", f.Detail)
}

// stderrTail is the end of what this run wrote to its stderr file (only
// this run's: the file collects every run's), "" without one.
func (r *onceRun) stderrTail() string { return stderrFrom(r.spec.Stderr, r.errFrom) }

// confine prepares cmd to run under the spec's limits (see
// OnceSpec.Limits); the box is nil when there are none.
func (r *onceRun) confine(cmd *exec.Cmd) (*Box, error) {
	lim := r.spec.Limits
	writable := ""
	if lim.Files > 0 || lim.FileCount > 0 || lim.Sandbox != nil {
		writable = r.spec.Dir
		if writable == "" {
			writable, _ = os.Getwd()
		}
		lim.Files, lim.FileCount = 0, 0
	}
	var fileSize int64
	if r.spec.Quota != nil {
		fileSize = r.spec.Quota.fileSize()
	}
	return prepare(cmd, lim, drivers.Clock{Total: drivers.Duration(r.spec.Timeout)}, writable, fileSize)
}

// startOnce starts cmd (in its own process group, to be killed with the
// arbiter: see its SysProcAttr) and registers it so that the orphan reaper leaves it to
// os/exec. It returns the moment the bot's time starts: taken under the
// lock, so that waiting for another bot's start is not charged.
func startOnce(cmd *exec.Cmd, box *Box) (time.Time, error) {
	children.Lock()
	defer children.Unlock()
	start := time.Now()
	if err := StartCmd(cmd, box); err != nil {
		return start, err
	}
	children.pids[cmd.Process.Pid] = true
	return start, nil
}

// onceRun is one RunOnce in progress.
type onceRun struct {
	spec  OnceSpec
	token string
	cmd   *exec.Cmd
	box   *Box // nil without limits
	// errFrom is the size of the stderr file before this run.
	errFrom int64
	start   time.Time
	// jvmFiles is the JVM's error files the bot's dir held before the
	// run (jvmErrorFiles), taken for a JVM under RLIMIT_DATA only.
	jvmFiles map[string]fileStamp
	// deadline is when the time runs out (zero: never).
	deadline time.Time

	out                         *os.File // our end of the bot's stdout
	stdinW                      *os.File // our end of the bot's stdin, when written by a goroutine
	stdinOnce                   sync.Once
	childIn, childOut, childErr *os.File
	errDone                     chan struct{} // closed when stderr is drained; nil without a stderr file
	errSink                     *stderrSink   // where stderr is drained to; nil without a stderr file
	ctx                         context.Context

	exited    chan struct{} // closed when the bot's main process has ended (not yet reaped)
	exitAt    time.Time     // set before exited is closed
	cancelled atomic.Bool
	// over is the limit a watch found the bot over while it was read (or,
	// for the quota's, in the grace after its answer).
	over   atomic.Pointer[Fault]
	quota  *quotaWatch // nil without a quota
	noLine bool        // the bot exited, or its output ended, without any output
	// killed is set by finish: the bot's main process had not exited
	// when arbiter killed its group.
	killed bool
	// mu orders deadline changes against stop, whose past deadline no
	// later change may undo.
	mu sync.Mutex
}

// setDeadline sets the read deadline on the bot's output, unless stop
// already ended the read.
func (r *onceRun) setDeadline(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cancelled.Load() && r.over.Load() == nil {
		_ = r.out.SetReadDeadline(t)
	}
}

// stop ends the read at once: the context was cancelled (f nil) or the
// bot went over limit f.
func (r *onceRun) stop(f *Fault) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f == nil {
		r.cancelled.Store(true)
	} else if !r.cancelled.Load() {
		r.over.CompareAndSwap(nil, f)
	}
	_ = r.out.SetReadDeadline(time.Unix(1, 0))
}

func (r *onceRun) pipes() error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("stdout pipe: %w", err)
	}
	r.out, r.childOut = outR, outW
	if r.spec.Stdin != "" {
		inR, inW, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("stdin pipe: %w", err)
		}
		r.childIn = inR
		if len(r.spec.Stdin) <= onceStdinDirect {
			_, _ = io.WriteString(inW, r.spec.Stdin)
			inW.Close()
		} else {
			r.stdinW = inW
		}
	}
	if r.spec.Stderr != "" {
		f, err := os.OpenFile(r.spec.Stderr, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		fi, err := f.Stat()
		if err == nil {
			r.errFrom = fi.Size()
		}
		if err != nil || fi.Size() >= r.spec.MaxStderr {
			// Full: the bot's stderr goes to /dev/null.
			r.errFrom = math.MaxInt64
			f.Close()
			return nil
		}
		errR, errW, err := os.Pipe()
		if err != nil {
			f.Close()
			return fmt.Errorf("stderr pipe: %w", err)
		}
		r.childErr = errW
		r.errDone = make(chan struct{})
		var failed func(error)
		if report := stderrFailed(r.ctx); report != nil {
			failed = func(err error) { report(stderrFailure(r.spec.Bot, err)) }
		}
		r.errSink = newStderrSink(f, r.spec.MaxStderr, r.spec.MaxStderr-fi.Size(), failed)
		go drainStderr(errR, r.errSink, r.errDone)
	}
	return nil
}

// closeChildEnds closes the pipe ends the child holds, once it has them.
func (r *onceRun) closeChildEnds() {
	for _, f := range []*os.File{r.childIn, r.childOut, r.childErr} {
		if f != nil {
			f.Close()
		}
	}
}

func (r *onceRun) closeAll() {
	r.closeChildEnds()
	r.out.Close()
	r.closeStdin()
}

func (r *onceRun) closeStdin() {
	if r.stdinW != nil {
		r.stdinOnce.Do(func() { r.stdinW.Close() })
	}
}

// writeStdin writes the input; a bot that exits or closes its input
// without reading it all is fine, so write errors are ignored.
func (r *onceRun) writeStdin() {
	_, _ = io.WriteString(r.stdinW, r.spec.Stdin)
	r.closeStdin()
}

// watchExit waits for the bot's main process to end without reaping it:
// while it is an unreaped zombie its pid, and so its process group id,
// cannot be reused, which makes killing the group later safe. It waits in
// Go's poller (awaitExit) before the waitid that then returns at once:
// blocked in waitid it held the Go processor of a match pinned to one CPU
// from the reader of the bot's answer (a Euchre game on one CPU: 807-853
// ms before, 766-775 after).
func (r *onceRun) watchExit() {
	awaitExit(r.cmd.Process)
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, r.cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	if testHookExit != nil {
		testHookExit(r)
	}
	r.exitAt = time.Now()
	close(r.exited)
	// Output the bot wrote is in the pipe already; only a descendant still
	// holding stdout could add more. Give it the grace, not the full time.
	d := r.exitAt.Add(r.spec.Grace)
	if !r.deadline.IsZero() && r.deadline.Before(d) {
		d = r.deadline
	}
	r.setDeadline(d)
}

func (r *onceRun) hasExited() bool {
	select {
	case <-r.exited:
		return true
	default:
		return false
	}
}

// testHookRead, when a test sets it, runs just before the first read of
// a bot's output: it holds the reader back on purpose, as a starved
// machine does.
var testHookRead func(r *onceRun)

// testHookExit, when a test sets it, runs when the bot's exit is seen,
// before it is noted: it holds the watcher of the exit back, as a starved
// machine does.
var testHookExit func(r *onceRun)

// read reads up to the first newline, at most MaxOutput bytes. Output
// without a line end is the answer only once it is all there: when the
// bot's output ends or the bot exits in time, timed then (partialAnswer);
// at a deadline with the bot still running it is a time fault that
// quotes it, however much of it arrived by then. An answer taken is
// charged at most the time-out: it was complete at arbiter's first look
// after the deadline at the latest (lateLook), and when a starved reader
// took it later, or the poller's timer fired late, the delay is
// arbiter's.
func (r *onceRun) read() Reply {
	if testHookRead != nil {
		testHookRead(r)
	}
	reply := r.readAnswer()
	if reply.Fault == nil && r.spec.Timeout > 0 {
		reply.Used = min(reply.Used, r.spec.Timeout)
		reply.Arrived = min(reply.Arrived, reply.Used)
	}
	return reply
}

// readAnswer is read without its cap on the time charged.
func (r *onceRun) readAnswer() Reply {
	limit := r.spec.MaxOutput + 1
	buf := make([]byte, 0, min(512, limit))
	var arrived time.Time // when the last of buf was read
	for {
		buf = room(buf, limit)
		from := len(buf)
		n, err := r.out.Read(buf[from:cap(buf)])
		buf = buf[:from+n]
		if n > 0 {
			arrived = time.Now()
		}
		if reply, ok := r.lineIn(buf, from, false); ok {
			return reply
		}
		if err == nil {
			continue
		}
		if r.cancelled.Load() {
			return Reply{}
		}
		if f := r.over.Load(); f != nil {
			return r.overLook(buf, f, limit)
		}
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			return r.lateLook(buf, arrived, limit)
		case errors.Is(err, io.EOF):
			// Output ended: what it printed is its answer.
			return r.partialAnswer(buf, arrived)
		}
		return Reply{Used: time.Since(r.start), Fault: faultf(drivers.FaultCrash, "reading its output: %v", err)}
	}
}

// overLook is read's reply once a watch stopped the run with f. Go's
// poller fails the read that the stop's deadline wakes without looking at
// the pipe, so a line the bot had printed before a files fault, which a
// starved reader had not yet taken, is taken from the pipe as its line:
// verdict still judges the run by that fault (overQuota), but a JVM's
// fatal error report, whose "#" line comes before the error file that
// went over the folder's quota, is then its memory verdict (jvmMemory),
// whichever of the watch and the reader ran first (overQuota keeps the
// quota watch's fault). Any other fault, or no line in the pipe, is the
// reply's fault.
func (r *onceRun) overLook(buf []byte, f *Fault, limit int) Reply {
	if f.Kind == drivers.FaultFiles && r.spec.Quota != nil {
		from := len(buf)
		buf, _ = drainFile(r.out, buf, limit)
		if reply, ok := r.lineIn(buf, from, false); ok && reply.Fault == nil {
			return reply
		}
	}
	return Reply{Used: time.Since(r.start), Fault: f}
}

// lateLook is read's first look after a read deadline passed: the run's
// time-out, or the end of the grace after the bot's exit (watchExit).
// Go's poller fails a read whose deadline has passed without looking at
// the pipe, and on a starved machine this reader, and the watcher of the
// bot's exit, may run well after the deadline: so the verdict is what
// the pipe and the kernel show at this look, whichever of arbiter's
// goroutines ran first. A line in the pipe is the answer (late.go); so
// is output without a line end when the bot had exited by this look (as
// the kernel says, whether or not the watcher has seen it: everything it
// wrote is in the pipe then, and a descendant that holds the pipe open
// is not waited for) or when the drain reached the end of its output.
// Output still incomplete here, its bot running, is a time fault, however
// much of it had arrived.
func (r *onceRun) lateLook(buf []byte, arrived time.Time, limit int) Reply {
	// Before the drain: output written after the look at the exit
	// would be missing from an answer taken for it.
	exitedInTime := r.hasExited() && (r.deadline.IsZero() || r.exitAt.Before(r.deadline))
	exited, killed := exitedInTime, false
	if !exitedInTime {
		exited, killed = r.exitedNow()
	}
	from := len(buf)
	buf, ended := drainFile(r.out, buf, limit)
	if len(buf) > from {
		arrived = time.Now()
	}
	if reply, ok := r.lineIn(buf, from, exitedInTime); ok {
		return reply
	}
	// A bot a signal ended, not seen to end by the deadline, did not
	// finish its answer: most likely the CPU limit (always past the
	// deadline) or arbiter's own kill ended it still computing. Its output
	// is a time fault's quote, however late this look came (a limit that
	// ended it is named by verdict).
	if (exited || ended) && !killed {
		return r.partialAnswer(buf, arrived)
	}
	used := time.Since(r.start)
	if len(buf) > 0 {
		return Reply{Used: used, Fault: partialf("answer", r.within(), string(buf))}
	}
	return Reply{Used: used, Fault: faultf(drivers.FaultTime, "no answer within %s", r.within())}
}

// exitedNow says whether the bot's main process has ended, as the
// kernel says it now (the watcher, watchExit, may not have run since),
// and whether a signal ended it. The process is left unreaped.
func (r *onceRun) exitedNow() (exited, bySignal bool) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, r.cmd.Process.Pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			exited = err == nil && info.Signo != 0
			return exited, exited && info.Code != cldExited
		}
	}
}

// cldExited is siginfo's si_code of a child that exited by itself
// (CLD_EXITED in <signal.h>; CLD_KILLED and CLD_DUMPED are a signal's).
const cldExited = 1

// partialAnswer is the reply of output buf without a line end, whose last
// byte this reader took at arrived, once the bot's output has ended or
// it has exited in time (by the first look after its deadline at the
// latest, lateLook): the answer (none when buf is empty), timed to the
// bot's exit as the watcher saw it, or to now when it has not seen it
// (read caps either at the time-out). Arrived says when its last byte came, for a late answer's note
// (LateNote), not more than the exit: it wrote it before, however late a
// starved reader took it.
func (r *onceRun) partialAnswer(buf []byte, arrived time.Time) Reply {
	used := time.Since(r.start)
	if r.hasExited() {
		used = r.exitAt.Sub(r.start)
	}
	if len(buf) == 0 {
		r.noLine = true
		return Reply{Used: used}
	}
	return Reply{Line: strings.TrimSuffix(string(buf), "\r"), Used: used, Arrived: min(arrived.Sub(r.start), used)}
}

// LateNote is what a message that finds the reply's answer late (Used
// over the move limit) adds for an answer without a line end (Arrived
// set): when it had arrived, and that such an answer is complete only
// when the bot exits; "" for a line.
func (r Reply) LateNote() string {
	if r.Arrived <= 0 || r.Fault != nil {
		return ""
	}
	return fmt.Sprintf("; its answer %q had arrived at %s without a line end: an answer is complete only when its line ends or the bot exits",
		truncate(r.Line), r.Arrived.Round(time.Millisecond))
}

// lineIn looks for the end of the first line in buf[from:] (buf before
// from has none); ok is false while there is no line and buf is within
// MaxOutput. atExit charges the bot's time up to its exit, not up to now.
func (r *onceRun) lineIn(buf []byte, from int, atExit bool) (reply Reply, ok bool) {
	max := r.spec.MaxOutput
	i := bytes.IndexByte(buf[from:], '\n')
	if i < 0 && len(buf) <= max {
		return Reply{}, false
	}
	// A bot that has exited wrote all it wrote before its exit: a reader
	// that runs later (a busy machine) does not charge it for the wait.
	reply.Used = time.Since(r.start)
	if atExit || r.hasExited() {
		reply.Used = min(reply.Used, r.exitAt.Sub(r.start))
	}
	switch {
	case i < 0:
		reply.Fault = faultf(drivers.FaultOutput, "printed more than %d bytes without a newline", max)
	case from+i > max:
		reply.Fault = faultf(drivers.FaultOutput, "printed a line longer than %d bytes", max)
	default:
		reply.Line = strings.TrimSuffix(string(buf[:from+i]), "\r")
	}
	return reply, true
}

// room grows buf when it is full, up to a capacity of limit.
func room(buf []byte, limit int) []byte {
	if len(buf) < cap(buf) || cap(buf) >= limit {
		return buf
	}
	grown := make([]byte, len(buf), min(max(2*cap(buf), 512), limit))
	copy(grown, buf)
	return grown
}

// finish ends the run: a bot that answered gets the grace to exit on its
// own; then its process group is killed while its leader is still
// unreaped, the leader is reaped, and, if any process escaped the group,
// every process carrying the token is killed and reaped. It returns the
// exit status. Its output is closed only after the kill: a bot that
// writes more after its answer (a debug line flushed at exit) gets no
// EPIPE or SIGPIPE from arbiter's closing it, which would end it, by a
// race, as if by a failure of its own.
func (r *onceRun) finish(answered bool) int {
	pid := r.cmd.Process.Pid
	if answered && !r.hasExited() {
		t := time.NewTimer(r.spec.Grace)
		select {
		case <-r.exited:
		case <-t.C:
		}
		t.Stop()
	}
	r.killed = !r.hasExited()
	r.box.Kill()
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	r.out.Close()
	<-r.exited
	// Before the leader is reaped: the watch kills the group by its id.
	r.quota.stop()
	_ = r.cmd.Wait()
	children.Lock()
	delete(children.pids, pid)
	children.Unlock()
	r.closeStdin()
	if !r.box.Contained() && anyAdopted() {
		// A descendant left the group, or lost its parent: find it by token.
		killTokened(r.token)
		for i := 0; i < 2000; i++ {
			reapOrphans()
			if !adoptedPending(r.token) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	r.waitStderr()
	ws, _ := r.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

func (r *onceRun) waitStderr() {
	if r.errDone == nil {
		return
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-r.errDone:
	case <-t.C:
		// Only a process outside our reach still holds stderr open.
	}
}

// anyAdopted reports whether the arbiter has a child that os/exec did not
// start: a descendant of some bot that lost its parent. Every process a
// finished bot left behind is either such a child or a descendant of one,
// so when there is none, the expensive search by token is not needed. A
// process with no children at all answers at once; else the kernel's
// lists of our children answer (adoptedFromChildren), and only when they
// cannot be trusted is /proc scanned, without the children lock (a start
// of another bot need not wait for it), which is taken only to look up
// candidates.
func anyAdopted() bool {
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil); err == unix.ECHILD {
		return false
	}
	if adopted, ok := adoptedFromChildren(); ok {
		return adopted
	}
	self := os.Getpid()
	var candidates []int
	buf := make([]byte, 512)
	for _, pid := range allPids() {
		if ppid, ok := parentOf(pid, buf); ok && ppid == self {
			candidates = append(candidates, pid)
		}
	}
	if len(candidates) == 0 {
		return false
	}
	children.Lock()
	defer children.Unlock()
	for _, pid := range candidates {
		// A candidate that is not registered may be another bot's main
		// process, reaped and let go of since the scan: it is adopted only
		// if it is still our child now, when no bot can be let go of.
		if !children.pids[pid] {
			if ppid, ok := parentOf(pid, buf); ok && ppid == self {
				return true
			}
		}
	}
	return false
}

// adoptedFromChildren answers anyAdopted from the kernel's lists of the
// arbiter's children (/proc/self/task/*/children, one per thread), a few
// files instead of one per process of the machine. ok is false when the
// lists cannot be trusted, and then the caller scans /proc. The kernel
// may skip a child in such a list only when the child listed before it
// was reaped during the read, or when a thread ended and handed its
// children to another: so every child listed must still be ours after
// its list was read, and the threads must be the same before and after.
func adoptedFromChildren() (adopted, ok bool) {
	self := os.Getpid()
	task, err := unix.Open("/proc/self/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, false
	}
	defer unix.Close(task)
	buf := make([]byte, 4096)
	tids := threads(task, buf)
	if len(tids) == 0 {
		return false, false
	}
	var listed []int
	for _, tid := range tids {
		b, ok := readAt(task, tid+"/children", &buf)
		if !ok {
			return false, false
		}
		from := len(listed)
		for f := range bytes.FieldsSeq(b) {
			pid, err := strconv.Atoi(string(f))
			if err != nil {
				return false, false
			}
			listed = append(listed, pid)
		}
		for _, pid := range listed[from:] {
			if ppid, ok := parentOf(pid, buf); !ok || ppid != self {
				return false, false // reaped meanwhile: a child may be missing
			}
		}
	}
	if !slices.Equal(threads(task, buf), tids) {
		return false, false
	}
	children.Lock()
	defer children.Unlock()
	for _, pid := range listed {
		// Not registered: adopted, unless it is another bot's main
		// process, reaped and let go of since it was listed.
		if !children.pids[pid] {
			if ppid, ok := parentOf(pid, buf); ok && ppid == self {
				return true, true
			}
		}
	}
	return false, true
}

// threads are the ids of the threads in the folder task (the arbiter's
// /proc/self/task, open), in the kernel's order, read with buf; nil when
// they cannot be read.
func threads(task int, buf []byte) []string {
	if _, err := unix.Seek(task, 0, io.SeekStart); err != nil {
		return nil
	}
	var names []string
	for {
		n, err := unix.ReadDirent(task, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if n == 0 {
			return names
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}

// readAt reads the whole of the small /proc file name, relative to the
// folder dir, into *buf, grown as needed, with raw system calls: after
// every per-move run while other bots run, anyAdopted reads one such file
// per thread, and procfs's walk of a whole path and os.ReadFile's extra
// calls were most of what it cost.
func readAt(dir int, name string, buf *[]byte) ([]byte, bool) {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	n := 0
	for {
		if n == len(*buf) {
			*buf = append(*buf, make([]byte, len(*buf))...)
		}
		m, err := unix.Read(fd, (*buf)[n:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, false
		case m == 0:
			return (*buf)[:n], true
		}
		n += m
	}
}

// procFD is /proc's file descriptor plus one, once procFolder opened it;
// 0 before.
var procFD atomic.Int64

// procFolder is /proc, opened once for the arbiter's life: parentOf's
// files are opened relative to it, sparing procfs the lookup of "/proc"
// for each. It is -1, and so that look fails, while /proc cannot be
// opened: a failure is not kept, so a moment without a file descriptor
// to spare (EMFILE) does not blind parentOf, and anyAdopted with it, to
// every escaped descendant for the rest of the arbiter's life.
func procFolder() int {
	if v := procFD.Load(); v != 0 {
		return int(v - 1)
	}
	fd, err := unix.Open("/proc", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	if !procFD.CompareAndSwap(0, int64(fd)+1) {
		unix.Close(fd) // another call opened it first
	}
	return int(procFD.Load() - 1)
}

// parentOf reads the parent pid of pid from /proc/<pid>/stat into buf,
// without the allocations of os.ReadFile: it runs for every process on the
// machine after every move.
func parentOf(pid int, buf []byte) (int, bool) {
	fd, err := unix.Openat(procFolder(), strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	n, err := unix.Read(fd, buf)
	unix.Close(fd)
	if err != nil || n <= 0 {
		return 0, false
	}
	b := buf[:n]
	// The command name is in parentheses and may hold anything: the state
	// and the parent pid follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	return ppid, err == nil
}

// fileSize is the size of the file at path, 0 if it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// DescribeExit says how a process with exit status status (128+n: killed
// by signal n) ended, as a phrase without a subject: "exited with status
// 1", "killed by signal killed".
func DescribeExit(status int) string {
	if status > 128 {
		return "killed by signal " + syscall.Signal(status-128).String()
	}
	return fmt.Sprintf("exited with status %d", status)
}

// within is what a time fault says the bot had: OnceSpec.Within, or the
// time-out itself.
func (r *onceRun) within() string {
	return cmp.Or(r.spec.Within, r.spec.Timeout.String())
}
