package conform

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Once runs a per-move bot once: argv (already resolved against the bot's
// dir) with extra arguments, in dir, stdin written to it; it returns the
// first line of its output, and the run's reply (its time: Used, and for
// an answer without a line end its LateNote). The run is recorded in rec: its arguments or
// input as sent lines, its answer as a received line. A bot that prints
// no line in the answer time, crashes or cannot start fails.
func Once(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder,
	argv []string, dir, stdin string, env ...string) (string, proc.Reply, error) {
	return once(ctx, bot, opt, rec, argv, dir, stdin, OnceRules{}, env...)
}

// OnceRules are a per-move game's rules for a run that Once leaves at
// their defaults, so that check holds a bot to what its referee holds it
// to.
type OnceRules struct {
	// Exiting makes a failing exit after the answer a crash (Euchre's): a
	// bot that exits with a failing status, or dies by a signal arbiter
	// did not send, after printing its line fails too. Arbiter's own
	// kill, of a bot still running after its grace, does not.
	Exiting bool
	// MaxOutput caps the answer's line as the referee caps it
	// (proc.OnceSpec.MaxOutput; 0: proc's default).
	MaxOutput int
}

// OnceWith is Once under a game's rules.
func OnceWith(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, rules OnceRules,
	argv []string, dir, stdin string, env ...string) (string, proc.Reply, error) {
	return once(ctx, bot, opt, rec, argv, dir, stdin, rules, env...)
}

func once(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder,
	argv []string, dir, stdin string, rules OnceRules, env ...string) (string, proc.Reply, error) {
	if stdin != "" {
		for _, l := range strings.Split(strings.TrimSuffix(stdin, "\n"), "\n") {
			rec.Sent(0, l)
		}
	} else {
		rec.Sent(0, "(run with arguments) "+strings.Join(argv[len(bot.Command):], " "))
	}
	reply, err := proc.RunOnce(ctx, proc.OnceSpec{
		Bot: bot.Bot, Argv: argv, Dir: dir, Env: append(append([]string{}, bot.Env...), env...), Stdin: stdin,
		Timeout: time.Duration(opt.Move), Stderr: bot.Stderr, Limits: bot.Limits, MaxOutput: rules.MaxOutput,
	})
	if err != nil {
		return "", reply, explain(err, "its run", time.Duration(opt.Move))
	}
	if reply.Fault != nil {
		rec.Received(0, fmt.Sprintf("(no answer: %s)", reply.Fault.Detail))
		switch reply.Fault.Kind {
		case drivers.FaultTime:
			if p := reply.Fault.Partial; p != "" {
				return "", reply, Failf("printed no full answer within %s (see -move): %s; an answer is complete only when its line ends or the bot exits",
					time.Duration(opt.Move), drivers.WithoutLineEnd(p))
			}
			return "", reply, Failf("printed no answer within %s (see -move); %s", time.Duration(opt.Move), flushHint)
		case drivers.FaultProtocol:
			return "", reply, Failf("exited without printing an answer")
		case drivers.FaultStart:
			return "", reply, Failf("could not be started: %s", reply.Fault.Detail)
		}
		return "", reply, Failf("printed no answer: %s", reply.Fault.Detail)
	}
	rec.Received(0, reply.Line)
	if rules.Exiting && reply.Exit != 0 && !reply.Killed {
		return reply.Line, reply, Failf("%s after printing %q: the game counts that as a crash, and its answer is not used",
			proc.DescribeExit(reply.Exit), reply.Line)
	}
	return reply.Line, reply, nil
}
