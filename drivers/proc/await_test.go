package proc

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// blankEnded is a framing for these tests: an answer ends with an empty
// line.
func blankEnded(b []byte) bool { return bytes.Contains(b, []byte("\n\n")) }

// pipeSession is a session reading the pipe it returns the other end of,
// as if a command had just been sent with deadline, or none if zero.
func pipeSession(t *testing.T, size int, deadline time.Time) (*Session, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	s := &Session{out: r, r: bufio.NewReaderSize(r, size), deadline: deadline}
	s.spec.Limits.Output = 1 << 20
	s.outConn, err = r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// pipeHolds is how many bytes s's pipe holds unread.
func pipeHolds(t *testing.T, s *Session) (n int) {
	t.Helper()
	err := s.outConn.Control(func(fd uintptr) {
		n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) // FIONREAD
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAwaitedJudgesWhatThePipeHolds: a session's answer is received at
// once when what the bot wrote is a whole answer, read from the pipe only
// when a poll found something there (so a look never waits), and kept in
// the read buffer when it is not whole yet, so that the next poll waits
// for more; a passed deadline, an ended output, a failed write, a
// stopped session, an answer over the output limit or the buffer without
// its end, and a session reading a snapshot, are left to a goroutine,
// for their reader to report or read on.
func TestAwaitedJudgesWhatThePipeHolds(t *testing.T) {
	hour := time.Now().Add(time.Hour)
	look := func(s *Session, polled int16) answerState {
		t.Helper()
		st, d := s.awaited(blankEnded, polled, time.Now())
		if st == answerWaiting && (d <= 0 || d > time.Hour) {
			t.Errorf("waiting %v, want up to the deadline an hour away", d)
		}
		return st
	}
	write := func(w *os.File, s string) {
		t.Helper()
		if _, err := w.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}

	s, w := pipeSession(t, 4096, hour)
	if st := look(s, 0); st != answerWaiting {
		t.Fatalf("nothing written: %v, want waiting", st)
	}
	write(w, "= part\n")
	if st := look(s, 0); st != answerWaiting || s.r.Buffered() != 0 {
		t.Fatalf("not polled: %v with %d bytes read, want waiting with none read", st, s.r.Buffered())
	}
	if st := look(s, unix.POLLIN); st != answerWaiting || pipeHolds(t, s) != 0 || s.r.Buffered() != 7 {
		t.Fatalf("half an answer: %v, %d bytes left in the pipe, %d read; want waiting, all read", st, pipeHolds(t, s), s.r.Buffered())
	}
	write(w, "\n")
	if st := look(s, unix.POLLIN); st != answerWhole {
		t.Fatalf("the rest written: %v, want whole", st)
	}
	if st := look(s, 0); st != answerWhole {
		t.Fatalf("whole answer in the buffer: %v, want whole", st)
	}
	line, err := s.ReadLine(hour)
	if err != nil || line != "= part" {
		t.Fatalf("ReadLine = %q, %v", line, err)
	}

	w.Close()
	if st := look(s, unix.POLLHUP); st != answerOther {
		t.Errorf("output ended: %v, want left to a goroutine", st)
	}

	s, w = pipeSession(t, 4096, hour)
	write(w, "= whole\n\n")
	if st := look(s, unix.POLLIN); st != answerWhole {
		t.Errorf("a whole answer in one write: %v, want whole", st)
	}

	s, _ = pipeSession(t, 4096, time.Now().Add(-time.Millisecond))
	if st := look(s, 0); st != answerOther {
		t.Errorf("deadline passed: %v, want left to a goroutine", st)
	}
	s, _ = pipeSession(t, 4096, time.Time{})
	if st, d := s.awaited(blankEnded, 0, time.Now()); st != answerWaiting || d != awaitSlice {
		t.Errorf("no deadline: %v for %v, want waiting for %v", st, d, awaitSlice)
	}
	s.sendErr = faultf("crash", "closed its input")
	if st := look(s, 0); st != answerOther {
		t.Errorf("write failed: %v, want left to a goroutine", st)
	}
	s, _ = pipeSession(t, 4096, hour)
	s.over = faultf("memory", "over")
	if st := look(s, 0); st != answerOther {
		t.Errorf("over a limit: %v, want left to a goroutine", st)
	}
	s, _ = pipeSession(t, 4096, hour)
	s.rest = bytes.NewReader([]byte("= left\n\n"))
	if st := look(s, 0); st != answerOther {
		t.Errorf("reading what a snapshot left: %v, want left to a goroutine", st)
	}
	s.rest.Seek(0, io.SeekEnd)
	if st := look(s, 0); st != answerWaiting {
		t.Errorf("a snapshot's rest read: %v, want waiting", st)
	}
	s, w = pipeSession(t, 16, hour)
	write(w, strings.Repeat("x", 20))
	if st := look(s, unix.POLLIN); st != answerOther {
		t.Errorf("buffer full, no end: %v, want left to a goroutine", st)
	}
	s, w = pipeSession(t, 4096, hour)
	s.spec.Limits.Output = 10
	write(w, "= "+strings.Repeat("x", 20))
	if st := look(s, unix.POLLIN); st != answerOther {
		t.Errorf("over the output limit, no end: %v, want left to a goroutine", st)
	}
}

// TestAwaitReceivesEachWhenWhole: Await receives each session's answer
// once it is whole, in the order they become whole, whatever order they
// were sent in and however the bots split their writes; an answer
// written in pieces holds up none that is whole. (Each answer is written
// only once the one before it was received, so a look that waited on a
// pipe would wait until the deadline, and the reads fail.)
func TestAwaitReceivesEachWhenWhole(t *testing.T) {
	deadline := time.Now().Add(5 * time.Second)
	var ss []*Session
	var ws []*os.File
	for range 3 {
		s, w := pipeSession(t, 4096, deadline)
		ss, ws = append(ss, s), append(ws, w)
	}
	var order []int
	got := make([]string, 3)
	step := make(chan int) // a receive done, for the writer to go on
	go func() {
		ws[2].WriteString("= two\n")
		ws[1].WriteString("= one\n\n")
		<-step
		ws[0].WriteString("= zero\n\n")
		<-step
		ws[2].WriteString("\n")
	}()
	Await(ss, blankEnded, func(i int) {
		line, err := ss[i].ReadLine(deadline)
		if err != nil {
			t.Errorf("seat %d: %v", i, err)
		}
		order, got[i] = append(order, i), line
		if len(order) < 3 {
			step <- i
		}
	}, nil)
	if !slices.Equal(order, []int{1, 0, 2}) || !slices.Equal(got, []string{"= zero", "= one", "= two"}) {
		t.Errorf("received %v: %q; want 1, 0, 2", order, got)
	}
}

// TestAwaitReceivesEveryAnswerOfASend: a session sent several commands
// at once is awaited until all are answered, each received as soon as it
// is whole, whether the bot wrote them one by one or several in one
// write; the other sessions' answers are received meanwhile.
func TestAwaitReceivesEveryAnswerOfASend(t *testing.T) {
	deadline := time.Now().Add(5 * time.Second)
	s0, w0 := pipeSession(t, 4096, deadline)
	s1, w1 := pipeSession(t, 4096, deadline)
	s0.due, s1.due = 3, 1 // as Sends of three commands and of one leave them
	ss := []*Session{s0, s1}
	var got []string
	step := make(chan bool) // a receive done, for the writer to go on
	go func() {
		w0.WriteString("= a\n\n")
		<-step
		w1.WriteString("= b\n\n")
		<-step
		w0.WriteString("= c\n\n= d\n\n")
	}()
	Await(ss, blankEnded, func(i int) {
		line, err := ss[i].ReadLine(deadline)
		if err == nil {
			_, err = ss[i].ReadLine(deadline) // the empty line that ends it
		}
		if err != nil {
			t.Errorf("seat %d: %v", i, err)
		}
		ss[i].due-- // as Receive counts
		got = append(got, strconv.Itoa(i)+line)
		if len(got) < 3 {
			step <- true
		}
	}, nil)
	if want := []string{"0= a", "1= b", "0= c", "0= d"}; !slices.Equal(got, want) {
		t.Errorf("received %q, want %q", got, want)
	}
}
