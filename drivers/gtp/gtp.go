// Package gtp is the GTP-like framing that the session games (Blokus,
// Planowanie) share: a command line goes to a bot, which answers with a
// line starting with '=' (accepted) or '?' (refused), then lines up to an
// empty line.
//
// Both sides of the protocol are here. The referee's side is Match, the
// part of a referee that asks bots, tells them, and turns a session's
// failure into the fault of a seat; Ask reads a response from a bot
// process, and Start, Sessions and SessionPlayer wire real bot processes
// (drivers/proc) to Match. The bot's side is Serve, the
// command loop of the house bots. What the commands mean stays with each
// game.
package gtp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/house"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Player is the referee's view of one bot in a GTP-like session.
type Player interface {
	// Ask writes one command line and reads the bot's full response (a line
	// starting with '=' or '?', then lines up to an empty line). ok is true
	// for '='; text is the response after the sign, trimmed. The bot's
	// clock is charged inside Ask.
	//
	// A non-nil error is a fault that ends the match. Its kind comes from
	// a FaultKind() string method anywhere in the error's chain (one of
	// drivers.FaultTime, FaultCrash, FaultProtocol); an error without one
	// is a crash.
	Ask(cmd string) (ok bool, text string, err error)
	// Left is the time the bot has for its next answer; ok is false when
	// it is unlimited.
	Left() (left time.Duration, ok bool)
}

// A Sender is a Player whose command can be out while other players are
// asked: a bot process (SessionPlayer). Match.TellAll writes its command
// to every Sender first and then collects their answers at once.
type Sender interface {
	Player
	// Send writes cmd and returns without waiting for the answer, which
	// receive then reads as Ask would, charging the bot's clock from when
	// cmd was written. The receive functions of different players may run
	// at the same time. The lines a receive reads are held back from the
	// transcript until Release, so that the referee records them in an
	// order of its choosing rather than the order the reads finished in.
	Send(cmd string) (receive func() (ok bool, text string, err error))
	// Release records the lines held since the last Send.
	Release()
}

