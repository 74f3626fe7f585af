// Package drivers defines what arbiter needs from a game, in two halves.
// At decode time a Driver decodes the body of a `game "<driver>" "<name>"`
// block into a Decoded game: its settings, its clock and its seat checks,
// with diagnostics that point into the HCL. At run time the Driver
// rebuilds a Game from the settings a plan recorded (LoadGame), and the
// Game referees one match between bot processes; nothing of the run-time
// half knows HCL, so a saved plan runs without its configuration.
//
// This package is a leaf: it knows nothing of scheduling, journals or
// tournaments (that is the engine's job) and nothing of any particular game
// (that is each driver's job). Built-in drivers are wired in drivers/all.
package drivers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// Driver knows one game and its protocol.
type Driver interface {
	// Name is the first label of the game block: game "<Name>" "<game name>".
	Name() string
	// DecodeGame decodes and validates the body of a game block. The driver
	// owns the schema of that body, so a typo in a game option is reported
	// with its source range before any bot starts.
	DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (Decoded, hcl.Diagnostics)
	// LoadGame rebuilds the game that plays from the settings a plan
	// recorded (the JSON encoding of Decoded.Settings). It is the only way
	// a game reaches the engine, so it must give a game that plays exactly
	// as the decoded one would: its Settings encode to the same JSON.
	LoadGame(settings json.RawMessage) (Game, error)
	// HouseBots lists the bots built into arbiter for this game, sorted by
	// name; each runs as `arbiter bot <driver>/<name>`.
	HouseBots() []HouseBot
}

// HouseBot is a bot built into arbiter (see house.Bot, which the house
// bots' own packages use without this package).
type HouseBot = house.Bot

// Decoded is a decoded game block: what compiling a tournament needs.
// It may also be a Variants.
type Decoded interface {
	// Settings is the JSON-serialisable form of the game recorded in the
	// plan, from which LoadGame rebuilds it.
	Settings() any
	// CheckSeats reports whether the game can be played with n seats,
	// as diagnostics pointing at the game block's own attributes where it can.
	// subject is the range of the setting that asked for n seats.
	CheckSeats(n int, subject hcl.Range) hcl.Diagnostics
	// Clock is the time budget every bot gets in a match. The plan records
	// it in every match, so the run-time Game gets it from Match.Clock.
	Clock() Clock
}

// Game is a game rebuilt from a plan's settings (Driver.LoadGame), ready
// to referee matches. It may also be a Reporter.
type Game interface {
	// Settings is the JSON-serialisable form of the game, as the plan
	// records it.
	Settings() any
	// Seats is nil when n bots can play a match of the game, and otherwise
	// says why not (the engine skips a playoff it cannot seat).
	Seats(n int) error
	// Play referees one match to its end. A bot's misbehaviour is never an
	// error: it is a fault recorded in the outcome. Play returns early, with
	// ctx's error, only when ctx is cancelled; all processes it started are
	// gone by the time it returns.
	Play(ctx context.Context, m *Match) (*Outcome, error)
}

// Earlier is a Game that can say which of its rules a plan saved by an
// earlier arbiter plays by where a plan made now would not (a setting
// the saved plan lacks, so its run resumes and replays as it began): a
// sentence each, for `arbiter plan`; none for a plan made now.
type Earlier interface {
	EarlierRules() []string
}

// EntryChecker is a Game with rules for what a bot may submit (a
// contest's cap on its files and their size), checked for every bot
// that is not a house bot before the first match of a run: a bot that
// breaks them stops the run with the error, which names what is over.
// argv is the bot's command with its files resolved in dir
// (ResolveArgv).
type EntryChecker interface {
	CheckEntry(argv []string, dir string) error
}

// Elsewhere is a Game (or Decoded game) that runs a bot in a folder of
// its own rather than in the bot's dir. Only the bot's program and the
// arguments naming files of its dir are made absolute (ResolveArgv):
// anything else its command takes relative to its working directory (a
// Java class named without -cp) is looked up in the wrong folder.
// RunsIn says where a bot runs, for messages.
type Elsewhere interface {
	RunsIn() string
}

