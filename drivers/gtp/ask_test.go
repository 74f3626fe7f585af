package gtp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// The test binary is also the bot that Ask talks to: GTP_TEST_BOT=1 makes
// it answer every command line with a canned response (see answerBot).
func TestMain(m *testing.M) {
	if os.Getenv("GTP_TEST_BOT") != "" {
		answerBot()
		return
	}
	os.Exit(m.Run())
}

// answerBot answers "multi" with blank lines and then a two-line
// response, "refuse" with '?', "garbage" and "binary" with a line that is
// no response, "quit" after GTP_TEST_QUIT_DELAY (a time.ParseDuration,
// none if unset), the commands of meetCommand as they say, and anything
// else by echoing it.
func answerBot() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		switch cmd := in.Text(); cmd {
		case "multi":
			fmt.Fprint(out, "\n  \n= line one\nline two \n\n")
		case "refuse":
			fmt.Fprint(out, "? no such command\n\n")
		case "garbage":
			fmt.Fprint(out, "hello there\n")
		case "unended":
			fmt.Fprint(out, "= half\n")
		case "binary":
			fmt.Fprint(out, "\xff\xfe\x00\x01 \xc3\x28\n\n")
		case "quit":
			if d, err := time.ParseDuration(os.Getenv("GTP_TEST_QUIT_DELAY")); err == nil {
				time.Sleep(d)
			}
			fmt.Fprint(out, "=\n\n")
			out.Flush()
			return
		default:
			if f := strings.Fields(cmd); len(f) > 0 && meetCommand(f, out) {
				break
			}
			fmt.Fprintf(out, "= %s\n\n", cmd)
		}
		out.Flush()
	}
}

// TestAsk reads responses from a real bot process: the sign, text over
// several lines, blank lines before a response, and a line that is no
// response, which is the bot's protocol fault.
func TestAsk(t *testing.T) {
	var got []string
	s, err := proc.Start(context.Background(), proc.Spec{
		Bot:    "answers",
		Argv:   []string{os.Args[0]},
		Dir:    t.TempDir(),
		Env:    []string{"GTP_TEST_BOT=1"},
		Clock:  drivers.Clock{Total: drivers.Duration(time.Minute)},
		Grace:  100 * time.Millisecond,
		OnRecv: func(l string, _ time.Time) { got = append(got, l) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		s.Kill()
		proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
	}()
	for _, tt := range []struct {
		cmd  string
		ok   bool
		text string
	}{
		{"play 0 AS", true, "play 0 AS"},
		{"multi", true, "line one\nline two"},
		{"refuse", false, "no such command"},
	} {
		ok, text, err := Ask(s, tt.cmd)
		if err != nil || ok != tt.ok || text != tt.text {
			t.Errorf("Ask(%q) = %v %q %v, want %v %q nil", tt.cmd, ok, text, err, tt.ok, tt.text)
		}
	}
	if left, limited := s.Left(); !limited || left >= time.Minute {
		t.Errorf("clock after three answers = %v (limited %v), want it charged", left, limited)
	}
	_, _, err = Ask(s, "binary")
	if FaultKind(err) != drivers.FaultProtocol || !strings.Contains(err.Error(), `answered "\xff\xfe\x00\x01 \xc3(" to "binary"`) {
		t.Errorf("Ask(binary) = %v, want a protocol fault", err)
	}
	_, _, err = Ask(s, "garbage")
	if FaultKind(err) != drivers.FaultProtocol || !strings.Contains(err.Error(), `answered "hello there" to "garbage": a response must start with '=' or '?'`) {
		t.Errorf("Ask(garbage) = %v, want a protocol fault", err)
	}
	if want := "= play 0 AS|||  |= line one|line two |"; !strings.HasPrefix(strings.Join(got, "|"), want) {
		t.Errorf("transcript %q, want it to start %q", strings.Join(got, "|"), want)
	}
}

// TestAskUnended: a bot that answers but never ends its response with
// the empty line runs out of time, and the fault says what it answered
// and what it left out, not that no answer came.
func TestAskUnended(t *testing.T) {
	s, err := proc.Start(context.Background(), proc.Spec{
		Bot: "answers", Argv: []string{os.Args[0]}, Dir: t.TempDir(), Env: []string{"GTP_TEST_BOT=1"},
		Clock: drivers.Clock{Move: drivers.Duration(200 * time.Millisecond)}, Grace: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		s.Kill()
		proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
	}()
	_, _, err = Ask(s, "unended")
	if FaultKind(err) != drivers.FaultTime || !strings.Contains(err.Error(), `answered "= half" but did not end its response with an empty line`) {
		t.Errorf("Ask(unended) = %v, want a time fault that says it answered", err)
	}
}

// TestQuitAwaitsGrace: quit's answer is awaited for the bot's whole
// grace to end, not a fixed short wait: a bot that answers in 300 ms,
// well within its second of grace, has its answer read.
func TestQuitAwaitsGrace(t *testing.T) {
	s, err := proc.Start(context.Background(), proc.Spec{
		Bot: "answers", Argv: []string{os.Args[0]}, Dir: t.TempDir(),
		Env:   []string{"GTP_TEST_BOT=1", "GTP_TEST_QUIT_DELAY=300ms"},
		Clock: drivers.Clock{Total: drivers.Duration(time.Minute)}, Grace: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		s.Kill()
		proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
	}()
	if ok, text, err := (SessionPlayer{S: s}).Ask("quit"); !ok || text != "" || err != nil {
		t.Errorf("Ask(quit) from a bot that answers in 300 ms of its 1 s grace = %v %q %v, want its answer", ok, text, err)
	}
}

// TestGenPipelined: to a bot process, Gen writes time_left and the
// decision's command together, before reading either answer (one round
// trip, not two), charges the clock for both, and still tells a refused
// or unreadable decision from the time_left before it.
func TestGenPipelined(t *testing.T) {
	m, ss, rec := botMatch(t, 1, drivers.Clock{Total: drivers.Duration(time.Minute)})
	text, err := m.Gen(0, "gen_move")
	if err != nil || text != "gen_move" {
		t.Fatalf("Gen = %q, %v", text, err)
	}
	want := []string{"0 > time_left 60000", "0 > gen_move", "0 < = time_left 60000", "0 < ", "0 < = gen_move", "0 < "}
	if got := rec.get(); !slices.Equal(got, want) {
		t.Errorf("transcript %q, want %q", got, want)
	}
	if left, _ := ss[0].Left(); left >= time.Minute {
		t.Errorf("clock after two answers = %v, want it charged", left)
	}
	if _, err := m.Gen(0, "refuse"); err != ErrOver || m.Results[0].Fault != drivers.FaultProtocol ||
		!strings.HasPrefix(m.Results[0].Detail, `answered ? to refuse ("no such command")`) {
		t.Errorf("Gen(refuse) = %v, seat %+v", err, m.Results[0])
	}
	m.Faulty, m.Results[0] = nil, drivers.SeatResult{}
	if _, err := m.Gen(0, "garbage"); err != ErrOver || m.Results[0].Fault != drivers.FaultProtocol ||
		!strings.Contains(m.Results[0].Detail, "answering garbage") {
		t.Errorf("Gen(garbage) = %v, seat %+v", err, m.Results[0])
	}
}
