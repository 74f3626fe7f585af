package engine

import (
	"fmt"

	"github.com/arbiter-contests/arbiter/drivers"
)

// checkEntries holds every bot of the plan that is not a house bot to the
// game's submission rules (drivers.EntryChecker), before the first match.
// A bot that breaks them stops the run, or, when the game's rules
// disqualify for it (drivers.DisqualifyRules.Submission), is out of the
// tournament: out says why, by bot.
func (r *Runner) checkEntries(game drivers.Game) (out map[string]string, err error) {
	ec, ok := game.(drivers.EntryChecker)
	if !ok {
		return nil, nil
	}
	dq, _ := game.(drivers.Disqualifier)
	for i := range r.Plan.Bots {
		b := &r.Plan.Bots[i]
		if b.House != "" {
			continue
		}
		dir := b.DirIn(r.Root)
		err := ec.CheckEntry(drivers.ResolveArgv(b.Command, dir), dir)
		switch {
		case err == nil:
		case dq != nil && dq.DisqualifyRules().Submission:
			if out == nil {
				out = map[string]string{}
			}
			out[b.Name] = fmt.Sprintf("does not meet the %s game's submission rules, checked before the first match: %v", r.Plan.Game.Driver, err)
		default:
			return nil, fmt.Errorf("bot %s does not meet the %s game's submission rules, checked before the first match: %w", b.Name, r.Plan.Game.Driver, err)
		}
	}
	return out, nil
}