// Clock is a time budget. Zero values mean "no limit".
type Clock struct {
	// Total is each bot's budget for the whole match.
	Total Duration `json:"total,omitempty"`
	// Move caps a single response, whatever is left of Total.
	Move Duration `json:"move,omitempty"`
	// Turn caps what a bot spends on all the messages of one of its turns
	// together: every exchange from the one after its last decision up to
	// and including its next decision (a gen_* command of a GTP-like
	// game), like Blokus's 2 s for a turn's update() and move().
	Turn Duration `json:"turn,omitempty"`
	// Startup is an allowance for the bot's start, not charged to its
	// clock, so a slow start (an interpreter, a JVM, a player built on
	// the last set-up command) does not count against it: a session
	// game's set-up commands share it (proc.Spec.Setup), a game that
	// starts a process per decision adds it to the first run's limit.
	Startup Duration `json:"startup,omitempty"`
}

// String says the clock's limits in words, "total 5m0s, turn 2s", or
// "unlimited".
func (c Clock) String() string {
	var parts []string
	for _, l := range []struct {
		name string
		d    Duration
	}{{"total", c.Total}, {"move", c.Move}, {"turn", c.Turn}, {"startup", c.Startup}} {
		if l.d > 0 {
			parts = append(parts, l.name+" "+time.Duration(l.d).String())
		}
	}
	if len(parts) == 0 {
		return "unlimited"
	}
	return strings.Join(parts, ", ")
}

// Duration is a time.Duration that reads and writes as "5m", "500ms" in JSON.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// Match is what a driver needs to referee one match.
type Match struct {
	ID   string
	Seed uint64
	// Round is the match's round in the plan (1-based).
	Round int
	// Variant is the game variant this match plays (see Variants), or "".
	Variant string
	// Dir is the match's own directory in the results: a driver may keep
	// files there (game folders of per-move bots, replays in an original
	// referee's format). It exists and is empty when Play starts.
	Dir   string
	Seats []Seat
	Clock Clock
	// Record receives the transcript: every line sent and received and the
	// game's own events.
	Record Recorder
	Log    hclog.Logger
}

// Seat is one bot in one seat of a match, ready to start.
type Seat struct {
	Bot     string   // bot name, for messages
	Nick    string   // the bot's display name (its nick in original file formats); Bot when not set
	Command []string // argv; Command[0] is looked up in PATH
	Dir     string   // absolute working directory
	Env     []string // "K=V" added to the environment (ARBITER_MATCH, ARBITER_SEAT, ARBITER_SEED, ...)
	Stderr  string   // file the bot's stderr goes to
	Limits  Limits   // what the process may use beside its clock
	// Out is set when the bot was disqualified before the first match
	// (DisqualifyRules.Submission): why. A game that can play on without
	// it (Auction: its bids count as 0) does not run it; others run it,
	// and its result is the verdict either way.
	Out string
	// Unbuilt is set when the bot's build failed: why. The bot is not
	// started: the driver's start of it fails (proc.Spec.NoStart), so the
	// game goes on as it does with a bot that cannot start, and the engine
	// records the seat's fault as "build" with this detail.
	Unbuilt string `json:",omitempty"`
	// PlanDir is Dir as the plan names it: relative to the
	// configuration's folder (slash separated) unless absolute; "" for a
	// house bot. Original referees' messages show it.
	PlanDir string
	// State is the bot's own folder of a game that carries bots' state
	// from match to match (Carrier), and otherwise empty. It is absolute,
	// in the match's directory, and holds what the bot's previous match in
	// plan order left in its State (for a DealCarrier, its match before the
	// first of its matches on the same seed); what it holds when Play
	// returns is what the bot's next match starts with. A bot in two seats of a match
	// has the same folder in both.
	State string
}

