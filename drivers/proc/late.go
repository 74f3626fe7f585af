package proc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"

	"golang.org/x/sys/unix"
)

// An answer is late only if it was not there when arbiter first looked
// after the deadline. On a busy machine the goroutine that reads a bot's
// output can run well after the bot wrote its answer, and Go's poller then
// reports the passed deadline without reading what is in the pipe: a bot
// that answered at 90% of its limit would be timed out for arbiter's own
// delay. So when a read's deadline passes, what the pipe holds is taken
// at once, ONCE for the command: the rest of the answer (a reader that
// skips blank lines or reads several) comes from that snapshot alone, and
// what is not in it is not in time. A bot gains at most arbiter's own
// lateness by it; writing on past the deadline gains it nothing.

// drainFile appends to buf what the pipe f holds now, up to limit bytes in
// all, without waiting for more and whatever f's read deadline. ended
// says that the drain reached the end of the output: every writer had
// closed the pipe, so the bot will write nothing more.
func drainFile(f *os.File, buf []byte, limit int) (_ []byte, ended bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return buf, false
	}
	_ = rc.Control(func(fd uintptr) {
		for len(buf) < limit {
			buf = room(buf, limit)
			// The pipe is non-blocking (os.Pipe): EAGAIN when empty, 0
			// bytes at its end.
			n, err := unix.Read(int(fd), buf[len(buf):cap(buf)])
			if err == unix.EINTR {
				continue
			}
			if err != nil || n <= 0 {
				ended = err == nil && n == 0
				return
			}
			buf = buf[:len(buf)+n]
		}
	})
	return buf, ended
}

// intBytes is a count of bytes allowed as an int: at most one less than
// the largest int, so that the one byte more read to see it passed is
// counted too, not wrapped negative by an output limit that an int cannot
// count (3 GB on 32-bit, the largest size on any), which no buffer could
// hold anyway.
func intBytes(n int64) int {
	return int(min(n, math.MaxInt-1))
}

// takeLate is ReadLine's first look after a deadline that passed with
// partial read: partial and what the pipe holds now (up to what the
// output limit leaves, and one byte more to see it passed) become the
// only source of the command's answer until the next Write (see
// resumeAfterLate), and whether the output had ended by then is noted.
func (s *Session) takeLate(partial []byte) {
	s.answered -= int64(len(partial)) // read again from the snapshot
	left := min(max(s.spec.Limits.Output-s.answered, 0), math.MaxInt64-int64(len(partial)))
	limit := intBytes(int64(len(partial))+left) + 1
	data, ended := drainFile(s.out, append(make([]byte, 0, min(limit, 4096)), partial...), limit)
	s.lateEnded = ended
	s.late = bytes.NewReader(data)
	s.r.Reset(s.late)
}

// readLate is ReadLine after the deadline: the next line of the snapshot,
// or a time fault when it holds no full line.
func (s *Session) readLate() (string, error) {
	b, err := s.r.ReadSlice('\n')
	s.answered += int64(len(b))
	s.heard = s.heard || len(b) > 0
	switch {
	case s.answered > s.spec.Limits.Output:
		return "", faultf(drivers.FaultOutput, "wrote more than %s for one answer", Size(s.spec.Limits.Output))
	case errors.Is(err, bufio.ErrBufferFull):
		return "", faultf(drivers.FaultOutput, "wrote a line longer than %d bytes", s.spec.MaxLine)
	case err != nil && s.lateEnded:
		// The output had ended by the look: a crash, as a reader in time
		// finds it, however late this one ran.
		return "", s.outputEnded(b)
	case err != nil:
		// Left unread, for a reader that waits on (ReadOn).
		s.answered -= int64(len(b))
		s.late = bytes.NewReader(bytes.Clone(b))
		s.r.Reset(s.late)
		if len(b) > 0 {
			return "", partialf("answer", s.within(), string(b))
		}
		f := faultf(drivers.FaultTime, "no answer within %s", s.within())
		f.Silent = !s.heard
		f.Queued = f.Silent && s.queued
		f.Busy = f.Silent && s.busy()
		if f.Silent {
			f.Slow = s.slowness()
		}
		return "", f
	}
	line := strings.TrimRight(string(b), "\r\n")
	s.deliver(line)
	return line, nil
}

// resumeAfterLate puts what the snapshot still holds back in front of
// the pipe, for the next command's answer.
func (s *Session) resumeAfterLate() {
	buffered, _ := s.r.Peek(s.r.Buffered())
	rest := append(bytes.Clone(buffered), make([]byte, s.late.Len())...)
	_, _ = s.late.Read(rest[len(buffered):])
	s.late = nil
	s.rest = bytes.NewReader(rest)
	s.r.Reset(io.MultiReader(s.rest, s.out))
}

// ReadOn lets a reader whose deadline has passed read on to a later one
// (ReadLine with it): what the look after the first deadline found and
// left unread comes first, then the pipe. A game with a soft limit inside
// a hard one (Bricks: a late move within the silence limit) reads up to
// the soft one, and on a time fault calls ReadOn and reads to the hard
// one: an answer there at the look after the soft limit is in time
// whatever arbiter's own delay.
func (s *Session) ReadOn() {
	if s.late != nil {
		s.resumeAfterLate()
	}
}
