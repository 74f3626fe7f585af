package euchre

import (
	"context"
	"io"
	"strconv"
	"sync"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/euchre"
)

// events records a game's events for tests to inspect.
type events struct {
	mu   sync.Mutex
	list []event
}

type event struct {
	kind string
	data any
}

func (e *events) Sent(int, string)     {}
func (e *events) Received(int, string) {}
func (e *events) Event(kind string, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, event{kind, data})
}

// of returns the data of every event of kind, in order.
func (e *events) of(kind string) []any {
	var out []any
	for _, ev := range e.list {
		if ev.kind == kind {
			out = append(out, ev.data)
		}
	}
	return out
}

type nopRecorder struct{}

func (nopRecorder) Sent(int, string)     {}
func (nopRecorder) Received(int, string) {}
func (nopRecorder) Event(string, any)    {}

// inProcess plays house bots by position without processes, each with its
// memory kept between decisions as the memory file would be.
func inProcess(tb testing.TB, seed uint64, bots [4]string) Decide {
	var mem [4][]byte
	return func(_ context.Context, pos int, _ Phase, input string) (string, string) {
		env := func(k string) string {
			switch k {
			case "ARBITER_SEED":
				return strconv.FormatUint(seed, 10)
			case "ARBITER_POSITION":
				return strconv.Itoa(pos)
			}
			return ""
		}
		a, m, ok, err := core.Decide(bots[pos], input, mem[pos], env)
		if !ok {
			tb.Fatalf("no house bot %q", bots[pos])
		}
		if err != nil {
			tb.Fatalf("position %d cannot read its input: %v\n%s", pos, err, input)
		}
		mem[pos] = m
		return a, ""
	}
}

// team puts house bot a at positions 0 and 2 and b at 1 and 3.
func team(a, b string) [4]string { return [4]string{a, b, a, b} }

// houseRun is the Run of the house bot called name.
func houseRun(name string) func(in io.Reader, out io.Writer, env func(string) string) error {
	for _, hb := range HouseBots() {
		if hb.Name == name {
			return hb.Run
		}
	}
	panic("no house bot " + name)
}

// first is the first card of a trick, NoCard before one is led.
func first(played []Card) Card {
	if len(played) == 0 {
		return NoCard
	}
	return played[0]
}

// asked is one decision a scripted game made.
type asked struct {
	hand, pos int
	phase     Phase
	input     string
	answer    string
}

// scripted plays answers chosen by answer from the parsed input, and
// remembers every input. answer returns "" to fall back to the first valid
// choice (pass, n, the first card of the hand, the first legal card).
type scripted struct {
	tb     testing.TB
	answer func(hand, pos int, s *Situation) string
	hand   int // counts ordering rounds started by position dealer+1
	log    []asked
}

func (sc *scripted) decide(_ context.Context, pos int, phase Phase, input string) (string, string) {
	s, err := ParseInput(input)
	if err != nil {
		sc.tb.Fatalf("position %d: unreadable input: %v\n%s", pos, err, input)
	}
	if phase == Ordering && len(s.Decisions) == 0 {
		sc.hand++
	}
	a := ""
	if sc.answer != nil {
		a = sc.answer(sc.hand, pos, s)
	}
	if a == "" {
		switch phase {
		case Ordering, Naming:
			a = "p"
		case Discard:
			a = s.Hand[0].String()
		case Alone:
			a = "n"
		case Turn:
			a = Legal(s.Hand, s.Trump, first(s.Played))[0].String()
		}
	}
	sc.log = append(sc.log, asked{sc.hand, pos, phase, input, a})
	return a, ""
}

// inputs are the texts of the decisions of a hand, for golden files.
func (sc *scripted) inputs(hand int) string {
	var b []byte
	for _, a := range sc.log {
		if a.hand == hand {
			b = append(b, "=== position "+strconv.Itoa(a.pos)+" "+string(a.phase)+" -> "+a.answer+"\n"+a.input...)
		}
	}
	return string(b)
}

// checkCase is the case of arbiter check named name.
func checkCase(name string) drivers.CheckCase {
	for _, c := range (Driver{}).CheckCases() {
		if c.Name == name {
			return c
		}
	}
	panic("no check case " + name)
}
