package euchre

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// debugHintText is what check adds to the refusal of a debug line.
const debugHintText = "(only the first line printed is the answer: write debug output to stderr)"

// TestCheckDebugLine: a bot that prints a debug line before its answer
// is told, by arbiter check's scripted cases and its whole game alike,
// that the first line is the answer and debug output goes to stderr, as
// Auction's, Bricks' and the GTP-like games' checks tell it; an answer
// of a card's length that is no answer is not.
func TestCheckDebugLine(t *testing.T) {
	ordering := checkCase("ordering")
	opt := drivers.CheckOptions{Move: drivers.Duration(3 * time.Second)}
	for _, tc := range []struct {
		print string
		hint  bool
	}{
		{`echo "phase ordering"; echo p`, true},
		{`echo "debug:o"`, true},
		{`echo 10h`, false},
	} {
		bot := drivers.Seat{Bot: "debug", Command: []string{"sh", "-c", "cat >/dev/null; " + tc.print}, Dir: t.TempDir()}
		err := ordering.Run(context.Background(), bot, opt, nopRecorder{})
		if err == nil || strings.Contains(err.Error(), debugHintText) != tc.hint {
			t.Errorf("%s: %v, want a failure with the debug hint %v", tc.print, err, tc.hint)
		}
	}
	d := DefaultEvent{Hand: 1, Position: 2, Phase: Ordering, Answer: "Phase ordering", Default: "p",
		Reason: checkOrder("phase ordering")}
	if got := describeDefault(d, DecisionEvent{}); !strings.HasSuffix(got, "o or p "+debugHintText) {
		t.Errorf("game case: %q, want the debug hint", got)
	}
	d.Reason = "time: no answer within its move limit of 1s"
	if got := describeDefault(d, DecisionEvent{}); strings.Contains(got, debugHintText) {
		t.Errorf("a time-out: %q, want no debug hint", got)
	}
}

// TestCheckFirstCardBot: a bot that always plays the first card of its
// hand, following suit or not, fails the cases of one legal card, whose
// legal card is not the hand's first.
func TestCheckFirstCardBot(t *testing.T) {
	opt := drivers.CheckOptions{Move: drivers.Duration(3 * time.Second)}
	bot := drivers.Seat{Bot: "first", Command: []string{"sh", "-c", `IFS= read -r h; cat >/dev/null; echo "${h%%,*}"`}, Dir: t.TempDir()}
	for _, c := range (Driver{}).CheckCases() {
		if c.Name != "follow-suit" && c.Name != "left-bower" && c.Name != "bower-not-led" {
			continue
		}
		err := c.Run(context.Background(), bot, opt, nopRecorder{})
		if err == nil || !strings.Contains(err.Error(), "must follow suit") {
			t.Errorf("%s: %v, want a failure saying it must follow suit", c.Name, err)
		}
	}
}
