package tournament

import (
	"fmt"
	"math"
	"strings"
)

// Format is how a tournament puts the bots of its field together into
// matches.
type Format uint8

// The formats; Groups is the default.
const (
	// Groups: the field split into groups of players bots every round, at
	// random (or, after random_rounds, by rating).
	Groups Format = iota
	// RoundRobin: every combination of players bots, every round.
	RoundRobin
	// Gauntlet: each candidate against every combination of the others.
	Gauntlet
	// Swiss: round 1 at random, every later round paired by score.
	Swiss
)

// Formats lists every format, the default first.
var Formats = []Format{Groups, RoundRobin, Gauntlet, Swiss}

// MaxMatches caps the size of a plan, against a round robin or a seat
// design that would list more matches than anyone can play.
const MaxMatches = 1_000_000

// MaxPlayers and MaxRounds bound a tournament's players and rounds.
const (
	MaxPlayers = 1000
	MaxRounds  = math.MaxInt32
)

// Setup is what a format checks and lists a tournament from.
type Setup struct {
	// Bots are the names of the field, in the configuration's order;
	// Candidates those of a gauntlet's candidates.
	Bots, Candidates []string
	// Fill is how many fill bots can complete a group.
	Fill int
	// Players is the seats of a match; Rounds the tournament's rounds;
	// RandomRounds the rounds a groups tournament draws at random (0:
	// all).
	Players, Rounds, RandomRounds int
	// Seatings is how many matches a group plays (its seat design's).
	Seatings int
	// Draw is the field in round r's random order.
	Draw func(r int) []string
}

// Listing is what a format lists of a tournament before it runs: the
// groups of the first rounds, each without the fill bots that complete
// it, and the rule that pairs the rounds From..Rounds during the run.
type Listing struct {
	Rounds  [][][]string
	Pairing Pairing
	From    int
}

// NotEnoughFill is a listing's error when groups would need more fill
// bots than there are: Why says how many seats must be filled.
type NotEnoughFill struct{ Why string }

func (e *NotEnoughFill) Error() string { return e.Why }

// TooManyMatches is a listing's error when a tournament would list more
// than MaxMatches matches; What names it ("round robin", ...). PerRound
// is the matches of one round (-1: more than MaxMatches), of Rounds.
type TooManyMatches struct {
	What             string
	PerRound, Rounds int
}

func (e *TooManyMatches) Error() string {
	return fmt.Sprintf("this %s would list more than %d matches", e.What, MaxMatches)
}

// tooMany is the TooManyMatches of groups groups (-1: more than
// MaxMatches) of seatings seatings a round, for s.Rounds rounds, or nil
// when they are at most MaxMatches.
func tooMany(what string, groups int, s *Setup) *TooManyMatches {
	perRound := -1
	if groups >= 0 && (groups == 0 || s.Seatings <= MaxMatches/groups) {
		perRound = groups * s.Seatings
	}
	if perRound >= 0 && (perRound == 0 || s.Rounds <= MaxMatches/perRound) {
		return nil
	}
	return &TooManyMatches{What: what, PerRound: perRound, Rounds: s.Rounds}
}

type format interface {
	name() string
	// what names the format in messages ("round robin").
	what() string
	// groups is how many groups a round of the setup has, -1 when more
	// than MaxMatches, or a *NotEnoughFill.
	groups(s *Setup) (int, error)
	// pairing is the rule that pairs rounds from..Rounds during the run
	// (NoPairing: every round is listed).
	pairing(s *Setup) (p Pairing, from int)
	// options is the block of the format's options ("" for none) and
	// the problem of leaving it out (nil when it may be).
	options() (string, *Problem)
	check(s *Setup) []Problem
	list(s *Setup) (*Listing, error)
	describe(players, field int, candidates []string) string
}

var formats = [...]format{Groups: groups{}, RoundRobin: roundRobin{}, Gauntlet: gauntlet{}, Swiss: swiss{}}

func (f Format) String() string { return formats[f].name() }

// MarshalText writes the format's name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a format's name.
func (f *Format) UnmarshalText(b []byte) (err error) {
	*f, err = parse(Formats, "format", string(b))
	return err
}

// Options is the name of the block that holds the format's options (""
// when it has none) and the problem of leaving the block out (nil when
// it is optional).
func (f Format) Options() (block string, missing *Problem) { return formats[f].options() }

// Check lists what keeps the format from playing the setup (Bots, Fill,
// Players, Rounds and RandomRounds are read).
func (f Format) Check(s *Setup) []Problem { return formats[f].check(s) }

