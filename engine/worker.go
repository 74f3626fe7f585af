package engine

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Worker processes. A run with Runner.CPUs plays its matches in worker
// processes (`Self worker`), one for each match it runs at once, each
// started pinned to its own CPUs: its bots inherit that affinity, so a
// match's referee and bots wake each other on the same CPUs. On a VM an
// inter-processor wake-up is costly, and one Go process cannot keep a
// match's goroutines on one CPU (docs/benchmarks.md, throughput-j2).
//
// The run itself stays in the parent: it stages each match (directory,
// builds, seats, carried state; stageMatch), journals the results and
// pairs the rounds. A worker only plays a staged match and writes its
// transcript, and its log records come back to the parent's log.
//
// The protocol is JSON lines: the parent writes a workerHello, then a
// workerJob per match; the worker answers each job with a workerDone
// (`arbiter worker` moves them off standard output, where a stray write
// would break them) and writes its log records on its standard error
// (relaySink). A worker ends when its standard input closes; when that
// happens during a match (the run was cancelled, or the parent died),
// the match is abandoned and its bots killed, as in a run without
// workers.

// workerHello is what a worker needs to play the run's matches.
type workerHello struct {
	Plan *plan.Plan `json:"plan"` // without its matches
	// Lock says that descriptor 3 is the run's lock of its results
	// directory, to be kept open and not passed on to bots.
	Lock     bool   `json:"lock,omitempty"`
	Out      string `json:"out"`
	Compress bool   `json:"compress,omitempty"`
	Level    string `json:"level"`
	// Self is the run's Runner.Self, which its house bots' commands
	// name: the worker's own executable (proc.OwnExecutable).
	Self string `json:"self,omitempty"`
}

type workerJob struct {
	Match plan.Match     `json:"match"`
	Seats []drivers.Seat `json:"seats"`
	// Fingerprints are the hashes of the bots' files as the match starts,
	// which its result records (see watch).
	Fingerprints map[string]string `json:"fingerprints,omitempty"`
}

