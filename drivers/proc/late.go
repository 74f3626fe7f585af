package proc

import (
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// An answer is late only if it was not there when arbiter first looked
// after the deadline. On a busy machine the goroutine that reads a bot's
// output can run well after the bot wrote its answer, and Go's poller then
// reports the passed deadline without reading what is in the pipe: a bot
// that answered at 90% of its limit would be timed out for arbiter's own
// delay. So when a read's deadline passes, what the pipe holds is taken
// at once, and a full line in it is the bot's answer, in time. A bot gains
// at most arbiter's own lateness by it, which its clock is charged anyway.

// drainFile appends to buf what the pipe f holds now, up to limit bytes in
// all, without waiting for more and whatever f's read deadline.
func drainFile(f *os.File, buf []byte, limit int) []byte {
	rc, err := f.SyscallConn()
	if err != nil {
		return buf
	}
	_ = rc.Control(func(fd uintptr) {
		for len(buf) < limit {
			buf = room(buf, limit)
			// The pipe is non-blocking (os.Pipe): EAGAIN when empty.
			n, err := unix.Read(int(fd), buf[len(buf):cap(buf)])
			if err != nil || n <= 0 {
				return
			}
			buf = buf[:len(buf)+n]
		}
	})
	return buf
}

// lateLine is ReadLine's answer when its deadline passed with partial
// read: the line that what the pipe already holds completes, if any. What
// follows the line is read by the next ReadLine.
func (s *Session) lateLine(partial []byte) (string, bool) {
	data := drainFile(s.out, append(make([]byte, 0, 512), partial...), s.spec.MaxLine+1)
	i := bytes.IndexByte(data, '\n')
	if i < 0 || i >= s.spec.MaxLine {
		return "", false
	}
	s.r.Reset(io.MultiReader(bytes.NewReader(data[i+1:]), s.out))
	s.answered += int64(i + 1 - len(partial))
	if s.answered > s.spec.Limits.Output {
		return "", false
	}
	line := strings.TrimRight(string(data[:i+1]), "\r\n")
	if s.spec.OnRecv != nil {
		s.spec.OnRecv(line)
	}
	return line, true
}