// ClockTeller is a Game whose match clock (Decoded.Clock, the clock every
// match of the plan records) is not what its own settings call the move
// limit, as Bricks's is its silence limit: ClockMeaning says what the
// clock is, so that the plan's text does not pass it for the move limit.
type ClockTeller interface {
	ClockMeaning() string
}

// Carrier is a Game whose bots keep state from one of their matches to
// the next, like a memory file that persists across a contest (Euchre's
// memory = "per-bot"). When CarriesState is true, the engine gives every
// seat a State folder, starts a match only after each of its bots'
// previous matches in plan order has finished (other matches still run in
// parallel), and keeps what each bot brought into a match so that the
// match can be replayed.
type Carrier interface {
	CarriesState() bool
}

// DealCarrier is a Carrier whose matches with the same seed are played on
// the same deals (duplicate play, tournament deal "per-group" or
// "per-round"), so that a bot's state must not pass from one of them to
// another: what it wrote in one would be its opponents' hands in the
// next. When KeepsDealsApart is true, a bot brings into each of its
// matches on a seed the state it had before the first of them in plan
// order, and its later matches on other seeds start from what the last of
// its matches before them left. A Carrier that is not one, or whose
// KeepsDealsApart is false (a plan written before the rule), hands a
// bot's state from each of its matches to its next whatever their seeds.
type DealCarrier interface {
	Carrier
	KeepsDealsApart() bool
}

// Recorder is the match transcript.
type Recorder interface {
	// Sent records a line written to a seat's bot.
	Sent(seat int, line string)
	// Received records a line read from a seat's bot.
	Received(seat int, line string)
	// Event records a game event; data must be JSON-serialisable.
	Event(kind string, data any)
}

// A TimedRecorder is a Recorder that stamps a line with the time it was
// written or read rather than the time it is recorded. A referee that has
// several bots answer at once records their lines seat by seat once every
// answer is in (gtp.Match.TellAll, an Auction round), so that the order of
// a transcript does not depend on which bot was quicker; each line still
// carries its own time.
type TimedRecorder interface {
	Recorder
	SentAt(seat int, line string, at time.Time)
	ReceivedAt(seat int, line string, at time.Time)
}

// RecordSent records in rec the line written to seat's bot at at, with
// that time when rec keeps times (TimedRecorder).
func RecordSent(rec Recorder, seat int, line string, at time.Time) {
	if t, ok := rec.(TimedRecorder); ok {
		t.SentAt(seat, line, at)
	} else {
		rec.Sent(seat, line)
	}
}

// RecordReceived records in rec the line read from seat's bot at at, with
// that time when rec keeps times (TimedRecorder).
func RecordReceived(rec Recorder, seat int, line string, at time.Time) {
	if t, ok := rec.(TimedRecorder); ok {
		t.ReceivedAt(seat, line, at)
	} else {
		rec.Received(seat, line)
	}
}

// Fault kinds: why a bot lost a match.
const (
	FaultTime     = "time"     // its clock ran out or a single move took too long
	FaultIllegal  = "illegal"  // a well-formed answer the rules forbid
	FaultProtocol = "protocol" // an answer that does not parse, or a refusal where an answer was due
	FaultCrash    = "crash"    // the process exited or closed its output mid-match
	FaultStart    = "start"    // the process could not be started
)

// NothingArrivedNote ends the detail of a time fault of a session game
// when not a byte came from the bot after the command it failed to
// answer was written (NothingArrived): the bot was silent, or answered
// into its own buffer without flushing it.
const NothingArrivedNote = "; nothing arrived: if it answered, it may not have flushed its output (arbiter check shows more)"

// ComputedNote ends the detail of a time fault of a session game instead
// of NothingArrivedNote when the bot used the CPU for a good part of its
// wait (Computed): it did not sit waiting with an unflushed answer.
const ComputedNote = "; it kept computing without answering: an endless loop, or a search too slow for the clock"

