package euchre

import (
	"math/rand/v2"
)

// Thresholds of the rules bot, in the units of strength (a hand of three
// middling trumps and an off-suit ace is worth about 5). Ordering at 5
// won 74% of 400 games against the example Python bot's strategy, against
// 67% at 6 and 47% at 7 (simple_test.go).
const (
	orderAt = 5.0
	nameAt  = 5.0
	aloneAt = 10.5
)

// cardValue is a card's worth towards taking tricks with trump.
func cardValue(c Card, trump Suit) float64 {
	switch {
	case c.IsRight(trump):
		return 3
	case c.IsLeft(trump):
		return 2.5
	case c.Suit() == trump:
		return []float64{1, 1.2, 0, 1.4, 1.6, 2}[c.Rank()]
	case c.Rank() == len(rankLetters)-1:
		return 0.9
	case c.Rank() == len(rankLetters)-2:
		return 0.3
	}
	return 0
}

// strength is how many trick-taking chances hand has with trump.
func strength(hand []Card, trump Suit) float64 {
	sum, trumps := 0.0, 0
	var suits [4]int
	for _, c := range hand {
		sum += cardValue(c, trump)
		if c.Follows(trump) == trump {
			trumps++
		}
		suits[c.Follows(trump)]++
	}
	if trumps >= 2 {
		for u, n := range suits {
			if Suit(u) != trump && n == 0 {
				sum += 0.4 // a void to ruff in
			}
		}
	}
	return sum
}

// discardChoice is the card a dealer who picks up up throws away: never a
// trump if it can help it, an ace last, and from its shortest suit, to make
// a void.
func discardChoice(hand []Card, up Card) Card {
	trump := up.Suit()
	all := append(append([]Card{}, hand...), up)
	keep := func(c Card) float64 {
		if c.Follows(trump) == trump {
			return 100 + float64(c.Power(trump, trump))
		}
		n := 0
		for _, x := range all {
			if x.Follows(trump) == c.Follows(trump) {
				n++
			}
		}
		v := float64(c.Rank()) + 3*float64(n)
		if c.Rank() == len(rankLetters)-1 {
			v += 50
		}
		return v
	}
	best := all[0]
	for _, c := range all[1:] {
		if keep(c) < keep(best) {
			best = c
		}
	}
	return best
}

// withUpcard is the dealer's hand after picking up up.
func withUpcard(hand []Card, up Card) []Card {
	d := discardChoice(hand, up)
	return append(Without(hand, d), up)
}

func rules(s *Situation, m *memory, _ *rand.Rand) string {
	m.observe(s)
	switch s.Phase {
	case Ordering:
		trump := s.Upcard.Suit()
		v := strength(s.Hand, trump)
		switch m.Index {
		case 3: // dealer: the upcard comes to this hand
			v = strength(withUpcard(s.Hand, s.Upcard), trump)
		case 1: // partner deals
			v += 0.7 * cardValue(s.Upcard, trump)
		default: // an opponent deals and would get it
			v -= 0.5 * cardValue(s.Upcard, trump)
		}
		if v >= orderAt {
			return m.answered(s, "o")
		}
		return m.answered(s, "p")
	case Naming:
		best, bestV := "p", nameAt
		for u := range Suit(4) {
			if m.Upcard != NoCard && u == m.Upcard.Suit() {
				continue
			}
			if v := strength(s.Hand, u); v >= bestV {
				best, bestV = u.String(), v
			}
		}
		return m.answered(s, best)
	case Discard:
		return discardChoice(s.Hand, s.Upcard).String()
	case Alone:
		if m.Made && strength(s.Hand, s.Trump) >= aloneAt {
			return "y"
		}
		return "n"
	case Turn:
		return playCard(s, m).String()
	}
	return ""
}

// playCard is the rules bot's card: lead trumps when its team holds the
// best of them, else aces; win a trick as cheaply as it can, unless its
// partner has it.
func playCard(s *Situation, m *memory) Card {
	trump := s.Trump
	legal := Legal(s.Hand, trump, first(s.Played))
	if len(s.Played) == 0 {
		var trumps, aces []Card
		for _, c := range legal {
			if c.Follows(trump) == trump {
				trumps = append(trumps, c)
			} else if c.Rank() == len(rankLetters)-1 {
				aces = append(aces, c)
			}
		}
		if len(trumps) > 0 && (m.Made || len(trumps) >= 3) && boss(trumps, trump, m.Seen, s.Hand) {
			return highest(trumps, trump)
		}
		if len(aces) > 0 {
			return aces[0]
		}
		if len(trumps) == len(legal) {
			return highest(trumps, trump)
		}
		return lowest(legal, trump)
	}
	led := s.Played[0].Follows(trump)
	w := Winner(s.Played, trump)
	best := s.Played[w].Power(trump, led)
	me := len(s.Played)
	// A player after this one may sit out, but only the lone player and its
	// partner know: play as if someone follows.
	last := me == 3
	partnerWins := w == me-2
	if partnerWins && (last || best >= 14) {
		// An ace of the led suit or a trump: let the partner have it.
		return lowest(legal, trump)
	}
	var winners []Card
	for _, c := range legal {
		if c.Power(trump, led) > best {
			winners = append(winners, c)
		}
	}
	if len(winners) == 0 {
		return lowest(legal, trump)
	}
	if !last && winners[0].Follows(trump) == led && led != trump {
		// Following suit, later players may still beat a small card: play
		// the best of the suit.
		return highest(winners, trump)
	}
	return lowestOf(winners, trump, led)
}

// boss reports whether the highest of trumps is the highest trump not yet
// played.
func boss(trumps []Card, trump Suit, seen, hand []Card) bool {
	top := highest(trumps, trump)
	for c := range Card(deckSize) {
		if c.Follows(trump) == trump && c.Power(trump, trump) > top.Power(trump, trump) &&
			!contains(seen, c) && !contains(hand, c) {
			return false
		}
	}
	return true
}

func highest(cards []Card, trump Suit) Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if c.Power(trump, c.Follows(trump)) > best.Power(trump, best.Follows(trump)) {
			best = c
		}
	}
	return best
}

// lowest is the card to throw away: the lowest outside trump, else the
// lowest trump.
func lowest(cards []Card, trump Suit) Card {
	worth := func(c Card) int {
		if c.Follows(trump) == trump {
			return 100 + c.Power(trump, trump)
		}
		return c.Rank()
	}
	best := cards[0]
	for _, c := range cards[1:] {
		if worth(c) < worth(best) {
			best = c
		}
	}
	return best
}

// lowestOf is the cheapest of cards that all win the trick.
func lowestOf(cards []Card, trump, led Suit) Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if c.Power(trump, led) < best.Power(trump, led) {
			best = c
		}
	}
	return best
}