type workerDone struct {
	Result *Result `json:"result,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// CPUShares splits the CPUs this process may run on into jobs shares for
// Runner.CPUs (see splitCPUs). It returns nil when there is nothing to
// pin: jobs below 2, or more jobs than CPUs and not a multiple of them.
func CPUShares(jobs int) [][]int {
	shares, _ := Pinning(jobs, true)
	return shares
}

// Pinning is Runner.CPUs for a run of jobs matches at once, pinned
// unless pin is false (-pin=false), and, when it is nil, why the matches
// are not pinned (Runner.Unpinned), which the run's log says.
func Pinning(jobs int, pin bool) (shares [][]int, why string) {
	var set unix.CPUSet
	if !pin || jobs < 2 {
		return pinning(nil, jobs, pin)
	}
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Sprintf("the CPUs arbiter may use are unknown (%v)", err)
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return pinning(cpus, jobs, pin)
}

// pinning is Pinning with the CPUs arbiter may use.
func pinning(cpus []int, jobs int, pin bool) ([][]int, string) {
	switch {
	case !pin:
		return nil, "-pin=false"
	case jobs < 2:
		return nil, fmt.Sprintf("-j %d plays one match at a time", jobs)
	}
	if shares := splitCPUs(cpus, jobs); shares != nil {
		return shares, ""
	}
	return nil, fmt.Sprintf("-j %d is more than the %d CPU(s) arbiter may use and not a multiple of them", jobs, len(cpus))
}

// splitCPUs splits cpus into jobs shares: of consecutive CPUs whose
// sizes differ by at most one when there are as many CPUs as jobs or
// more; one CPU each, every CPU in as many shares, when jobs is a
// multiple of the CPUs. Otherwise nil: some CPUs would hold more matches
// than others, and their matches would run slower.
func splitCPUs(cpus []int, jobs int) [][]int {
	if n := len(cpus); jobs > n && n > 0 && jobs%n == 0 {
		shares := make([][]int, jobs)
		for k := range shares {
			shares[k] = cpus[k%n : k%n+1]
		}
		return shares
	}
	if jobs < 1 || jobs > len(cpus) {
		return nil
	}
	shares := make([][]int, jobs)
	for k := range shares {
		shares[k] = cpus[k*len(cpus)/jobs : (k+1)*len(cpus)/jobs]
	}
	return shares
}

// workerPool is a run's worker processes, started when first needed.
type workerPool struct {
	r     *Runner
	hello []byte
	idle  chan *worker
	log   hclog.Logger

	mu  sync.Mutex
	all []*worker
}

// worker is one worker process.
type worker struct {
	cpus  []int
	cmd   *exec.Cmd
	in    *os.File // the worker's standard input
	done  chan workerDone
	relay sync.WaitGroup // the log relay
	// reported says that died told of the worker's end.
	reported bool
	// waited and exit are set once by wait.
	waited sync.Once
	exit   error
	// last keeps the worker's last lines that were not log records (a
	// panic), for the message when it dies.
	last lastLines
}

// pin starts the run's workers when its matches are pinned (Runner.CPUs),
// or says in the log why they are not (Runner.Unpinned).
func (r *Runner) pin(log hclog.Logger) error {
	if len(r.CPUs) > 0 {
		return r.startWorkers(log)
	}
	if r.Unpinned != "" {
		log.Info("matches not pinned: they play in this process, their bots on any CPU", "why", r.Unpinned)
	}
	return nil
}

// startWorkers makes the run's pool of worker processes (Runner.CPUs),
// which start when first needed.
func (r *Runner) startWorkers(log hclog.Logger) error {
	r.Jobs = len(r.CPUs)
	// The run finds this machine's limits before the workers start: on
	// cgroup v2 that may move it into a cgroup of its own (v2Base), whose
	// parent the workers then make their bots' cgroups in.
	proc.Machine()
	pool, err := newWorkerPool(r, cmp.Or[hclog.Logger](r.Log, hclog.NewNullLogger()))
	if err != nil {
		return err
	}
	r.workers = pool
	shares := make([]string, len(r.CPUs))
	for i, c := range r.CPUs {
		shares[i] = CPUList(c)
	}
	log.Info("matches play in worker processes, each pinned to its CPUs", "workers", len(r.CPUs), "cpus", strings.Join(shares, " "))
	return nil
}

func newWorkerPool(r *Runner, log hclog.Logger) (*workerPool, error) {
	p := *r.Plan
	p.Matches = nil
	hello, err := json.Marshal(workerHello{Plan: &p, Out: r.Out, Compress: r.Compress, Level: log.GetLevel().String(),
		Lock: heldLockOf(r.Out) != nil, Self: r.Self})
	if err != nil {
		return nil, err
	}
	pool := &workerPool{r: r, hello: append(hello, '\n'), idle: make(chan *worker, len(r.CPUs)), log: log}
	for _, cpus := range r.CPUs {
		pool.idle <- &worker{cpus: cpus}
	}
	return pool, nil
}

// play plays a staged match on an idle worker, starting it if it has not
// started yet.
func (p *workerPool) play(ctx context.Context, m *plan.Match, st *staged) (*Result, error) {
	var w *worker
	select {
	case w = <-p.idle:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if w.cmd == nil {
		if err := p.start(ctx, w); err != nil {
			p.idle <- &worker{cpus: w.cpus}
			return nil, err
		}
	}
	job, err := json.Marshal(workerJob{Match: *m, Seats: st.seats, Fingerprints: st.fingerprints})
	if err != nil {
		p.idle <- w
		return nil, err
	}
	if err := writeOrCancel(ctx, w.in, append(job, '\n')); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, p.died(w, err)
	}
	stopCheck := time.NewTicker(stoppedCheck)
	defer stopCheck.Stop()
	told := false // that the worker is stopped
	for {
		select {
		case <-stopCheck.C:
			told = p.tellStopped(w, m, told)
			continue
		case d, ok := <-w.done:
			return p.answer(w, m, d, ok)
		case <-ctx.Done():
			// The match is abandoned: the worker, told so by its closed
			// input, kills its bots and exits; the run's end waits for it.
			w.in.Close()
			return nil, ctx.Err()
		}
	}
}

// stoppedCheck is how often the run looks whether the worker playing a
// match is stopped.
const stoppedCheck = 5 * time.Second

// tellStopped says once, in the log, that worker w, playing m, is
// stopped (SIGSTOP, SIGTSTP, a debugger), and once that it goes on
// again: the run waits for it without end, which would otherwise look
// like a match that takes long. told is whether it was said already; the
// answer is whether it is now. Nothing is done to the worker.
func (p *workerPool) tellStopped(w *worker, m *plan.Match, told bool) bool {
	pid := w.cmd.Process.Pid
	stopped := processStopped(pid)
	switch {
	case stopped && !told:
		p.log.Warn(fmt.Sprintf("worker process %d is stopped (a SIGSTOP, a debugger): its match waits, and so does the run; kill -CONT %d lets it go on", pid, pid),
			"pid", pid, "match", m.ID)
	case !stopped && told:
		p.log.Info("the stopped worker process goes on", "pid", pid, "match", m.ID)
	}
	return stopped
}

// processStopped says whether process pid is stopped (its state in
// /proc/PID/stat is T or t).
func processStopped(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(b, ')') // the command name may hold anything
	if err != nil || i < 0 || i+2 >= len(b) {
		return false
	}
	return b[i+2] == 'T' || b[i+2] == 't'
}

// answer is the result a worker sent for match m (ok false: it ended
// instead).
func (p *workerPool) answer(w *worker, m *plan.Match, d workerDone, ok bool) (*Result, error) {
	if !ok {
		return nil, p.died(w, nil)
	}
	p.idle <- w
	if d.Error != "" {
		return nil, errors.New(d.Error)
	}
	if d.Result == nil || d.Result.Match != m.ID {
		return nil, fmt.Errorf("worker process %d answered with no result of the match", w.cmd.Process.Pid)
	}
	return d.Result, nil
}

// died says why worker w stopped answering; it is not used again.
func (p *workerPool) died(w *worker, err error) error {
	w.in.Close()
	w.reported = true
	werr := w.wait(5 * time.Second)
	msg := fmt.Sprintf("worker process %d (CPUs %s) stopped", w.cmd.Process.Pid, CPUList(w.cpus))
	if werr != nil {
		msg += ": " + werr.Error()
	} else if err != nil {
		msg += ": " + err.Error()
	}
	if last := w.last.String(); last != "" {
		msg += "; its last words: " + last
	}
	return errors.New(msg + " (the match is not counted; running the same command again resumes the run)")
}

// workerCommand is the command of a worker of executable self, given the
// run's probe of the machine (proc.MachineEnv): a worker confines its
// bots as the run found it could and logged, rather than as a probe of
// its own finds, which a start that failed on a loaded machine could make
// a machine without the sandbox.
func workerCommand(self string) *exec.Cmd {
	cmd := proc.Command(self, "worker")
	cmd.Env = append(os.Environ(), proc.MachineEnviron(proc.Machine()))
	return cmd
}

// start starts worker w pinned to its CPUs: the thread that forks has
// them as its affinity for that moment, so the worker and every thread
// and process it makes have them from their start.
func (p *workerPool) start(ctx context.Context, w *worker) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return err
	}
	// proc.Command: arbiter's own image when Self is this executable, so
	// that a worker started after an install over arbiter is still of
	// the run's build.
	cmd := workerCommand(p.r.Self)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if lock := heldLockOf(p.r.Out); lock != nil {
		// The worker shares the run's lock (one open file, one flock):
		// should the run die, the results directory stays locked until
		// its workers have abandoned their matches (lockOrWait).
		cmd.ExtraFiles = []*os.File{lock}
	}
	err = startPinned(cmd, w.cpus)
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return fmt.Errorf("starting a worker process (%s worker): %w", p.r.Self, err)
	}
	w.cmd, w.in, w.done = cmd, inW, make(chan workerDone, 1) // an answer to an abandoned match is not read
	p.mu.Lock()
	p.all = append(p.all, w)
	p.mu.Unlock()
	w.relay.Add(1)
	go func() {
		defer w.relay.Done()
		relayLog(errR, p.log, &w.last)
	}()
	go w.read(outR)
	if err := writeOrCancel(ctx, inW, p.hello); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.died(w, err)
	}
	return nil
}

// writeOrCancel writes b to a worker's input; cancelling ctx closes the
// input, which ends a write that a worker does not read (and the worker).
func writeOrCancel(ctx context.Context, in *os.File, b []byte) error {
	stop := context.AfterFunc(ctx, func() { in.Close() })
	defer stop()
	_, err := in.Write(b)
	return err
}

// read passes the worker's answers on until its output closes.
func (w *worker) read(out *os.File) {
	defer out.Close()
	defer close(w.done)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var d workerDone
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			d = workerDone{Error: fmt.Sprintf("worker process %d wrote what is not an answer: %.200q", w.cmd.Process.Pid, sc.Bytes())}
		}
		w.done <- d
	}
}

// wait waits for the worker to exit, killing it after grace; it returns
// how it exited when that was not a clean exit.
func (w *worker) wait(grace time.Duration) error {
	w.waited.Do(func() {
		exited := make(chan error, 1)
		go func() { exited <- w.cmd.Wait() }()
		select {
		case w.exit = <-exited:
		case <-time.After(grace):
			_ = w.cmd.Process.Kill()
			w.exit = <-exited
		}
		w.relay.Wait()
	})
	return w.exit
}

// close ends every worker: their input closed, each exits once its match
// (if any, abandoned) has ended.
func (p *workerPool) close() {
	p.mu.Lock()
	all := p.all
	p.all = nil
	p.mu.Unlock()
	for _, w := range all {
		w.in.Close()
	}
	deadline := time.Now().Add(10 * time.Second) // one grace for them all
	for _, w := range all {
		if err := w.wait(time.Until(deadline)); err != nil && !w.reported {
			p.log.Warn("worker process ended badly", "pid", w.cmd.Process.Pid, "error", err, "last_words", w.last.String())
		}
	}
}

// startPinned starts cmd from a thread whose CPU affinity is cpus (nil:
// not pinned): a thread of its own, locked to a goroutine that ends
// without unlocking it, so that the runtime ends the thread with its
// affinity and no other goroutine ever runs pinned.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			started <- fmt.Errorf("pinning to CPUs %s: %w", CPUList(cpus), err)
			return
		}
		started <- cmd.Start()
	}()
	return <-started
}

// CPUList writes cpus as a comma-separated list, as in log lines.
func CPUList(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// lastLines keeps the last few lines a worker wrote that were not log
// records.
type lastLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *lastLines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 8 {
		l.lines = l.lines[1:]
	}
	l.lines = append(l.lines, s)
}

func (l *lastLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, " | ")
}

// relayLog logs each record a worker writes (relaySink) with log, as the
// record's module; other lines are logged as the worker's output and kept
// in last. A line too long to read ends the relay, not the worker: the
// rest is read and dropped.
func relayLog(r io.ReadCloser, log hclog.Logger, last *lastLines) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		level, module, msg, args, ok := parseRecord(sc.Bytes())
		if !ok {
			line := strings.TrimSpace(sc.Text())
			if line != "" {
				last.add(line)
				log.Error("worker output", "line", line)
			}
			continue
		}
		l := log
		if module != "" {
			l = l.Named(module)
		}
		l.Log(level, msg, args...)
	}
	if err := sc.Err(); err != nil {
		log.Error("worker's log no longer relayed", "error", err)
		_, _ = io.Copy(io.Discard, r)
	}
}

// logRecord is one log record of a worker, as relaySink writes it: the
// arguments in the order they were given, values as hclog would print
// them.
type logRecord struct {
	Level  string `json:"level"`
	Module string `json:"module,omitempty"`
	Msg    string `json:"msg"`
	Args   []any  `json:"args,omitempty"`
}

// parseRecord reads one line of a worker's log; ok is false for a line
// that is not a record (a panic's trace).
func parseRecord(b []byte) (level hclog.Level, module, msg string, args []any, ok bool) {
	if len(b) == 0 || b[0] != '{' {
		return 0, "", "", nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var rec logRecord
	if err := dec.Decode(&rec); err != nil || rec.Level == "" {
		return 0, "", "", nil, false
	}
	for i, a := range rec.Args {
		rec.Args[i] = stringsBack(a)
	}
	return hclog.LevelFromString(rec.Level), rec.Module, rec.Msg, rec.Args, true
}

// stringsBack gives a list of strings back its type, which hclog prints
// quoted, as it did in the worker.
func stringsBack(a any) any {
	list, ok := a.([]any)
	if !ok {
		return a
	}
	out := make([]string, len(list))
	for i, v := range list {
		if out[i], ok = v.(string); !ok {
			return a
		}
	}
	return out
}

// relaySink writes a worker's log records, at level and above, as
// logRecord lines (hclog's own JSON would sort the arguments by name).
type relaySink struct {
	level hclog.Level
	mu    sync.Mutex
	w     io.Writer
}

func (s *relaySink) Accept(name string, level hclog.Level, msg string, args ...any) {
	if level < s.level {
		return
	}
	rec := logRecord{Level: level.String(), Module: name, Msg: msg, Args: make([]any, len(args))}
	for i, a := range args {
		rec.Args[i] = printable(a)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.w.Write(append(b, '\n'))
}

// printable is a for a record: what hclog prints for an error, a
// Stringer (a time.Duration) or a value JSON cannot hold, the value
// itself otherwise.
func printable(a any) any {
	switch v := a.(type) {
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	case hclog.Format:
		if len(v) > 0 {
			if f, ok := v[0].(string); ok {
				return fmt.Sprintf(f, v[1:]...)
			}
		}
		return fmt.Sprint(v...)
	}
	if _, err := json.Marshal(a); err != nil {
		return fmt.Sprint(a)
	}
	return a
}

// workerLogger is a worker's logger: its records go to w for the parent
// to relay.
func workerLogger(w io.Writer, level hclog.Level) hclog.Logger {
	l := hclog.NewInterceptLogger(&hclog.LoggerOptions{Output: io.Discard, Level: level})
	l.RegisterSink(&relaySink{level: level, w: w})
	return l
}

// sameBuild refuses to play for a run of another build of arbiter than
// this worker's: arbiter run starts its workers from its own image
// (proc.OwnImage), but a Runner whose Self is another executable starts
// them by its path, and an arbiter installed over it while the run went
// on would otherwise referee the rest of its matches unnoticed. run is
// the build the run recorded in its plan (nil: not recorded, nothing to
// compare).
func sameBuild(run *plan.Arbiter) error {
	if run == nil {
		return nil
	}
	mine, err := fingerprint.Build()
	if err != nil {
		return err
	}
	if *mine != *run {
		return fmt.Errorf("this worker is arbiter %s, but the run that started it is arbiter %s: the arbiter executable was replaced while the run went on", mine.ID(), run.ID())
	}
	return nil
}

// ServeWorker is a worker process (`arbiter worker`): it reads the run's
// hello and then plays each match it is given, until in closes. Its log
// records go to logw (relaySink), for the parent to relay.
// Closing in during a match cancels the match.
func ServeWorker(in io.Reader, out, logw io.Writer, find func(string) (drivers.Driver, bool)) error {
	jobs := bufio.NewScanner(in)
	jobs.Buffer(make([]byte, 64<<10), 256<<20)
	if !jobs.Scan() {
		return fmt.Errorf("arbiter worker plays the matches of arbiter run -j N; it reads them from its standard input, which closed before they came")
	}
	var hello workerHello
	if err := json.Unmarshal(jobs.Bytes(), &hello); err != nil || hello.Plan == nil {
		why := "no plan"
		if err != nil {
			why = err.Error()
		}
		return fmt.Errorf("arbiter worker plays the matches of arbiter run -j N; its standard input is not a run's (%s)", why)
	}
	if hello.Lock {
		unix.CloseOnExec(3)
	}
	// The run's probe (proc.MachineEnv), taken out of this process's
	// environment before anything is started with it.
	proc.Machine()
	if err := sameBuild(hello.Plan.Arbiter); err != nil {
		return err
	}
	if filepath.IsAbs(hello.Self) {
		// The worker was started by that path (or from the run's own
		// image, which is that path's as the run started): the house
		// bots it starts are of its own image, the build it checked.
		proc.OwnExecutable(hello.Self)
	}
	log := workerLogger(logw, hclog.LevelFromString(hello.Level)).Named("engine")
	r := &Runner{Plan: hello.Plan, Drivers: find, Out: hello.Out, Compress: hello.Compress, Log: log}
	game, err := r.loadGameSettings()
	if err != nil {
		return err
	}
	proc.Conceal(r.Out)
	concealFound(r.Plan)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	queue := make(chan workerJob)
	go func() {
		// Jobs come one at a time: the next only after the answer, so
		// the input's end while a match plays means that it is abandoned.
		defer close(queue)
		defer cancel()
		for jobs.Scan() {
			var job workerJob
			if err := json.Unmarshal(jobs.Bytes(), &job); err != nil {
				log.Error("not a job", "error", err)
				return
			}
			queue <- job
		}
	}()
	enc := json.NewEncoder(out)
	for job := range queue {
		m := job.Match
		st := &staged{dir: filepath.Join(r.Out, MatchesDir, m.ID), seats: job.Seats, fingerprints: job.Fingerprints}
		res, err := r.playStaged(ctx, game, &m, st, log.With("match", m.ID))
		d := workerDone{Result: res}
		if err != nil {
			d = workerDone{Error: err.Error()}
		}
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}
