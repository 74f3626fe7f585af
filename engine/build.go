package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// BuildsDir is where a results directory keeps every bot's build: its
// output (<bot>.log) and its verdict (<bot>.json).
const BuildsDir = "builds"

// FaultBuild is the verdict of every seat of a bot whose build failed.
const FaultBuild = "build"

// BuildRecord is a build's verdict, kept in builds/<bot>.json. Its
// Fingerprint is the bot's fingerprint hash when it was built: a later
// run whose bot has the same fingerprint (its recorded files unchanged;
// files the build made are new files, which do not count) takes the
// verdict instead of building again.
type BuildRecord struct {
	Bot         string   `json:"bot"`
	Command     []string `json:"command"`
	Fingerprint string   `json:"fingerprint,omitempty"`
	OK          bool     `json:"ok"`
	Detail      string   `json:"detail,omitempty"`
	ElapsedMS   int64    `json:"elapsed_ms"`
}

// builds runs each bot's build at most once per run.
type builds struct {
	mu   sync.Mutex
	once map[string]*buildOnce
}

type buildOnce struct {
	once sync.Once
	rec  BuildRecord
	err  error
}

// built builds bot b if it has a build and was not built yet (in this run,
// or in an earlier one with the same fingerprint), and returns the
// verdict. The error is the arbiter's own or ctx's; a failed build is a
// record with OK false.
func (r *Runner) built(ctx context.Context, b *plan.Bot) (BuildRecord, error) {
	if len(b.Build) == 0 {
		return BuildRecord{OK: true}, nil
	}
	if r.builds == nil {
		r.builds = &builds{}
	}
	r.builds.mu.Lock()
	if r.builds.once == nil {
		r.builds.once = map[string]*buildOnce{}
	}
	// Once per version of the bot: one changed during the run (see
	// watch) is built again.
	key := b.Name
	if b.Fingerprint != nil {
		key += "\x00" + b.Fingerprint.Hash
	}
	o, ok := r.builds.once[key]
	if !ok {
		o = &buildOnce{}
		r.builds.once[key] = o
	}
	r.builds.mu.Unlock()
	o.once.Do(func() { o.rec, o.err = r.build(ctx, b) })
	if o.err != nil {
		// A cancelled build is tried again by the next run.
		return o.rec, o.err
	}
	return o.rec, nil
}

