package stats_test

import (
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// TestReplacedAnswers: the game's defaults count as replaced answers of
// a bot that ran, whatever its fault, and not of one that could not be
// started or built (engine's own fault kind), which gave no answer.
func TestReplacedAnswers(t *testing.T) {
	for _, tt := range []struct {
		name string
		seat drivers.SeatResult
		want int
	}{
		{"clean", drivers.SeatResult{}, 0},
		{"ran, answers replaced", drivers.SeatResult{Defaults: 3}, 3},
		{"crashed after answers replaced", drivers.SeatResult{Fault: drivers.FaultCrash, Defaults: 2}, 2},
		{"could not be started", drivers.SeatResult{Fault: drivers.FaultStart, Defaults: 24}, 0},
		{"could not be built", drivers.SeatResult{Fault: engine.FaultBuild, Defaults: 24}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := stats.ReplacedAnswers(tt.seat); got != tt.want {
				t.Errorf("ReplacedAnswers(%+v) = %d, want %d", tt.seat, got, tt.want)
			}
		})
	}
}
