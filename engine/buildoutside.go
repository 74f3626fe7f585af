package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/hashicorp/go-hclog"
)

// BuiltOutside is a build of a bot made outside a run (BuildOutside).
type BuiltOutside struct {
	Record BuildRecord
	// Kept says Record is the verdict of an earlier build, which holds
	// for the bot as it is now: no build ran.
	Kept bool
	// Log is the file that holds the build's output, Verdict the one
	// that holds Record.
	Log, Verdict string
	// temp is the temporary folder that holds them when the bot has no
	// folder of arbiter's state (Close removes it).
	temp string
	// use holds the lock of the use file of the bot's folder
	// (heldState.use) until Close: no check or console builds a bot of
	// that folder meanwhile.
	use *os.File
}

// Temporary reports whether Log and Verdict are in a temporary folder,
// gone once Close has run: a message made after must not name them.
func (b BuiltOutside) Temporary() bool { return b.temp != "" }

// Close lets another check or console build the bot (or another of its
// folder) again, and removes
// the build's temporary folder, if it has one: its Log and Verdict are
// gone then.
func (b BuiltOutside) Close() error {
	if b.use != nil {
		b.use.Close()
	}
	if b.temp == "" {
		return nil
	}
	return os.RemoveAll(b.temp)
}

// BuildOutside builds bot name of p, its dir relative to o.Root, for a
// command that needs it built outside a run (arbiter check, console), as
// a run builds it (Runner.build: kept, else buildAnew): unless rebuild is
// false and the verdict of its last build outside a run holds for it as
// it is now (the same command, environment, limits and timeout, its
// fingerprint taken as o says the same, its build's outputs as it left
// them: Runner.kept) and is a success. A failed build is always run
// again. That verdict is kept in the bot's folder of arbiter's state
// (holdState), beside its build cache, which a sandboxed build is given:
// a run never takes that cache, nor this verdict. The state is held while
// the bot's fingerprint is taken and it builds, so another check or
// console of the bot waits, saying so on log, and then takes this
// build's verdict if it holds; and the bot's files are not built again
// while the caller runs them, until Close, by a check or console of any
// bot of its folder (heldState.use). Where no such
// folder can be made (a HOME that cannot be written), the bot is built
// in a temporary folder, without a cache, and log is told. announce is
// called just before a build runs.
func BuildOutside(ctx context.Context, p *plan.Plan, name string, o fingerprint.Options, rebuild bool, log hclog.Logger, announce func()) (BuiltOutside, error) {
	b := p.Bot(name)
	if b == nil {
		return BuiltOutside{}, p.UnknownBot(name)
	}
	r := &Runner{Root: o.Root, Log: log, outside: true}
	var out BuiltOutside
	held, err := r.holdOutside(ctx, &out, name, b.DirIn(o.Root))
	if err != nil {
		return BuiltOutside{}, err
	}
	if held != nil {
		defer held.release()
	}
	taken := func() (*plan.Bot, error) {
		one := *p
		one.Bots = []plan.Bot{*b}
		if err := fingerprint.Plan(&one, o); err != nil {
			return nil, fmt.Errorf("the fingerprint of bot %s: %w", name, err)
		}
		return &one.Bots[0], nil
	}
	// Taken once the state is held, not before: a build another arbiter
	// ran meanwhile has left the bot as its verdict says.
	ob, err := taken()
	if err != nil {
		out.Close()
		return BuiltOutside{}, err
	}
	r.Plan = &plan.Plan{Bots: []plan.Bot{*ob}}
	ob = &r.Plan.Bots[0]
	out.Log, out.Verdict = filepath.Join(r.Out, BuildsDir, fileName(name)+".log"), filepath.Join(r.Out, BuildsDir, fileName(name)+".json")
	rec, old := r.kept(ob, ob.Fingerprint.Hash)
	if rec != nil && rec.OK && !rebuild {
		out.Record, out.Kept = *rec, true
		out.use, err = useState(ctx, held, syscall.LOCK_SH, nil)
		return out, err
	}
	if out.use, err = useState(ctx, held, syscall.LOCK_EX, waitingFor(r.logger().Warn, name,
		"waiting for the other arbiter checks and consoles that run the bot's files to end before building it again")); err != nil {
		return out, err
	}
	announce()
	// What the build rewrote among the files its fingerprint covers is
	// the bot's as built: its outputs are the files the fingerprint
	// taken after it does not cover.
	out.Record, err = r.buildAnew(ctx, ob, old, func() (string, error) {
		after, err := taken()
		if err != nil {
			return "", err
		}
		ob.Fingerprint = after.Fingerprint
		return ob.Fingerprint.Hash, nil
	})
	if out.use != nil && err == nil {
		// Shared again before the state is let go: no other build
		// comes between.
		err = flock(out.use, syscall.LOCK_SH)
	}
	return out, err
}

// holdOutside holds the state of bot name, its folder dir (holdState),
// for r's build outside a run, which keeps its verdict there; where no
// state can be made, r keeps it in a temporary folder (out's, nil
// state). An error is only ctx's, or the temporary folder's.
func (r *Runner) holdOutside(ctx context.Context, out *BuiltOutside, name, dir string) (*heldState, error) {
	held, err := holdState(ctx, name, dir, waitingFor(r.logger().Warn, name,
		"waiting for another arbiter check or console of the bot, which builds it or looks whether it must be built"))
	if err == nil {
		r.held, r.Out = held, filepath.Join(held.dir, "check")
		return held, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	r.logger().Warn("no folder to keep the bot's builds in: built in a temporary folder, without a cache, its verdict not kept", "bot", name, "error", err)
	if out.temp, err = os.MkdirTemp("", "arbiter-build-*"); err != nil {
		return nil, err
	}
	r.Out = out.temp
	return nil, nil
}

// useState takes the lock of held's use file how (heldState.use); none
// where there is no state (nil held).
func useState(ctx context.Context, held *heldState, how int, told func(pid int)) (*os.File, error) {
	if held == nil {
		return nil, nil
	}
	return held.use(ctx, how, told)
}

// waitingFor is what a build outside a run tells warn when it waits for
// a lock of bot name's state that another arbiter holds, pid (0: not
// known): msg.
func waitingFor(warn func(msg string, args ...any), name, msg string) func(pid int) {
	return func(pid int) {
		args := []any{"bot", name}
		if pid > 0 {
			args = append(args, "pid", pid)
		}
		warn(msg, args...)
	}
}
