package engine

import (
	"context"
	"fmt"
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
}

// BuildOutside builds bot name of p, its dir relative to o.Root, for a
// command that needs it built outside a run (arbiter check, console),
// as a run builds it (Runner.build: kept, else buildAnew): unless the verdict of its last
// build outside a run holds for it as it is now (the same command, its
// fingerprint taken as o says the same, its build's outputs as it left
// them: Runner.kept). That verdict is kept in the bot's folder of
// arbiter's state (buildState), beside its build cache, so that no
// results directory is needed; announce is called just before a build
// runs.
func BuildOutside(ctx context.Context, p *plan.Plan, name string, o fingerprint.Options, log hclog.Logger, announce func()) (BuiltOutside, error) {
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
	state, err := ownState(name, ob.DirIn(o.Root))
	if err != nil {
		return BuiltOutside{}, fmt.Errorf("the folder where arbiter keeps bot %s's builds: %w", name, err)
	}
	r := &Runner{Plan: &plan.Plan{Bots: []plan.Bot{*ob}}, Root: o.Root, Out: filepath.Join(state, "check"), Log: log}
	ob = &r.Plan.Bots[0]
	out := BuiltOutside{Log: filepath.Join(r.Out, BuildsDir, fileName(name)+".log"), Verdict: filepath.Join(r.Out, BuildsDir, fileName(name)+".json")}
	rec, old := r.kept(ob, ob.Fingerprint.Hash)
	if rec != nil {
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
