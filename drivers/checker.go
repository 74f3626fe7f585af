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
	// Players is the number of players of the games the case plays, for
	// a game whose tournaments choose it (Planowanie): a case of another
	// number than a tournament's matches have is skipped when the bot is
	// checked for that tournament (CheckOptions.Players). 0: the case
	// fits any.
	Players int
}

// CheckOptions are the limits a conformance case runs under.
type CheckOptions struct {
	// Move is how long the bot has for one answer (or one run of a
	// per-move bot).
	Move Duration
	// Game is the game the bot is checked for, so that the cases hold it
	// to the rules and limits a tournament would (Auction's file quota
	// and prefixes, Euchre's memory file): the game of the configuration
	// the bot was taken from (arbiter check -bot), rebuilt from its
	// settings by the driver's LoadGame. Nil when the bot was given by
	// its command: the cases then take the game's defaults, those of a
	// game block that sets nothing.
	Game Game
	// Clock is the clock of Game's matches, which the cases that judge
	// time (clock) hold the bot to; zero with a nil Game, for the
	// game's default clock.
	Clock Clock
	// Players are the numbers of players the matches of the tournament
	// the bot is checked for have (arbiter check -bot); nil when any
	// number may be (a bot given by its command, a stage that seats a
	// whole pool).
	Players []int
}

// A CheckClocker is a Checker that says, for check's output, which of its
// cases judge time and by which limits under opt, and how the others
// time the bot.
type CheckClocker interface {
	CheckClock(opt CheckOptions) string
}

// Whose names where the rules a check case judges by come from, for a
// driver's CheckClock: the configuration's game with -bot, else the
// game's defaults, which def names ("the contest's 1 s, a tournament's
// without a clock block").
func (o CheckOptions) Whose(def string) string {
	if o.Game != nil {
		return "the configuration's"
	}
	return def
}