// WaitingNote ends the detail of a time fault of a session game instead
// of NothingArrivedNote when the bot had read all that was written and a
// thread of it was waiting in a read of its input (Waiting): either it
// answered into its own output buffer and waits for the next command
// (the commonest mistake of all), or it wants more input before it
// answers, reading to the end of its input, which never comes while the
// referee waits for its answer. From outside the two look the same.
const WaitingNote = "; nothing arrived: " + WaitingCause

// earlierWaitingNote is WaitingNote as arbiters before the flush advice
// wrote it, which named only a bot reading to the end of its input.
const earlierWaitingNote = "; nothing arrived: it had read everything sent and was waiting for more input; " +
	"it must answer each line before it reads the next (Python's sys.stdin.read() and readlines() read to " +
	"the end of the input, which does not come while the referee waits for the answer)"

// FlushCalls are the calls that flush a bot's output, by language.
const FlushCalls = "Python print(..., flush=True), C fflush(stdout), C++ std::cout << std::flush, Java System.out.flush()"

// WaitingCause is what WaitingNote and arbiter check say of a bot that
// waited for more input without answering. A bot that answered without
// flushing waits in the same read as one that reads to the end of its
// input, so both causes are named, the commoner first.
const WaitingCause = "it had read everything sent and was waiting for more input: either it answered " +
	"into its own output buffer and did not flush it (" + FlushCalls + "), or it reads more than the command " +
	"before it answers (Python's sys.stdin.read() and readlines() read to the end of the input, " +
	"which does not come while the referee waits for the answer); it must answer each line, and flush " +
	"the answer, before it reads the next"

// Waiting says whether err is a time fault after which nothing arrived
// from a bot that had read all that was written, the command's write
// alone, and waited in a read of its input for more (SlownessOf's
// InputWaiting), read without importing proc. A command written behind
// others whose answers arrived (QueuedSilent) is not: there the bot most
// likely lost the rest of the write.
func Waiting(err error) bool {
	sl, ok := SlownessOf(err)
	return ok && sl.Input == InputWaiting && !QueuedSilent(err)
}

// Computed says whether err is a time fault after which nothing arrived
// (NothingArrived) from a bot whose processes used the CPU for at least
// a quarter of its wait (proc's Fault.Busy), read without importing
// proc. Where the CPU a bot uses is not counted (no cgroup of its own)
// it is false.
func Computed(err error) bool {
	var f interface{ Computed() bool }
	return NothingArrived(err) && errors.As(err, &f) && f.Computed()
}

// TakenSlow is what TakenNote and arbiter check say of a bot that read
// a command and did not answer it in time, at something other than
// reading its input (InputTaken).
const TakenSlow = "read this command and did not answer it in time: it was slow (sleeping, waiting on something other than its input, or computing)"

// TakenNote ends the detail of a time fault of a session game instead
// of NothingArrivedNote when the command asks for no move (play, set_*,
// not gen_*) and the bot had read it, the lines written with it after it
// alone left in its input, and was at something other than reading
// (Taken): it was slow on a command whose answer, "=", takes no thought,
// not holding an answer it did not flush (CommandNote).
const TakenNote = "; nothing arrived: it " + TakenSlow

// Taken says whether err is a time fault after which nothing arrived
// from a bot that had read the command and was at something other than
// reading its input (SlownessOf's InputTaken).
func Taken(err error) bool {
	sl, ok := SlownessOf(err)
	return ok && sl.Input == InputTaken
}

// CommandNote is ArrivedNote of err, the time fault of a command,
// asksMove saying whether the command asks for a move (gen_*): of one
// that asks for none and that the bot had read (Taken), TakenNote rather
// than NothingArrivedNote, as arbiter check says of it. A command that
// asks for a move keeps NothingArrivedNote, as check keeps its flush
// hint.
func CommandNote(err error, asksMove bool) string {
	note := ArrivedNote(err)
	if note == NothingArrivedNote && !asksMove && Taken(err) {
		return TakenNote
	}
	return note
}

