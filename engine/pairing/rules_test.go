package pairing

import (
	"testing"

	"github.com/arbiter-contests/arbiter/tournament"
)

// TestEveryPairingRuleGroups: a pairing rule added to package tournament
// needs its grouping here.
func TestEveryPairingRuleGroups(t *testing.T) {
	for _, p := range tournament.Pairings {
		if p == tournament.NoPairing {
			continue
		}
		if int(p) >= len(rules) || rules[p] == nil {
			t.Errorf("pairing rule %s has no grouping", p)
		}
	}
}
