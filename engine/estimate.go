package engine

import (
	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/tournament"
)

// The progress of a run counts the matches of rounds still to be paired
// before they are known, so its total and its ETA are the tournament's
// from the start: each round paired during the run is expected to hold
// as many matches as a listed round (the same group sizes in the same
// seat design). Playoffs, which depend on ties, and the stages of a
// tournament in stages, which depend on who advances, are counted when
// made.

// roundSize is the expected number of matches of a round of p.
func roundSize(p *plan.Plan) int {
	n := 0
	for _, m := range p.Matches {
		if m.Round == 1 {
			n++
		}
	}
	if n > 0 {
		return n
	}
	return len(tournament.GroupSizes(len(p.Bots)-len(p.Fill), p.Players)) * len(p.Seats.Seatings(p.Players))
}

// expectUnpaired is how many matches the rounds of the plan that are
// still to be paired are expected to hold, within the stopping rule's
// max_matches; it sets s.expected to it.
func (s *session) expectUnpaired() int {
	p := &s.full
	if len(p.Stages) > 0 || p.Later == nil || p.Later.Pairing == tournament.NoPairing || p.Later.From > p.Rounds {
		return 0
	}
	n := roundSize(p) * (p.Rounds - p.Later.From + 1)
	if st := p.Stop; st != nil && st.MaxMatches > 0 {
		n = max(0, min(n, st.MaxMatches-len(p.Matches)))
	}
	s.expected = n
	return n
}

// paired tells the progress of the matches of pr just appended to s.full
// from index from on: those the run will play, less what the estimate
// counted for them already (for a paired round, not a playoff or stage).
func (s *session) paired(from int, pr *pairing.Pairing) {
	p, ok := s.r.Progress.(ProgressMore)
	if !ok {
		return
	}
	todo, done := 0, 0
	for i := from; i < len(s.full.Matches); i++ {
		m := &s.full.Matches[i]
		switch {
		case s.done[m.ID] != nil:
			done++
		case !within(s.full.Stop, i, m):
		default:
			todo++
		}
	}
	counted := 0
	if pr.Rule == tournament.ByRating.String() || pr.Rule == tournament.ByScore.String() {
		counted = min(roundSize(&s.full), s.expected)
		s.expected -= counted
	}
	p.More(todo-counted, done)
}

// within reports whether the i-th match of the plan m is within the
// stopping rule's max_matches (playoffs always are).
func within(st *plan.Stop, i int, m *plan.Match) bool {
	return st == nil || st.MaxMatches <= 0 || i < st.MaxMatches || stats.IsPlayoff(m.ID)
}
