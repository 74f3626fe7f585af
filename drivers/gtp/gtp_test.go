package gtp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestServeFraming checks the bot side's answers: '=' with and without
// text, '?' with the error, blank lines skipped, and the end at quit.
func TestServeFraming(t *testing.T) {
	in := strings.NewReader("name\n\n  \nempty\nbad x\nquit\nname\n")
	var out strings.Builder
	var seen []string
	err := Serve(in, &out, func(f []string) (string, error) {
		seen = append(seen, strings.Join(f, " "))
		switch f[0] {
		case "name":
			return "house bot", nil
		case "bad":
			return "", errors.New("bad takes nothing")
		}
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "= house bot\n\n=\n\n? bad takes nothing\n\n=\n\n"
	if out.String() != want {
		t.Errorf("answers %q, want %q", out.String(), want)
	}
	if got := strings.Join(seen, "|"); got != "name|empty|bad x|quit" {
		t.Errorf("handled %q, want the commands up to quit", got)
	}
}

// scripted is a Player that answers from a script, by command name, and
// is not a Pipeliner: Match asks it one command after another.
type scripted map[string]Answer

func (p scripted) Ask(cmd string) (bool, string, error) {
	a := p[strings.Fields(cmd)[0]]
	return a.OK, a.Text, a.Err
}
func (p scripted) Left() (time.Duration, bool) { return time.Second, true }

// A refused time_left is a warning even when the decision after it is a
// fault: both are recorded, the warning first.
func TestGenRefusedTimeLeftThenFault(t *testing.T) {
	rec := &lines{}
	p := scripted{"time_left": {Text: "no clocks here"}, "gen_move": {Err: errors.New("pipe closed")}}
	m := NewMatch(context.Background(), []Player{p}, rec)
	if _, err := m.Gen(0, "gen_move"); err != ErrOver {
		t.Fatalf("Gen = %v, want ErrOver", err)
	}
	got := rec.get()
	if len(got) != 2 || !strings.HasPrefix(got[0], "warning {Seat:0 Command:time_left Answer:no clocks here}") ||
		!strings.HasPrefix(got[1], "fault {Seat:0 Kind:crash Detail:pipe closed, answering gen_move") {
		t.Errorf("events %q, want the warning then the fault", got)
	}
}