func (r *Runner) build(ctx context.Context, b *plan.Bot) (BuildRecord, error) {
	dir := filepath.Join(r.Out, BuildsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return BuildRecord{}, err
	}
	file := fileName(b.Name)
	recPath := filepath.Join(dir, file+".json")
	var fp string
	if b.Fingerprint != nil {
		fp = b.Fingerprint.Hash
	}
	if old, err := os.ReadFile(recPath); err == nil && fp != "" {
		var rec BuildRecord
		if json.Unmarshal(old, &rec) == nil && rec.Fingerprint == fp && strings.Join(rec.Command, "\x00") == strings.Join(b.Build, "\x00") {
			r.logger().Info("bot unchanged since its build, not built again", "bot", b.Name, "ok", rec.OK)
			return rec, nil
		}
	}
	r.logger().Info("building bot", "bot", b.Name, "command", strings.Join(b.Build, " "))
	rec := BuildRecord{Bot: b.Name, Command: b.Build, Fingerprint: fp}
	start := time.Now()
	detail, err := runBuild(ctx, b, b.DirIn(r.Root), filepath.Join(dir, file+".log"))
	rec.ElapsedMS = time.Since(start).Milliseconds()
	if err != nil {
		return rec, err
	}
	rec.OK, rec.Detail = detail == "", detail
	if !rec.OK {
		rec.Detail = fmt.Sprintf("%s (its output is in %s)", detail, filepath.Join(BuildsDir, file+".log"))
		r.logger().Warn("build failed", "bot", b.Name, "detail", rec.Detail)
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	if err := os.WriteFile(recPath, append(data, '\n'), 0o644); err != nil {
		return rec, err
	}
	return rec, nil
}

func (r *Runner) logger() interface {
	Info(string, ...any)
	Warn(string, ...any)
} {
	if r.Log == nil {
		return nopLog{}
	}
	return r.Log
}

type nopLog struct{}

func (nopLog) Info(string, ...any) {}
func (nopLog) Warn(string, ...any) {}

// Build runs bot b's build in dir as a run does (see runBuild), its output
// to log: for commands that need a bot built outside a run (arbiter check).
func Build(ctx context.Context, b *plan.Bot, dir, log string) (detail string, err error) {
	return runBuild(ctx, b, dir, log)
}

// envList is a bot's env as NAME=value, sorted.
func envList(env map[string]string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// runBuild runs the build command in dir under the bot's limits (the same
// confinement as the bot: proc.Prepare), its stdout and stderr to log,
// within the bot's build timeout. detail says why the build failed, or is
// empty; err is the arbiter's own failure or ctx's.
func runBuild(ctx context.Context, b *plan.Bot, dir, log string) (detail string, err error) {
	out, err := os.Create(log)
	if err != nil {
		return "", err
	}
	defer out.Close()
	defer holdDir(dir)()
	timeout := time.Duration(b.BuildTimeout)
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	cmd := exec.Command(b.Build[0], b.Build[1:]...)
	cmd.Dir = dir
	botEnv := envList(b.Env)
	cmd.Stdout, cmd.Stderr = out, out
	// A session of its own (so a process group of its own too): no
	// controlling terminal, so the bot cannot open /dev/tty and type into
	// the organiser's shell (TIOCSTI) or read what is typed there.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	var lim drivers.Limits
	if b.Limits != nil {
		lim = *b.Limits
	}
	cmd.Env = append(proc.HostEnviron(lim), botEnv...)
	if lim.Sandbox != nil {
		// What the sandbox holds was resolved for the bot's command (its
		// interpreter, the program a version manager's shim runs); the
		// build runs its own command, which needs its own, beside the
		// bot's.
		sb := drivers.ResolveSandbox(b.Build, dir, botEnv)
		for _, r := range lim.Sandbox.Read {
			if !slices.Contains(sb.Read, r) {
				sb.Read = append(sb.Read, r)
			}
		}
		lim.Sandbox = &sb
	}
	if st, err := os.Stat(dir); err == nil {
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			defer proc.GiveBack(dir, int(sys.Uid), int(sys.Gid))
		}
	}
	box, err := proc.PrepareBuild(cmd, lim, drivers.Clock{Total: drivers.Duration(timeout)})
	if err != nil {
		return fmt.Sprintf("the build %q could not be started: %v", strings.Join(b.Build, " "), err), nil
	}
	defer box.Close()
	if err := proc.StartCmd(cmd, box); err != nil {
		return fmt.Sprintf("the build %q could not be started: %v", strings.Join(b.Build, " "), err), nil
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() {
		box.Kill()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	select {
	case err := <-done:
		if err == nil {
			return "", nil
		}
		if f := box.Explain(drivers.FaultCrash, cmd.ProcessState, ""); f != nil {
			return fmt.Sprintf("the build %q went over a limit: %s", strings.Join(b.Build, " "), f.Detail), nil
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Sprintf("the build %q failed: %v", strings.Join(b.Build, " "), ee), nil
		}
		return fmt.Sprintf("the build %q failed: %v", strings.Join(b.Build, " "), err), nil
	case <-time.After(timeout):
		kill()
		return fmt.Sprintf("the build %q took longer than its limit of %s", strings.Join(b.Build, " "), timeout), nil
	case <-ctx.Done():
		kill()
		return "", ctx.Err()
	}
}

// building holds the dirs of the builds running in this process. A build
// in the sandbox is lent its dir's files (given to the sandbox's uid) and
// they are given back after it, to the owner the dir had before: two
// builds of one dir, or of a dir and one inside it (bots that share a
// folder, built at once under -j), would take each other's lending for
// the owner, and one would walk the tree while the other changes it. So
// they run one after the other; other builds run at once.
var building struct {
	sync.Mutex
	cond *sync.Cond
	dirs []string
}

// holdDir waits until no build of a dir that overlaps dir runs, and
// marks dir's; release unmarks it.
func holdDir(dir string) (release func()) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	overlaps := func(d string) bool { return drivers.Within(d, dir) || drivers.Within(dir, d) }
	building.Lock()
	if building.cond == nil {
		building.cond = sync.NewCond(&building.Mutex)
	}
	for slices.ContainsFunc(building.dirs, overlaps) {
		building.cond.Wait()
	}
	building.dirs = append(building.dirs, dir)
	building.Unlock()
	return func() {
		building.Lock()
		if i := slices.Index(building.dirs, dir); i >= 0 {
			building.dirs = slices.Delete(building.dirs, i, i+1)
		}
		building.cond.Broadcast()
		building.Unlock()
	}
}

// fileName keeps a bot name usable as a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == 0 || r == '\\' {
			return '_'
		}
		return r
	}, name)
}

// unbuilt builds the bots of m's seats that have a build and marks the
// seats of a bot whose build failed (drivers.Seat.Unbuilt): the match is
// played all the same, the game treating such a seat as a bot that cannot
// start (in Auction the others play on; in a duel the other wins), and
// the seat's fault is then the build's (playStaged). fps are the hashes
// of the bots' files the match plays with (see watch): a bot changed
// during the run is built again.
func (r *Runner) unbuilt(ctx context.Context, seats []drivers.Seat, fps map[string]string) error {
	for i := range seats {
		b := r.Plan.Bot(seats[i].Bot)
		if b == nil {
			continue
		}
		if h, ok := fps[b.Name]; ok && b.Fingerprint != nil && h != b.Fingerprint.Hash {
			now, fp := *b, *b.Fingerprint
			fp.Hash = h
			now.Fingerprint = &fp
			b = &now
		}
		br, err := r.built(ctx, b)
		if err != nil {
			return err
		}
		if !br.OK {
			seats[i].Unbuilt = br.Detail
		}
	}
	return nil
}
