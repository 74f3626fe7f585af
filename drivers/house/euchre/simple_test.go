package euchre_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"

	. "github.com/arbiter-contests/arbiter/drivers/euchre"
	core "github.com/arbiter-contests/arbiter/drivers/house/euchre"
)

// simple is examples/euchre/bots/simple.py in Go, to measure the rules bot
// against it in process.
func simple(s *Situation, m *core.Memory, _ *rand.Rand) string {
	m.Observe(s)
	ntrumps := func(h []Card, t Suit) int {
		n := 0
		for _, c := range h {
			if c.Follows(t) == t {
				n++
			}
		}
		return n
	}
	switch s.Phase {
	case Ordering:
		mine := s.Hand
		if len(s.Decisions) == 3 {
			mine = append(append([]Card{}, s.Hand...), s.Upcard)
		}
		if ntrumps(mine, s.Upcard.Suit()) >= 3 {
			return "o"
		}
		return "p"
	case Naming:
		for u := range Suit(4) {
			if (m.Upcard == NoCard || u != m.Upcard.Suit()) && ntrumps(s.Hand, u) >= 3 {
				return u.String()
			}
		}
		return "p"
	case Discard:
		var plain []Card
		for _, c := range s.Hand {
			if c.Follows(s.Upcard.Suit()) != s.Upcard.Suit() {
				plain = append(plain, c)
			}
		}
		if len(plain) == 0 {
			plain = append(append([]Card{}, s.Hand...), s.Upcard)
		}
		return core.Lowest(plain, s.Upcard.Suit()).String()
	case Alone:
		return "n"
	case Turn:
		if len(s.Played) == 0 {
			return core.Highest(s.Hand, s.Trump).String()
		}
		legal := Legal(s.Hand, s.Trump, s.Played[0])
		led := s.Played[0].Follows(s.Trump)
		best := s.Played[Winner(s.Played, s.Trump)].Power(s.Trump, led)
		var winners []Card
		for _, c := range legal {
			if c.Power(s.Trump, led) > best {
				winners = append(winners, c)
			}
		}
		if len(winners) > 0 {
			return core.LowestOf(winners, s.Trump, led).String()
		}
		return core.Lowest(legal, s.Trump).String()
	}
	return ""
}

// TestRulesAgainstSimple: the rules bot must clearly beat the example
// bot's strategy on duplicate deals.
func TestRulesAgainstSimple(t *testing.T) {
	games, wins := 400, 0
	for seed := range uint64(games / 2) {
		for swap := range 2 {
			bots := team(core.Rules, simple)
			if swap == 1 {
				bots = team(simple, core.Rules)
			}
			res, _ := Referee(context.Background(), DefaultSettings(), seed, inProcess(t, seed, bots), nopRecorder{})
			if res.Winner == swap {
				wins++
			}
		}
	}
	t.Logf("rules won %d of %d games against simple", wins, games)
	if wins*100 < games*60 {
		t.Errorf("rules won only %d of %d games against the simple strategy", wins, games)
	}
}

// inProcess plays house strategies by position without processes, each
// with its memory kept between decisions as the memory file would be.
func inProcess(tb testing.TB, seed uint64, bots [4]core.Strategy) Decide {
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
		a, m, err := core.DecideHouse(bots[pos], input, mem[pos], env)
		if err != nil {
			tb.Fatalf("position %d cannot read its input: %v\n%s", pos, err, input)
		}
		mem[pos] = m
		return a, ""
	}
}

// team puts strategy a at positions 0 and 2 and b at 1 and 3.
func team(a, b core.Strategy) [4]core.Strategy { return [4]core.Strategy{a, b, a, b} }

type nopRecorder struct{}

func (nopRecorder) Sent(int, string)     {}
func (nopRecorder) Received(int, string) {}
func (nopRecorder) Event(string, any)    {}
