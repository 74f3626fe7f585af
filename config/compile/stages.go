package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/tournament"
)

// compileStages adds the stages of t to p, with the bots they name and
// the matches of the first stages whose fields are named bots.
func compileStages(cfg *config.Config, t *config.Tournament, p *plan.Plan, variants []string) *hcl.Diagnostic {
	clock := t.Game.Game.Clock()
	have := map[string]bool{}
	for _, b := range p.Bots {
		have[b.Name] = true
	}
	addBot := func(b *config.Bot) {
		if have[b.Name] {
			return
		}
		have[b.Name] = true
		pb := planBot(cfg.Root, b)
		if lim := config.BotLimits(t, b); !lim.IsZero() {
			pb.Limits = &lim
		}
		p.Bots = append(p.Bots, pb)
	}
	for _, s := range t.Stages {
		ps := plan.Stage{Name: s.Name, Format: tournament.RoundRobin, Players: s.Players, Rounds: s.Rounds,
			Seats: s.Seats, Rating: s.Rating, Pools: s.Pools, Split: s.Split, Clock: clock, Variants: slices.Clone(variants)}
		for _, pick := range s.Bots {
			pp := plan.Pick{Stage: pick.Stage, From: pick.From, To: pick.To, Admitted: pick.Admitted}
			if pick.Bot != nil {
				pp = plan.Pick{Bot: pick.Bot.Name}
				addBot(pick.Bot)
			}
			ps.Bots = append(ps.Bots, pp)
		}
		if s.Gate != nil {
			ps.Format = tournament.Gauntlet
			ps.Gate = &plan.Gate{Against: botNames(s.Gate.Against), Games: s.Gate.Games}
			ps.Rounds = s.Gate.Games
			for _, b := range s.Gate.Against {
				addBot(b)
			}
		}
		p.Stages = append(p.Stages, ps)
	}
	seats := func(n int) error {
		if d := t.Game.Game.CheckSeats(n, t.DeclRange); d.HasErrors() {
			return d
		}
		return nil
	}
	for k := 0; k < p.ListedStages(); k++ {
		pools, err := stages.Pools(p, k, nil)
		var ms []plan.Match
		if err == nil {
			ms, err = stages.Matches(p, k, pools, seats)
		}
		if err != nil {
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Stage does not list",
				Detail: err.Error(), Subject: t.Stages[k].DeclRange.Ptr()}
		}
		p.Matches = append(p.Matches, ms...)
	}
	if p.Matches == nil {
		p.Matches = []plan.Match{}
	}
	return nil
}

// stageTies warns of the stages of t that rank by mean place (rating =
// "placement", not a gate): a single tournament plays off its ties on mean
// place (placement playoffs), a stage does not, so Elo, then name, orders
// tied bots there, and decides who a pick takes. The warning points at the
// first such stage's rating, else the tournament's, else the stage.
func stageTies(t *config.Tournament) *hcl.Diagnostic {
	var names []string
	var at *hcl.Range
	for _, s := range t.Stages {
		if s.Gate != nil || !s.Rating.Playoffs() {
			continue
		}
		names = append(names, s.Name)
		if at != nil {
			continue
		}
		if r, ok := s.Ranges["rating"]; ok {
			at = r.Ptr()
		} else if r, ok := t.Ranges["rating"]; ok {
			at = r.Ptr()
		} else {
			at = s.DeclRange.Ptr()
		}
	}
	if len(names) == 0 {
		return nil
	}
	which := fmt.Sprintf("Stage %q ranks", names[0])
	if len(names) > 1 {
		which = fmt.Sprintf("Stages %s and %q rank", quoteAll(names[:len(names)-1]), names[len(names)-1])
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Placement ties in stages are not played off",
		Detail:  which + ` by mean place (rating = "placement"), but a stage plays no placement playoffs, as a single tournament does: bots tied on mean place in a group are ordered by their whole Elo in the group's matches, then by name, and that order decides which of them a pick (places(), top(), winners()) takes and their final ranking. arbiter rank, standings.txt and the run's log name every cut of a pick decided so ("Cuts decided without a playoff"). If the contest settles such a tie by an extra match, play one between the tied bots as a tournament of its own, or give the stages more rounds to make ties rarer.`,
		Subject: at}
}

// quoteAll is names quoted and joined by commas.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
