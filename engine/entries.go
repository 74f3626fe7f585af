package engine

import (
	"fmt"

	"github.com/arbiter-contests/arbiter/drivers"
)

// checkEntries holds every bot of the plan that is not a house bot to the
// game's submission rules (drivers.EntryChecker), before the first match.
func (r *Runner) checkEntries(game drivers.Game) error {
	ec, ok := game.(drivers.EntryChecker)
	if !ok {
		return nil
	}
	for i := range r.Plan.Bots {
		b := &r.Plan.Bots[i]
		if b.House != "" {
			continue
		}
		dir := b.DirIn(r.Root)
		if err := ec.CheckEntry(drivers.ResolveArgv(b.Command, dir), dir); err != nil {
			return fmt.Errorf("bot %s does not meet the %s game's submission rules, checked before the first match: %w", b.Name, r.Plan.Game.Driver, err)
		}
	}
	return nil
}