// QueuedArrived is what a time fault of a session game says happened
// when the command went in one write behind others whose answers arrived
// (QueuedSilent): the bot's output does reach the referee, so it flushes
// some answers at least, but nothing came after its answer to the command
// before this one. QueuedNote and arbiter check's hint start with it.
const QueuedArrived = "nothing arrived after its answer to the command before it, written with it"

// QueuedNote ends the detail of a time fault of a session game instead
// of NothingArrivedNote when the command went in one write behind others
// whose answers arrived (QueuedSilent). The referee cannot tell why, so
// it hedges every cause, as NothingArrivedNote does: the bot was still
// at it (slow, sleeping, waiting on a child, or, where its CPU is not
// counted, in a loop), answered into its own buffer without flushing it,
// or never read the command, having read the whole write at once and
// lost the lines after the one it answered (arbiter check, which knows
// the lines, says which).
const QueuedNote = "; " + QueuedArrived + ": it may not have finished this one in time; " +
	"if it answered it, it may not have flushed the answer; " +
	"if it never read it, it may read more than one line at a time and have lost the rest of that write " +
	"(arbiter check shows more)"

// ArrivedNote is the note that ends the detail of err, a time fault of a
// session game: ComputedNote, QueuedNote, WaitingNote, NothingArrivedNote,
// or "" (CommandNote adds TakenNote).
func ArrivedNote(err error) string {
	switch {
	case Computed(err):
		return ComputedNote
	case QueuedSilent(err):
		return QueuedNote
	case Waiting(err):
		return WaitingNote
	case NothingArrived(err):
		return NothingArrivedNote
	}
	return ""
}

// WithoutArrivedNote is a fault's detail without the note that ends it
// (CommandNote: NothingArrivedNote, QueuedNote, ComputedNote,
// WaitingNote or TakenNote). The note says what the bot was doing at its time-out, as
// its state in /proc showed it then, which a rerun of the same match may
// see otherwise: a replay compares details without it, and arbiter check,
// which the note points to, says more in its stead. The notes of earlier
// arbiters (earlierWaitingNote) are cut too, so that a transcript they
// wrote replays as it did.
func WithoutArrivedNote(detail string) string {
	for _, note := range []string{NothingArrivedNote, QueuedNote, ComputedNote, WaitingNote, TakenNote, earlierWaitingNote} {
		if d, ok := strings.CutSuffix(detail, note); ok {
			return d
		}
	}
	return detail
}

// partialMost is how many bytes of a partial answer WithoutLineEnd shows.
const partialMost = 80

// WithoutLineEnd says that only partial arrived of an answer, without
// its line's end: quoted as it arrived (a lone "\r" included), its first
// partialMost bytes at most, cut at the start of a UTF-8 character, the
// clip said after the quotes.
func WithoutLineEnd(partial string) string {
	if len(partial) <= partialMost {
		return fmt.Sprintf("only %q arrived, without its line's end", partial)
	}
	cut := partialMost
	for i := 1; i < utf8.UTFMax && cut > 0 && !utf8.RuneStart(partial[cut]); i++ {
		cut--
	}
	return fmt.Sprintf("only %q (clipped at %d bytes) arrived, without its line's end", partial[:cut], cut)
}

// Partial is what arrived, without its line's end, of the answer that
// err, a time fault, did not get whole (proc's Fault.Partial), read
// without importing proc; "" when nothing did.
func Partial(err error) string {
	var f interface{ PartialLine() string }
	if errors.As(err, &f) {
		return f.PartialLine()
	}
	return ""
}

// QueuedSilent says whether err is a time fault after which nothing
// arrived (NothingArrived) for a command written in one write behind
// others whose answers were read (proc's Fault.Queued), read without
// importing proc.
func QueuedSilent(err error) bool {
	var f interface{ QueuedSilent() bool }
	return NothingArrived(err) && errors.As(err, &f) && f.QueuedSilent()
}

