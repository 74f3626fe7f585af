package drivers

import "context"

// Checker is an optional capability of a Driver: a scripted conformance
// suite for bots of its game (`arbiter check`). Each case talks to a fresh
// process of the bot under test with the game's real referee messages and
// judges its answers with the game's own rules.
type Checker interface {
	CheckCases() []CheckCase
}

// CheckCase is one conformance case.
type CheckCase struct {
	// Name is short and stable, like "follow-suit"; Doc says in a
	// sentence what the case asks of the bot.
	Name, Doc string
	// Run plays the case against the bot in bot (Command, Dir, Env,
	// Stderr and Limits are set), recording every line in rec. It
	// returns nil when the bot passed, and otherwise an error whose text
	// says, to the bot's author, what the bot did wrong. Run must return
	// soon after ctx is done, with every process it started gone.
	Run func(ctx context.Context, bot Seat, opt CheckOptions, rec Recorder) error
}

// CheckOptions are the limits a conformance case runs under.
type CheckOptions struct {
	// Move is how long the bot has for one answer (or one run of a
	// per-move bot).
	Move Duration
}
