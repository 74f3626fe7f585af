package proc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"

	"golang.org/x/sys/unix"
)

// A bot that gives no answer in time is said to have kept computing
// when its processes used the CPU for at least a quarter of its wait
// or want the CPU at the deadline (an endless loop, however busy the
// machine is with other work), and not when it sat waiting (a bot that does not
// answer, or holds an answer it did not flush): the game's detail then
// says "an endless loop", not "it may not have flushed its output", nor,
// as it says of the silent bot, waiting in a read of its input with the
// command read, that it waited for more input.
func TestTimeFaultSaysBusy(t *testing.T) {
	for _, tc := range []struct {
		mode string
		busy bool
	}{{"spin", true}, {"silent", false}} {
		t.Run(tc.mode, func(t *testing.T) {
			s := offMoveSession(t, tc.mode, drivers.Clock{Move: drivers.Duration(time.Second)})
			err := s.Exchange("go", readAnswer(s))
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !f.Silent || f.Busy != tc.busy {
				t.Fatalf("Exchange = %v (%+v), want a silent time fault with Busy %v", err, f, tc.busy)
			}
			// The silent bot read the command and waits for more input.
			want := drivers.WaitingNote
			if tc.busy {
				want = drivers.ComputedNote
			}
			if got := drivers.ArrivedNote(err); got != want {
				t.Errorf("ArrivedNote = %q, want %q", got, want)
			}
		})
	}
}

// queuedBot runs the bots of TestQueuedTimeFault, which answer the first
// command of a write ("first") and not the second: they say whether
// they ran.
func queuedBot(mode string, in *bufio.Scanner, reply func(string)) bool {
	switch mode {
	case "queuedspin": // answers the first at once, spins on the second
		in.Scan()
		reply("ok")
		in.Scan()
		for {
		}
	case "queuedburn": // computes for the first, sleeps on the second
		in.Scan()
		reply(computed())
		in.Scan()
		time.Sleep(time.Hour)
	case "queuedstart": // computes as it starts, answers the first, sleeps on the second
		cpu := computed()
		in.Scan()
		reply(cpu)
		in.Scan()
		time.Sleep(time.Hour)
	case "queuedduty": // answers a warm-up, computes 600 ms for the first, then a third of the time on the second
		in.Scan()
		reply("ready")
		in.Scan()
		spin(600 * time.Millisecond)
		reply("ok")
		in.Scan()
		for {
			spinCPU(15 * time.Millisecond)
			time.Sleep(30 * time.Millisecond)
		}
	case "queuedhold": // answers the first, keeps the answer to the second in its buffer
		in.Scan()
		reply("ok")
		in.Scan()
		held := bufio.NewWriter(os.Stdout) // never flushed
		fmt.Fprint(held, "= held\n\n")
		for in.Scan() {
		}
		time.Sleep(time.Hour)
	default:
		return false
	}
	return true
}

// computed spins for 900 ms and says how much CPU the process got for
// it (however busy the machine), in nanoseconds.
func computed() string {
	var t0, t1 unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &t0)
	for start := time.Now(); time.Since(start) < 900*time.Millisecond; {
	}
	_ = unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &t1)
	return strconv.FormatInt(t1.Nano()-t0.Nano(), 10)
}

// spin computes for d of the wall clock.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// spinCPU computes until the process has had d more of the CPU: a bot
// that wants the CPU for d, however long the machine makes it wait.
func spinCPU(d time.Duration) {
	var t0, t unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &t0)
	for t = t0; time.Duration(t.Nano()-t0.Nano()) < d; {
		_ = unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &t)
	}
}

