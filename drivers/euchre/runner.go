package euchre

import (
	"context"
	"fmt"

	"github.com/arbiter-contests/arbiter/drivers"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// runDecision runs one bot process for one decision through the per-move
// process layer, which leaves no process behind. The answer is the first
// line printed in time. With r.CrashAfterAnswer, a failing exit status or
// a signal after it (not arbiter's kill after the grace) is a crash: the
// line is kept for the record, but Problem says it was not used. The
// error is the arbiter's own (no pipes, no stderr file) or ctx's.
func runDecision(ctx context.Context, r run) (ran, error) {
	rep, err := proc.RunOnce(ctx, proc.OnceSpec{
		Bot: r.Bot, Argv: r.Argv, Dir: r.Dir, Env: r.Env, Stdin: r.Stdin,
		Timeout: r.Timeout, Within: r.Within, MaxOutput: MaxAnswer, Stderr: r.Stderr, Limits: r.Limits,
		NoStart: r.NoStart, Quota: r.Quota,
	})
	out := ran{Line: rep.Line, Used: rep.Used, Exit: rep.Exit}
	switch {
	case rep.Fault != nil:
		out.Line = ""
		out.Kind = rep.Fault.Kind
		out.Problem = rep.Fault.Kind + ": " + rep.Fault.Detail
	case r.CrashAfterAnswer && rep.Exit != 0 && !rep.Killed:
		out.Kind = drivers.FaultCrash
		out.Problem = fmt.Sprintf("%s: %s after printing %q, which was not used",
			drivers.FaultCrash, proc.DescribeExit(rep.Exit), clip(rep.Line))
	}
	return out, err
}
