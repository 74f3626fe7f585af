package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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
}

// Temporary reports whether Log and Verdict are in a temporary folder,
// gone once Close has run: a message made after must not name them.
func (b BuiltOutside) Temporary() bool { return b.temp != "" }

// Close removes the build's temporary folder, if it has one: its Log and
// Verdict are gone then.
func (b BuiltOutside) Close() error {
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
// (holdState), locked while it builds, beside its build cache, which a
// sandboxed build is given: a run never takes that cache, nor this
// verdict. Where no such folder can be made (a HOME that cannot be
// written), the bot is built in a temporary folder, without a cache, and
// log is told. announce is called just before a build runs.
func BuildOutside(ctx context.Context, p *plan.Plan, name string, o fingerprint.Options, rebuild bool, log hclog.Logger, announce func()) (BuiltOutside, error) {
	b := p.Bot(name)
	if b == nil {
		return BuiltOutside{}, p.UnknownBot(name)
	}
	taken := func() (*plan.Bot, error) {
		one := *p
		one.Bots = []plan.Bot{*b}
		if err := fingerprint.Plan(&one, o); err != nil {
			return nil, fmt.Errorf("the fingerprint of bot %s: %w", name, err)
		}
		return &one.Bots[0], nil
	}
	ob, err := taken()
	if err != nil {
		return BuiltOutside{}, err
	}
	r := &Runner{Plan: &plan.Plan{Bots: []plan.Bot{*ob}}, Root: o.Root, Log: log, outside: true}
	var out BuiltOutside
	if held, herr := holdState(name, ob.DirIn(o.Root)); herr == nil {
		defer held.release()
		r.held, r.Out = held, filepath.Join(held.dir, "check")
	} else {
		if out.temp, err = os.MkdirTemp("", "arbiter-build-*"); err != nil {
			return BuiltOutside{}, err
		}
		log.Warn("no folder to keep the bot's builds in: built in a temporary folder, without a cache, its verdict not kept", "bot", name, "error", herr)
		r.Out = out.temp
	}
	ob = &r.Plan.Bots[0]
	out.Log, out.Verdict = filepath.Join(r.Out, BuildsDir, fileName(name)+".log"), filepath.Join(r.Out, BuildsDir, fileName(name)+".json")
	rec, old := r.kept(ob, ob.Fingerprint.Hash)
	if rec != nil && rec.OK && !rebuild {
		out.Record, out.Kept = *rec, true
		return out, nil
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
	return out, err
}
