package tournament

import "fmt"

// Pairing is the rule that groups the rounds a plan cannot list, because
// they depend on the results before them (package engine/pairing does
// the grouping).
type Pairing uint8

// The pairing rules; NoPairing, the default, is a plan that lists every
// round.
const (
	NoPairing Pairing = iota
	// ByRating groups by the ITPW method: close ratings, few meetings.
	ByRating
	// ByScore groups like a Swiss system: close scores, few meetings.
	ByScore
)

// Pairings lists every pairing rule, NoPairing first.
var Pairings = []Pairing{NoPairing, ByRating, ByScore}

type pairing interface {
	name() string
	describe(from, rounds int) string
}

var pairings = [...]pairing{NoPairing: noPairing{}, ByRating: byRating{}, ByScore: byScore{}}

func (p Pairing) String() string { return pairings[p].name() }

// MarshalText writes the rule's name ("" for NoPairing).
func (p Pairing) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a rule's name.
func (p *Pairing) UnmarshalText(b []byte) (err error) {
	*p, err = parse(Pairings, "pairing rule", string(b))
	return err
}

// Describe says in sentences how rounds from..rounds are paired; "" for
// NoPairing.
func (p Pairing) Describe(from, rounds int) string { return pairings[p].describe(from, rounds) }

type noPairing struct{}

func (noPairing) name() string             { return "" }
func (noPairing) describe(int, int) string { return "" }

type byRating struct{}

func (byRating) name() string { return "rating" }
func (byRating) describe(from, rounds int) string {
	return fmt.Sprintf("Rounds %d-%d are grouped at random; rounds %d-%d are grouped by rating, each when every match before it has finished: "+
		"the top-rated bot still free gets the opponents whose games would shrink the variance of its BayesElo rating most (close ratings, few meetings). "+
		"Each paired round is written to rounds/ in the results directory.", 1, from-1, from, rounds)
}

type byScore struct{}

func (byScore) name() string { return "swiss" }
func (byScore) describe(from, rounds int) string {
	return fmt.Sprintf("Rounds %d-%d are paired by score, each when every match before it has finished: the best bot still free with the bots that met it least, closest in score. "+
		"Each paired round is written to rounds/ in the results directory.", from, rounds)
}
