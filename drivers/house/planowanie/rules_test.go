package planowanie

import (
	"strings"
	"testing"
)

// cards reads a space-separated list of cards of the tournament deck.
func cards(t testing.TB, s string) []Card {
	t.Helper()
	var out []Card
	for _, f := range strings.Fields(s) {
		c, ok := TournamentDeck().Parse(f)
		if !ok {
			t.Fatalf("bad card %q in test", f)
		}
		out = append(out, c)
	}
	return out
}

func TestDeckValidate(t *testing.T) {
	tests := []struct {
		name    string
		deck    Deck
		wantErr string // substring; empty for a valid deck
	}{
		{"the tournament deck is valid", TournamentDeck(), ""},
		{"one rank and one suit is enough", Deck{Ranks: "A", Suits: "S"}, ""},
		{"a character may be both a rank and a suit", Deck{Ranks: "123", Suits: "12"}, ""},
		{"punctuation is printable", Deck{Ranks: "!~", Suits: "#$"}, ""},
		{"ranks must not be empty", Deck{Ranks: "", Suits: "CDHS"}, "no ranks"},
		{"suits must not be empty", Deck{Ranks: "23", Suits: ""}, "no suits"},
		{"ranks must be unique", Deck{Ranks: "2342", Suits: "CD"}, `contain '2' twice`},
		{"suits must be unique", Deck{Ranks: "23", Suits: "CDC"}, `contain 'C' twice`},
		{"a space is not a rank", Deck{Ranks: "2 3", Suits: "CD"}, "printable ASCII"},
		{"a tab is not a suit", Deck{Ranks: "23", Suits: "C\tD"}, "printable ASCII"},
		{"non-ASCII is rejected", Deck{Ranks: "23", Suits: "C♥"}, "printable ASCII"},
		{"both halves are reported at once", Deck{Ranks: "", Suits: ""}, "no ranks: give at least one character\nthe deck has no suits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.deck.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDeckSizeAndCards(t *testing.T) {
	d := TournamentDeck()
	if d.Size() != 52 || len(d.Cards()) != 52 {
		t.Fatalf("Size() = %d, len(Cards()) = %d, want 52", d.Size(), len(d.Cards()))
	}
	if got := FormatCards(d.Cards()[:3]); got != "2C 3C 4C" {
		t.Errorf("Cards() starts %q, want trump suit first, ranks ascending", got)
	}
}

func TestParse(t *testing.T) {
	d := TournamentDeck()
	tests := []struct {
		name string
		in   string
		want Card
		ok   bool
	}{
		{"rank then suit", "TD", Card{'T', 'D'}, true},
		{"trump card", "2C", Card{'2', 'C'}, true},
		{"suit then rank is not a card", "DT", Card{}, false},
		{"unknown rank", "1S", Card{}, false},
		{"unknown suit", "AX", Card{}, false},
		{"lower case is not the deck's", "as", Card{}, false},
		{"too long", "10S", Card{}, false},
		{"empty", "", Card{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := d.Parse(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("Parse(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
			if ok && got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

func TestLegal(t *testing.T) {
	tests := []struct {
		name string
		hand string
		led  byte
		want string
	}{
		{"the leader may play anything", "2C 5D AS", 0, "2C 5D AS"},
		{"must follow the led suit", "2C 5D 9D AS", 'D', "5D 9D"},
		{"following is required even with a trump in hand", "2C 5D", 'D', "5D"},
		{"void in the led suit may play anything", "2C 5D AS", 'H', "2C 5D AS"},
		{"void may trump or discard", "3C 4S", 'D', "3C 4S"},
		{"led trump must be followed with trump", "2C 7C 5D", 'C', "2C 7C"},
		{"a single card is always legal", "KH", 'S', "KH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FormatCards(Legal(cards(t, tt.hand), tt.led))
			if got != tt.want {
				t.Fatalf("Legal(%s, %q) = %s, want %s", tt.hand, tt.led, got, tt.want)
			}
		})
	}
}

func TestLegalDoesNotAliasHand(t *testing.T) {
	hand := cards(t, "2C 5D")
	Legal(hand, 0)[0] = Card{'A', 'S'}
	if FormatCards(hand) != "2C 5D" {
		t.Fatalf("changing Legal's result changed the hand to %s", FormatCards(hand))
	}
}

func TestWinner(t *testing.T) {
	d := TournamentDeck() // clubs are trump
	tests := []struct {
		name  string
		trick string
		want  int
	}{
		{"highest of the led suit without trumps", "5D KD 2D 9D", 1},
		{"the led card wins if nobody beats it", "AD 2D 3D 4D", 0},
		{"a higher card of another suit does not win", "5D AS AH 2D", 0},
		{"a trump beats the led suit", "AD 2C KD QD", 1},
		{"the highest trump wins among trumps", "AD 2C 9C 3C", 2},
		{"led trumps: highest trump", "5C AC KD 7C", 1},
		{"a later discard never wins", "5D 6D AS 7H", 1},
		{"two players", "3H 2H", 0},
		{"a single card wins its trick", "7S", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.Winner(cards(t, tt.trick)); got != tt.want {
				t.Fatalf("Winner(%s) = %d, want %d", tt.trick, got, tt.want)
			}
		})
	}
}

func TestWinnerOtherTrump(t *testing.T) {
	d := Deck{Ranks: "123", Suits: "ba"} // b is trump
	trick := []Card{{'3', 'a'}, {'1', 'b'}}
	if got := d.Winner(trick); got != 1 {
		t.Fatalf("Winner = %d, want the first suit of the deck to be trump", got)
	}
}

func TestDealScore(t *testing.T) {
	tests := []struct {
		name                    string
		tricks, declared, cards int
		want                    int
	}{
		{"exact declaration earns the bonus", 3, 3, 7, 10},
		{"exact zero earns the bonus", 0, 0, 5, 5},
		{"too few tricks: tricks only", 2, 3, 7, 2},
		{"too many tricks: tricks only", 4, 3, 7, 4},
		{"missed zero: tricks only", 1, 0, 1, 1},
		{"all tricks declared and taken", 13, 13, 13, 26},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DealScore(tt.tricks, tt.declared, tt.cards); got != tt.want {
				t.Fatalf("DealScore(%d, %d, %d) = %d, want %d", tt.tricks, tt.declared, tt.cards, got, tt.want)
			}
		})
	}
}

func TestSettingsValidate(t *testing.T) {
	small := Deck{Ranks: "234", Suits: "XY"} // 6 cards
	tests := []struct {
		name    string
		s       Settings
		players int
		wantErr string
	}{
		{"the tournament game is valid for 4", Tournament(), 4, ""},
		{"the tournament schedule has leaders for 4 seats", Tournament(), 2, "deal 3 is led by player 2, but with 2 players the leader must be between 0 and 1"},
		{"one player is not a game", Tournament(), 1, "at least 2 players"},
		{"the deck must hold every hand", Tournament(), 5, "deal 11 gives 11 cards to each of 5 players, 55 in all, but the deck has only 52"},
		{"a small deck holding every hand", Settings{Deck: small, Deals: []DealSpec{{3, 1}}}, 2, ""},
		{"a game needs deals", Settings{Deck: small}, 2, "no deals"},
		{"a deal gives at least one card", Settings{Deck: small, Deals: []DealSpec{{0, 0}}}, 2, "deal 1 gives 0 cards"},
		{"the leader is a seat", Settings{Deck: small, Deals: []DealSpec{{1, 2}}}, 2, "leader must be between 0 and 1"},
		{"a negative leader is no seat", Settings{Deck: small, Deals: []DealSpec{{1, -1}}}, 2, "led by player -1"},
		{"the deck is checked first", Settings{Deck: Deck{Ranks: "22", Suits: "X"}, Deals: []DealSpec{{1, 0}}}, 2, "twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate(tt.players)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Validate(%d) = %v, want nil", tt.players, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate(%d) = %v, want an error containing %q", tt.players, err, tt.wantErr)
			}
		})
	}
}
