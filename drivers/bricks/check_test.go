package bricks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// TestCheckAfterLastMove: a case that ends on the bot's move where a
// duel goes on (the other player moves) judges what the bot wrote after
// its move, as the duel does: a line of debug output, or its move again,
// is taken there for its answer to the other player's move. Where no
// domino fits after the bot's move (one-move) the duel is over, STOP
// follows, and nothing after the move is judged. These cases passed
// such bots, which then faulted in every duel.
func TestCheckAfterLastMove(t *testing.T) {
	cases := map[string]drivers.CheckCase{}
	for _, c := range (Driver{}).CheckCases() {
		cases[c.Name] = c
	}
	// The clock case by limits that a loaded machine meets.
	long := Limits{Startup: drivers.Duration(time.Minute), Move: drivers.Duration(time.Minute), Silence: drivers.Duration(2 * time.Minute)}
	opt := drivers.CheckOptions{Move: drivers.Duration(10 * time.Second), Game: testGame(5, nil, long)}
	for _, tc := range []struct {
		mode, cases, want string
	}{
		{modeFirst, "start reply clock one-move", ""},
		{modeChatty, "start reply clock", "thinking done"},
		{modeChatty, "one-move", ""},
		{modeTwice, "start reply clock", "before it was sent the other player's move"},
		{modeTwice, "one-move", ""},
	} {
		for _, name := range strings.Fields(tc.cases) {
			bot := drivers.Seat{Bot: tc.mode, Command: testbot.Argv(t, tc.mode), Dir: t.TempDir()}
			err := cases[name].Run(context.Background(), bot, opt, nopRecorder{})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s, bot %s: %v, want a pass", name, tc.mode, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s, bot %s: %v, want a failure saying %q", name, tc.mode, err, tc.want)
			case err != nil && strings.Contains(err.Error(), "referee"):
				t.Errorf("%s, bot %s: %v, names a referee, which arbiter check is not", name, tc.mode, err)
			}
		}
	}
}

// TestCheckMoveForOK: a bot that answers the board message with a move,
// having taken the board for a move, is told so, not to write its debug
// output to stderr, which a line that is no move is still told.
func TestCheckMoveForOK(t *testing.T) {
	var ok drivers.CheckCase
	for _, c := range (Driver{}).CheckCases() {
		if c.Name == "ok" {
			ok = c
		}
	}
	opt := drivers.CheckOptions{Move: drivers.Duration(5 * time.Second)}
	for _, tc := range []struct{ answer, want, not string }{
		{"1x1_1x2", "that is a move, but the board message", "debug"},
		{"debug: 7", "(write debug output to stderr)", "a move"},
	} {
		bot := drivers.Seat{Bot: "notok", Command: []string{"sh", "-c", "read -r b; echo '" + tc.answer + "'; cat >/dev/null"}, Dir: t.TempDir()}
		err := ok.Run(context.Background(), bot, opt, nopRecorder{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
			t.Errorf("%q: %v, want a failure saying %q and not %q", tc.answer, err, tc.want, tc.not)
		}
	}
}
