package proc

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// at90Limit is the move limit of BenchmarkFalseTimeouts90, whose bot
// answers every command 90% of it after it read the command; at90Bots
// of them answer at once, so that 10,000 answers take a minute.
const (
	at90Limit = 100 * time.Millisecond
	at90Bots  = 20
)

func init() {
	if os.Getenv("PROC_TEST_BOT") == "at90" {
		runAt90()
		os.Exit(0)
	}
}

// monotonic is CLOCK_MONOTONIC in nanoseconds: one clock for the bot and
// the benchmark, which are different processes.
func monotonic() int64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Nano()
}

// runAt90 is the bot of BenchmarkFalseTimeouts90: it answers a command
// 90% of at90Limit after it read it and then appends to the file
// PROC_TEST_STAMPS the command and the time its write had returned, by
// when the answer was in the pipe.
func runAt90() {
	stamps, err := os.OpenFile(os.Getenv("PROC_TEST_STAMPS"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		os.Exit(3)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd := in.Text()
		if cmd == "quit" {
			_, _ = os.Stdout.WriteString("=\n\n")
			return
		}
		time.Sleep(at90Limit * 9 / 10)
		if _, err := os.Stdout.WriteString("= " + cmd + "\n\n"); err != nil {
			return
		}
		fmt.Fprintf(stamps, "%s %d\n", cmd, monotonic())
	}
}

// BenchmarkFalseTimeouts90 has bots answer after 90% of their move limit
// (at90Limit), at90Bots bots at once, b.N answers in all, under memory
// and process limits (their counters watched while the bots think), and
// counts the false time-outs: answers the session recorded as late
// although the bot's write had returned within the limit, measured from
// just before the command was sent. A bot that the machine itself made
// late (its write returned after the limit) is a true time-out, counted
// apart as late-answers. Timed out bots are replaced and the run goes on.
func BenchmarkFalseTimeouts90(b *testing.B) {
	dir := b.TempDir()
	var (
		mu       sync.Mutex
		sent     = map[string]int64{}
		timedOut = map[string]error{}
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	n := int64(b.N)
	for i := range at90Bots {
		spec := botSpec(b, "at90", drivers.Clock{Move: drivers.Duration(at90Limit)})
		spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
		spec.Env = append(spec.Env, "PROC_TEST_STAMPS="+filepath.Join(dir, strconv.Itoa(i)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *Session
			for k := next.Add(1); k <= n; k = next.Add(1) {
				if s == nil {
					s = start(b, spec)
				}
				cmd := "c" + strconv.FormatInt(k, 10)
				t := monotonic()
				_, err := ask(s, cmd)
				if err != nil {
					err = fmt.Errorf("%w; returned after %v", err, time.Duration(monotonic()-t))
				}
				if err != nil && faultKind(err) != drivers.FaultTime {
					b.Error(err)
					return
				}
				mu.Lock()
				sent[cmd] = t
				if err != nil {
					timedOut[cmd] = err
				}
				mu.Unlock()
				if err != nil {
					time.Sleep(2 * at90Limit) // its answer and stamp come
					s.Kill()
					s = nil
				}
			}
			if s != nil {
				s.Close("quit")
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	falseTO, late, unknown := 0, 0, 0
	seen := map[string]bool{}
	for i := range at90Bots {
		data, _ := os.ReadFile(filepath.Join(dir, strconv.Itoa(i)))
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			cmd, at, ok := strings.Cut(line, " ")
			t, err := strconv.ParseInt(at, 10, 64)
			if !ok || err != nil {
				continue
			}
			seen[cmd] = true
			switch {
			case time.Duration(t-sent[cmd]) > at90Limit:
				late++
			case timedOut[cmd] != nil:
				falseTO++
				b.Logf("%s: timed out (%v), yet its answer was written %v after it was sent", cmd, timedOut[cmd], time.Duration(t-sent[cmd]))
			}
		}
	}
	for cmd := range timedOut {
		if !seen[cmd] {
			unknown++ // never stamped: killed before it could say
		}
	}
	b.ReportMetric(float64(falseTO), "false-timeouts")
	b.ReportMetric(float64(late), "late-answers")
	b.ReportMetric(float64(unknown), "unstamped-timeouts")
}

// TestLateReaderKeepsAnswer: a session's reader that runs only after the
// deadline passed (held back on purpose, as a starved machine does) takes
// the answer the bot had already written, line by line, and only an
// answer that is not there is a time fault.
func TestLateReaderKeepsAnswer(t *testing.T) {
	s := start(t, botSpec(t, "echo", drivers.Clock{}))
	defer s.Close("quit")
	if err := s.Write("play 1 AS", time.Time{}); err != nil {
		t.Fatal(err)
	}
	want := len("= play 1 AS\n\n")
	rc, err := s.out.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		var n int
		if cerr := rc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); cerr != nil || err != nil {
			t.Fatal(cerr, err)
		}
		if n >= want {
			break
		}
		if i > 10000 {
			t.Fatalf("the bot wrote %d bytes in 10 s, want %d", n, want)
		}
		time.Sleep(time.Millisecond)
	}
	past := time.Now().Add(-time.Second)
	for _, w := range []string{"= play 1 AS", ""} {
		if line, err := s.ReadLine(past); line != w || err != nil {
			t.Fatalf("read %q (%v), want %q", line, err, w)
		}
	}
	if _, err := s.ReadLine(past); faultKind(err) != drivers.FaultTime {
		t.Fatalf("nothing more written: %v, want a time fault", err)
	}
}

// TestRunOnceStarvedReaderBotRunning: a per-move bot that printed its
// line in time and goes on running is not timed out when the reader runs
// only after the deadline; its time is charged up to the limit.
func TestRunOnceStarvedReaderBotRunning(t *testing.T) {
	testHookRead = func(r *onceRun) {
		// First the line in the pipe (the bot's start may take long on a
		// busy machine; the limit leaves it seconds), then the deadline
		// passed for the poller.
		waitInPipe(t, r.out, 1)
		waitDeadlinePassed(r.out)
	}
	defer func() { testHookRead = nil }()
	spec, mark := onceSpec(t, "stay")
	spec.Timeout = 3 * time.Second
	spec.Grace = 20 * time.Millisecond
	r := runOnce(t, spec)
	if r.Line != "5" || r.Fault != nil {
		t.Errorf("reply %q (fault %v), want \"5\" in time", r.Line, r.Fault)
	}
	if r.Used > spec.Timeout {
		t.Errorf("charged %v, over its limit of %v", r.Used, spec.Timeout)
	}
	assertNoLeftovers(t, mark)
}
