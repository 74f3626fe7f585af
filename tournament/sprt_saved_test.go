package tournament

import (
	"math"
	"testing"
)

// A saved plan's SPRT bounds beyond ±MaxSPRTElo, which a configuration
// is refused, still run; bounds that are no number, in the wrong order
// or where the logistic model's LLR is not a number do not.
func TestCheckSavedSPRT(t *testing.T) {
	for _, tt := range []struct {
		elo0, elo1 float64
		model      string
		config     int // CheckSPRT's problems
		saved      int // CheckSavedSPRT's
	}{
		{0, 5, "", 0, 0},
		{-1500, 2000, "normalized", 2, 0},
		{0, 3000, "logistic", 1, 0},
		{0, 8000, "logistic", 1, 1},
		{-200000, 0, "bayesian", 1, 1},
		{5, 5, "", 1, 1},
		{0, math.Inf(1), "", 1, 1},
	} {
		if got := len(CheckSPRT(tt.elo0, tt.elo1, 0.05, 0.05, tt.model)); got != tt.config {
			t.Errorf("CheckSPRT(%v, %v, %q): %d problems, want %d", tt.elo0, tt.elo1, tt.model, got, tt.config)
		}
		if got := len(CheckSavedSPRT(tt.elo0, tt.elo1, 0.05, 0.05, tt.model)); got != tt.saved {
			t.Errorf("CheckSavedSPRT(%v, %v, %q): %d problems, want %d", tt.elo0, tt.elo1, tt.model, got, tt.saved)
		}
	}
}