// NothingArrived says whether err is a time fault after which it is
// certain that nothing at all came from the bot since the clock of the
// command it did not answer started: its write, or, for one written
// behind others, the read of the answer before it (proc's Fault.Silent),
// read without importing proc.
func NothingArrived(err error) bool {
	var f interface{ NothingArrived() bool }
	return errors.As(err, &f) && f.NothingArrived()
}

// Fault kinds of limits (see Limits): like a judge's MLE or OLE.
const (
	FaultMemory    = "memory"    // it went over its memory limit
	FaultProcesses = "processes" // it tried to have more processes or threads than allowed
	FaultOutput    = "output"    // it wrote more than allowed for one answer
	FaultFiles     = "files"     // it wrote more files or bytes than allowed
	FaultNetwork   = "network"   // it tried to use the network (older runs: internet sockets are now refused, not killed)
)

// SeatResult is one seat's result.
type SeatResult struct {
	Score float64 `json:"score"`
	// Place is the seat's placement in the match, 1 = best, tied seats
	// sharing the mean of the places they span; 0 when the driver leaves
	// it to be derived from Score (higher is better).
	Place float64 `json:"place,omitempty"`
	// Fault is empty, or one of the Fault* kinds.
	Fault string `json:"fault"`
	// Detail says what happened, in a sentence, when there was a fault.
	Detail string `json:"detail,omitempty"`
	// Partners are the seats of the bots that played on this seat's team
	// and share its result (Euchre with four bots); empty when every seat
	// plays for itself. Placed first with no one but its partners beside
	// it, a seat has won: its team won alone.
	Partners []int `json:"partners,omitempty"`
	// Defaults counts the answers that were invalid, late or missing and
	// got the game's default answer instead of ending the match (games
	// such as Auction and Euchre); each is in the transcript.
	Defaults int `json:"defaults,omitempty"`
	// DefaultDetail says where the first of them came and why it was
	// replaced ("round 3: answered ..."), so that a bot's author finds it
	// without reading the transcript.
	DefaultDetail string `json:"default_detail,omitempty"`
	// AllDefaults says that every answer the bot was asked for in this
	// match that counts (Euchre's answers to a trick message do not) was
	// replaced by the game's default: it played nothing of its own. A placement tie of bots that could not
	// play is not played off (engine/stats.PlacementTies).
	AllDefaults bool `json:"all_defaults,omitempty"`
	// Time is the clock time the bot used.
	TimeMS int64 `json:"time_ms"`
	// OffMoveMS is how much of TimeMS was charged for CPU the bot's
	// processes used while it was not on move (a session bot in its own
	// cgroup: docs/sandbox.md, Time off move).
	OffMoveMS int64 `json:"off_move_ms,omitempty"`
	// Overruns counts the bot's answers that came after the move limit:
	// those within the game's tolerated overrun (used) and the time-outs
	// beyond it. A game whose rules disqualify repeat offenders
	// (Disqualifier) counts them over the whole tournament.
	Overruns int `json:"overruns,omitempty"`
	// Breach is set when the bot broke a rule whose penalty is
	// disqualification from the whole tournament (Auction's file rules).
	Breach *Breach `json:"breach,omitempty"`
}

// Breach is a broken rule that disqualifies (SeatResult.Breach).
type Breach struct {
	// Rule names the rule, like "files".
	Rule string `json:"rule"`
	// Detail says what the bot did, in a sentence.
	Detail string `json:"detail"`
}

// Disqualifier is a Game whose rules disqualify a bot from the whole
// tournament (Fibot's): after more overruns than the rules tolerate, or
// for a breach (SeatResult.Breach). The engine decides it in plan order
// and records it in the results of the bot's remaining matches; the bot
// ranks last.
type Disqualifier interface {
	DisqualifyRules() DisqualifyRules
}

