package planowanie

import (
	"github.com/arbiter-contests/arbiter/drivers"
	rules "github.com/arbiter-contests/arbiter/drivers/house/planowanie"
)

// The cards, the rules, the deals and the house bots live in
// drivers/house/planowanie, which the house bots' processes run without
// this package's configuration language (see drivers/house). These are
// their names here.
type (
	// Deck is the set of cards a game is played with (rules.Deck).
	Deck = rules.Deck
	// Card is one card (rules.Card).
	Card = rules.Card
	// DealSpec is one deal of a game (rules.DealSpec).
	DealSpec = rules.DealSpec
	// Settings is a whole game (rules.Settings).
	Settings = rules.Settings
)

// TournamentDeck is the deck of every ITPW tournament game.
func TournamentDeck() Deck { return rules.TournamentDeck() }

// Tournament is the ITPW tournament game for 4 players.
func Tournament() Settings { return rules.Tournament() }

// FormatCards writes cards the way set_cards does: separated by spaces.
func FormatCards(cards []Card) string { return rules.FormatCards(cards) }

// Legal lists the cards of hand that may be played to a trick whose led
// suit is led (0 when the player leads).
func Legal(hand []Card, led byte) []Card { return rules.Legal(hand, led) }

// DealScore is what one player scores for a deal of cards cards.
func DealScore(tricks, declared, cards int) int { return rules.DealScore(tricks, declared, cards) }

// Hands deals one deal: players hands of cards cards, hands[i] belonging
// to seat i, each sorted by Deck.Compare.
func Hands(d Deck, seed uint64, deal int, players, cards int) [][]Card {
	return rules.Hands(d, seed, deal, players, cards)
}

// HouseBots lists the bots built into arbiter for Planowanie, sorted by name.
func HouseBots() []drivers.HouseBot { return rules.HouseBots() }
