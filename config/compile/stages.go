package compile

import (
	"slices"

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
		// The rule for which pools are short is recorded only where pools
		// can be short, so that a plan with none hashes as it did before
		// the rule.
		ps.TopShort = ps.Split == "seeded" && ps.MayBeUneven()
		if s.Gate != nil {
			ps.Format = tournament.Gauntlet
			ps.Gate = &plan.Gate{Against: botNames(s.Gate.Against), Games: s.Gate.Games}
			ps.Rounds = s.Gate.Games
			for _, b := range s.Gate.Against {
				addBot(b)
			}
		}
		// A stage ranked by mean place plays off its ties, as a single
		// tournament does (Fibot: "proběhne doplňující zápas").
		ps.Playoffs = s.Gate == nil && s.Rating.Playoffs()
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