// DisqualifyRules are a game's rules of disqualification.
type DisqualifyRules struct {
	// Overruns is how many overruns (SeatResult.Overruns) a bot may have
	// over a tournament; the next one disqualifies it. Negative: any
	// number.
	Overruns int
	// Breaches says that the game reports breaches (SeatResult.Breach).
	Breaches bool
	// Submission says that a bot failing the game's entry check
	// (EntryChecker) is disqualified before the first match, and not run
	// (Seat.Out), instead of stopping the run.
	Submission bool
}

// Active reports whether the rules can disqualify a bot at all.
func (r DisqualifyRules) Active() bool { return r.Overruns >= 0 || r.Breaches || r.Submission }

// Outcome is how a match ended: one SeatResult per seat, in seat order.
type Outcome struct {
	Seats []SeatResult `json:"seats"`
	// PlayedOut says the match was played to its end whatever the faults
	// in it (an Auction goes on without a bot that cannot start), so the
	// games between seats without a fault stand; otherwise a fault ended
	// the match and the others' scores say nothing of their play.
	PlayedOut bool `json:"played_out,omitempty"`
}

// BotNamer is an optional capability of a Decoded game whose settings
// name bots (Auction's files { prefixes }): the configuration reports a
// name that is no bot of it, at the range that names it, since a setting
// for no bot is most likely a typo that would silently apply to no one.
type BotNamer interface {
	BotNames() []BotName
}

// BotName is a bot named by a game's settings.
type BotName struct {
	Name string
	// Setting says where, in the user's words: files { prefixes }.
	Setting string
	// Range is where the configuration names it.
	Range hcl.Range
}

// BotNameUser is an optional capability of a Decoded game that uses a
// bot's name in its own files when its settings give the bot no other
// name there (Auction's file prefix, a bot's name unless files {
// prefixes } gives it one): BotNameProblem says, in a sentence to be
// shown at the bot's block, what makes bot's name unfit there, or "". The
// configuration asks it about every bot of the game's tournaments, so
// that a name is held to the rule that the setting's value is held to.
type BotNameUser interface {
	BotNameProblem(bot string) string
}

// Nicknamer is an optional capability of a Decoded game whose own
// files name players by their nick (Bricks' score.txt and duels.txt):
// the configuration refuses two bots of one of its tournaments with the
// same nick, which those files could not tell apart. NickFiles names the
// files, in the user's words. A game without it never shows a nick, so
// any nicks serve.
type Nicknamer interface {
	NickFiles() string
}

// Variants is an optional capability of a Decoded game that plays several
// variants, e.g. the boards of a series: the plan gives every match of
// round r the variant (r-1) mod len(Variants()), so a tournament with a
// multiple of that many rounds plays each variant equally often.
type Variants interface {
	Variants() []string
}

// Ordered is an optional capability of a Decoded game whose contest
// played a round's matches in an order of its own: DefaultOrder names it
// (a tournament.Order, like "by-seat"), the order of a tournament of the
// game that sets none.
type Ordered interface {
	DefaultOrder() string
}

// Reporter is an optional capability of a Game that keeps files in the
// format of an original referee (score sheets, duel lists) so that existing
// users keep their tools. The engine calls Report after every finished
// match with all matches finished so far, in plan order; Report rewrites
// its files in dir, the results directory.
type Reporter interface {
	Report(dir string, matches []ReportedMatch) error
}

// ReportedMatch is a finished match as a Reporter sees it.
type ReportedMatch struct {
	// Index is the match's 1-based position in the plan.
	Index int
	ID    string
	// Dir is the match's own directory (see Match.Dir).
	Dir string
	// Bots and Nicks are per seat.
	Bots, Nicks []string
	Outcome     Outcome
}

// DecodeSettings decodes the settings a plan recorded into v (a driver's
// LoadGame), refusing a field v does not have, as the plan's own fields
// are: a misspelt or foreign setting in a plan edited by hand would
// otherwise be dropped without a word, and the game played without it.
func DecodeSettings(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more follows the settings' JSON object")
	}
	return nil
}
