package proc

import (
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// awaitSlice bounds one wait of Await, so that a session stopped while
// it waits (its context cancelled, or the limit watch finding its bot
// over a limit, which interrupts a read but not a poll) is seen within it.
const awaitSlice = 10 * time.Millisecond

// Await waits for the answers to the commands just sent (Send) to the
// sessions ss, all on the calling goroutine, and calls receive(i) there
// for session i as soon as the bytes its bot has written make a whole
// answer by complete (the protocol's framing: complete(b) is true when a
// reader of b would return without reading more). receive(i) is Receive
// with the protocol's reader, which charges the clock as it returns:
// each answer is timed when it had come, as when each session is read on
// a goroutine of its own, without the hand-offs between goroutines that
// a broadcast to several bots costs then. A session sent several commands
// at once is awaited until every one is answered, or one fails, or
// more(i) says its answers still due are no longer wanted (more is asked
// before each wait for one; nil wants them all): receive(i) is called
// once for each answer, in order. An answer not wanted is left unread and
// uncharged.
//
// Every other end of a session's wait (its deadline passed, its output
// ended, its bot wrote more than the limit or filled the read buffer
// without a whole answer, the session was stopped or is reading what a
// snapshot left, see late.go) is received on a goroutine of its own
// instead, since its reader may wait, which then receives the session's
// answers still due and wanted too; Await returns when every receive has.
// The receive and more calls of different sessions may run at the same
// time; those of one session never do.
func Await(ss []*Session, complete func(b []byte) bool, receive func(i int), more func(i int) bool) {
	wanted := func(i int) bool { return more == nil || more(i) }
	var wg sync.WaitGroup
	defer wg.Wait()
	pending := make([]int, len(ss))
	for i := range pending {
		pending[i] = i
	}
	polled := make([]int16, len(ss))
	fds := make([]unix.PollFd, 0, len(ss))
	waiting := make([]int, 0, len(ss))
	var poll *outputPoll
	for len(pending) > 0 {
		now := time.Now()
		wait := awaitSlice
		received := false
		fds, waiting = fds[:0], waiting[:0]
		for _, i := range pending {
			if !wanted(i) {
				continue
			}
			switch st, d := ss[i].awaited(complete, polled[i], now); st {
			case answerWhole:
				receive(i)
				received = true
				polled[i] = 0 // the poll's news is in the read buffer
				if ss[i].due > 0 {
					waiting = append(waiting, i) // the next answer is due
				}
			case answerOther:
				received = true
				wg.Go(func() {
					receive(i)
					for ss[i].due > 0 && wanted(i) {
						receive(i)
					}
				})
			default:
				// What the poll found is in the read buffer now: a
				// look before the next poll must not read again.
				polled[i] = 0
				waiting = append(waiting, i)
				wait = min(wait, d)
			}
		}
		pending = append(pending[:0], waiting...)
		if received || len(pending) == 0 {
			continue // receiving took time: look again before waiting
		}
		for range pending {
			fds = append(fds, unix.PollFd{Events: unix.POLLIN})
		}
		if poll == nil {
			poll = newOutputPoll(ss)
		}
		poll.poll(pending, fds, wait)
		for k, i := range pending {
			polled[i] = fds[k].Revents
		}
	}
}

// outputPoll waits up to wait for the output pipe of any session in
// pending to have something to read (fds[k] is pending[k]'s). Each file
// is held open while the poll runs (a Close waits for it), so a number
// polled is never another file's; a file already closed is reported
// POLLNVAL, for its reader to find out. One serves every poll of an
// Await, its callback bound once (held), so that a poll allocates
// nothing.
type outputPoll struct {
	ss      []*Session
	pending []int
	fds     []unix.PollFd
	wait    time.Duration
	k       int              // the next file to hold
	held    func(fd uintptr) // p.hold, bound once
}

func newOutputPoll(ss []*Session) *outputPoll {
	p := &outputPoll{ss: ss}
	p.held = p.hold
	return p
}

// poll polls pending's files, fds[k] for pending[k], up to wait.
func (p *outputPoll) poll(pending []int, fds []unix.PollFd, wait time.Duration) {
	p.pending, p.fds, p.wait, p.k = pending, fds, wait, 0
	p.next()
}

// next holds the file of pending[k] and the ones after it, then polls.
func (p *outputPoll) next() {
	k := p.k
	if k == len(p.pending) {
		// An error (EINTR) only shortens the wait to a look again.
		ts := unix.NsecToTimespec(max(p.wait, 0).Nanoseconds())
		_, _ = unix.Ppoll(p.fds, &ts, nil)
		return
	}
	p.k++
	p.fds[k].Fd = -1 // ignored by the poll unless held
	if rc := p.ss[p.pending[k]].outConn; rc != nil && rc.Control(p.held) == nil {
		return
	}
	p.next()
	p.fds[k].Revents = unix.POLLNVAL
}

// hold is Control's callback for the file of pending[k], k the one next
// took: it polls with the file held.
func (p *outputPoll) hold(fd uintptr) {
	p.fds[p.k-1].Fd = int32(fd)
	p.next()
}

type answerState int

const (
	answerWaiting answerState = iota // poll the pipe, up to the deadline
	answerWhole                      // receive now: it reads what is there
	answerOther                      // receive on a goroutine of its own
)

// awaited says where the answer awaited from s stands (see Await); when
// waiting, d is how long until its deadline. polled is what the last
// poll found on s's output (0 before the first). What the pipe holds
// when it has something is moved into the session's read buffer, so
// that the next poll waits for more.
//
// Only a whole answer is received on Await's goroutine: every other end
// of a wait (a passed deadline, an ended output, a failed write, a
// stopped session, more output than the limit) is one its reader turns
// into a fault, which may wait on the bot's exit and its folder, and is
// received on a goroutine of its own, so that no other bot's answer, whole
// meanwhile, waits for that.
func (s *Session) awaited(complete func([]byte) bool, polled int16, now time.Time) (st answerState, d time.Duration) {
	if s.sendErr != nil || s.cancelErr() != nil || s.late != nil || s.rest != nil && s.rest.Len() > 0 {
		// Stopped, or reading a snapshot: what the pipe holds is not
		// all there is.
		return answerOther, 0
	}
	b, _ := s.r.Peek(s.r.Buffered())
	if st := s.judge(complete, b); st != answerWaiting {
		return st, 0
	}
	if polled&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
		return answerOther, 0
	}
	if !s.deadline.IsZero() {
		if d = s.deadline.Sub(now); d <= 0 {
			return answerOther, 0
		}
	} else {
		d = awaitSlice
	}
	if polled&unix.POLLIN == 0 {
		return answerWaiting, d
	}
	// The pipe has something: one read takes what it holds without
	// waiting. The file's read deadline is the one the answer's reads
	// will have, lest the read fail on an older one.
	if err := s.setDeadline(s.out.SetReadDeadline, &s.readBy, s.deadline); err != nil {
		return answerOther, 0
	}
	_, err := s.r.Peek(len(b) + 1)
	b, _ = s.r.Peek(s.r.Buffered())
	if st := s.judge(complete, b); st != answerWaiting || err == nil {
		return st, d
	}
	return answerOther, 0 // its reader will meet the error too
}

// judge says whether b, what s's bot has written and arbiter not yet
// read, is a whole answer, or one its reader would fault, or neither yet.
func (s *Session) judge(complete func([]byte) bool, b []byte) answerState {
	switch {
	case complete(b):
		return answerWhole
	case len(b) == s.r.Size(), s.answered+int64(len(b)) > s.spec.Limits.Output:
		// Its framing is beyond the buffer, or it wrote more than
		// the output limit: the reader will read on or fault.
		return answerOther
	}
	return answerWaiting
}
