package planowanie

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Deck is the set of cards a game is played with. Ranks run from lowest to
// highest; the first suit is trump for the whole game.
type Deck struct {
	Ranks string `json:"ranks"`
	Suits string `json:"suits"`
}

// TournamentDeck is the deck of every ITPW tournament game.
func TournamentDeck() Deck {
	return Deck{Ranks: "23456789TJQKA", Suits: "CDHS"}
}

// Validate reports why d cannot be played with, as a sentence that says how
// to fix it. A character may be both a rank and a suit: a card is read by
// position (rank, then suit), so the two never get confused.
func (d Deck) Validate() error {
	var errs []error
	check := func(what, s string) {
		if s == "" {
			errs = append(errs, fmt.Errorf("the deck has no %s: give at least one character", what))
			return
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c <= ' ' || c > '~' {
				errs = append(errs, fmt.Errorf("the %s %q contain %q: every %s must be a single printable ASCII character other than a space", what, s, rune(c), strings.TrimSuffix(what, "s")))
				return
			}
			if j := strings.IndexByte(s, c); j < i {
				errs = append(errs, fmt.Errorf("the %s %q contain %q twice: every %s must be different", what, s, rune(c), strings.TrimSuffix(what, "s")))
				return
			}
		}
	}
	check("ranks", d.Ranks)
	check("suits", d.Suits)
	return errors.Join(errs...)
}

// Size is the number of cards in the deck.
func (d Deck) Size() int { return len(d.Ranks) * len(d.Suits) }

// Trump is the trump suit.
func (d Deck) Trump() byte { return d.Suits[0] }

// Cards lists every card of the deck, suit by suit in the deck's suit order,
// ranks ascending. Dealing shuffles this list, so its order is part of what
// makes a seed give the same hands forever.
func (d Deck) Cards() []Card {
	cards := make([]Card, 0, d.Size())
	for i := 0; i < len(d.Suits); i++ {
		for j := 0; j < len(d.Ranks); j++ {
			cards = append(cards, Card{Rank: d.Ranks[j], Suit: d.Suits[i]})
		}
	}
	return cards
}

// Parse reads a card written as rank then suit ("TD"); ok is false when s is
// not a card of this deck.
func (d Deck) Parse(s string) (c Card, ok bool) {
	if len(s) != 2 || strings.IndexByte(d.Ranks, s[0]) < 0 || strings.IndexByte(d.Suits, s[1]) < 0 {
		return Card{}, false
	}
	return Card{Rank: s[0], Suit: s[1]}, true
}

// rank is the strength of c within its suit, from 0.
func (d Deck) rank(c Card) int { return strings.IndexByte(d.Ranks, c.Rank) }

// suit is the position of c's suit in the deck, from 0 (trump).
func (d Deck) suit(c Card) int { return strings.IndexByte(d.Suits, c.Suit) }

// Compare orders cards for reading a hand: by suit in the deck's order
// (trump first), then by rank.
func (d Deck) Compare(a, b Card) int {
	if s := d.suit(a) - d.suit(b); s != 0 {
		return s
	}
	return d.rank(a) - d.rank(b)
}

// Sort sorts a hand in place, in the order of Compare.
func (d Deck) Sort(hand []Card) {
	slices.SortFunc(hand, d.Compare)
}

// Winner is the index in trick (trick[0] was led) of the card that takes it:
// the highest trump if any trump was played, otherwise the highest card of
// the led suit. Cards of any other suit never win.
func (d Deck) Winner(trick []Card) int {
	best := 0
	for i := 1; i < len(trick); i++ {
		if d.beats(trick[i], trick[best]) {
			best = i
		}
	}
	return best
}

// beats reports whether c takes a trick that best is winning so far. Since
// best already wins, a card of a third suit can never beat it.
func (d Deck) beats(c, best Card) bool {
	if c.Suit == best.Suit {
		return d.rank(c) > d.rank(best)
	}
	return c.Suit == d.Trump()
}

