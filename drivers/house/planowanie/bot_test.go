package planowanie

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHouseBotSession checks the bot side of the protocol on a scripted
// session; the hand is one card, so every bot has only one answer.
func TestHouseBotSession(t *testing.T) {
	in := strings.Join([]string{
		"set_deck 23456789TJQKA CDHS",
		"",
		"set_players 4 2",
		"set_game 1 1 1",
		"   ",
		"set_cards 1 QH",
		"time_left 1000",
		"gen_declare",
		"declare 0 0",
		"declare 1 1",
		"declare 2 0",
		"declare 3 0",
		"play 1 2H",
		"time_left 900",
		"gen_move",
		"frobnicate",
		"set_players four",
		"play 2 QH",
		"quit",
		"gen_move", // after quit: never read
	}, "\n") + "\n"
	want := "=\n\n=\n\n=\n\n=\n\n=\n\n= %d\n\n=\n\n=\n\n=\n\n=\n\n=\n\n=\n\n= QH\n\n" +
		"? unknown command frobnicate\n\n? set_players takes 2 arguments\n\n=\n\n=\n\n"
	for _, b := range HouseBots() {
		t.Run(b.Name, func(t *testing.T) {
			var out bytes.Buffer
			env := func(string) string { return "" }
			if err := b.Run(strings.NewReader(in), &out, env); err != nil {
				t.Fatalf("Run = %v, want nil after quit", err)
			}
			got := out.String()
			// The declaration of a one-card hand is 0 or 1.
			w0, w1 := strings.Replace(want, "%d", "0", 1), strings.Replace(want, "%d", "1", 1)
			if got != w0 && got != w1 {
				t.Fatalf("session output:\n%s", cmp.Diff(w0, got))
			}
		})
	}
}

func TestHouseBotEndsAtEOF(t *testing.T) {
	for _, b := range HouseBots() {
		t.Run(b.Name, func(t *testing.T) {
			var out bytes.Buffer
			if err := b.Run(strings.NewReader("set_players 4 0\n"), &out, nil); err != nil {
				t.Fatalf("Run = %v, want nil at EOF", err)
			}
			if out.String() != "=\n\n" {
				t.Fatalf("output %q", out.String())
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestHouseBotReportsWriteError(t *testing.T) {
	err := HouseBots()[0].Run(strings.NewReader("quit\n"), failingWriter{}, nil)
	if err == nil {
		t.Fatal("Run = nil, want the write error")
	}
}

var _ io.Writer = failingWriter{}

// TestTable follows a bot's knowledge through a two-trick deal.
func TestTable(t *testing.T) {
	tb := newTable()
	steps := []struct {
		name string
		cmd  string
		err  string // substring of the error answer, "" for success
		want func(tb *table) string
	}{
		{"a bot's seat comes from set_players", "set_players 3 1", "", nil},
		{"the schedule sets the first leader", "set_game 1 2 2", "", nil},
		{"declare before any cards is refused", "declare 0 1", "no cards dealt", nil},
		{"the hand is kept sorted", "set_cards 2 AS 3C", "", func(tb *table) string {
			return check(FormatCards(tb.hand) == "3C AS" && tb.leader == 2, "hand %s leader %d", FormatCards(tb.hand), tb.leader)
		}},
		{"a wrong card count is refused", "set_cards 3 AS 3C", "does not count", nil},
		{"declarations are stored by seat", "declare 1 1", "", func(tb *table) string {
			return check(tb.declared[1] == 1 && tb.need() == 1, "declared %v", tb.declared)
		}},
		{"the leader's card starts the trick", "play 2 KD", "", func(tb *table) string {
			return check(tb.led() == 'D', "led %q", tb.led())
		}},
		{"not following suit shows a void", "play 0 5H", "", func(tb *table) string {
			return check(tb.void[0][1], "void %v", tb.void[0])
		}},
		{"our card leaves the hand; a trump takes the trick and the lead", "play 1 3C", "", func(tb *table) string {
			return check(FormatCards(tb.hand) == "AS" && tb.tricks[1] == 1 && tb.leader == 1 && len(tb.trick) == 0 && tb.need() == 0,
				"hand %s tricks %v leader %d", FormatCards(tb.hand), tb.tricks, tb.leader)
		}},
		{"a card not in the deck is refused", "play 2 1S", "not a card", nil},
		{"a player not at the table is refused", "play 3 AS", "no player", nil},
		{"cards seen are not unseen", "time_left 5", "", func(tb *table) string {
			return check(tb.unseenCount() == 52-3-1 && !tb.unseen(Card{'K', 'D'}) && !tb.unseen(Card{'A', 'S'}) && tb.timeLeft == 5,
				"unseen %d", tb.unseenCount())
		}},
	}
	for _, s := range steps {
		_, err := tb.handle(strings.Fields(s.cmd), firstLegal{})
		switch {
		case s.err == "" && err != nil:
			t.Fatalf("%s: %s = %v", s.name, s.cmd, err)
		case s.err != "" && (err == nil || !strings.Contains(err.Error(), s.err)):
			t.Fatalf("%s: %s = %v, want an error containing %q", s.name, s.cmd, err, s.err)
		}
		if s.want != nil {
			if msg := s.want(tb); msg != "" {
				t.Fatalf("%s: after %s: %s", s.name, s.cmd, msg)
			}
		}
	}
}

func check(ok bool, format string, args ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, args...)
}

// firstLegal declares nothing and plays its first legal card: a predictable
// bot for tests of the table.
type firstLegal struct{}

func (firstLegal) declare(*table) int { return 0 }
func (firstLegal) move(t *table) Card { return Legal(t.hand, t.led())[0] }
