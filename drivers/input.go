package drivers

import (
	"errors"
	"time"
)

// Input is what a session bot had done with its input when a command's
// time ran out and nothing of its answer had arrived: whether it had
// read the command, and whether it sat waiting for more. It tells a bot
// that read a write's lines at once and lost those after the one it
// answered (it read the command's bytes and waits for input) from one
// that was merely slow (it had not read the command yet, or read it and
// was busy with something other than reading).
type Input int

const (
	// InputUnknown: the referee could not tell (no look at the bot's
	// threads, or not asked to look: proc.Spec.Explain; a thread in poll
	// or select, which may be on its input, or in an epoll that watches
	// it or another epoll; a thread in a read of it
	// while another slept or ran, which may be a reader thread handing
	// the lines to a slow one).
	InputUnknown Input = iota
	// InputUnread: the pipe held more than the lines written after the
	// command; the bot had not read the command.
	InputUnread
	// InputWaiting: the pipe held no more than the lines after the
	// command and a thread of the bot waited in a read of it, the others
	// waiting on a lock or a child if on anything: it read the command
	// and wanted more input.
	InputWaiting
	// InputTaken: the pipe held no more than the lines after the command
	// and no thread of the bot was reading it: it read the command and
	// was at something else (sleeping, waiting on a file, computing).
	InputTaken
)

// Slowness is what the referee found of a session bot when a command's
// time ran out and nothing of its answer had arrived (NothingArrived):
// Input, the Wait the command had, and the CPU the bot's processes used
// in it when CPUKnown (a cgroup of the bot's own counts it).
type Slowness struct {
	Input    Input
	Wait     time.Duration
	CPU      time.Duration
	CPUKnown bool
}

// SlownessOf is what err, a time fault after which nothing arrived, says
// of the bot's input and CPU, read without importing proc; ok is false
// for another error.
func SlownessOf(err error) (Slowness, bool) {
	var f interface{ Slowness() Slowness }
	if !NothingArrived(err) || !errors.As(err, &f) {
		return Slowness{}, false
	}
	return f.Slowness(), true
}
