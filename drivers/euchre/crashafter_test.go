package euchre

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// answerThen prints an answer that is not the phase's default (ordering
// o, where the default is p; a line in a trick message), then ends as
// mode says: answercrash exits 1, answersignal dies by SIGTERM,
// answerlinger sleeps past its grace (arbiter kills it), answerchatty
// writes more to stdout after the answer and exits 0.
func answerThen(mode string, phase Phase) {
	answer := "o"
	if phase == Trick {
		answer = "thanks"
	}
	fmt.Println(answer)
	os.Stdout.Sync()
	switch mode {
	case "answercrash":
		os.Exit(1)
	case "answersignal":
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(time.Second)
	case "answerlinger":
		time.Sleep(10 * time.Second)
	case "answerchatty":
		// After arbiter has read the answer: a write to a closed pipe
		// would end the bot (SIGPIPE) by no fault of its own.
		time.Sleep(30 * time.Millisecond)
		fmt.Println("debug: more after the answer")
	}
	os.Exit(0)
}

// TestAnswerThenCrash: a bot that prints its answer and then exits with a
// failing status or dies by a signal has crashed (the spec: a crash gets
// the default and is a fault), in a decision and in a trick message
// alike: the default is used, and the default event quotes the answer
// that was not. Arbiter's own kill after the grace is not the bot's
// crash, nor is output after the answer; and a plan written before the
// rule (no crash_after_answer) plays as it did, taking the answer.
func TestAnswerThenCrash(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		phase  Phase
		old    bool   // a plan from before the rule
		reason string // in the default events' reason; empty: no default
	}{
		{"answercrash", Ordering, false, `crash: exited with status 1 after printing "o", which was not used`},
		{"answersignal", Ordering, false, `crash: killed by signal terminated after printing "o", which was not used`},
		{"answercrash", Trick, false, `crash: exited with status 1 after printing "thanks", which was not used`},
		{"answerlinger", Ordering, false, ""},
		{"answerchatty", Ordering, false, ""},
		{"answercrash", Ordering, true, ""},
		{"answercrash", Trick, true, ""},
	} {
		t.Run(fmt.Sprintf("%s-%s-old=%v", tc.mode, tc.phase, tc.old), func(t *testing.T) {
			g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
			g.settings.MaxHands = 1
			g.settings.CrashAfterAnswer = !tc.old
			m, marker := processMatch(t, 31, house(t, "rules"), bad(t, tc.mode, tc.phase))
			rec := &events{}
			m.Record = rec
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			proctest.AssertNoEnv(t, marker)
			defaults := rec.of("default")
			if tc.reason == "" {
				if len(defaults) != 0 || out.Seats[1].Defaults != 0 {
					t.Fatalf("defaults %v (seat 1: %d), want none: the answer counts", defaults, out.Seats[1].Defaults)
				}
				if tc.phase == Ordering && !ordered(rec, 1) {
					t.Errorf("seat 1's o was not taken: %v", rec.of("bidding"))
				}
				return
			}
			if len(defaults) == 0 || out.Seats[1].Defaults != len(defaults) || out.Seats[0].Defaults != 0 {
				t.Fatalf("defaults %d/%d, events %v: want every one of seat 1's", out.Seats[0].Defaults, out.Seats[1].Defaults, defaults)
			}
			for _, e := range defaults {
				d := e.(DefaultEvent)
				if d.Seat != 1 || d.Phase != tc.phase || d.Reason != tc.reason {
					t.Errorf("default %+v, want seat 1 in phase %s with reason %q", d, tc.phase, tc.reason)
				}
				if tc.phase == Ordering && (d.Answer != "o" || d.Default != "p") {
					t.Errorf("default %+v: want answer o replaced by p", d)
				}
			}
			if tc.phase == Ordering && ordered(rec, 1) {
				t.Errorf("seat 1's o was taken: %v", rec.of("bidding"))
			}
			if !strings.HasPrefix(out.Seats[1].DefaultDetail, "hand 1, position ") || out.Seats[1].Fault != "" {
				t.Errorf("seat 1: %+v", out.Seats[1])
			}
		})
	}
}

// ordered says whether a player of seat seat ordered in an ordering round.
func ordered(rec *events, seat int) bool {
	for _, e := range rec.of("bidding") {
		b := e.(BiddingEvent)
		if b.Round == Ordering && b.By >= 0 && Team(b.By) == seat {
			return true
		}
	}
	return false
}

// TestCheckAnswerThenCrash: arbiter check holds a bot to the same rule:
// a failing exit after a valid answer fails the case, except for a game
// from a plan written before the rule.
func TestCheckAnswerThenCrash(t *testing.T) {
	ordering := checkCase("ordering")
	bot := drivers.Seat{Bot: "answercrash", Command: bad(t, "answercrash", Ordering), Dir: t.TempDir()}
	for _, old := range []bool{false, true} {
		s := DefaultSettings()
		s.CrashAfterAnswer = !old
		opt := drivers.CheckOptions{Move: drivers.Duration(3 * time.Second), Game: &Game{settings: s}}
		err := ordering.Run(context.Background(), bot, opt, nopRecorder{})
		switch {
		case old && err != nil:
			t.Errorf("old rule: %v, want a pass (the answer o stands)", err)
		case !old && (err == nil || !strings.Contains(err.Error(), `exited with status 1 after printing "o": the game counts that as a crash`)):
			t.Errorf("new rule: %v, want a failure saying the bot exited with status 1 after its answer", err)
		}
	}
}
