package euchre

import (
	"github.com/arbiter-contests/arbiter/drivers"
	core "github.com/arbiter-contests/arbiter/drivers/house/euchre"
)

// The cards, a bot's reading of its input and the house bots live in
// drivers/house/euchre, which the house bots' processes run without this
// package's configuration language (see drivers/house). These are their
// names here.
type (
	// Suit is a suit (core.Suit).
	Suit = core.Suit
	// Card is a card (core.Card); NoCard stands for a player who sits out.
	Card = core.Card
	// Phase names a kind of input (core.Phase).
	Phase = core.Phase
	// Situation is an input as a bot reads it (core.Situation).
	Situation = core.Situation
)

// NoCard is written "p" in turn and trick inputs.
const NoCard = core.NoCard

// The phases, each a kind of input.
const (
	Ordering = core.Ordering
	Naming   = core.Naming
	Discard  = core.Discard
	Alone    = core.Alone
	Turn     = core.Turn
	Trick    = core.Trick
)

// MemoryFile is the one file the house bots keep in their folder.
const MemoryFile = core.MemoryFile

// ParseCard reads a card like "js"; it wants lower case.
func ParseCard(s string) (Card, bool) { return core.ParseCard(s) }

// ParseSuit reads a suit letter.
func ParseSuit(s string) (Suit, bool) { return core.ParseSuit(s) }

// Legal lists the cards of hand that may be played to a trick whose first
// card is first (NoCard when leading), in hand order.
func Legal(hand []Card, trump Suit, first Card) []Card { return core.Legal(hand, trump, first) }

// Winner is the index in trick (cards in order of play, NoCard for one who
// sits out) of the card that takes it.
func Winner(trick []Card, trump Suit) int { return core.Winner(trick, trump) }

// FormatCards writes cards comma separated, as the protocol does.
func FormatCards(cards []Card) string { return core.FormatCards(cards) }

// ParseCards reads a comma separated list of cards and "p"s; an empty
// string is no cards.
func ParseCards(s string) ([]Card, bool) { return core.ParseCards(s) }

// ParseInput reads the text a bot gets on stdin.
func ParseInput(text string) (*Situation, error) { return core.ParseInput(text) }

// HouseBots lists the bots built into arbiter for Euchre, sorted by name.
func HouseBots() []drivers.HouseBot { return core.HouseBots() }

func without(cards []Card, c Card) []Card { return core.Without(cards, c) }

// Deal is one hand's cards (core.Deal).
type Deal = core.Deal

// DealHand shuffles the deck for hand number hand of a match with seed and
// deals it, starting left of dealer (core.DealHand).
func DealHand(seed uint64, hand, dealer int) Deal { return core.DealHand(seed, hand, dealer) }
