package euchre

import (
	"fmt"
	"strconv"
	"strings"
)

// Phase names a kind of input; it is the input's fourth line.
type Phase string

const (
	Ordering Phase = "ordering"
	Naming   Phase = "naming"
	Discard  Phase = "discard"
	Alone    Phase = "alone"
	Turn     Phase = "turn"
	Trick    Phase = "trick"
)

// Situation is an input as a bot reads it: the bot side of the protocol,
// shared by the house bots.
type Situation struct {
	Hand   []Card
	Points int
	Tricks int
	Phase  Phase
	// Upcard is set in the ordering and discard phases, else NoCard.
	Upcard Card
	// Decisions are the previous players' answers in the ordering, naming
	// and alone rounds.
	Decisions []string
	// Trump is set in the alone, turn and trick phases.
	Trump Suit
	// Played are the cards of the trick so far (turn) or all four (trick),
	// NoCard for a player who sits out.
	Played []Card
	// Index is the bot's place in Played, in the trick phase.
	Index int
}

// ParseInput reads the text a bot gets on stdin.
func ParseInput(text string) (*Situation, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) < 4 {
		return nil, fmt.Errorf("an input has at least 4 lines, got %d", len(lines))
	}
	s := &Situation{Phase: Phase(lines[3]), Upcard: NoCard}
	var ok bool
	if s.Hand, ok = ParseCards(lines[0]); !ok || contains(s.Hand, NoCard) {
		return nil, fmt.Errorf("bad hand %q", lines[0])
	}
	var err error
	if s.Points, err = strconv.Atoi(lines[1]); err != nil {
		return nil, fmt.Errorf("bad points %q", lines[1])
	}
	if s.Tricks, err = strconv.Atoi(lines[2]); err != nil {
		return nil, fmt.Errorf("bad tricks %q", lines[2])
	}
	rest := lines[4:]
	need := map[Phase]int{Ordering: 2, Naming: 1, Discard: 1, Alone: 2, Turn: 2, Trick: 3}[s.Phase]
	if need == 0 {
		return nil, fmt.Errorf("unknown phase %q", lines[3])
	}
	for len(rest) < need {
		rest = append(rest, "") // a trailing empty line may have been trimmed
	}
	decisions := func(l string) []string {
		if l == "" {
			return nil
		}
		return strings.Split(l, ",")
	}
	suit := func(l string) error {
		if s.Trump, ok = ParseSuit(l); !ok {
			return fmt.Errorf("bad trump %q", l)
		}
		return nil
	}
	switch s.Phase {
	case Ordering, Discard:
		if s.Upcard, ok = ParseCard(rest[0]); !ok {
			return nil, fmt.Errorf("bad upcard %q", rest[0])
		}
		if s.Phase == Ordering {
			s.Decisions = decisions(rest[1])
		}
	case Naming:
		s.Decisions = decisions(rest[0])
	case Alone:
		if err := suit(rest[0]); err != nil {
			return nil, err
		}
		s.Decisions = decisions(rest[1])
	case Turn:
		if err := suit(rest[0]); err != nil {
			return nil, err
		}
		if s.Played, ok = ParseCards(rest[1]); !ok {
			return nil, fmt.Errorf("bad trick %q", rest[1])
		}
	case Trick:
		if s.Index, err = strconv.Atoi(rest[0]); err != nil {
			return nil, fmt.Errorf("bad index %q", rest[0])
		}
		if err := suit(rest[1]); err != nil {
			return nil, err
		}
		if s.Played, ok = ParseCards(rest[2]); !ok || len(s.Played) != 4 || s.Index < 0 || s.Index > 3 {
			return nil, fmt.Errorf("bad trick %q", rest[2])
		}
	}
	return s, nil
}
