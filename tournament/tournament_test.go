package tournament

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

type textValue interface {
	fmt.Stringer
	encoding.TextMarshaler
}

// roundTrip checks that every value of a type has its own name, which
// MarshalText writes and UnmarshalText reads back, and that the names are
// the ones configurations and plans use, in order.
func roundTrip[T textValue, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, kind string, all []T, want string) {
	t.Helper()
	if got := Names(all); got != want {
		t.Errorf("%s names %s, want %s", kind, got, want)
	}
	for _, v := range all {
		b, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back T
		if err := P(&back).UnmarshalText(b); err != nil || !reflect.DeepEqual(back, v) {
			t.Errorf("%s %q reads back as %v, %v", kind, b, back, err)
		}
	}
	var bad T
	if err := P(&bad).UnmarshalText([]byte("nonesuch")); err == nil {
		t.Errorf("%s: an unknown name reads without error", kind)
	}
}

func TestNames(t *testing.T) {
	roundTrip(t, "format", Formats, `"groups", "round-robin", "gauntlet", "swiss"`)
	roundTrip(t, "seat design", SeatDesigns, `"rotate", "fixed", "swap", "permute", "balanced"`)
	roundTrip(t, "deal mode", DealModes, `"per-match", "per-group", "per-round"`)
	roundTrip(t, "rating", Ratings, `"bayeselo", "placement", "wins", "points"`)
	roundTrip(t, "pairing", Pairings, `"", "rating", "swiss"`)
	var zero struct {
		F Format
		S SeatDesign
		D DealMode
		R Rating
		P Pairing
	}
	if zero.F != Groups || zero.S != Rotate || zero.D != PerMatch || zero.R != BayesElo || zero.P != NoPairing {
		t.Errorf("zero values are not the defaults: %+v", zero)
	}
}

func TestDealCoordinates(t *testing.T) {
	for _, tt := range []struct {
		d      DealMode
		g, s   int
		shared bool
	}{{PerMatch, 3, 2, false}, {PerGroup, 3, 0, true}, {PerRound, 0, 0, true}} {
		if g, s := tt.d.Coordinates(3, 2); g != tt.g || s != tt.s || tt.d.Shared() != tt.shared {
			t.Errorf("%v: coordinates %d, %d, shared %v; want %d, %d, %v", tt.d, g, s, tt.d.Shared(), tt.g, tt.s, tt.shared)
		}
	}
}

func TestSeatDesignChecksAndPlayoffs(t *testing.T) {
	if Swap.Check(2) != nil || Swap.Check(3) == nil || Permute.Check(MaxPermutePlayers) != nil || Permute.Check(MaxPermutePlayers+1) == nil {
		t.Error("swap must need two players and permute at most MaxPermutePlayers")
	}
	for _, tt := range []struct {
		s    SeatDesign
		k    int
		want SeatDesign
	}{{Swap, 2, Swap}, {Swap, 3, Rotate}, {Permute, 4, Permute}, {Permute, 7, Balanced}, {Fixed, 5, Fixed}, {Balanced, 3, Balanced}, {Rotate, 9, Rotate}} {
		if got := tt.s.ForGroup(tt.k); got != tt.want {
			t.Errorf("%v.ForGroup(%d) = %v, want %v", tt.s, tt.k, got, tt.want)
		}
	}
	if !Swap.PairsGames(2, PerGroup) || Swap.PairsGames(2, PerMatch) || Rotate.PairsGames(2, PerRound) {
		t.Error("only swapped seats on a shared deal are paired games")
	}
}

func TestListing(t *testing.T) {
	bots := []string{"a", "b", "c", "d", "e"}
	draw := func(r int) []string { return bots }
	s := &Setup{Bots: bots, Players: 2, Rounds: 3, Seatings: 2, Fill: 1, Draw: draw}
	l, err := Groups.List(s)
	if err != nil || len(l.Rounds) != 3 || l.Pairing != NoPairing || !reflect.DeepEqual(l.Rounds[0], [][]string{{"a", "b"}, {"c", "d"}, {"e"}}) {
		t.Errorf("groups: %+v, %v", l, err)
	}
	s.RandomRounds = 1
	if l, err := Groups.List(s); err != nil || len(l.Rounds) != 1 || l.Pairing != ByRating || l.From != 2 {
		t.Errorf("groups by rating: %+v, %v", l, err)
	}
	if l, err := Swiss.List(s); err != nil || len(l.Rounds) != 1 || l.Pairing != ByScore || l.From != 2 {
		t.Errorf("swiss: %+v, %v", l, err)
	}
	if l, err := RoundRobin.List(s); err != nil || len(l.Rounds) != 3 || len(l.Rounds[0]) != 10 {
		t.Errorf("round robin: %+v, %v", l, err)
	}
	s.Candidates = []string{"c"}
	if l, err := Gauntlet.List(s); err != nil || !reflect.DeepEqual(l.Rounds[0], [][]string{{"c", "a"}, {"c", "b"}, {"c", "d"}, {"c", "e"}}) {
		t.Errorf("gauntlet: %+v, %v", l, err)
	}
	s.Fill = 0
	if _, err := Groups.List(s); err == nil {
		t.Error("groups of 2 from 5 bots without fill listed")
	}
	s.Bots = make([]string, 2000)
	var many *TooManyMatches
	if _, err := RoundRobin.List(s); !errors.As(err, &many) || *many != (TooManyMatches{"round robin", -1, 3}) {
		t.Errorf("a round robin of two million matches a round: %v (%+v)", err, many)
	}
	// Which setting is too large: the rounds, when a round fits.
	s.Bots, s.Players, s.Rounds = bots, 2, 1<<31-1
	if _, err := RoundRobin.List(s); !errors.As(err, &many) || *many != (TooManyMatches{"round robin", 20, 1<<31 - 1}) {
		t.Errorf("a round robin of 20 matches a round for 2^31-1 rounds: %v (%+v)", err, many)
	}
}

// A stage's name is held to one rule, in a configuration and in a saved
// plan: it names match ids and files.
func TestValidStageName(t *testing.T) {
	for name, want := range map[string]bool{
		"final": true, "groups_2": true, "a" + strings.Repeat("b", 39): true,
		"": false, "Final": false, "final-a": false, "2nd": false, "_x": false,
		"playoff": false, "a" + strings.Repeat("b", 40): false, "fínal": false,
	} {
		if got := ValidStageName(name); got != want {
			t.Errorf("ValidStageName(%q) = %v, want %v", name, got, want)
		}
	}
}
