package proc

import (
	"bytes"
	"time"

	"golang.org/x/sys/unix"
)

// An answer that was already in the bot's output, unread, when a command
// was written cannot be that command's: the bot answered an earlier
// command more than once (a C++ bot that answers set_game without reading
// its arguments, then "?" to each of them). Whether an answer was there is
// known for certain, not by timing: when a command is written, the bytes
// of output the session has read but not consumed, and those the pipe
// holds (FIONREAD, alias TIOCINQ: one ioctl), were all written before it. Lines read
// from those bytes are early; a game's message for a wrong answer can
// then say what happened (EarlyAnswer) instead of blaming the command the
// stray answer was taken for. What the bot writes after the command is
// written cannot be told apart, so an early answer can be missed, never
// claimed where there was none.

// markEarly notes, as line (the last of the lines) is written, how many
// bytes of output were waiting: the first of them are read before any
// answer to it.
func (s *Session) markEarly(line string) {
	waiting := s.r.Buffered()
	if s.rest != nil {
		waiting += s.rest.Len()
	}
	if s.outConn != nil {
		s.inq = 0
		_ = s.outConn.Control(s.inqFn)
		waiting += s.inq
	}
	if waiting > 0 && s.earlyLeft <= 0 {
		// Output no command asked for began after the answers to the
		// last write (what was waiting at it is read by now).
		s.strayAfter = s.lastSent
	}
	s.earlyLeft, s.lastSent = waiting, line
	s.textSeen, s.answerEarly = false, false
}

// readInq sets s.inq to the bytes the output pipe fd holds (0 if that
// cannot be read): markEarly's look, bound once (Session.inqFn) so that a
// write allocates nothing for it.
func (s *Session) readInq(fd uintptr) {
	if n, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil && n > 0 {
		s.inq = n
	}
}

// readEarly notes the line b read for the answer in progress: whether
// its first line with text was waiting before its command was written.
func (s *Session) readEarly(b []byte) {
	early := s.earlyLeft > 0
	if early {
		s.earlyLeft -= len(b)
	}
	if !s.textSeen && len(bytes.TrimSpace(b)) > 0 {
		s.textSeen, s.answerEarly = true, early
		s.strayRead = s.strayRead || early
	}
}

// AnsweredEarly says whether an answer read in the session, the one
// being read included, was already in the bot's output when the command
// it was taken for was written (EarlyAnswer): proof that the bot's
// answers were out of step from some command on. Without it every
// command had its own answer, as far as the output shows: an extra
// answer that came after the next command was written is not told
// apart.
func (s *Session) AnsweredEarly() bool { return s.strayRead }

// EarlyAnswer says whether the answer being read (its first line with
// text) was already in the bot's output when the command it answers was
// written, and if so the command after whose answer that output began
// (the last line of its write), which the bot most likely answered more
// than once.
func (s *Session) EarlyAnswer() (after string, early bool) {
	return s.strayAfter, s.answerEarly
}

// An answer the bot wrote after the command it answers was written is
// not early, and a bot that answered a command twice with two writes
// (its second answer after arbiter had written the next command) has
// every later answer taken for the command before it: the mistake shows
// only where an answer is found wrong, blaming a command the bot answered
// right. At that point a game has read an answer to every command it
// wrote, so a further whole answer in the bot's output is certain proof
// that the bot wrote more answers than it was sent commands (WroteMore).

// WroteMore says whether the bot has written a further whole answer
// (complete, the protocol's framing: complete(b) is true when b starts
// with one) beyond what has been read: in what arbiter has read and not
// consumed, in what the pipe holds, or in what comes within grace. A game
// asks it only when every command it wrote has had its answer read, and
// the answer it read last is a fault: the bot is faulted anyway, and what
// is read here is neither charged nor recorded.
func (s *Session) WroteMore(complete func(b []byte) bool, grace time.Duration) bool {
	if s.late != nil {
		s.resumeAfterLate()
	}
	if s.setDeadline(s.out.SetReadDeadline, &s.readBy, time.Now().Add(grace)) != nil {
		return false
	}
	for {
		b, _ := s.r.Peek(s.r.Buffered())
		if complete(b) {
			return true
		}
		if len(b) == s.r.Size() {
			return false // no whole answer fits what one line may hold
		}
		if _, err := s.r.Peek(len(b) + 1); err != nil {
			b, _ = s.r.Peek(s.r.Buffered())
			return complete(b)
		}
	}
}