// The events Match records, by kind; seats are numbered from 0.
type (
	// FaultEvent ("fault") is the misbehaviour that ended the match: one
	// for each seat whose answer to the same command was a fault, in seat
	// order.
	FaultEvent struct {
		Seat   int    `json:"seat"`
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	// WarningEvent ("warning") is a '?' answer to a command that only
	// informs the bot; the game goes on.
	WarningEvent struct {
		Seat    int    `json:"seat"`
		Command string `json:"command"`
		Answer  string `json:"answer"`
	}
)

// ErrOver unwinds a match that a fault or a cancellation has ended; what
// happened is already in the Match.
var ErrOver = errors.New("match over")

// Match is the protocol side of one match while a game's referee runs it:
// the players, the transcript, and the faults that ended the match, if
// any.
// A game's referee embeds it and adds the game's state.
type Match struct {
	Ctx     context.Context
	Players []Player
	Rec     drivers.Recorder

	// Faulty is the seats whose faults ended the match, in seat order:
	// one, or several whose answers to the same command of a broadcast
	// were faults (TellAll), or to decisions a game judges together
	// (Planowanie's declarations); empty while the match goes on.
	Faulty []int
	// Results has one entry per seat; Fault records the fault in it.
	Results []drivers.SeatResult
	// Where says which part of the game is being played, for details,
	// like " on turn 3"; it is appended to every fault's detail.
	Where string
	// MaxQuote caps how much of a refused answer a detail quotes (then
	// "..." follows); 0 quotes it whole.
	MaxQuote int

	// ahead is the decision TellAllBefore asked ahead, which the next Gen
	// takes; nil when none is.
	ahead *ahead
	// decided is the last decision Gen asked and answer the text of the
	// answer it returned, which AnswerFault finds wrong.
	decided, answer string
}

// ahead is a decision written to a bot with a broadcast (TellAllBefore):
// the commands (time_left if its clock is limited, then the decision) and
// the bot's answers to them, as askAll returns them.
type ahead struct {
	seat    int
	cmds    []string
	answers []Answer
}

// NewMatch is a Match of players that has not faulted.
func NewMatch(ctx context.Context, players []Player, rec drivers.Recorder) Match {
	return Match{Ctx: ctx, Players: players, Rec: rec,
		Results: make([]drivers.SeatResult, len(players))}
}

// Ask is Player.Ask that turns an error into the fault that ends the
// match, and returns ErrOver then. After ctx is cancelled it asks nothing
// and returns ErrOver, and an Ask error is taken to be the cancellation,
// not a fault.
func (m *Match) Ask(seat int, cmd string) (ok bool, text string, err error) {
	if m.Ctx.Err() != nil {
		return false, "", ErrOver
	}
	ok, text, err = m.Players[seat].Ask(cmd)
	return ok, text, m.failed(seat, cmd, err)
}

// failed is the verdict on err, the error of seat's answer to cmd: nil,
// ErrOver for a cancelled match, or the fault it records (see Ask).
func (m *Match) failed(seat int, cmd string, err error) error {
	if err == nil {
		return nil
	}
	if m.Ctx.Err() != nil {
		return ErrOver
	}
	name, _, _ := strings.Cut(cmd, " ")
	note := drivers.CommandNote(err, strings.HasPrefix(name, "gen_"))
	return m.Fault(seat, FaultKind(err), fmt.Sprintf("%s, answering %s%s%s", FaultDetail(err), name, m.Where, note))
}

// Tell sends a command that only informs the bot; a refusal is a warning.
func (m *Match) Tell(seat int, cmd string) error {
	ok, text, err := m.Ask(seat, cmd)
	if err != nil {
		return err
	}
	if !ok {
		m.refused(seat, cmd, text)
	}
	return nil
}

// refused records seat's refusal of cmd, which only informs it.
func (m *Match) refused(seat int, cmd, text string) {
	name, _, _ := strings.Cut(cmd, " ")
	m.Warn(seat, name, text)
}

// TellAll tells every seat the command cmd makes for it, all at once: the
// commands are written to every Sender, in seat order, before any answer
// is awaited; the players that are not Senders are asked one after another
// while the Senders' answers come in. Each bot's clock runs from when its
// own command was written to when its own answer arrived. When every
// player is a bot process, their answers are awaited together on the
// calling goroutine (proc.Await), each read as soon as it is whole;
// otherwise each Sender's is read on a goroutine of its own.
//
// What is recorded does not depend on which answer came first: the lines
// sent, in seat order; then the lines received, seat by seat; then the
// verdicts in seat order, a warning for each refusal and a fault for each
// seat whose answer is one: every such seat has its own fault, and any
// fault ends the match. Every seat gets the command and is waited for,
// whatever the others do, so a fault in one seat never changes what
// another seat was sent, nor whether another seat's answer is judged.
func (m *Match) TellAll(cmd func(seat int) string) error {
	return m.TellAllBefore(-1, "", cmd)
}

// TellAllBefore tells every seat each command of cmds in turn, as TellAll
// one after another would, and asks seat (unless it is -1) for its next
// decision, gen, with them. When every player is a bot process, all of it
// is written at once, a seat's lines in one write: its commands of cmds,
// then, to seat, the decision's commands (time_left first when its clock
// is limited, see Gen); and the referee's next call must be Gen(seat,
// gen), which then takes the decision's answers instead of asking. A bot
// answers each command as if it had come when it had answered the one
// before: its clock is charged the same as for the commands one after
// another, and no round trip of the referee's passes between them.
// time_left says what was left when the lines were written.
//
// The verdicts are TellAll's, command by command: every seat's answer to
// a command is judged, and a fault of any seat there ends the match, with
// a fault for each seat whose answer to that command is one; the answers
// to the commands after it (the decision's too) are neither awaited nor
// judged nor recorded, as they would not have been asked one after
// another; the decision's verdicts are Gen's.
// What is recorded: every seat's lines sent, in seat order; then its
// lines received, seat by seat; then the verdicts. When a player is not
// a bot process, it is TellAll for each command in turn, and Gen asks as
// usual; except that a Pipeliner among them (arbiter check's bot under
// test, whose opponents are house bots in its process) gets the commands
// in one write, with the decision's when it is seat, as a bot process
// gets them in a match (tellAllEach).
func (m *Match) TellAllBefore(seat int, gen string, cmds ...func(seat int) string) error {
	if m.ahead != nil {
		panic(fmt.Sprintf("gtp: a broadcast while seat %d's decision asked ahead is not taken", m.ahead.seat))
	}
	sessions := sessionsOf(m.Players)
	if sessions == nil {
		return m.tellAllEach(seat, gen, cmds)
	}
	if m.Ctx.Err() != nil {
		return ErrOver
	}
	n := len(m.Players)
	lines := make([][]string, n) // each seat's commands, in turn
	for i := range lines {
		for _, cmd := range cmds {
			lines[i] = append(lines[i], cmd(i))
		}
	}
	var next []string
	if seat >= 0 {
		next = m.decision(seat, gen)
	}
	got := m.sendAndAwait(sessions, lines, seat, next, len(cmds))
	if err := m.verdictsEach(lines, got, len(cmds)); err != nil {
		return err
	}
	if seat >= 0 {
		m.ahead = &ahead{seat: seat, cmds: next, answers: got[seat][len(cmds):]}
	}
	return nil
}

// tellAllEach is TellAllBefore when not every player is a bot process:
// a Pipeliner gets every command of the broadcast in one write (AskAll),
// the decision's commands after them when it is seat (asked ahead, as
// TellAllBefore asks a bot process), so that a bot that takes one read
// for one command loses the rest of the write here as it does in a
// match, and one that breaks only on a play written with time_left and
// gen_move breaks here too; the other players are asked each command in
// turn. The verdicts are TellAllBefore's, command by command; the
// decision is then Gen's, asked as usual when seat is not a Pipeliner.
func (m *Match) tellAllEach(seat int, gen string, cmds []func(seat int) string) error {
	var asker Pipeliner
	if seat >= 0 {
		asker, _ = m.Players[seat].(Pipeliner)
	}
	if len(cmds) == 1 && asker == nil {
		return m.tellAll(cmds[0])
	}
	n := len(m.Players)
	lines := make([][]string, n)
	got := make([][]Answer, n)
	var next []string
	for i, p := range m.Players {
		for _, cmd := range cmds {
			lines[i] = append(lines[i], cmd(i))
		}
		if pl, ok := p.(Pipeliner); ok && m.Ctx.Err() == nil {
			sent := lines[i]
			if i == seat {
				next = m.decision(seat, gen)
				sent = append(slices.Clip(sent), next...)
			}
			got[i] = pl.AskAll(sent...)
			continue
		}
		got[i] = m.askEach(p, lines[i])
	}
	if err := m.verdictsEach(lines, got, len(cmds)); err != nil {
		return err
	}
	if next != nil {
		m.ahead = &ahead{seat: seat, cmds: next, answers: got[seat][len(cmds):]}
	}
	return nil
}

// askEach asks p each line in turn, up to the first answer with an
// error; once the match is cancelled it asks nothing, and the answer's
// error is ErrOver, as Ask's.
func (m *Match) askEach(p Player, lines []string) []Answer {
	var got []Answer
	for _, line := range lines {
		a := Answer{Err: ErrOver}
		if m.Ctx.Err() == nil {
			a.get(func() (bool, string, error) { return p.Ask(line) })
		}
		got = append(got, a)
		if a.Err != nil {
			break
		}
	}
	return got
}

// verdictsEach gives the verdicts of a broadcast of n commands, command
// by command: seat i was sent lines[i] and answered got[i]. A seat has
// every answer up to its first that faulted, and none after it.
func (m *Match) verdictsEach(lines [][]string, got [][]Answer, n int) error {
	for k := range n {
		err := m.verdicts(func(i int) (string, Answer, bool) {
			if k >= len(got[i]) {
				return "", Answer{}, false
			}
			return lines[i][k], got[i][k], true
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// sendAndAwait is TellAllBefore's exchange with bot processes: it writes
// each seat its lines (to seat, next after them), awaits their answers on
// this goroutine, each read as soon as it is whole, up to the first of
// the ncmds commands of the broadcast that faulted, and releases the
// lines of the answers it will judge. got[i][k] is seat i's answer to
// its k-th line.
func (m *Match) sendAndAwait(sessions []*proc.Session, lines [][]string, seat int, next []string, ncmds int) (got [][]Answer) {
	n := len(sessions)
	got = make([][]Answer, n)
	held := make([][]int, n) // the lines seat i holds after each answer
	receive := make([]func(int) Answer, n)
	// Every seat's answers, and its held counts, in one array each: one
	// allocation a broadcast, not one each time a seat's slice grows.
	total := len(next)
	for _, l := range lines {
		total += len(l)
	}
	answers, counts := make([]Answer, total), make([]int, total)
	for i, p := range m.Players {
		sent := lines[i]
		if i == seat {
			sent = append(slices.Clip(sent), next...)
		}
		got[i], answers = answers[:0:len(sent)], answers[len(sent):]
		held[i], counts = counts[:0:len(sent)], counts[len(sent):]
		sessions[i].Hold()
		receive[i] = p.(SessionPlayer).sendAll(sent)
	}
	// Once an answer to the k-th command is a fault, the match ends with
	// the verdicts on it: the answers after it (the decision's too) are
	// not awaited, as they would not have been asked one after another.
	var faultAt atomic.Int64
	faultAt.Store(math.MaxInt64)
	proc.Await(sessions, answerComplete, func(i int) {
		k := len(got[i])
		a := receive[i](k)
		got[i] = append(got[i], a)
		held[i] = append(held[i], sessions[i].Held())
		for a.Err != nil && k < ncmds {
			at := faultAt.Load()
			if int64(k) >= at || faultAt.CompareAndSwap(at, int64(k)) {
				break
			}
		}
	}, func(i int) bool { return int64(len(got[i])) <= faultAt.Load() })
	at := int(min(faultAt.Load(), math.MaxInt32))
	for i, s := range sessions {
		// A limit left for an answer not awaited is the last one read's,
		// or the faulted command's if it read past it.
		if err := s.Abandon(); err != nil && len(got[i]) > 0 {
			last := min(len(got[i])-1, at)
			got[i][last].Err = err
		}
		if len(held[i])-1 > at { // not at+1: at is MaxInt32 on 32-bit for no fault
			s.ReleaseFirst(held[i][at]) // read past the fault before it was seen
		} else {
			s.Release()
		}
	}
	return got
}

// tellAll is TellAll when not every player is a bot process: the command
// is written to every Sender, in seat order, and the others are asked one
// after another while the Senders' answers come in, each on a goroutine
// of its own.
func (m *Match) tellAll(cmd func(seat int) string) error {
	if m.Ctx.Err() != nil {
		return ErrOver
	}
	n := len(m.Players)
	cmds := make([]string, n)
	receive := make([]func() (bool, string, error), n)
	for i, p := range m.Players {
		cmds[i] = cmd(i)
		if s, ok := p.(Sender); ok {
			receive[i] = s.Send(cmds[i])
		}
	}
	answers := make([]Answer, n)
	m.collect(cmds, receive, answers)
	for _, p := range m.Players {
		if s, ok := p.(Sender); ok {
			s.Release()
		}
	}
	return m.verdicts(func(i int) (string, Answer, bool) { return cmds[i], answers[i], true })
}

// verdicts judges every seat's answer to one command of a broadcast, in
// seat order: answer(i) is seat i's command and its answer, ok false when
// it has none. Each refusal is a warning and each seat whose answer is a
// fault has its own fault: they all came to the same command, so none of
// them ended the match before the others' answers. It returns ErrOver
// when any was a fault, and at once when the match is cancelled: nothing
// more is recorded then.
func (m *Match) verdicts(answer func(seat int) (cmd string, a Answer, ok bool)) error {
	var over error
	for i := range m.Players {
		cmd, a, ok := answer(i)
		if !ok {
			continue
		}
		if err := m.verdict(i, cmd, a); err != nil {
			if m.Ctx.Err() != nil {
				return ErrOver
			}
			over = err
		}
	}
	return over
}

// verdict judges seat's answer a to cmd, which only informs it: a fault
// ends the match (its error is returned), a refusal is a warning.
func (m *Match) verdict(seat int, cmd string, a Answer) error {
	if err := m.failed(seat, cmd, a.Err); err != nil {
		return err
	}
	if !a.OK {
		m.refused(seat, cmd, a.Text)
	}
	return nil
}

// sessionsOf is the sessions of players when every one is a bot process
// (SessionPlayer), nil otherwise.
func sessionsOf(players []Player) []*proc.Session {
	ss := make([]*proc.Session, len(players))
	for i, p := range players {
		sp, ok := p.(SessionPlayer)
		if !ok {
			return nil
		}
		ss[i] = sp.S
	}
	return ss
}

// collect gets TellAll's answers when not every player is a bot process:
// each Sender's (receive[i] not nil) is read on a goroutine of its own,
// so that it is timed when it arrives, while this goroutine asks the
// other players one after another.
func (m *Match) collect(cmds []string, receive []func() (bool, string, error), answers []Answer) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, r := range receive {
		if r != nil {
			wg.Go(func() { answers[i].get(r) })
		}
	}
	for i, p := range m.Players {
		switch {
		case receive[i] != nil:
		case m.Ctx.Err() != nil:
			answers[i].Err = ErrOver // asks nothing once cancelled, like Ask
		default:
			answers[i].get(func() (bool, string, error) { return p.Ask(cmds[i]) })
		}
	}
}

func (a *Answer) get(ask func() (bool, string, error)) { a.OK, a.Text, a.Err = ask() }

// A Pipeliner is a Player that takes several commands at once: AskAll
// writes cmds together and reads their answers in order, as Ask would
// each, stopping at the first error, which is the last answer returned. A
// bot process (SessionPlayer) is one: the commands after the first cost
// no round trip of their own.
type Pipeliner interface {
	Player
	AskAll(cmds ...string) []Answer
}

// Answer is a player's answer to one command (see Player.Ask).
type Answer struct {
	OK   bool
	Text string
	Err  error
}

// Gen asks a bot for a decision with cmd, telling it time_left first when
// its clock is limited (written together, to a Pipeliner); a refusal of
// the decision is a protocol fault, since the game cannot go on without
// the answer, and a refusal of time_left a warning.
//
// After TellAllBefore(seat, cmd, …) it asks nothing: it judges the
// answers that came with the broadcast's.
func (m *Match) Gen(seat int, cmd string) (string, error) {
	var cmds []string
	var answers []Answer
	m.decided, m.answer = cmd, ""
	if a := m.ahead; a != nil {
		m.ahead = nil
		if a.seat != seat || a.cmds[len(a.cmds)-1] != cmd {
			panic(fmt.Sprintf("gtp: Gen(%d, %q) after seat %d's %q was asked ahead", seat, cmd, a.seat, a.cmds[len(a.cmds)-1]))
		}
		if m.Ctx.Err() != nil {
			return "", ErrOver // as askAll, once cancelled
		}
		cmds, answers = a.cmds, a.answers
	} else {
		cmds = m.decision(seat, cmd)
		answers = m.askAll(seat, cmds)
	}
	last := len(cmds) - 1
	for i, a := range answers {
		if a.Err != nil {
			return "", m.failed(seat, cmds[i], a.Err)
		}
		switch {
		case i < last && !a.OK:
			m.refused(seat, cmds[i], a.Text)
		case i == last && !a.OK:
			note := StrayNote(m.Players[seat], cmd)
			if note == "" {
				note = OutOfStepNote(m.Players[seat], cmd, "")
			}
			return "", m.Fault(seat, drivers.FaultProtocol, fmt.Sprintf("answered ? to %s (%q)%s%s", cmd, m.quote(a.Text), m.Where, note))
		case i == last:
			m.answer = a.Text
			return a.Text, nil
		}
	}
	panic("gtp: a player answered fewer commands than it was sent, without an error")
}

// decision is the commands that ask seat for the decision cmd: time_left
// first when its clock is limited.
func (m *Match) decision(seat int, cmd string) []string {
	if left, ok := m.Players[seat].Left(); ok {
		return []string{fmt.Sprintf("time_left %d", max(left.Milliseconds(), 0)), cmd}
	}
	return []string{cmd}
}

// askAll asks seat every command of cmds in turn, written at once to a
// Pipeliner, up to the first answer with an error (which is the last
// returned); it asks nothing once the match is cancelled (the answer's
// error is then ErrOver, as Ask's).
func (m *Match) askAll(seat int, cmds []string) []Answer {
	if p, ok := m.Players[seat].(Pipeliner); ok && len(cmds) > 1 && m.Ctx.Err() == nil {
		return p.AskAll(cmds...)
	}
	return m.askEach(m.Players[seat], cmds)
}

func (m *Match) quote(s string) string {
	if m.MaxQuote > 0 && len(s) > m.MaxQuote {
		return s[:m.MaxQuote] + "..."
	}
	return s
}

// Fault ends the match with seat's fault: it is recorded in Faulty,
// Results and as a FaultEvent. It returns ErrOver.
func (m *Match) Fault(seat int, kind, detail string) error {
	m.Faulty = append(m.Faulty, seat)
	m.Results[seat].Fault = kind
	m.Results[seat].Detail = detail
	m.Rec.Event("fault", FaultEvent{Seat: seat, Kind: kind, Detail: detail})
	return ErrOver
}

// Kill ends seat's bot at once when it is a process, as the end of the
// match ends a faulty bot (Sessions.Kill): for a seat whose fault does not
// end the match before other seats are asked (Planowanie's declarations,
// made together), so that what the bot still runs (a time-out's work,
// children a crash left) takes nothing from their clocks.
func (m *Match) Kill(seat int) {
	if sp, ok := m.Players[seat].(SessionPlayer); ok {
		sp.S.Kill()
	}
}

// AnswerFault is Fault for seat's answer to the decision Gen asked,
// which the game finds wrong (an illegal card or move, text that is not
// one): detail gets OutOfStepNote when the bot's answers are out of step
// with the commands, which then is what went wrong.
func (m *Match) AnswerFault(seat int, kind, detail string) error {
	return m.Fault(seat, kind, detail+OutOfStepNote(m.Players[seat], m.decided, m.answer))
}

// outOfStepWait is the most OutOfStepNote waits for a further answer. A
// bot whose answers are out of step is at work on the answer to the
// command whose answer was faulted (in its eyes it answered the command
// before), so its further answer comes within the limit that command
// has: waiting that long (SessionPlayer.WroteMore) gives every such bot
// within its limits the note, whatever the machine's load. A bot whose
// wrong answer was its own has nothing further to write, and would have
// the match wait out its whole limit, a clock's minutes: hence the cap.
// The note is then timing-dependent only for a bot out of step that
// takes more than this over that answer. It costs only a faulted match.
const outOfStepWait = time.Second

// OutOfStepNote is what a fault about p's answer to its last command,
// the decision cmd, adds when p has written a further whole response
// beyond it (proc.Session.WroteMore), asked when every command written
// to p has had its answer read: p has written more answers than it was
// sent commands. text is the answer's text, "" for an empty answer or a
// refusal.
//
// Which command it answered twice, the evidence tells. Its answers are
// out of step since an earlier command it answered twice, so that the
// answer faulted was meant for the command before and every answer since
// was taken for the wrong command, when an answer it gave was already in
// its output before the command it was taken for was written
// (proc.Session.AnsweredEarly: certain), or when the answer faulted is
// one that the command before, which only informs (time_left, play),
// gets: "=" without text, or "?". Otherwise the answer has the text only
// a decision's answer has, and no answer of the bot's came before its
// command: each earlier command had one answer, as far as its output
// shows, and this was cmd's own first answer; it answered cmd twice. (A
// bot out of step whose stray answer came after the next command was
// written, and that answers commands which only inform with text, would
// be told the same.)
// "" when p wrote nothing more, and for a player that cannot tell.
func OutOfStepNote(p any, cmd, text string) string {
	if !WroteMore(p) {
		return ""
	}
	const more = "; but it has written more answers than it was sent commands (another whole response followed this one): "
	if e, ok := p.(interface{ AnsweredEarly() bool }); ok && !e.AnsweredEarly() && text != "" {
		name, _, _ := strings.Cut(cmd, " ")
		return more + fmt.Sprintf("it answered %s twice, and this was its first answer to it (every earlier command had one answer); ", name) +
			"each command gets exactly one response"
	}
	return more +
		"its answers are out of step since an earlier command it answered twice, so this answer was most likely meant for the command before; " +
		"each command gets exactly one response"
}

// WroteMore says whether p has written a further whole response beyond
// those read (SessionPlayer.WroteMore, waiting up to outOfStepWait),
// asked when every command written to p has had its answer read: then p
// has written more answers than it was sent commands. False for a player
// that cannot tell.
func WroteMore(p any) bool {
	w, ok := p.(interface {
		WroteMore(complete func([]byte) bool, grace time.Duration) bool
	})
	return ok && w.WroteMore(wholeResponse, outOfStepWait)
}

// AnsweredEarly is the session's (proc.Session.AnsweredEarly).
func (p SessionPlayer) AnsweredEarly() bool { return p.S.AnsweredEarly() }

// WroteMore is the session's (proc.Session.WroteMore), waiting no longer
// than grace nor than the bot would have for its next answer (its move
// limit, or what is left of its turn or clock, as the command after
// would have it), ending as soon as the bot's output ends.
func (p SessionPlayer) WroteMore(complete func([]byte) bool, grace time.Duration) bool {
	if left, ok := p.S.TurnLeft(); ok {
		grace = min(grace, left)
	}
	return p.S.WroteMore(complete, grace)
}

// wholeResponse says whether b starts with a whole response: a line
// starting with '=' or '?' (after blank lines), then lines up to an
// empty line.
func wholeResponse(b []byte) bool {
	first := bytes.TrimLeft(b, " \t\r\n")
	return len(first) > 0 && (first[0] == '=' || first[0] == '?') && answerComplete(b)
}

// Warn records that seat refused a command that only informs it, with
// the first MaxQuoted bytes of its answer (Clip).
func (m *Match) Warn(seat int, command, answer string) {
	m.Rec.Event("warning", WarningEvent{Seat: seat, Command: command, Answer: Clip(answer)})
}

// MaxQuoted is the most of a bot's text that a warning, or a fault's
// detail, quotes (Clip): a bot may answer a command with up to its output
// limit (1 MiB by default), and it is sent a command that only informs it
// hundreds of times a match, so a warning quoting whole answers would let
// it fill the disk with events, past the cap on its lines in the
// transcript (engine.MaxSeatTranscript).
const MaxQuoted = 200

// Clip is a bot's text s cut to at most its first MaxQuoted bytes, then
// "...": at the start of a character, so that a character of several
// bytes is not cut in two.
func Clip(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	n := MaxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Quit ends the session of every bot that did not fault (is not in
// Faulty); a refusal is a warning, in seat order. quit goes to every bot process at once and
// their answers are read together, each until it is in, the bot's
// output ends or its grace to end (proc.Session.Grace) has passed since
// the write, charged to no clock (SessionPlayer.Ask): so a bot that
// answers within its grace has its answer recorded every time, and the
// transcript has the answers seat by seat, whichever came first. No
// answer, or one that is not a response, is nothing: the game is over.
// It clears Where.
func (m *Match) Quit() {
	m.Where = ""
	if m.Ctx.Err() != nil {
		return
	}
	answers := make([]Answer, len(m.Players))
	var wg sync.WaitGroup
	for i, p := range m.Players {
		switch sp, ok := p.(SessionPlayer); {
		case slices.Contains(m.Faulty, i):
		case ok:
			sp.S.Hold() // recorded in seat order below
			receive := sp.quit()
			wg.Go(func() { answers[i] = receive() })
		default:
			answers[i].get(func() (bool, string, error) { return p.Ask("quit") })
		}
	}
	wg.Wait()
	for i, p := range m.Players {
		if sp, ok := p.(SessionPlayer); ok && !slices.Contains(m.Faulty, i) {
			sp.S.Release()
		}
	}
	for i, a := range answers {
		if !slices.Contains(m.Faulty, i) && a.Err == nil && !a.OK {
			m.Warn(i, "quit", a.Text)
		}
	}
}

// FaultKind is the kind of a fault error: from a FaultKind() string method
// anywhere in its chain, drivers.FaultCrash without one.
func FaultKind(err error) string {
	var k interface{ FaultKind() string }
	if errors.As(err, &k) {
		if kind := k.FaultKind(); kind != "" {
			return kind
		}
	}
	return drivers.FaultCrash
}

// FaultDetail is the sentence of a fault error without its kind, which
// the result already carries.
func FaultDetail(err error) string {
	var d interface{ FaultDetail() string }
	if errors.As(err, &d) {
		return d.FaultDetail()
	}
	return err.Error()
}

// Setup says whether cmd belongs to the set-up of a match: the set_*
// commands that open it (Blokus's set_board to set_blocked, Planowanie's
// set_deck to the first deal's set_cards), before the bot's first play or
// decision. The start-up allowance covers them together (proc.Spec.Setup),
// since a bot may do its slow start on any of them: the Blokus adapter
// builds a course player on set_stones.
func Setup(cmd string) bool { return strings.HasPrefix(cmd, "set_") }

// Sessions are the bot processes of a match's seats, by seat; nil for a
// seat not started.
type Sessions []*proc.Session

// Start starts a session for every seat of m, all at once, each under its
// seat's limits and m's clock, its lines recorded in m's transcript.
//
// When a bot fails to start, Start returns the outcome: every such seat
// has a drivers.FaultStart fault (recorded as a FaultEvent too, in seat
// order) and no place, every other seat nothing; the game sets the places
// (PlaceFaulty). The bots start together, so no start is before another:
// each that failed is at fault, whatever the order the starts finished
// in. When a start
// failed in arbiter's own part (its limits could not be set up: a
// *proc.SetupError; its pipes could not be made), no bot is at fault:
// Start returns that error, which the game returns from Play. The
// sessions that started are returned either way: the caller ends them
// with Kill.
func Start(ctx context.Context, m *drivers.Match) (Sessions, *drivers.Outcome, error) {
	// The bots start at once: under limits each start costs a few
	// milliseconds of namespaces and cgroups that need not add up.
	ss := make(Sessions, len(m.Seats))
	errs := make([]error, len(m.Seats))
	var wg sync.WaitGroup
	for i, seat := range m.Seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ss[i], errs[i] = proc.Start(ctx, proc.Spec{
				Bot: seat.Bot, Argv: seat.Command, Dir: seat.Dir, Env: seat.Env, Stderr: seat.Stderr,
				Clock: m.Clock, Limits: seat.Limits, NoStart: seat.Unbuilt, Setup: Setup, Explain: true,
				OnSend: func(line string) { m.Record.Sent(i, line) },
				OnRecv: func(line string, at time.Time) { drivers.RecordReceived(m.Record, i, line, at) },
			})
		}()
	}
	wg.Wait()
	// Arbiter's own failure first: no bot is to blame for the match.
	for _, err := range errs {
		var f *proc.Fault
		if err != nil && !errors.As(err, &f) {
			return ss, nil, err
		}
	}
	var out *drivers.Outcome
	for i, err := range errs {
		if err == nil {
			continue
		}
		var f *proc.Fault
		errors.As(err, &f)
		if out == nil {
			out = &drivers.Outcome{Seats: make([]drivers.SeatResult, len(m.Seats))}
		}
		out.Seats[i] = drivers.SeatResult{Fault: drivers.FaultStart, Detail: f.Detail}
		m.Record.Event("fault", FaultEvent{Seat: i, Kind: drivers.FaultStart, Detail: f.Detail})
	}
	return ss, out, nil
}

// PlaceFaulty places the seats of a match that faults ended, as the
// session games' rules have it: the faulty bot loses and every other bot
// wins. Every seat without a fault is first; the seats with one share the
// last places, each the mean of the places they span, as tied seats
// share theirs (drivers.SeatResult.Place): of four seats, one faulty seat
// is 4th, two are 3.5 each, and four are 2.5 each, so that none of them
// is first alone and none wins. It does nothing when no seat has a fault.
func PlaceFaulty(seats []drivers.SeatResult) {
	n, k := len(seats), 0
	for _, s := range seats {
		if s.Fault != "" {
			k++
		}
	}
	if k == 0 {
		return
	}
	last := float64(2*n-k+1) / 2 // the mean of places n-k+1 .. n
	for i := range seats {
		seats[i].Place = 1
		if seats[i].Fault != "" {
			seats[i].Place = last
		}
	}
}

// Kill ends every session, in parallel so that the bots' grace periods
// overlap. It is safe after Finish: it is how a game's Play makes sure that
// every session ends however Play ends.
func (ss Sessions) Kill() {
	var wg sync.WaitGroup
	for _, s := range ss {
		if s != nil {
			wg.Add(1)
			go func() { defer wg.Done(); s.Kill() }()
		}
	}
	wg.Wait()
}

// Finish completes out after a match that was not cancelled: every seat's
// time used, and the sessions of the seats without a fault closed, in
// parallel so that their grace periods to exit overlap.
func (ss Sessions) Finish(out *drivers.Outcome) {
	var wg sync.WaitGroup
	for i, s := range ss {
		out.Seats[i].TimeMS = s.Used().Milliseconds()
		out.Seats[i].OffMoveMS = s.OffMove().Milliseconds()
		if out.Seats[i].Fault == "" {
			wg.Add(1)
			go func() { defer wg.Done(); s.Close("") }()
		}
	}
	wg.Wait()
}

// SessionPlayer is a bot process as a referee sees it.
type SessionPlayer struct {
	S *proc.Session
	// Move caps what Left reports by the per-move limit; 0 reports the
	// session's clock as it is.
	Move time.Duration
}

// Ask sends cmd and reads the answer. quit's answer is read as
// Match.Quit says, charged to no clock: an error then is only that no
// answer came.
func (p SessionPlayer) Ask(cmd string) (bool, string, error) {
	if cmd == "quit" {
		a := p.quit()()
		return a.OK, a.Text, a.Err
	}
	ok, text, err := Ask(p.S, cmd)
	if strings.HasPrefix(cmd, "gen_") {
		// A decision ends the bot's turn (drivers.Clock.Turn).
		p.S.EndTurn()
	}
	return ok, text, err
}

// quit writes quit and returns what reads its answer, charging no clock:
// until the answer is in, the bot's output ends or its grace to end has
// passed since the write. The game is over, so the answer matters only
// for the warning a "?" is; a bot that answers and exits, as it should,
// does both within its grace (Sessions.Finish then waits for its exit),
// and one that does neither costs that grace and no clock's worth of
// waiting. A bot's answer is recorded, or not, whatever the timing of
// the other bots or the machine's load, unless it takes about its whole
// grace to answer.
func (p SessionPlayer) quit() (receive func() Answer) {
	by := time.Now().Add(p.S.Grace())
	err := p.S.Write("quit", by)
	return func() Answer {
		a := Answer{Err: err}
		if err == nil {
			a.OK, a.Text, a.Err = readAnswer(p.S, "quit", by)
		}
		return a
	}
}

// AskAll implements Pipeliner: cmds are written at once
// (proc.Session.Send), then their answers read in order, each charged to
// the bot's clock from when it had answered the command before. quit is
// not sent this way (see Match.Quit).
func (p SessionPlayer) AskAll(cmds ...string) []Answer {
	if len(cmds) == 0 {
		return nil
	}
	receive := p.sendAll(cmds)
	answers := make([]Answer, 0, len(cmds))
	for k := range cmds {
		a := receive(k)
		answers = append(answers, a)
		if a.Err != nil {
			break
		}
	}
	return answers
}

// Send implements Sender: cmd is written at once and receive reads the
// answer. quit is not sent this way (see Match.Quit).
func (p SessionPlayer) Send(cmd string) (receive func() (bool, string, error)) {
	p.S.Hold()
	r := p.sendAll([]string{cmd})
	return func() (bool, string, error) {
		a := r(0)
		return a.OK, a.Text, a.Err
	}
}

// sendAll writes cmds at once (proc.Session.Send) and returns what reads
// the answer to cmds[k], each charged to the bot's clock from when it had
// answered the command before; they must be read in order.
func (p SessionPlayer) sendAll(cmds []string) (receive func(k int) Answer) {
	p.S.Send(cmds[0], cmds[1:]...)
	return func(k int) Answer {
		var a Answer
		a.Err = p.S.Receive(func(deadline time.Time) (err error) {
			a.OK, a.Text, err = readAnswer(p.S, cmds[k], deadline)
			return err
		})
		if a.Err == nil && strings.HasPrefix(cmds[k], "gen_") {
			p.S.EndTurn() // as Ask does
		}
		return a
	}
}

// EarlyAnswer is the session's (proc.Session.EarlyAnswer).
func (p SessionPlayer) EarlyAnswer() (after string, early bool) { return p.S.EarlyAnswer() }

// StrayNote is what a fault about p's answer to cmd adds when that answer
// was already in p's output, unread, before cmd was written
// (proc.Session.EarlyAnswer): it answered an earlier command more than
// once, and the answer is not cmd's. "" otherwise, and for a player that
// cannot tell.
func StrayNote(p any, cmd string) string {
	e, ok := p.(interface{ EarlyAnswer() (string, bool) })
	if !ok {
		return ""
	}
	after, early := e.EarlyAnswer()
	if !early {
		return ""
	}
	since := ""
	if after != "" {
		since = fmt.Sprintf(" (its output went on after its answer to %q)", shorten(after))
	}
	return fmt.Sprintf("; but that answer was in its output before %q was written, so it answered an earlier command more than once%s: "+
		"each command gets exactly one answer, so read a command's whole line, its arguments too", shorten(cmd), since)
}

// Release implements Sender.
func (p SessionPlayer) Release() { p.S.Release() }

// Ask sends one command to a bot process and reads its response within
// the session's clock: a line starting with '=' (ok) or '?', then lines up
// to an empty line. Empty lines before the response are skipped. text is
// the response without its sign, lines joined by "\n" and trimmed. A first
// line with neither sign is a protocol fault; timing, crashes and limits
// are the session's (proc.Session.Exchange).
func Ask(s *proc.Session, cmd string) (ok bool, text string, err error) {
	err = s.Exchange(cmd, func(deadline time.Time) (err error) {
		ok, text, err = readAnswer(s, cmd, deadline)
		return err
	})
	return ok, text, err
}

// readAnswer reads the response to cmd (see Ask) by deadline.
func readAnswer(s lineReader, cmd string, deadline time.Time) (ok bool, text string, err error) {
	var lines []string
	for {
		line, err := s.ReadLine(deadline)
		if err != nil {
			return false, "", unended(err, ok, lines)
		}
		if lines == nil {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if line[0] != '=' && line[0] != '?' {
				return false, "", &proc.Fault{Kind: drivers.FaultProtocol,
					Detail: fmt.Sprintf("answered %q to %q: a response must start with '=' or '?' (write debug output to stderr)", shorten(line), cmd)}
			}
			ok = line[0] == '='
			lines = append(lines, line[1:])
			continue
		}
		if line == "" {
			return ok, strings.TrimSpace(strings.Join(lines, "\n")), nil
		}
		lines = append(lines, line)
	}
}

// unended is the time fault err of a bot that started a response (its
// lines so far, the first without its sign, ok for '=') but did not end
// it: it most often answered and forgot the empty line that ends a
// response, which "no answer in time" would hide.
func unended(err error, ok bool, lines []string) error {
	var f *proc.Fault
	if lines == nil || !errors.As(err, &f) || f.Kind != drivers.FaultTime {
		return err
	}
	sign := "?"
	if ok {
		sign = "="
	}
	return &proc.Fault{Kind: drivers.FaultTime, Detail: fmt.Sprintf(
		"answered %q but did not end its response with an empty line: a response is '=' or '?' with its text, then an empty line (\"= answer\\n\\n\")",
		shorten(sign+strings.Join(lines, "\n")))}
}

// lineReader is what readAnswer reads from: a *proc.Session.
type lineReader interface {
	ReadLine(deadline time.Time) (string, error)
}

// answerComplete says whether b, the start of what a bot wrote, holds a
// whole response for readAnswer: a reader of b would return without
// reading more (a response up to its empty line, or a first line that is
// a protocol fault).
func answerComplete(b []byte) bool {
	started := false
	for {
		end := bytes.IndexByte(b, '\n')
		if end < 0 {
			return false
		}
		line := bytes.TrimRight(b[:end], "\r\n")
		b = b[end+1:]
		switch {
		case !started && len(bytes.TrimSpace(line)) == 0:
		case !started:
			if line[0] != '=' && line[0] != '?' {
				return true
			}
			started = true
		case len(line) == 0:
			return true
		}
	}
}

// shorten cuts a bot's line for a fault's sentence.
func shorten(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Left is what the bot may spend on its next answer: the rest of its total
// clock, capped by its move and turn limits (Session.TurnLeft) and by Move
// when that is set.
func (p SessionPlayer) Left() (time.Duration, bool) {
	left, limited := p.S.TurnLeft()
	if p.Move > 0 && (!limited || p.Move < left) {
		return p.Move, true
	}
	return left, limited
}

// Serve speaks the bot side of the protocol until quit or the end of in
// (house.Serve, which the house bots use without this package).
func Serve(in io.Reader, out io.Writer, handle func(fields []string) (string, error)) error {
	return house.Serve(in, out, handle)
}
