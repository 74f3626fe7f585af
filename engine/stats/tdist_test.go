package stats

import (
	"math"
	"testing"
)

// Two-sided 95% critical values of Student's t, from any statistics
// table.
func TestTQuantile(t *testing.T) {
	tests := []struct {
		df   int
		want float64
	}{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {5, 2.571}, {10, 2.228},
		{20, 2.086}, {30, 2.042}, {60, 2.000}, {120, 1.980}, {100000, 1.960},
	}
	for _, tt := range tests {
		if got := tQuantile(0.975, tt.df); math.Abs(got-tt.want) > 0.0005 {
			t.Errorf("df %d: %.4f, want %.3f", tt.df, got, tt.want)
		}
	}
}
