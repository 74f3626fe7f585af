package proc

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// The bots of these tests, run by the test binary (PROC_TEST_BOT).
func init() {
	if os.Getenv("PROC_TEST_BOT") == "split" {
		// Half its answer at once, the rest 300 ms later.
		in := bufio.NewScanner(os.Stdin)
		in.Scan()
		os.Stdout.Write([]byte("= par"))
		time.Sleep(300 * time.Millisecond)
		os.Stdout.Write([]byte("tial\n\n"))
		time.Sleep(time.Hour)
	}
	if os.Getenv("PROC_TEST_BOT") == "blankspam" {
		// Blank lines from just before its 200 ms deadline to 600 ms
		// after its command, then its answer: a GTP reader skips blank lines, so each
		// would have been a reason to look at the pipe once more.
		in := bufio.NewScanner(os.Stdin)
		in.Scan()
		begin := time.Now()
		time.Sleep(150 * time.Millisecond)
		blk := bytes.Repeat([]byte("\n"), 4<<10)
		for time.Since(begin) < 600*time.Millisecond {
			// 4 MB/s: before the deadline the reader takes far less than the
			// 1 MiB cap of an answer (on a busy machine a faster bot's
			// blank lines reached the cap first); after it, the write
			// blocks once the pipe is full.
			os.Stdout.Write(blk)
			time.Sleep(time.Millisecond)
		}
		os.Stdout.Write([]byte("= late\n\n"))
		time.Sleep(time.Hour)
	}
}

// An answer past its deadline is not taken however the bot spreads its
// output: the pipe is looked at once after the deadline, and the rest of
// the answer must be in that look (late.go).
func TestWritingOnPastTheDeadlineGainsNothing(t *testing.T) {
	spec := botSpec(t, "blankspam", drivers.Clock{Move: drivers.Duration(200 * time.Millisecond)})
	s := start(t, spec)
	defer s.Kill()
	var got string
	err := s.Exchange("genmove", func(deadline time.Time) error {
		for {
			line, err := s.ReadLine(deadline)
			if err != nil {
				return err
			}
			if line != "" {
				got = line
				return nil
			}
		}
	})
	if err == nil {
		t.Fatalf("answer %q, written 600 ms after its command (200 ms deadline) behind blank lines, was taken", got)
	}
	if f, ok := err.(*Fault); !ok || f.Kind != drivers.FaultTime {
		t.Fatalf("got %v, want a time fault", err)
	}
}