// List lists the rounds the format can list before the run. Its errors
// are *NotEnoughFill and *TooManyMatches (see Fits).
func (f Format) List(s *Setup) (*Listing, error) {
	if _, err := f.Fits(s); err != nil {
		return nil, err
	}
	return formats[f].list(s)
}

// Pairing is the rule that groups the rounds From..Rounds of the setup
// during the run, by results (NoPairing, and From 0, when List lists
// every round); List's Listing says the same.
func (f Format) Pairing(s *Setup) (p Pairing, from int) { return formats[f].pairing(s) }

// Fits checks what List checks before it lists anything: that the fill
// bots can complete every group (a *NotEnoughFill) and that the
// tournament's matches, s.Seatings to a group for s.Rounds rounds, are at
// most MaxMatches (a *TooManyMatches). It returns how many groups a
// round has. A saved plan is checked by it without being listed again.
func (f Format) Fits(s *Setup) (groups int, err error) {
	groups, err = formats[f].groups(s)
	if err != nil {
		return 0, err
	}
	if many := tooMany(formats[f].what(), groups, s); many != nil {
		return 0, many
	}
	return groups, nil
}

// Describe says in a sentence what the format plays, for a field of
// field bots.
func (f Format) Describe(players, field int, candidates []string) string {
	return formats[f].describe(players, field, candidates)
}

type groups struct{}

func (groups) name() string                 { return "groups" }
func (groups) what() string                 { return "tournament" }
func (groups) groups(s *Setup) (int, error) { return drawnGroups(s) }
func (groups) options() (string, *Problem)  { return "groups", nil }
func (groups) check(s *Setup) []Problem {
	if s.RandomRounds > s.Rounds {
		return []Problem{{Attr: "random_rounds", Summary: "Invalid random_rounds",
			Detail: fmt.Sprintf("random_rounds is %d but the tournament has only %d round(s). Use at most rounds; equal to rounds groups every round at random.", s.RandomRounds, s.Rounds)}}
	}
	return nil
}
func (groups) pairing(s *Setup) (Pairing, int) {
	if s.RandomRounds > 0 && s.RandomRounds < s.Rounds {
		return ByRating, s.RandomRounds + 1
	}
	return NoPairing, 0
}
func (f groups) list(s *Setup) (*Listing, error) { return drawn(s, f) }
func (groups) describe(players, field int, _ []string) string {
	return fmt.Sprintf("Format groups: %d group(s) of %d per round.", len(GroupSizes(field, players)), players)
}

type swiss struct{}

func (swiss) name() string                 { return "swiss" }
func (swiss) what() string                 { return "tournament" }
func (swiss) groups(s *Setup) (int, error) { return drawnGroups(s) }
func (swiss) options() (string, *Problem)  { return "swiss", nil }
func (swiss) check(*Setup) []Problem       { return nil }
func (swiss) pairing(s *Setup) (Pairing, int) {
	if s.Rounds > 1 {
		return ByScore, 2
	}
	return NoPairing, 0
}
func (f swiss) list(s *Setup) (*Listing, error)  { return drawn(s, f) }
func (swiss) describe(int, int, []string) string { return "Format swiss: round 1 drawn at random." }

// drawnGroups is the number of groups of a round drawn at random, as
// even as possible, when the fill bots can complete them.
func drawnGroups(s *Setup) (int, error) {
	n, k := len(s.Bots), s.Players
	if n == 0 || k < 1 {
		return 0, nil
	}
	sizes := GroupSizes(n, k)
	// Groups are as even as possible, so the largest deficit is in the
	// smallest group.
	if need := k - sizes[len(sizes)-1]; need > s.Fill {
		return 0, &NotEnoughFill{fmt.Sprintf("%d bots make %d group(s) of %d seats, so up to %d seat(s) of a group must be filled",
			n, len(sizes), k, need)}
	}
	return len(sizes), nil
}

// drawn lists the rounds of f that come before its pairing as groups of
// the round's random draw, as even as possible.
func drawn(s *Setup, f format) (*Listing, error) {
	l := &Listing{}
	l.Pairing, l.From = f.pairing(s)
	listed := s.Rounds
	if l.Pairing != NoPairing {
		listed = l.From - 1
	}
	sizes := GroupSizes(len(s.Bots), s.Players)
	for r := 1; r <= listed; r++ {
		order := s.Draw(r)
		var round [][]string
		start := 0
		for _, size := range sizes {
			round = append(round, append([]string(nil), order[start:start+size]...))
			start += size
		}
		l.Rounds = append(l.Rounds, round)
	}
	return l, nil
}

type roundRobin struct{}

