package euchre

import "strings"

// The deck and its letters are the protocol's: bots read and write them,
// and the bowers tie the rules to the jacks and the colour pairs, so they
// are not a setting.
const (
	rankLetters = "9tjqka" // ascending outside trump
	suitLetters = "cshd"   // clubs/spades and hearts/diamonds are the colour pairs
	deckSize    = len(rankLetters) * len(suitLetters)
	jack        = 2 // index of j in rankLetters
)

// Suit is an index into suitLetters.
type Suit uint8

// Card is suit*6 + rank index; NoCard stands for a player who sits out.
type Card uint8

// NoCard is written "p" in turn and trick inputs.
const NoCard Card = 255

func (s Suit) String() string { return suitLetters[s : s+1] }

// Sister is the other suit of the same colour, whose jack is the left bower.
func (s Suit) Sister() Suit { return s ^ 1 }

func cardOf(rank int, s Suit) Card { return Card(int(s)*len(rankLetters) + rank) }

// Rank is the card's index in rankLetters.
func (c Card) Rank() int { return int(c) % len(rankLetters) }

// Suit is the printed suit; see Follows for the suit a card belongs to in play.
func (c Card) Suit() Suit { return Suit(int(c) / len(rankLetters)) }

func (c Card) String() string {
	if c == NoCard {
		return "p"
	}
	return string([]byte{rankLetters[c.Rank()], suitLetters[c.Suit()]})
}

// ParseCard reads a card like "js"; it wants lower case.
func ParseCard(s string) (Card, bool) {
	if len(s) != 2 {
		return 0, false
	}
	r := strings.IndexByte(rankLetters, s[0])
	u := strings.IndexByte(suitLetters, s[1])
	if r < 0 || u < 0 {
		return 0, false
	}
	return cardOf(r, Suit(u)), true
}

// ParseSuit reads a suit letter.
func ParseSuit(s string) (Suit, bool) {
	if len(s) != 1 {
		return 0, false
	}
	u := strings.IndexByte(suitLetters, s[0])
	return Suit(u), u >= 0
}

// IsRight reports whether c is the right bower, the jack of trump.
func (c Card) IsRight(trump Suit) bool { return c != NoCard && c.Rank() == jack && c.Suit() == trump }

// IsLeft reports whether c is the left bower, the jack of trump's sister.
func (c Card) IsLeft(trump Suit) bool {
	return c != NoCard && c.Rank() == jack && c.Suit() == trump.Sister()
}

// Follows is the suit c belongs to when trump is trump: the left bower is
// a trump for every purpose.
func (c Card) Follows(trump Suit) Suit {
	if c.IsLeft(trump) {
		return trump
	}
	return c.Suit()
}

// Power orders the cards of a trick: trumps above the led suit, everything
// else 0 (it cannot win).
func (c Card) Power(trump, led Suit) int {
	switch {
	case c == NoCard:
		return 0
	case c.IsRight(trump):
		return 40
	case c.IsLeft(trump):
		return 39
	case c.Suit() == trump:
		return 30 + c.Rank()
	case c.Suit() == led:
		return 10 + c.Rank()
	}
	return 0
}

// Legal lists the cards of hand that may be played to a trick whose first
// card is first (NoCard when leading), in hand order.
func Legal(hand []Card, trump Suit, first Card) []Card {
	if first == NoCard {
		return hand
	}
	led := first.Follows(trump)
	var follow []Card
	for _, c := range hand {
		if c.Follows(trump) == led {
			follow = append(follow, c)
		}
	}
	if len(follow) == 0 {
		return hand
	}
	return follow
}

// Winner is the index in trick (cards in order of play, NoCard for one who
// sits out) of the card that takes it.
func Winner(trick []Card, trump Suit) int {
	led := trick[0].Follows(trump)
	best := 0
	for i, c := range trick {
		if c.Power(trump, led) > trick[best].Power(trump, led) {
			best = i
		}
	}
	return best
}

// FormatCards writes cards comma separated, as the protocol does.
func FormatCards(cards []Card) string {
	var b strings.Builder
	for i, c := range cards {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// ParseCards reads a comma separated list of cards and "p"s; an empty
// string is no cards.
func ParseCards(s string) ([]Card, bool) {
	if s == "" {
		return nil, true
	}
	var out []Card
	for _, f := range strings.Split(s, ",") {
		if f == "p" {
			out = append(out, NoCard)
			continue
		}
		c, ok := ParseCard(f)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

func contains(cards []Card, c Card) bool {
	for _, x := range cards {
		if x == c {
			return true
		}
	}
	return false
}

// Without is cards without c, in a new slice.
func Without(cards []Card, c Card) []Card {
	out := make([]Card, 0, len(cards))
	for _, x := range cards {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}
