package euchre

import (
	"context"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// runDecision runs one bot process for one decision through the per-move
// process layer, which leaves no process behind. The answer is the first
// line printed in time; a failing exit status after it does not undo it
// (exit says how the bot ended). The error is the arbiter's own (no pipes,
// no stderr file) or ctx's.
func runDecision(ctx context.Context, r run) (ran, error) {
	rep, err := proc.RunOnce(ctx, proc.OnceSpec{
		Bot: r.Bot, Argv: r.Argv, Dir: r.Dir, Env: r.Env, Stdin: r.Stdin,
		Timeout: r.Timeout, Within: r.Within, MaxOutput: MaxAnswer, Stderr: r.Stderr, Limits: r.Limits,
		NoStart: r.NoStart, Quota: r.Quota,
	})
	out := ran{Line: rep.Line, Used: rep.Used, Exit: rep.Exit}
	if rep.Fault != nil {
		out.Line = ""
		out.Kind = rep.Fault.Kind
		out.Problem = rep.Fault.Kind + ": " + rep.Fault.Detail
	}
	return out, err
}