func (roundRobin) name() string { return "round-robin" }
func (roundRobin) what() string { return "round robin" }
func (roundRobin) groups(s *Setup) (int, error) {
	if len(s.Bots) < s.Players || s.Players < 1 {
		return 0, nil // Check says so
	}
	return binomial(len(s.Bots), s.Players), nil
}
func (roundRobin) options() (string, *Problem) { return "", nil }
func (roundRobin) check(s *Setup) []Problem {
	var out []Problem
	if s.Fill > 0 {
		out = append(out, Problem{Attr: "fill", Summary: "Fill bots in a round robin",
			Detail: "A round robin plays every combination of players bots of the field, so no group needs filling. Remove fill, or add those bots to bots."})
	}
	if len(s.Bots) > 0 && len(s.Bots) < s.Players {
		out = append(out, Problem{Attr: "bots", Summary: "Not enough bots",
			Detail: fmt.Sprintf("A round robin of %d players per match needs at least %d bots; bots lists %d. Add bots, or use format \"groups\" with fill bots.", s.Players, s.Players, len(s.Bots))})
	}
	return out
}
func (roundRobin) pairing(*Setup) (Pairing, int) { return NoPairing, 0 }
func (roundRobin) list(s *Setup) (*Listing, error) {
	return repeated(s, combinations(s.Bots, s.Players)), nil
}
func (roundRobin) describe(players, field int, _ []string) string {
	return fmt.Sprintf("Format round-robin: every combination of %d of the %d bots, every round.", players, field)
}

type gauntlet struct{}

func (gauntlet) name() string { return "gauntlet" }
func (gauntlet) what() string { return "gauntlet" }
func (gauntlet) groups(s *Setup) (int, error) {
	k := s.Players
	opponents := 0
	for _, b := range s.Bots {
		if !contains(s.Candidates, b) {
			opponents++
		}
	}
	if need := k - 1 - opponents; need > s.Fill {
		return 0, &NotEnoughFill{fmt.Sprintf("A gauntlet match seats a candidate with %d opponents, and the field has %d", k-1, opponents)}
	}
	if opponents < k-1 {
		return len(s.Candidates), nil
	}
	per := binomial(opponents, k-1)
	if per < 0 || len(s.Candidates) > 0 && per > MaxMatches/len(s.Candidates) {
		return -1, nil
	}
	return len(s.Candidates) * per, nil
}
func (gauntlet) options() (string, *Problem) {
	return "gauntlet", &Problem{Summary: "Gauntlet without candidates",
		Detail: "A gauntlet tests candidates against the rest of the field: add a block gauntlet { candidates = [bot.x] }."}
}
func (gauntlet) check(*Setup) []Problem        { return nil }
func (gauntlet) pairing(*Setup) (Pairing, int) { return NoPairing, 0 }
func (gauntlet) list(s *Setup) (*Listing, error) {
	k := s.Players
	var opponents []string
	for _, b := range s.Bots {
		if !contains(s.Candidates, b) {
			opponents = append(opponents, b)
		}
	}
	var groups [][]string
	for _, c := range s.Candidates {
		if len(opponents) < k-1 {
			groups = append(groups, append([]string{c}, opponents...))
			continue
		}
		for _, opp := range combinations(opponents, k-1) {
			groups = append(groups, append([]string{c}, opp...))
		}
	}
	return repeated(s, groups), nil
}
func (gauntlet) describe(players, _ int, candidates []string) string {
	return fmt.Sprintf("Format gauntlet: %s against every combination of %d of the other bots, every round.",
		strings.Join(candidates, ", "), players-1)
}

// repeated lists the same groups in every round.
func repeated(s *Setup, groups [][]string) *Listing {
	l := &Listing{}
	for r := 1; r <= s.Rounds; r++ {
		l.Rounds = append(l.Rounds, groups)
	}
	return l
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// GroupSizes splits n bots into groups of at most k, as even as possible,
// larger groups first.
func GroupSizes(n, k int) []int {
	groups := (n + k - 1) / k
	sizes := make([]int, groups)
	for g := range sizes {
		sizes[g] = n / groups
		if g < n%groups {
			sizes[g]++
		}
	}
	return sizes
}

// combinations lists every k-subset of items, in lexicographic order of
// positions.
func combinations(items []string, k int) [][]string {
	var out [][]string
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for k <= len(items) {
		c := make([]string, k)
		for i, j := range idx {
			c[i] = items[j]
		}
		out = append(out, c)
		i := k - 1
		for i >= 0 && idx[i] == len(items)-k+i {
			i--
		}
		if i < 0 {
			break
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
	return out
}

// binomial is n choose k, or -1 when it exceeds MaxMatches.
func binomial(n, k int) int {
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
		if c > MaxMatches {
			return -1
		}
	}
	return c
}
