package conform

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Session is the bot under test as a persistent process.
type Session struct {
	S    *proc.Session
	move time.Duration
	// unanswered is the last line written by Send since the last answer
	// read, quoted: a bot that reads more than one line at a time may have
	// read the next command with it.
	unanswered string
}

// Start starts the bot for one case, every line recorded in rec, each
// answer within opt.Move. The caller ends it with Close.
func Start(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) (*Session, error) {
	return StartClock(ctx, bot, opt, drivers.Clock{}, rec)
}

// StartClock is Start with the bot's answers timed by clock as a match's
// are, each also within opt.Move: a case that judges time runs under the
// game's clock, and a GTP-like game's set-up shares the clock's start-up
// allowance (gtp.Setup), so that a slow start passes or fails as in a
// tournament.
func StartClock(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, clock drivers.Clock, rec drivers.Recorder) (*Session, error) {
	if clock.Move == 0 || opt.Move < clock.Move {
		clock.Move = opt.Move
	}
	s, err := proc.Start(ctx, proc.Spec{
		Bot: bot.Bot, Argv: bot.Command, Dir: bot.Dir, Env: bot.Env, Stderr: bot.Stderr,
		Clock: clock, Limits: bot.Limits, Setup: gtp.Setup, Explain: true,
		OnSend: func(l string) { rec.Sent(0, l) }, OnRecv: func(l string, _ time.Time) { rec.Received(0, l) },
	})
	if err != nil {
		return nil, explain(err, "start", time.Duration(opt.Move))
	}
	return &Session{S: s, move: time.Duration(opt.Move)}, nil
}

// Close ends the bot.
func (s *Session) Close() { s.S.Kill() }

// Ask sends a GTP-like command and returns the answer; ok is false for
// '?'. A gen_* command ends the bot's turn, as in a match.
func (s *Session) Ask(cmd string) (ok bool, text string, err error) {
	before := s.S.AnsweredEarly()
	ok, text, err = gtp.Ask(s.S, cmd)
	if err == nil && !before && s.S.AnsweredEarly() {
		return false, "", s.outOfStep(quote(cmd))
	}
	if strings.HasPrefix(cmd, "gen_") {
		s.S.EndTurn()
	}
	hint := s.hint(cmd)
	s.unanswered = ""
	if err != nil {
		return false, "", explainHint(err, quote(cmd), s.move, hint)
	}
	return ok, text, nil
}

// hint is the likely cause of a command of a write getting no answer
// when the bot answered nothing of that write: it did not flush, or it
// lost the command with a line written before it that wanted no answer.
// A bot told nothing of a command other than gen_* (set_deck, play) may
// also answer only the commands that ask for a move: it is told that
// each wants its response.
func (s *Session) hint(cmd string) string {
	if s.unanswered != "" {
		return lostHint(s.unanswered)
	}
	if !strings.HasPrefix(cmd, "gen_") {
		return flushHint + "; " + everyHint
	}
	return flushHint
}

// everyHint is what a bot that answers only gen_* commands is missing.
const everyHint = "and every command, set_* and play included, needs a response (\"=\" and an empty line), not only gen_*"

// Tell sends an informational command: '=' and '?' are both fine.
func (s *Session) Tell(cmd string) error {
	_, _, err := s.Ask(cmd)
	return err
}

// Gen sends a command that needs an answer: '?' fails the case.
func (s *Session) Gen(cmd string) (string, error) {
	ok, text, err := s.Ask(cmd)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", Failf("refused %s with \"? %s\": the referee needs an answer here%s", quote(cmd), text, gtp.StrayNote(s.S, cmd))
	}
	return text, nil
}

// TellGen writes lines together, in one write, as a referee writes a
// play with the next player's time_left and gen_move: every line but the
// last only informs the bot, the last needs an answer, which TellGen
// returns. A '?' to an informational line is fine, to the last it fails
// the case.
func (s *Session) TellGen(lines ...string) (string, error) {
	answers, err := s.askAll(lines)
	if err != nil {
		return "", err
	}
	last := len(lines) - 1
	if a := answers[last]; !a.OK {
		return "", Failf("refused %s with \"? %s\": the referee needs an answer here%s", quote(lines[last]), a.Text, gtp.StrayNote(s.S, lines[last]))
	}
	return answers[last].Text, nil
}

// Script tells every command of cmds, written together in one write, as
// a referee writes the commands of a game's set-up: '=' and '?' are both
// fine.
func (s *Session) Script(cmds ...string) error {
	_, err := s.askAll(cmds)
	return err
}

