package proc

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// The clock bots: "clock-sleeper" answers `wait N` (and `wait N setup`)
// after N milliseconds;
// "clock-slowstart" takes 800 ms to answer its first command (an
// interpreter's or a JVM's start), then echoes. The 800 ms count from
// the command's arrival, as the clock does from its write: slept at
// the bot's start, they were over before the write where a loaded host
// kept the test from writing for 300 ms after the start, and the first
// answer came in time against 500 ms.
func init() {
	mode := os.Getenv("PROC_TEST_BOT")
	if mode != "clock-sleeper" && mode != "clock-slowstart" {
		return
	}
	starting := mode == "clock-slowstart"
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if starting {
			time.Sleep(800 * time.Millisecond)
			starting = false
		}
		if ms, ok := strings.CutPrefix(in.Text(), "wait "); ok {
			n, _ := strconv.Atoi(strings.Fields(ms)[0])
			time.Sleep(time.Duration(n) * time.Millisecond)
		}
		fmt.Printf("= %s\n\n", in.Text())
	}
	os.Exit(0)
}

// Clock.Turn spans every message of a turn: two answers of 600 ms fit a
// 2 s turn, and after EndTurn a 600 ms answer leaves 1.4 s, so a 1.6 s
// answer is late although no single answer reached 2 s.
func TestTurnSpansSeveralMessages(t *testing.T) {
	s := start(t, botSpec(t, "clock-sleeper", drivers.Clock{Turn: drivers.Duration(2 * time.Second)}))
	defer s.Kill()
	for _, cmd := range []string{"wait 600", "wait 600"} {
		if _, err := ask(s, cmd); err != nil {
			t.Fatalf("%s in the first turn: %v", cmd, err)
		}
	}
	if left, ok := s.TurnLeft(); !ok || left > 800*time.Millisecond {
		t.Errorf("after 1.2 s of a 2 s turn, %v (%v) left", left, ok)
	}
	s.EndTurn()
	if left, _ := s.TurnLeft(); left != 2*time.Second {
		t.Errorf("a new turn starts with %v", left)
	}
	if _, err := ask(s, "wait 600"); err != nil {
		t.Fatal(err)
	}
	_, err := ask(s, "wait 1600")
	if faultKind(err) != drivers.FaultTime {
		t.Fatalf("1.6 s with 1.4 s of the turn left: %v", err)
	}
}

// Clock.Startup is added to the first answer and not charged: a bot that
// takes 800 ms to start meets a 500 ms move limit with a 2 s allowance,
// and faults without it.
func TestStartupAllowance(t *testing.T) {
	clock := drivers.Clock{Move: drivers.Duration(500 * time.Millisecond), Total: drivers.Duration(5 * time.Second)}
	bare := start(t, botSpec(t, "clock-slowstart", clock))
	defer bare.Kill()
	if _, err := ask(bare, "hello"); faultKind(err) != drivers.FaultTime {
		t.Fatalf("an 800 ms start against a 500 ms move limit: %v", err)
	}
	clock.Startup = drivers.Duration(2 * time.Second)
	s := start(t, botSpec(t, "clock-slowstart", clock))
	defer s.Kill()
	if _, err := ask(s, "hello"); err != nil {
		t.Fatalf("with a 2 s start-up allowance: %v", err)
	}
	if left, _ := s.Left(); left != 5*time.Second {
		t.Errorf("the start was charged: %v of 5s left", left)
	}
	// The allowance is the first answer's only.
	if _, err := ask(s, "wait 700"); faultKind(err) != drivers.FaultTime {
		t.Fatalf("a 700 ms second answer against 500 ms: %v", err)
	}
}

// With Spec.Setup, the set-up's commands share the start-up allowance: a
// bot that spends its start on the second set-up command (as the Blokus
// adapter builds a course player on set_stones) answers in time, none of
// the set-up is charged, and the allowance ends with the set-up: the first
// command after it has the turn alone, though most of the allowance is
// left.
func TestStartupCoversTheSetup(t *testing.T) {
	clock := drivers.Clock{Turn: drivers.Duration(500 * time.Millisecond), Startup: drivers.Duration(3 * time.Second)}
	spec := botSpec(t, "clock-sleeper", clock)
	spec.Setup = func(cmd string) bool { return strings.HasSuffix(cmd, " setup") }
	s := start(t, spec)
	defer s.Kill()
	s.Send("wait 100 setup", "wait 900 setup", "wait 300")
	for _, want := range []string{"wait 100 setup", "wait 900 setup", "wait 300"} {
		if answer, err := receive(s); err != nil || answer != want {
			t.Fatalf("answer to %q: %q, %v", want, answer, err)
		}
	}
	if left, _ := s.TurnLeft(); left > 350*time.Millisecond {
		// About 200 ms: the bot's 300 ms run from its answer before, a
		// little before arbiter read that answer and started the clock.
		t.Errorf("after a 300 ms answer, %v of the 500 ms turn left: only the set-up is not charged", left)
	}
	s.EndTurn()
	if _, err := ask(s, "wait 700 setup"); faultKind(err) != drivers.FaultTime {
		t.Fatalf("a set-up command after the set-up ended has no allowance: %v", err)
	}

	s2 := start(t, spec)
	defer s2.Kill()
	// 1500 ms: the turn starts when arbiter reads the set-up's answer,
	// which a loaded host may delay by a few hundred milliseconds.
	s2.Send("wait 100 setup", "wait 1500")
	if _, err := receive(s2); err != nil {
		t.Fatal(err)
	}
	if _, err := receive(s2); faultKind(err) != drivers.FaultTime {
		t.Fatalf("1500 ms after the set-up, against a 500 ms turn: %v", err)
	}
}

// Commands written at once (a Send of several) are each charged and
// bounded as if sent alone when the one before was answered: four answers
// of 300 ms each meet a 1 s move limit although the last comes 1.2 s
// after the write (a deadline shared by the batch would fail it), the
// clock is charged less than if each were charged from the write (300 +
// 600 + 900 + 1200 ms), and a fifth command that takes too long is still
// a time fault of its own.
func TestPipelinedCommandsChargedInTurn(t *testing.T) {
	clock := drivers.Clock{Move: drivers.Duration(time.Second), Total: drivers.Duration(time.Minute)}
	s := start(t, botSpec(t, "clock-sleeper", clock))
	defer s.Kill()
	s.Send("wait 300", "wait 300", "wait 300", "wait 300", "wait 1500")
	for i := range 4 {
		answer, err := receive(s)
		if err != nil || answer != "wait 300" {
			t.Fatalf("answer %d: %q, %v", i+1, answer, err)
		}
	}
	if used := s.Used(); used < 1200*time.Millisecond || used >= 3*time.Second {
		t.Errorf("four answers of 300 ms charged %v, want their sum, not each from the write", used)
	}
	if _, err := receive(s); faultKind(err) != drivers.FaultTime {
		t.Fatalf("1.5 s against a 1 s move limit, sent with the others: %v", err)
	}
}
