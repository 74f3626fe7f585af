package stats

import "github.com/arbiter-contests/arbiter/drivers"

// Result is a finished match, as one line of a results directory's
// results.jsonl: everything the statistics are computed from.
type Result struct {
	Match string       `json:"match"`
	Round int          `json:"round"`
	Group int          `json:"group"`
	Seed  uint64       `json:"seed"`
	Seats []SeatResult `json:"seats"`
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