// Card is one card, e.g. {Rank: 'T', Suit: 'D'}.
type Card struct {
	Rank, Suit byte
}

// String writes the card the way the protocol does: rank then suit ("TD").
func (c Card) String() string { return string([]byte{c.Rank, c.Suit}) }

// FormatCards writes cards the way set_cards does: separated by spaces.
func FormatCards(cards []Card) string {
	var b strings.Builder
	for i, c := range cards {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(c.Rank)
		b.WriteByte(c.Suit)
	}
	return b.String()
}

// Legal lists the cards of hand that may be played to a trick whose led suit
// is led; led is 0 when the player leads, and then any card goes. A player
// must follow the led suit when it can, and may play anything when it cannot.
func Legal(hand []Card, led byte) []Card {
	if led != 0 {
		var follow []Card
		for _, c := range hand {
			if c.Suit == led {
				follow = append(follow, c)
			}
		}
		if len(follow) > 0 {
			return follow
		}
	}
	return slices.Clone(hand)
}

// DealScore is what one player scores for a deal of cards cards: one point a
// trick, plus a bonus of cards when it took exactly what it declared.
func DealScore(tricks, declared, cards int) int {
	if tricks == declared {
		return tricks + cards
	}
	return tricks
}

// DealSpec is one deal of a game: how many cards every player gets, and which
// player leads the first trick.
type DealSpec struct {
	Cards  int `json:"cards"`
	Leader int `json:"leader"`
}

// Settings is a whole game: the deck and the list of deals. It is what a
// match plan records, so it is plain JSON.
type Settings struct {
	Deck  Deck       `json:"deck"`
	Deals []DealSpec `json:"deals"`
	// DeclarationsTogether judges a deal's declarations together, as the
	// rules make them ("without seeing the others ... revealed
	// together"): a seat whose declaration is a fault does not end the
	// match before the seats after it have declared, so every seat whose
	// declaration in that deal is one has its own fault and they share
	// the last places. False, in a plan written before the rule, ends the
	// match at the first such seat in seat order (the seats after it, not
	// asked, are winners), so that such a plan resumes and replays as it
	// was played.
	DeclarationsTogether bool `json:"declarations_together,omitempty"`
}

// Tournament is the ITPW tournament game for 4 players: 13 deals of 1 to 13
// cards, the leader moving one seat clockwise every deal.
func Tournament() Settings {
	s := Settings{Deck: TournamentDeck(), DeclarationsTogether: true}
	for i := range 13 {
		s.Deals = append(s.Deals, DealSpec{Cards: i + 1, Leader: i % 4})
	}
	return s
}

// Validate reports why s cannot be played by the given number of players, in
// sentences that say how to fix it.
func (s Settings) Validate(players int) error {
	if err := s.Deck.Validate(); err != nil {
		return err
	}
	var errs []error
	if players < 2 {
		errs = append(errs, fmt.Errorf("planowanie needs at least 2 players, not %d", players))
	}
	if len(s.Deals) == 0 {
		errs = append(errs, errors.New("the game has no deals: give at least one"))
	}
	for i, d := range s.Deals {
		if d.Cards < 1 {
			errs = append(errs, fmt.Errorf("deal %d gives %d cards: every deal must give every player at least one card", i+1, d.Cards))
		} else if players >= 2 && players*d.Cards > s.Deck.Size() {
			errs = append(errs, fmt.Errorf("deal %d gives %d cards to each of %d players, %d in all, but the deck has only %d cards", i+1, d.Cards, players, players*d.Cards, s.Deck.Size()))
		}
		if players >= 2 && (d.Leader < 0 || d.Leader >= players) {
			errs = append(errs, fmt.Errorf("deal %d is led by player %d, but with %d players the leader must be between 0 and %d", i+1, d.Leader, players, players-1))
		}
	}
	return errors.Join(errs...)
}
