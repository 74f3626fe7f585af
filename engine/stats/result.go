package stats

import (
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Result is a finished match, as one line of a results directory's
// results.jsonl: everything the statistics are computed from.
type Result struct {
	Match string       `json:"match"`
	Round int          `json:"round"`
	Group int          `json:"group"`
	Seed  uint64       `json:"seed"`
	Seats []SeatResult `json:"seats"`
	// PlayedOut is the game's drivers.Outcome.PlayedOut: a fault in the
	// match did not end it, so the games between its other seats stand.
	PlayedOut bool `json:"played_out,omitempty"`
	// ElapsedMS is the match's wall-clock duration.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Fingerprints are the hashes of the bots the match was played with
	// (plan.Fingerprint.Hash), by bot name.
	Fingerprints map[string]string `json:"fingerprints,omitempty"`
}

// SeatResult is one seat of a finished match.
type SeatResult struct {
	Bot string `json:"bot"`
	drivers.SeatResult
	// Disqualified is set when the bot is disqualified from the
	// tournament in this match or an earlier one (in plan order): its
	// result here is that verdict, whatever it played.
	Disqualified *Disqualification `json:"disqualified,omitempty"`
}

// ReplacedAnswers is how many answers of the seat's bot the game's
// defaults replaced: none when the bot could not be started or built
// for the match. The game still played such a seat on its defaults and
// counted them (Defaults, the default events), but they stand in for a
// program that never ran, not for answers it gave, and its start or
// build fault already says so.
func ReplacedAnswers(s drivers.SeatResult) int {
	if s.Fault == drivers.FaultStart || s.Fault == faultBuild {
		return 0
	}
	return s.Defaults
}

// Disqualification says why a bot is out of the tournament and since
// when (see drivers.Disqualifier).
type Disqualification struct {
	// Reason is DQOverruns, DQSubmission or the rule of a breach
	// (drivers.Breach.Rule, like "files").
	Reason string `json:"reason"`
	// Match is the match in which it happened, in plan order the first
	// whose result disqualifies the bot; "" before the first match.
	Match  string `json:"match,omitempty"`
	Detail string `json:"detail"`
}

// Reasons of disqualification beside a breach's rule.
const (
	DQOverruns   = "overruns"   // more late answers than the game tolerates
	DQSubmission = "submission" // over the submission limits before the first match
)

// Disqualified returns the bots disqualified in results, each with the
// first verdict in plan order.
func Disqualified(p *plan.Plan, results []Result) map[string]*Disqualification {
	out := map[string]*Disqualification{}
	for _, r := range InPlanOrder(p, results) {
		for _, s := range r.Seats {
			if s.Disqualified != nil && out[s.Bot] == nil {
				out[s.Bot] = s.Disqualified
			}
		}
	}
	return out
}

// Faulty reports whether any seat ended the match with a fault.
func (r *Result) Faulty() bool {
	for _, s := range r.Seats {
		if s.Fault != "" {
			return true
		}
	}
	return false
}
