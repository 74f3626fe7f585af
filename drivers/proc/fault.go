package proc

import (
	"errors"
	"fmt"
)

// Fault is a bot's misbehaviour: it ends the bot's match, not the arbiter.
type Fault struct {
	Kind   string // one of the drivers.Fault* kinds
	Detail string // a sentence for results and transcripts
}

func (f *Fault) Error() string { return f.Kind + ": " + f.Detail }

// FaultKind lets drivers classify an error without importing this package.
func (f *Fault) FaultKind() string { return f.Kind }

// FaultDetail is the sentence without the kind.
func (f *Fault) FaultDetail() string { return f.Detail }

func faultf(kind, format string, args ...any) *Fault {
	return &Fault{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// SetupError is a bot's start that failed in arbiter's own part of it:
// setting up the bot's limits and sandbox (its cgroup, a mount, its
// rlimits, the switch to the sandbox's uid), not anything the bot, its
// command or its folder did. It is never the bot's fault: a game ends
// the match with it as its own error, the match is not counted, and the
// run stops naming the bot (the engine adds the match), as it does for
// arbiter's other failures around a bot (its pipes, its stderr file).
type SetupError struct {
	Bot string // the bot's name, when known
	Err error
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("bot %s: arbiter could not set up the bot's limits to start it: %v", e.Bot, e.Err)
}

func (e *SetupError) Unwrap() error { return e.Err }

// setupOf is err as the SetupError of bot, when it is one.
func setupOf(err error, bot string) (*SetupError, bool) {
	var se *SetupError
	if !errors.As(err, &se) {
		return nil, false
	}
	if se.Bot == "" {
		se.Bot = bot
	}
	return se, true
}