// askAll writes lines in one write and reads an answer to each; an
// answer that is a fault fails the case, explained. A command that got no
// answer after one written with it did is most likely lost to a bot that
// reads more than one line at a time, not to a missing flush.
func (s *Session) askAll(lines []string) ([]gtp.Answer, error) {
	before := s.S.AnsweredEarly()
	answers := gtp.SessionPlayer{S: s.S}.AskAll(lines...)
	for i, a := range answers {
		if a.Err == nil {
			if !before && s.S.AnsweredEarly() {
				return nil, s.outOfStep(quote(lines[i]))
			}
			continue
		}
		hint := s.hint(lines[i])
		if h := writeHint(lines, answers, i); h != "" {
			hint = h
		}
		return nil, explainHint(a.Err, quote(lines[i]), s.move, hint)
	}
	s.unanswered = ""
	return answers, nil
}

// QuitOnce ends every scripted case of a GTP-like game right after its
// last question, where a match would write its next command: quit's
// answer must be one (a line of debug output written after the last
// answer fails here, as the next command would take it for its answer).
// It sends quit, wants an answer, and fails the case when a whole
// answer follows quit's (gtp.WroteMore): the bot wrote more answers than
// it was sent commands, however late its extra answers came (an answer
// already in its output when its command was written fails at once, in
// Ask). It then wants the bot to end: its output closes within the
// answer time (Ends).
func (s *Session) QuitOnce() error {
	if err := s.Tell("quit"); err != nil {
		return err
	}
	if gtp.WroteMore(gtp.SessionPlayer{S: s.S}) {
		return s.outOfStep("")
	}
	return s.Ends("quit")
}

// outOfStep fails a case in which the answer read for what (a quoted
// command) was already in the bot's output when it was written
// (proc.Session.AnsweredEarly: certain, not timed): the bot wrote more
// answers than it was sent commands, which a tournament's referee takes
// for the answers to the commands after, so that from then on every
// answer is another command's. Most often the bot answered a command and
// then each of its arguments as a command of its own.
// what "" is the bot that wrote a further whole answer after its answer
// to quit, the last command sent (QuitOnce).
func (s *Session) outOfStep(what string) error {
	evidence := "another whole answer followed its answer to \"quit\", the last command sent"
	if what != "" {
		evidence = fmt.Sprintf("the answer read for %s was in its output before %s was written", what, what)
		if after, _ := s.S.EarlyAnswer(); after != "" {
			evidence += fmt.Sprintf(" (its output went on after its answer to %s)", quote(after))
		}
	}
	return Failf("%s: it wrote more answers than it was sent commands; "+
		"each command gets exactly one answer, so read a command's whole line, its arguments too (a bot that reads words, "+
		"C++ cin >> word or Java Scanner.next(), answers each argument of a command it does not read in full as a command)",
		evidence)
}

// Line writes one line of a line protocol and reads the answer line.
func (s *Session) Line(line string) (string, error) {
	var answer string
	err := s.S.Exchange(line, func(deadline time.Time) error {
		var err error
		answer, err = s.S.ReadLine(deadline)
		return err
	})
	if err != nil {
		return "", explain(err, quote(line), s.move)
	}
	return strings.TrimSpace(answer), nil
}

// Explain turns a bot's fault in answering line, read by a case's own
// code on the Session's S (a game's referee code), into the case's
// failure, as Line says it: a time fault came at the Session's wait.
func (s *Session) Explain(err error, line string) error { return explain(err, quote(line), s.move) }

// Send writes a line that gets no answer.
func (s *Session) Send(line string) error {
	if err := s.S.Write(line, time.Now().Add(s.move)); err != nil {
		return explain(err, quote(line), s.move)
	}
	s.unanswered = quote(line)
	return nil
}

// Ends gives the bot the answer time to exit after the command after,
// reading what it still prints, as a referee gives a bot its grace before
// it ends the process. What the bot does then is not judged, since a
// tournament does not judge it (the game is over): a bot that lingers or
// prints more passes, as it would play on in a tournament. Only the
// arbiter's own failures are errors.
func (s *Session) Ends(after string) error {
	deadline := time.Now().Add(s.move)
	for range 64 {
		if _, err := s.S.ReadLine(deadline); err != nil {
			var f interface{ FaultKind() string }
			if errors.As(err, &f) {
				return nil // it exited, lingered or misbehaved: the game is over
			}
			return err
		}
	}
	return nil
}

func quote(cmd string) string {
	if len(cmd) > 60 {
		cmd = cmd[:57] + "..."
	}
	return fmt.Sprintf("%q", cmd)
}
