package gtp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestTellAllBeforeAsksAhead: the next player's time_left and decision go
// out with its command of the broadcast, in seat order with the others',
// its answers are recorded after its answer to the broadcast, and Gen
// then takes them without writing anything.
func TestTellAllBeforeAsksAhead(t *testing.T) {
	m, ss, rec := botMatch(t, 3, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	if err := m.TellAllBefore(1, "gen_move", func(int) string { return "play 0 AS" }); err != nil {
		t.Fatalf("TellAllBefore: %v (results %+v)", err, m.Results)
	}
	n := len(rec.get())
	text, err := m.Gen(1, "gen_move")
	if err != nil || text != "gen_move" {
		t.Fatalf("Gen = %q, %v; want the echo of gen_move", text, err)
	}
	want := []string{
		"0 > play 0 AS", "1 > play 0 AS", "1 > time_left 20000", "1 > gen_move", "2 > play 0 AS",
		"0 < = play 0 AS", "0 < ",
		"1 < = play 0 AS", "1 < ", "1 < = time_left 20000", "1 < ", "1 < = gen_move", "1 < ",
		"2 < = play 0 AS", "2 < ",
	}
	if got := rec.get(); !slices.Equal(got, want) || n != len(want) {
		t.Errorf("transcript (%d lines before Gen)\n%s\nwant\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if used := ss[1].Used(); used <= 0 {
		t.Errorf("seat 1 charged %v for three answers", used)
	}
	// Nothing is ahead any more: the next Gen asks.
	if text, err := m.Gen(0, "gen_move"); err != nil || text != "gen_move" {
		t.Errorf("Gen after = %q, %v", text, err)
	}
}

// TestTellAllBeforeClocks: the player asked ahead is charged for its own
// answers as they came, not for the wait for another seat's answer to the
// broadcast: seat 0 answers half a second after seat 1's decision.
func TestTellAllBeforeClocks(t *testing.T) {
	m, ss, _ := botMatch(t, 3, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	mark := filepath.Join(t.TempDir(), "decided")
	cmds := []string{"wait " + mark + " 500", "echo", "echo"}
	if err := m.TellAllBefore(1, "mark "+mark, func(i int) string { return cmds[i] }); err != nil {
		t.Fatalf("TellAllBefore: %v (results %+v)", err, m.Results)
	}
	if text, err := m.Gen(1, "mark "+mark); err != nil || text != "marked" {
		t.Fatalf("Gen = %q, %v", text, err)
	}
	late := ss[0].Used()
	if late < 500*time.Millisecond {
		t.Fatalf("seat 0 charged %v for an answer that took over 500ms", late)
	}
	if used := ss[1].Used(); used >= late-250*time.Millisecond {
		t.Errorf("seat 1 charged %v, near seat 0's %v, for answers that came first", used, late)
	}
}

// TestTellAllBeforeVerdicts: the broadcast's verdicts come first, in seat
// order, and a fault there ends the match whatever the decision asked
// ahead was; a refusal of the broadcast's command by the player asked
// ahead is a warning and its decision stands; the decision is judged by
// Gen, where the game is then.
func TestTellAllBeforeVerdicts(t *testing.T) {
	t.Run("a fault in the broadcast", func(t *testing.T) {
		m, _, _ := botMatch(t, 3, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
		dir := t.TempDir()
		decided := filepath.Join(dir, "decided")
		// Seat 2 crashes once seat 1 has decided.
		cmds := []string{"echo", "echo", "crash " + decided + " " + filepath.Join(dir, "crashed")}
		err := m.TellAllBefore(1, "mark "+decided, func(i int) string { return cmds[i] })
		if err != ErrOver || !slices.Equal(m.Faulty, []int{2}) || m.Results[2].Fault != drivers.FaultCrash || m.Results[1].Fault != "" {
			t.Fatalf("TellAllBefore = %v, faulty seats %v, results %+v; want seat 2's crash", err, m.Faulty, m.Results)
		}
		if m.ahead != nil {
			t.Errorf("a decision is still ahead after the match ended")
		}
	})
	t.Run("refusals", func(t *testing.T) {
		m, _, rec := botMatch(t, 2, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
		if err := m.TellAllBefore(1, "gen_move", func(i int) string { return []string{"echo", "refuse"}[i] }); err != nil {
			t.Fatalf("TellAllBefore: %v", err)
		}
		if text, err := m.Gen(1, "gen_move"); err != nil || text != "gen_move" {
			t.Errorf("Gen after a refused broadcast = %q, %v; want the decision", text, err)
		}
		if err := m.TellAllBefore(0, "refuse", func(int) string { return "echo" }); err != nil {
			t.Fatalf("TellAllBefore: %v", err)
		}
		m.Where = " on turn 9"
		if _, err := m.Gen(0, "refuse"); err != ErrOver || !slices.Equal(m.Faulty, []int{0}) || m.Results[0].Fault != drivers.FaultProtocol ||
			!strings.HasSuffix(m.Results[0].Detail, " on turn 9") {
			t.Errorf("Gen of a refused decision = %v, results %+v; want seat 0's protocol fault on turn 9", err, m.Results)
		}
		var warned []string
		for _, l := range rec.get() {
			if strings.HasPrefix(l, "warning ") {
				warned = append(warned, l)
			}
		}
		if len(warned) != 1 || !strings.HasPrefix(warned[0], "warning {Seat:1 Command:refuse") {
			t.Errorf("warnings %q, want seat 1's refusal of the broadcast", warned)
		}
	})
}

// TestTellAllBeforeInProcess: with a player that is not a bot process,
// nothing is asked ahead: TellAllBefore is TellAll, and Gen asks.
func TestTellAllBeforeInProcess(t *testing.T) {
	asked := scripted{"play": {OK: true}, "time_left": {OK: true}, "gen_move": {OK: true, Text: "AS"}}
	m := NewMatch(t.Context(), []Player{asked, asked}, nopRec{})
	if err := m.TellAllBefore(1, "gen_move", func(int) string { return "play 0 AS" }); err != nil || m.ahead != nil {
		t.Fatalf("TellAllBefore = %v, ahead %+v", err, m.ahead)
	}
	if text, err := m.Gen(1, "gen_move"); err != nil || text != "AS" {
		t.Errorf("Gen = %q, %v", text, err)
	}
}

// batched is scripted as a Pipeliner (arbiter check's bot under test
// among house bots): it records each write, the commands it got at once.
type batched struct {
	scripted
	writes *[][]string
}

func (p batched) AskAll(cmds ...string) []Answer {
	*p.writes = append(*p.writes, cmds)
	var answers []Answer
	for _, cmd := range cmds {
		ok, text, err := p.Ask(cmd)
		answers = append(answers, Answer{OK: ok, Text: text, Err: err})
	}
	return answers
}

// TestTellAllBeforePipeliner: among players that are not bot processes,
// a Pipeliner asked for the next decision gets the broadcast's command
// with the decision's time_left and gen_move in one write, as a bot
// process does in a match, and Gen takes their answers without asking;
// a Pipeliner not asked gets the broadcast's command alone.
func TestTellAllBeforePipeliner(t *testing.T) {
	var writes, others [][]string
	asked := scripted{"play": {OK: true}, "time_left": {OK: true}, "gen_move": {OK: true, Text: "AS"}}
	m := NewMatch(t.Context(), []Player{asked, batched{asked, &writes}, batched{asked, &others}}, nopRec{})
	if err := m.TellAllBefore(1, "gen_move", func(int) string { return "play 0 AS" }); err != nil {
		t.Fatalf("TellAllBefore = %v", err)
	}
	want := [][]string{{"play 0 AS", "time_left 1000", "gen_move"}}
	if !slices.EqualFunc(writes, want, slices.Equal) {
		t.Errorf("seat 1's writes %q, want %q", writes, want)
	}
	if text, err := m.Gen(1, "gen_move"); err != nil || text != "AS" || len(writes) != 1 {
		t.Errorf("Gen = %q, %v after writes %q; want the answer asked ahead", text, err, writes)
	}
	if want := [][]string{{"play 0 AS"}}; !slices.EqualFunc(others, want, slices.Equal) {
		t.Errorf("seat 2's writes %q, want %q", others, want)
	}
}

// TestTellAllBeforeSeveral: several commands to every seat go out in one
// write each and are judged command by command, each in seat order, as
// TellAll one after another would: seat 1's refusal of the first command
// is recorded before seat 0's crash on the second, which ends the match.
func TestTellAllBeforeSeveral(t *testing.T) {
	m, _, rec := botMatch(t, 2, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	first := func(i int) string { return []string{"echo", "refuse"}[i] }
	second := func(i int) string { return []string{"close-out", "echo"}[i] }
	if err := m.TellAllBefore(-1, "", first, second); err != ErrOver {
		t.Fatalf("TellAllBefore = %v, want ErrOver", err)
	}
	if !slices.Equal(m.Faulty, []int{0}) || m.Results[0].Fault != drivers.FaultCrash {
		t.Fatalf("faulty seats %v, results %+v; want seat 0's crash", m.Faulty, m.Results)
	}
	got := rec.get()
	want := []string{"0 > echo", "0 > close-out", "1 > refuse", "1 > echo", "0 < = echo", "0 < ", "1 < ? no such command", "1 < ", "1 < = echo", "1 < "}
	if len(got) != len(want)+2 || !slices.Equal(got[:len(want)], want) ||
		!strings.HasPrefix(got[len(want)], "warning {Seat:1 Command:refuse") || !strings.HasPrefix(got[len(want)+1], "fault {Seat:0 Kind:crash") {
		t.Errorf("transcript\n%s\nwant\n%s\nthen seat 1's warning and seat 0's crash", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTellAllBeforeFaultEndsAtOnce: a fault in the broadcast ends it
// without waiting for the decision asked ahead, which would not have been
// asked one command after another; the bot asked it is not charged for
// it. Here no clock bounds the decision, which comes after 15 s.
func TestTellAllBeforeFaultEndsAtOnce(t *testing.T) {
	m, ss, _ := botMatch(t, 2, drivers.Clock{})
	never := filepath.Join(t.TempDir(), "never")
	late := time.AfterFunc(15*time.Second, func() { os.WriteFile(never, nil, 0o644) })
	defer late.Stop()
	start := time.Now()
	err := m.TellAllBefore(1, "wait "+never, func(i int) string { return []string{"close-out", "echo"}[i] })
	if err != ErrOver || !slices.Equal(m.Faulty, []int{0}) || m.Results[0].Fault != drivers.FaultCrash {
		t.Fatalf("TellAllBefore = %v, faulty seats %v, results %+v; want seat 0's crash", err, m.Faulty, m.Results)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("TellAllBefore took %v: it waited for the decision", took)
	}
	if used := ss[1].Used(); used > time.Second {
		t.Errorf("seat 1 charged %v, for a decision not awaited", used)
	}
	if m.ahead != nil {
		t.Errorf("a decision is ahead after the match ended")
	}
}

// TestTellAllBeforeLimitNotLost: a limit a bot went over before its
// answer to the first command, found only once its later answers are no
// longer awaited (another seat faulted on the first command), is still
// judged with the first command, in seat order, as it would have been
// with the commands one after another: seat 0, over its files limit, is
// at fault, and so is seat 1, whose output ended.
func TestTellAllBeforeLimitNotLost(t *testing.T) {
	m, _, _ := botMatchCtx(t, t.Context(), 2, drivers.Clock{Total: drivers.Duration(20 * time.Second)}, drivers.Limits{Files: 1e6})
	never := filepath.Join(t.TempDir(), "never")
	first := func(i int) string { return []string{"fill", "close-out"}[i] }
	second := func(int) string { return "wait " + never }
	if err := m.TellAllBefore(-1, "", first, second); err != ErrOver {
		t.Fatalf("TellAllBefore = %v, want ErrOver", err)
	}
	if !slices.Equal(m.Faulty, []int{0, 1}) || m.Results[0].Fault != drivers.FaultFiles || !strings.Contains(m.Results[0].Detail, "answering fill") ||
		m.Results[1].Fault != drivers.FaultCrash {
		t.Errorf("faulty seats %v, results %+v; want seat 0 over its files limit, answering fill, and seat 1's crash", m.Faulty, m.Results)
	}
}

// TestTellAllBeforeRecordsWhatWasJudged: the answers to commands after
// the one that faulted are not in the transcript, whether or not they
// were read before the fault was seen.
func TestTellAllBeforeRecordsWhatWasJudged(t *testing.T) {
	for range 5 {
		m, _, rec := botMatch(t, 2, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
		first := func(i int) string { return []string{"close-out", "echo"}[i] }
		second := func(int) string { return "echo" }
		if err := m.TellAllBefore(-1, "", first, second); err != ErrOver || !slices.Equal(m.Faulty, []int{0}) {
			t.Fatalf("TellAllBefore = %v, faulty seats %v; want seat 0's crash", err, m.Faulty)
		}
		var seat1 []string
		for _, l := range rec.get() {
			if strings.HasPrefix(l, "1 < ") {
				seat1 = append(seat1, l)
			}
		}
		if want := []string{"1 < = echo", "1 < "}; !slices.Equal(seat1, want) {
			t.Fatalf("seat 1's lines received %q, want only its answer to the first command %q", seat1, want)
		}
	}
}