// A command written in one write behind others is judged on its own
// wait, from when the answer before it was read: nothing of its own
// answer arrived, whatever the answers before it (Silent, and Queued:
// the answers before it did arrive), and the bot kept computing (Busy)
// only for CPU it used in that wait, not for what it computed for the
// commands before it or as it started. The note says the bot answered
// before it, or that it kept computing. (A turn limit: what the first
// command took is not the second's, so the second's wait is short, and
// the CPU of the first would be more than a quarter of it.)
func TestQueuedTimeFault(t *testing.T) {
	for _, tc := range []struct {
		mode         string
		queued, busy bool
	}{
		{"queuedspin", true, true},
		{"queuedburn", true, false},
		{"queuedstart", true, false},
		{"queuedhold", true, false},
		{"silent", false, false}, // the write's first command: nothing arrived at all
	} {
		t.Run(tc.mode, func(t *testing.T) {
			s := offMoveSession(t, tc.mode, drivers.Clock{Turn: drivers.Duration(1300 * time.Millisecond)})
			s.Send("first", "second")
			first, err := receiveFirst(s)
			waited := time.Now()
			if tc.queued {
				if err != nil {
					t.Fatalf("the answer to the first command: %v", err)
				}
				err = s.Receive(readAnswer(s))
			}
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !f.Silent || f.Queued != tc.queued || f.Busy != tc.busy {
				t.Fatalf("Receive = %v (%+v), want a silent time fault with Queued %v, Busy %v", err, f, tc.queued, tc.busy)
			}
			if cpu, err := strconv.ParseInt(strings.TrimPrefix(first, "= "), 10, 64); err == nil && time.Duration(cpu)*busyShare < time.Since(waited) {
				t.Logf("the bot got %v of CPU before its first answer, less than a quarter of the second's wait %v: the machine is too busy for this case to tell", time.Duration(cpu), time.Since(waited))
			}
			// The silent bot read the write and waits for more input.
			want := drivers.WaitingNote
			switch {
			case tc.busy:
				want = drivers.ComputedNote
			case tc.queued:
				want = drivers.QueuedNote
			}
			if got := drivers.ArrivedNote(err); got != want {
				t.Errorf("ArrivedNote = %q, want %q", got, want)
			}
		})
	}
}

// A bot that computes for a third of the wait of a command written
// behind another that it took 600 ms to answer kept computing (Busy):
// the CPU it may have used before the command's clock started is not
// taken off at its most, the whole of the machine's CPUs for the 600 ms
// (more than the bot uses in its wait of 2 s, on two CPUs or more), but read
// as the clock starts (rebaseSentCPU). Several runs, since a thread that
// wants the CPU at the deadline says Busy anyway about half the time; a
// run where the machine, busy with other work, gave the bot less than a
// quarter of its wait cannot tell, and says so. The bot's start is
// over before the write (a warm-up exchange, on a start-up allowance),
// and the move limit is 2 s: at a load of 15, the 600 ms and what the
// machine kept the bot and arbiter waiting around it went past 1 s in 3
// runs of 20.
func TestQueuedBusyAfterSlowAnswer(t *testing.T) {
	told := 0
	for i := range 5 {
		s := offMoveSession(t, "queuedduty", drivers.Clock{Move: drivers.Duration(2 * time.Second), Startup: drivers.Duration(time.Minute)})
		if err := s.Exchange("warm-up", readAnswer(s)); err != nil {
			t.Fatalf("run %d: the answer to the warm-up: %v", i, err)
		}
		s.Send("first", "second")
		if err := s.Receive(readAnswer(s)); err != nil {
			t.Fatalf("run %d: the answer to the first command: %v", i, err)
		}
		before, _ := s.box.cpuUsed()
		err := s.Receive(readAnswer(s))
		used, _ := s.box.cpuUsed()
		used -= before
		wait := time.Since(s.sentAt)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !f.Silent || !f.Queued {
			t.Fatalf("run %d: Receive = %v, want a silent queued time fault", i, err)
		}
		if used*busyShare < wait*11/10 {
			t.Logf("run %d: the bot got %v of CPU in its wait of %v, not clearly a quarter: the machine is too busy for this run to tell", i, used, wait)
		} else if told++; !f.Busy {
			t.Errorf("run %d: %v: not Busy, for a bot that used %v of CPU in its wait of %v", i, err, used, wait)
		}
		s.Kill()
	}
	if told == 0 {
		t.Skip("the machine was too busy in every run for the bot to get a quarter of its wait")
	}
}
