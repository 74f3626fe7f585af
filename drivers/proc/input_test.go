package proc

import (
	"errors"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A time fault records what the bot did with its input only for a
// session that explains its faults (Spec.Explain, set by check and
// console): a tournament's pays no look at the bot's threads.
func TestSlownessOnlyWhenExplained(t *testing.T) {
	for _, explain := range []bool{false, true} {
		spec := botSpec(t, "silent", drivers.Clock{Move: drivers.Duration(300 * time.Millisecond)})
		spec.Explain = explain
		s := start(t, spec)
		err := s.Exchange("go", readAnswer(s))
		s.Kill()
		var f *Fault
		if !errors.As(err, &f) || !f.Silent {
			t.Fatalf("Explain %v: Exchange = %v, want a silent time fault", explain, err)
		}
		if got := f.Slow.Wait > 0; got != explain {
			t.Errorf("Explain %v: Slow = %+v, want it recorded %v", explain, f.Slow, explain)
		}
	}
}

// The pipe of a bot that read the command and no further holds the
// lines written after it: what is written of them. More than that is
// the command unread.
func TestBytesAfter(t *testing.T) {
	text := []byte("set_deck D\nset_players 4 1\nset_game g\n")
	for _, tc := range []struct {
		next  []string
		wrote int
		want  int
	}{
		{[]string{"set_players 4 1", "set_game g"}, len(text), 27}, // on set_deck
		{[]string{"set_game g"}, len(text), 11},                    // on set_players
		{nil, len(text), 0},                                        // on set_game
		{[]string{"set_game g"}, len(text) - 5, 6},                 // its end not yet written
		{[]string{"set_game g"}, 10, 0},                            // none of it written
	} {
		s := &Session{text: text, wrote: tc.wrote, next: tc.next}
		if got := s.bytesAfter(); got != tc.want {
			t.Errorf("next %q, wrote %d: bytesAfter = %d, want %d", tc.next, tc.wrote, got, tc.want)
		}
	}
}
