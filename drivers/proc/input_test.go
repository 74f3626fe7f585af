package proc

import (
	"bufio"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"golang.org/x/sys/unix"
)

// A time fault records what the bot did with its input only for a
// session that explains its faults (Spec.Explain, set by check and
// console): a tournament's pays no look at the bot's threads.
func TestSlownessOnlyWhenExplained(t *testing.T) {
	for _, explain := range []bool{false, true} {
		spec := botSpec(t, "silent", drivers.Clock{Move: drivers.Duration(300 * time.Millisecond)})
		spec.Explain = explain
		s := start(t, spec)
		err := s.Exchange("go", readAnswer(s))
		s.Kill()
		var f *Fault
		if !errors.As(err, &f) || !f.Silent {
			t.Fatalf("Explain %v: Exchange = %v, want a silent time fault", explain, err)
		}
		if got := f.Slow.Wait > 0; got != explain {
			t.Errorf("Explain %v: Slow = %+v, want it recorded %v", explain, f.Slow, explain)
		}
	}
}

// The pipe of a bot that read the command and no further holds the
// lines written after it: what is written of them. More than that is
// the command unread.
func TestBytesAfter(t *testing.T) {
	text := []byte("set_deck D\nset_players 4 1\nset_game g\n")
	for _, tc := range []struct {
		next  []string
		wrote int
		want  int
	}{
		{[]string{"set_players 4 1", "set_game g"}, len(text), 27}, // on set_deck
		{[]string{"set_game g"}, len(text), 11},                    // on set_players
		{nil, len(text), 0},                                        // on set_game
		{[]string{"set_game g"}, len(text) - 5, 6},                 // its end not yet written
		{[]string{"set_game g"}, 10, 0},                            // none of it written
	} {
		s := &Session{text: text, wrote: tc.wrote, next: tc.next}
		if got := s.bytesAfter(); got != tc.want {
			t.Errorf("next %q, wrote %d: bytesAfter = %d, want %d", tc.next, tc.wrote, got, tc.want)
		}
	}
}

// inputBot runs the Go bots of TestGoBotInput, reporting whether mode is
// one of them.
func inputBot(mode string, in *bufio.Scanner, reply func(string)) bool {
	switch mode {
	case "gosleep": // answers the first command, sleeps on the second
		in.Scan()
		reply("first")
		in.Scan()
		time.Sleep(time.Hour)
	case "golost", "golostticker": // answers a write's first line, loses the rest
		if mode == "golostticker" {
			go func() {
				for {
					time.Sleep(10 * time.Millisecond)
				}
			}()
		}
		buf := make([]byte, 4096)
		for {
			if n, err := os.Stdin.Read(buf); n == 0 || err != nil {
				return true
			}
			reply("first")
		}
	case "epollflat", "epollnested": // as golost, each read after an epoll with a time-out
		ep := inputEpoll(mode == "epollnested")
		buf := make([]byte, 4096)
		for {
			events := make([]unix.EpollEvent, 1)
			for n := 0; n == 0; {
				n, _ = unix.EpollWait(ep, events, 10000) // wakes only for input: never seen running
			}
			if n, err := unix.Read(0, buf); n <= 0 || err != nil {
				return true
			}
			reply("first")
		}
	default:
		return false
	}
	return true
}

// inputEpoll is an epoll that waits for the bot's input, as a C or
// Python bot's select loop has: one that watches it, or (nested) one
// that watches an epoll that watches it.
func inputEpoll(nested bool) int {
	if nested {
		return epollOn(epollOn(0))
	}
	return epollOn(0)
}

// epollOn is an epoll that watches fd.
func epollOn(fd int) int {
	ep, err := unix.EpollCreate1(0)
	if err == nil {
		err = unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)})
	}
	if err != nil {
		panic(err)
	}
	return ep
}

// A Go bot's idle threads wait in epoll (the runtime's netpoller, which
// watches only its own files) and in futex, and time.Sleep is an epoll
// with a time-out: a Go bot that read the second command of a write and
// slept on it was slow (InputTaken), not "cannot tell"; one that read the
// whole write and waits for more input lost the rest of it
// (InputWaiting), and one that does so while a goroutine wakes on a timer
// is never called slow; nor is one that waits for its input in an epoll
// with a time-out, even one that watches it through another epoll (a
// select loop's, as a C or Python bot has).
func TestGoBotInput(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []drivers.Input
	}{
		{"gosleep", []drivers.Input{drivers.InputTaken}},
		{"golost", []drivers.Input{drivers.InputWaiting}},
		{"golostticker", []drivers.Input{drivers.InputWaiting, drivers.InputUnknown}},
		{"epollflat", []drivers.Input{drivers.InputUnknown}},
		{"epollnested", []drivers.Input{drivers.InputUnknown}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			assertSecondInput(t, botSpec(t, tc.mode, drivers.Clock{}), tc.want...)
		})
	}
}

// assertSecondInput starts the bot of spec, explaining its faults, with a
// move limit of 700 ms, sends it two commands in one write, and checks
// that it answers the first (with a line ending in "first") and that its
// time fault on the second says its input was one of want. The bot's
// start is on a start-up allowance of a minute, the first answer's alone:
// at a load of 40 a fresh bot did not answer the first within 700 ms.
func assertSecondInput(t *testing.T, spec Spec, want ...drivers.Input) {
	t.Helper()
	spec.Clock = drivers.Clock{Move: drivers.Duration(700 * time.Millisecond), Startup: drivers.Duration(time.Minute)}
	spec.Explain = true
	s := start(t, spec)
	defer s.Kill()
	s.Send("first", "second")
	first, err := receiveFirst(s)
	if err != nil || !strings.HasSuffix(first, "first") {
		t.Fatalf("the answer to the first command: %q, %v", first, err)
	}
	err = s.Receive(readAnswer(s))
	var f *Fault
	if !errors.As(err, &f) || !f.Silent {
		t.Fatalf("Receive = %v, want a silent time fault", err)
	}
	if !slices.Contains(want, f.Slow.Input) {
		t.Errorf("Slow.Input = %v, want one of %v", f.Slow.Input, want)
	}
}
