package gtp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// meetCommand handles the commands by which the bots of the TellAll tests
// wait for one another, through files, so that a test can make answers
// arrive in the order it wants without timing anything:
//
//	mark FILE                  creates FILE and answers "= marked"
//	wait FILE [MS] [MARK]      waits until FILE exists, sleeps MS
//	                           milliseconds, answers "= waited", then
//	                           creates MARK
//	meet DIR N                 creates DIR/<pid>, waits until DIR holds N
//	                           files, answers "= met"
//	crash FILE MARK            waits until FILE exists, creates MARK and
//	                           exits with 3
//	refuse-after FILE          waits until FILE exists and answers '?'
//	split FILE MS              writes "= split" and its line end, then
//	                           waits until FILE exists, sleeps MS
//	                           milliseconds and writes the empty line
//	                           that ends the answer
//	big N [FILE MS]            answers N lines of 100 bytes; with FILE,
//	                           writes the empty line that ends the answer
//	                           only once FILE exists and MS milliseconds
//	                           more have passed
//	fill                       writes 2 MiB into $ARBITER_FILES, then
//	                           answers "= filled"
//	close-out                  closes its output and sleeps 5 s
//	ramble N                   writes the start of an answer, N lines
//	                           of 100 bytes, and no end to it
//	clock FILE MS              waits until FILE exists, sleeps MS
//	                           milliseconds and answers its wall clock
//	                           time, "= <Unix nanoseconds>"
//
// It reports whether f was one of them.
func meetCommand(f []string, out *bufio.Writer) bool {
	until := func(path string) {
		for {
			if _, err := os.Stat(path); err == nil {
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	switch {
	case f[0] == "mark" && len(f) == 2:
		os.WriteFile(f[1], nil, 0o644)
		fmt.Fprint(out, "= marked\n\n")
	case f[0] == "wait" && len(f) >= 2:
		until(f[1])
		if len(f) > 2 {
			ms, _ := strconv.Atoi(f[2])
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		fmt.Fprint(out, "= waited\n\n")
		out.Flush()
		if len(f) > 3 {
			os.WriteFile(f[3], nil, 0o644)
		}
	case f[0] == "meet" && len(f) == 3:
		n, _ := strconv.Atoi(f[2])
		os.WriteFile(filepath.Join(f[1], strconv.Itoa(os.Getpid())), nil, 0o644)
		for {
			if ents, _ := os.ReadDir(f[1]); len(ents) >= n {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		fmt.Fprint(out, "= met\n\n")
	case f[0] == "crash" && len(f) == 3:
		until(f[1])
		os.WriteFile(f[2], nil, 0o644)
		os.Exit(3)
	case f[0] == "refuse-after" && len(f) == 2:
		until(f[1])
		fmt.Fprint(out, "? refused\n\n")
	case f[0] == "split" && len(f) == 3:
		fmt.Fprint(out, "= split\n")
		out.Flush()
		until(f[1])
		ms, _ := strconv.Atoi(f[2])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Fprint(out, "\n")
	case (f[0] == "big" || f[0] == "ramble") && (len(f) == 2 || len(f) == 4):
		n, _ := strconv.Atoi(f[1])
		fmt.Fprint(out, "=")
		for range n {
			fmt.Fprintf(out, "%099d\n", 0)
		}
		if f[0] == "ramble" {
			break
		}
		if len(f) == 4 {
			out.Flush()
			until(f[2])
			ms, _ := strconv.Atoi(f[3])
			time.Sleep(time.Duration(ms) * time.Millisecond)
		}
		fmt.Fprint(out, "\n")
	case f[0] == "fill" && len(f) == 1:
		os.WriteFile(filepath.Join(os.Getenv("ARBITER_FILES"), "big"), make([]byte, 2<<20), 0o644)
		fmt.Fprint(out, "= filled\n\n")
	case f[0] == "clock" && len(f) == 3:
		until(f[1])
		ms, _ := strconv.Atoi(f[2])
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Fprintf(out, "= %d\n\n", time.Now().UnixNano())
	case f[0] == "close-out" && len(f) == 1:
		os.Stdout.Close()
		time.Sleep(5 * time.Second)
	default:
		return false
	}
	return true
}

// lines is a transcript kept in the order the recorder was called.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (r *lines) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.l = append(r.l, s)
}
func (r *lines) Sent(seat int, line string)     { r.add(fmt.Sprintf("%d > %s", seat, line)) }
func (r *lines) Received(seat int, line string) { r.add(fmt.Sprintf("%d < %s", seat, line)) }
func (r *lines) Event(kind string, data any)    { r.add(fmt.Sprintf("%s %+v", kind, data)) }
func (r *lines) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.l)
}

// botMatch starts n answer bots through Start, as a game's Play does, and
// returns their Match, its sessions and its transcript.
func botMatch(t testing.TB, n int, clock drivers.Clock) (*Match, Sessions, *lines) {
	t.Helper()
	return botMatchCtx(t, context.Background(), n, clock, drivers.Limits{})
}

// botMatchCtx is botMatch with its bots started, and its Match run, in
// ctx, under lim.
func botMatchCtx(t testing.TB, ctx context.Context, n int, clock drivers.Clock, lim drivers.Limits) (*Match, Sessions, *lines) {
	t.Helper()
	rec := &lines{}
	dm := &drivers.Match{ID: "tellall", Clock: clock, Record: rec}
	for range n {
		dm.Seats = append(dm.Seats, drivers.Seat{Bot: "answers", Command: []string{os.Args[0]},
			Dir: t.TempDir(), Env: []string{"GTP_TEST_BOT=1"}, Limits: lim})
	}
	ss, out, err := Start(ctx, dm)
	t.Cleanup(func() {
		ss.Kill()
		for _, s := range ss {
			if s != nil {
				proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
			}
		}
	})
	if err != nil || out != nil {
		t.Fatalf("start: %v %+v", err, out)
	}
	players := make([]Player, n)
	for i, s := range ss {
		players[i] = SessionPlayer{S: s}
	}
	m := NewMatch(ctx, players, rec)
	return &m, ss, rec
}

// TestTellAllAtOnce: a broadcast is written to every bot before any answer
// is awaited. Each bot answers only once all four have the command, so
// telling them one after another could never finish: the first bot would
// wait for the others until its clock ran out.
func TestTellAllAtOnce(t *testing.T) {
	m, _, _ := botMatch(t, 4, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	dir := t.TempDir()
	if err := m.TellAll(func(int) string { return "meet " + dir + " 4" }); err != nil {
		t.Fatalf("TellAll: %v (results %+v)", err, m.Results)
	}
}

// TestTellAllOrder: whatever order the answers arrive in, the transcript
// has the commands in seat order, then each seat's answer in seat order.
// Here seat 3 answers first and seat 0 last.
func TestTellAllOrder(t *testing.T) {
	m, _, rec := botMatch(t, 4, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	dir := t.TempDir()
	mark := func(i int) string { return filepath.Join(dir, strconv.Itoa(i)) }
	cmd := func(i int) string {
		if i == 3 {
			return "mark " + mark(3)
		}
		return fmt.Sprintf("wait %s 0 %s", mark(i+1), mark(i))
	}
	if err := m.TellAll(cmd); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 4 {
		want = append(want, fmt.Sprintf("%d > %s", i, cmd(i)))
	}
	for i := range 3 {
		want = append(want, fmt.Sprintf("%d < = waited", i), fmt.Sprintf("%d < ", i))
	}
	want = append(want, "3 < = marked", "3 < ")
	if got := rec.get(); !slices.Equal(got, want) {
		t.Errorf("transcript\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTellAllFaults: the verdicts of a broadcast are taken in seat order,
// not in the order the answers arrive, and every seat whose answer is a
// fault has its own. Seat 3 crashes first, then seat 1 crashes and seat 0
// refuses; the events are seat 0's warning, then seat 1's crash, then
// seat 3's, and seat 2, which answered, has no fault.
func TestTellAllFaults(t *testing.T) {
	m, _, rec := botMatch(t, 4, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	dir := t.TempDir()
	mark := func(name string) string { return filepath.Join(dir, name) }
	// In the order the answers arrive: seat 3 crashes, seat 2 answers,
	// seat 1 crashes, seat 0 refuses.
	cmds := []string{
		"refuse-after " + mark("1"),
		"crash " + mark("2") + " " + mark("1"),
		"wait " + mark("3") + " 0 " + mark("2"),
		"crash " + dir + " " + mark("3"),
	}
	err := m.TellAll(func(i int) string { return cmds[i] })
	if err != ErrOver {
		t.Fatalf("TellAll = %v, want ErrOver", err)
	}
	if !slices.Equal(m.Faulty, []int{1, 3}) || m.Results[1].Fault != drivers.FaultCrash || m.Results[3].Fault != drivers.FaultCrash ||
		!strings.HasSuffix(m.Results[3].Detail, "answering crash") {
		t.Fatalf("faulty seats %v, results %+v; want the crashes of seats 1 and 3", m.Faulty, m.Results)
	}
	for _, i := range []int{0, 2} {
		if m.Results[i].Fault != "" {
			t.Errorf("seat %d has fault %q", i, m.Results[i].Fault)
		}
	}
	got := rec.get()
	var events []string
	for _, l := range got {
		if !strings.HasPrefix(l, "0 ") && !strings.HasPrefix(l, "1 ") && !strings.HasPrefix(l, "2 ") && !strings.HasPrefix(l, "3 ") {
			events = append(events, l)
		}
	}
	if len(events) != 3 || !strings.HasPrefix(events[0], "warning {Seat:0 ") || !strings.HasPrefix(events[1], "fault {Seat:1 Kind:crash") ||
		!strings.HasPrefix(events[2], "fault {Seat:3 Kind:crash") {
		t.Errorf("events %q, want seat 0's warning, then seat 1's crash, then seat 3's", events)
	}
	if !slices.Contains(got, "2 < = waited") || !slices.Contains(got, "0 < ? refused") {
		t.Errorf("transcript %q lacks the answers of seats 0 and 2", got)
	}
}

// slowSeat1 broadcasts slow to seat 1, which answers it half a second
// after seat 3's answer (slow is given the file seat 3 makes), echo to
// seats 0 and 2 and mark to seat 3, and checks that seat 1 is charged
// that half second and the others, whose answers came whole meanwhile,
// nothing like it. It returns the transcript.
func slowSeat1(t *testing.T, slow func(mark string) string) *lines {
	t.Helper()
	m, ss, rec := botMatch(t, 4, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	mark := filepath.Join(t.TempDir(), "3")
	cmds := []string{"echo", slow(mark), "echo", "mark " + mark}
	if err := m.TellAll(func(i int) string { return cmds[i] }); err != nil {
		t.Fatalf("TellAll: %v (results %+v)", err, m.Results)
	}
	late := ss[1].Used()
	if late < 500*time.Millisecond {
		t.Fatalf("seat 1 charged %v for an answer that took over 500ms", late)
	}
	for _, i := range []int{0, 2, 3} {
		if used := ss[i].Used(); used >= late-250*time.Millisecond {
			t.Errorf("seat %d charged %v, near seat 1's %v, for an answer that came in first", i, used, late)
		}
	}
	return rec
}

// stamps is a drivers.TimedRecorder that keeps the time of every line
// received: the time it is given, or the time it is recorded when it is
// given none.
type stamps struct {
	mu sync.Mutex
	at map[string]time.Time // by "seat < line"
}

func (r *stamps) Sent(int, string)               {}
func (r *stamps) SentAt(int, string, time.Time)  {}
func (r *stamps) Event(string, any)              {}
func (r *stamps) Received(seat int, line string) { r.ReceivedAt(seat, line, time.Now()) }
func (r *stamps) ReceivedAt(seat int, line string, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.at[fmt.Sprintf("%d < %s", seat, line)] = at
}

// TestTellAllStampsAnswersWhenRead: the answers of a broadcast are
// recorded seat by seat once all are in, but each line with the time it
// was read (drivers.TimedRecorder). Seat 0 answers at once; seat 1 answers
// after seat 0 has, and says when: seat 0's answer is stamped before that,
// not when seat 1's came in.
func TestTellAllStampsAnswersWhenRead(t *testing.T) {
	rec := &stamps{at: map[string]time.Time{}}
	dm := &drivers.Match{ID: "stamps", Clock: drivers.Clock{Total: drivers.Duration(20 * time.Second)}, Record: rec}
	for range 2 {
		dm.Seats = append(dm.Seats, drivers.Seat{Bot: "answers", Command: []string{os.Args[0]},
			Dir: t.TempDir(), Env: []string{"GTP_TEST_BOT=1"}})
	}
	ss, out, err := Start(context.Background(), dm)
	defer ss.Kill()
	if err != nil || out != nil {
		t.Fatalf("start: %v %+v", err, out)
	}
	m := NewMatch(context.Background(), []Player{SessionPlayer{S: ss[0]}, SessionPlayer{S: ss[1]}}, rec)
	mark := filepath.Join(t.TempDir(), "0")
	cmds := []string{"mark " + mark, "clock " + mark + " 500"}
	if err := m.TellAll(func(i int) string { return cmds[i] }); err != nil {
		t.Fatalf("TellAll: %v (results %+v)", err, m.Results)
	}
	var answered int64
	for k := range rec.at {
		if s, ok := strings.CutPrefix(k, "1 < = "); ok {
			answered, _ = strconv.ParseInt(s, 10, 64)
		}
	}
	read, ok := rec.at["0 < = marked"]
	if !ok || answered == 0 {
		t.Fatalf("answers recorded: %v", rec.at)
	}
	if read.UnixNano() >= answered {
		t.Errorf("seat 0's answer stamped %v, after seat 1 answered (%v): stamped when recorded, not when read",
			read.Format(time.StampMicro), time.Unix(0, answered).Format(time.StampMicro))
	}
}

// TestTellAllClocks: each bot is charged from when its own command was
// written to when its own answer arrived, not until the broadcast's last
// answer: seat 1 answers half a second after seat 3, and the others are
// not charged that half second.
func TestTellAllClocks(t *testing.T) {
	slowSeat1(t, func(mark string) string { return "wait " + mark + " 500" })
}

// TestTellAllSplitAnswer: a bot that writes the start of its answer and
// the rest half a second later holds up no other bot's answer, and its
// own is read whole.
func TestTellAllSplitAnswer(t *testing.T) {
	rec := slowSeat1(t, func(mark string) string { return "split " + mark + " 500" })
	if !slices.Contains(rec.get(), "1 < = split") {
		t.Errorf("transcript %q lacks seat 1's answer", rec.get())
	}
}

// TestTellAllLongAnswer: an answer longer than the session's read buffer
// (64 KiB) before its end is read whole, and while it waits for its end
// the other seats' answers are received and charged as they come.
func TestTellAllLongAnswer(t *testing.T) {
	rec := slowSeat1(t, func(mark string) string { return "big 1000 " + mark + " 500" })
	n := map[string]int{}
	for _, l := range rec.get() {
		n[l[:3]]++
	}
	if n["1 <"] != 1001 || n["0 <"] != 2 {
		t.Errorf("lines received by seat: %v; want 1001 from seat 1, 2 from seat 0", n)
	}
}

// TestTellAllFaultHoldsNoOne: a bot's fault is judged while the others'
// answers are received: seat 0 closes its output and lives on (its crash
// is told by waiting a while for its exit), seat 2 writes more than its
// output limit and no answer; seats 1 and 3, which answer at once, are
// charged nothing like that wait, and seat 2's fault comes at once, not
// at its deadline. Both faults are judged, each its own.
func TestTellAllFaultHoldsNoOne(t *testing.T) {
	m, ss, _ := botMatchCtx(t, context.Background(), 4, drivers.Clock{Total: drivers.Duration(20 * time.Second)},
		drivers.Limits{Output: 2 << 10})
	cmds := []string{"close-out", "echo", "ramble 30", "echo"}
	start := time.Now()
	if err := m.TellAll(func(i int) string { return cmds[i] }); err != ErrOver {
		t.Fatalf("TellAll = %v, want ErrOver", err)
	}
	if !slices.Equal(m.Faulty, []int{0, 2}) || m.Results[0].Fault != drivers.FaultCrash || m.Results[2].Fault != drivers.FaultOutput {
		t.Errorf("faulty seats %v, results %+v; want seat 0's crash and seat 2's output fault", m.Faulty, m.Results)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("TellAll took %v: seat 2's output fault waited for its deadline", took)
	}
	// Judging seat 0's crash waits 200 ms for its exit (it lives on):
	// an answer received after that would be charged all of it.
	for _, i := range []int{1, 3} {
		if used := ss[i].Used(); used >= 150*time.Millisecond {
			t.Errorf("seat %d charged %v for an answer written at once", i, used)
		}
	}
}

// TestTellAllCancelled: a broadcast that is waiting for bots ends soon
// after its match is cancelled, with no one's fault.
func TestTellAllCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m, _, _ := botMatchCtx(t, ctx, 4, drivers.Clock{Total: drivers.Duration(time.Hour)}, drivers.Limits{})
	never := filepath.Join(t.TempDir(), "never")
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	err := m.TellAll(func(int) string { return "wait " + never })
	if err != ErrOver || len(m.Faulty) != 0 {
		t.Fatalf("TellAll = %v, faulty seats %v; want ErrOver and no fault", err, m.Faulty)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("TellAll took %v after the cancellation", took)
	}
}

// BenchmarkTellAll4 is one broadcast to four echo bots, all at once;
// BenchmarkTell4 tells the same four one after another. On bare pipes one
// round trip is drivers/proc's BenchmarkRawPipe.
func BenchmarkTellAll4(b *testing.B) {
	m, _, _ := botMatch(b, 4, drivers.Clock{Total: drivers.Duration(time.Hour)})
	m.Rec = nopRec{}
	for b.Loop() {
		if err := m.TellAll(func(int) string { return "play 1 AS" }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTell4(b *testing.B) {
	m, _, _ := botMatch(b, 4, drivers.Clock{Total: drivers.Duration(time.Hour)})
	for b.Loop() {
		for i := range 4 {
			if err := m.Tell(i, "play 1 AS"); err != nil {
				b.Fatal(err)
			}
		}
	}
}

type nopRec struct{}

func (nopRec) Sent(int, string)     {}
func (nopRec) Received(int, string) {}
func (nopRec) Event(string, any)    {}