// A line taken at the look after the deadline is held like any other
// while the session holds its lines (a command to several bots at once
// records their answers in seat order, not in the order they were read).
func TestLateLineIsHeld(t *testing.T) {
	spec := botSpec(t, "echo", drivers.Clock{})
	var got []string
	spec.OnRecv = func(l string, _ time.Time) { got = append(got, l) }
	s := start(t, spec)
	defer s.Close("quit")
	s.Hold()
	if err := s.Write("play 1 AS", time.Time{}); err != nil {
		t.Fatal(err)
	}
	waitInPipe(t, s.out, len("= play 1 AS\n\n"))
	// A deadline already past: the line is taken at the late look.
	line, err := s.ReadLine(time.Now().Add(-time.Second))
	if err != nil || line != "= play 1 AS" {
		t.Fatalf("ReadLine = %q, %v; want the answer already in the pipe", line, err)
	}
	if len(got) != 0 {
		t.Fatalf("OnRecv saw %q while the session held its lines", got)
	}
	s.Release()
	if len(got) != 1 || got[0] != "= play 1 AS" {
		t.Fatalf("after Release OnRecv saw %q", got)
	}
	// The snapshot's rest (the blank line) is the next command's to read.
	if err := s.Write("x", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if line, err := s.ReadLine(time.Now().Add(10 * time.Second)); err != nil || line != "" {
		t.Fatalf("after the late answer: %q, %v; want its blank line", line, err)
	}
}

// waitInPipe waits until the pipe f holds n bytes.
func waitInPipe(t *testing.T, f *os.File, n int) {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		var have int
		_ = rc.Control(func(fd uintptr) { have, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
		if have >= n {
			return
		}
	}
	t.Fatalf("the bot's %d bytes never reached the pipe", n)
}

// A per-move bot that printed and exited at once is charged up to its
// exit, not up to when a late reader took its line.
func TestExitedBotIsNotChargedTheReadersDelay(t *testing.T) {
	testHookRead = func(r *onceRun) {
		<-r.exited
		time.Sleep(300 * time.Millisecond)
	}
	defer func() { testHookRead = nil }()
	spec, _ := onceSpec(t, "line")
	spec.Timeout = 5 * time.Second
	r := runOnce(t, spec)
	if r.Fault != nil {
		t.Fatalf("fault %v", r.Fault)
	}
	if r.Used >= 300*time.Millisecond {
		t.Errorf("charged %v: the reader's delay of 300 ms after the bot's exit counted", r.Used)
	}
}

// A reader past a soft limit reads on to a hard one (Bricks' late move
// within its silence limit): nothing the bot wrote is lost in between.
func TestReadOnKeepsThePartialLine(t *testing.T) {
	s := start(t, botSpec(t, "split", drivers.Clock{}))
	defer s.Kill()
	if err := s.Write("genmove", time.Time{}); err != nil {
		t.Fatal(err)
	}
	waitInPipe(t, s.out, len("= par"))
	_, err := s.ReadLine(time.Now().Add(-time.Millisecond))
	if f, ok := err.(*Fault); !ok || f.Kind != drivers.FaultTime {
		t.Fatalf("ReadLine past its deadline: %v, want a time fault", err)
	}
	s.ReadOn()
	line, err := s.ReadLine(time.Now().Add(20 * time.Second))
	if err != nil || line != "= partial" {
		t.Fatalf("after ReadOn: %q, %v; want \"= partial\"", line, err)
	}
}

// TestPartialKeepsItsBytes checks that a time fault's partial answer is
// kept as it arrived: a lone "\r" is no line's end.
func TestPartialKeepsItsBytes(t *testing.T) {
	f := partialf("answer", "1s", "OK\r")
	if f.Partial != "OK\r" || !strings.Contains(f.Detail, `only "OK\r" arrived`) {
		t.Errorf("partialf of \"OK\\r\": Partial %q, Detail %s", f.Partial, f.Detail)
	}
}

// A per-move answer without a line end whose bot exited before the
// deadline is the answer, however late arbiter's goroutines run: the one
// that reads the output and the one that watches for the bot's exit are
// both held back past the deadline, as on a starved machine, in either
// order. One whose bot still runs at the first look after the deadline
// is a time fault.
func TestRunOnceStarvedReaderAndWatcher(t *testing.T) {
	cases := []struct {
		name, mode string
		sleep      string        // its length is the seconds the bot works on after "12"
		seen       bool          // the reader looks after the watcher noted the exit
		hold       time.Duration // how long past the deadline the watcher is held
		line       string        // "" for a time fault
	}{
		{"exit noted after the deadline", "noeol", "", true, 50 * time.Millisecond, "12"},
		{"exit not yet noted", "noeol", "", false, time.Second, "12"},
		{"exit not yet noted, a grandchild holds the output", "noeolhold", "", false, time.Second, "12"},
		{"still running at the deadline", "noeolsleep", "xxxxx", false, 0, ""},
		// Ended by a signal after the deadline (as the CPU limit ends a
		// bot that computes on), before the late look: not an answer.
		{"killed after the deadline", "noeolkill", "xx", false, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			testHookExit = func(r *onceRun) { time.Sleep(time.Until(r.deadline) + c.hold) }
			testHookRead = func(r *onceRun) {
				if c.line != "" || c.mode == "noeolkill" {
					waitZombie(r.cmd.Process.Pid)
				} else {
					waitInPipe(t, r.out, len("12"))
				}
				if c.seen {
					<-r.exited
				}
				waitDeadlinePassed(r.out)
			}
			defer func() { testHookExit, testHookRead = nil, nil }()
			spec, mark := onceSpec(t, c.mode)
			spec.Env = append(spec.Env, "ONCE_SLEEP="+c.sleep)
			spec.Timeout, spec.Grace = time.Second, 20*time.Millisecond
			r := runOnce(t, spec)
			switch {
			case c.line == "" && (r.Fault == nil || r.Fault.Kind != drivers.FaultTime || r.Fault.Partial != "12"):
				t.Errorf("reply %q (fault %v), want a time fault that quotes \"12\"", r.Line, r.Fault)
			case c.line != "" && (r.Line != c.line || r.Fault != nil):
				t.Errorf("reply %q (fault %v), want %q", r.Line, r.Fault, c.line)
			case c.line != "" && (r.Used <= 0 || r.Used > spec.Timeout || r.Arrived <= 0 || r.Arrived > r.Used):
				t.Errorf("used %v, arrived %v: want both within its time-out of %v", r.Used, r.Arrived, spec.Timeout)
			}
			assertNoLeftovers(t, mark)
		})
	}
}

// waitZombie waits until the process pid has exited, leaving it unreaped.
func waitZombie(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err != nil && err != unix.EINTR || err == nil && info.Signo != 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// waitDeadlinePassed waits until the read deadline of f has expired for
// Go's poller: a raw read whose function reads nothing checks the
// deadline and takes no byte out of the pipe.
func waitDeadlinePassed(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		panic(err) // a pipe always has one
	}
	for rc.Read(func(uintptr) bool { return true }) == nil {
		time.Sleep(time.Millisecond)
	}
}

// A session bot whose output had ended by the first look after the
// deadline crashed, as a reader in time finds it, however late arbiter's
// reader ran: the look's drain reaches the end of the output.
func TestLateLookSeesTheOutputEnd(t *testing.T) {
	for _, c := range []struct {
		mode   string
		before int // commands answered in time first
		detail string
	}{
		{"crash", 1, "output ended (exited with status 3)"},
		{"partialexit", 0, `output ended in the middle of a line "= 1" (exited with status 3)`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			s := start(t, botSpec(t, c.mode, drivers.Clock{}))
			defer s.Kill()
			for range c.before {
				if err := s.Write("x", time.Time{}); err != nil {
					t.Fatal(err)
				}
				for _, w := range []string{"= ok", ""} {
					if line, err := s.ReadLine(time.Now().Add(20 * time.Second)); line != w || err != nil {
						t.Fatalf("read %q (%v), want %q", line, err, w)
					}
				}
			}
			if err := s.Write("genmove", time.Time{}); err != nil {
				t.Fatal(err)
			}
			<-s.exited
			_, err := s.ReadLine(time.Now().Add(-time.Second))
			if f, ok := err.(*Fault); !ok || f.Kind != drivers.FaultCrash || f.Detail != c.detail {
				t.Fatalf("ReadLine past its deadline after the bot's exit: %v, want a crash: %s", err, c.detail)
			}
		})
	}
}

// The look after a deadline drains at most what the output limit leaves,
// however large the limit: one beyond what an int counts (3 GB on 32-bit,
// the largest size on any) is no wrapped negative cap.
func TestLateLookOutputLimitBeyondInt(t *testing.T) {
	for _, limit := range []int64{3_000_000_000, math.MaxInt64} {
		t.Run(strconv.FormatInt(limit, 10), func(t *testing.T) {
			spec := botSpec(t, "echo", drivers.Clock{})
			spec.Limits.Output = limit
			s := start(t, spec)
			defer s.Close("quit")
			if err := s.Write("play 1 AS", time.Time{}); err != nil {
				t.Fatal(err)
			}
			waitInPipe(t, s.out, len("= play 1 AS\n\n"))
			// A deadline already past: the line is taken at the late look.
			if line, err := s.ReadLine(time.Now().Add(-time.Second)); err != nil || line != "= play 1 AS" {
				t.Fatalf("ReadLine = %q, %v; want the answer already in the pipe", line, err)
			}
		})
	}
}
