package proc

import (
	"bytes"

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
		_ = s.outConn.Control(func(fd uintptr) {
			if n, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil && n > 0 {
				waiting += n
			}
		})
	}
	if waiting > 0 && s.earlyLeft <= 0 {
		// Output no command asked for began after the answers to the
		// last write (what was waiting at it is read by now).
		s.strayAfter = s.lastSent
	}
	s.earlyLeft, s.lastSent = waiting, line
	s.textSeen, s.answerEarly = false, false
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
	}
}

// EarlyAnswer says whether the answer being read (its first line with
// text) was already in the bot's output when the command it answers was
// written, and if so the command after whose answer that output began
// (the last line of its write), which the bot most likely answered more
// than once.
func (s *Session) EarlyAnswer() (after string, early bool) {
	return s.strayAfter, s.answerEarly
}
