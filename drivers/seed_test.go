package drivers

import (
	"math"
	"slices"
	"testing"
)

// TestBotSeed: BotSeed's values are fixed (SHA-256, computed here by
// another implementation, top bit cleared), so a bot gets the same seed on every machine
// and from every release, and never the match seed itself.
func TestBotSeed(t *testing.T) {
	for _, c := range []struct {
		match uint64
		seat  int
		want  uint64
	}{
		{2009, 0, 8187478163326546841},
		{2009, 1, 7891017431752864841},
		{0, 0, 8013267907145256443},
	} {
		if got := BotSeed(c.match, c.seat); got != c.want {
			t.Errorf("BotSeed(%d, %d) = %d, want %d", c.match, c.seat, got, c.want)
		}
	}
}

// TestBotEnv: the three names, the seed BotSeed's.
func TestBotEnv(t *testing.T) {
	got := BotEnv("r001-g01-s1", 1, 2009)
	want := []string{"ARBITER_MATCH=r001-g01-s1", "ARBITER_SEAT=1", "ARBITER_SEED=7891017431752864841"}
	if !slices.Equal(got, want) {
		t.Errorf("BotEnv = %q, want %q", got, want)
	}
}

// TestBotSeedFitsInt64: every bot seed fits a signed 64-bit integer
// (0 to 2^63−1), so a bot reads it with Java's Long.parseLong or C's
// strtoll as well as with an unsigned parse.
func TestBotSeedFitsInt64(t *testing.T) {
	for match := uint64(0); match < 2000; match++ {
		for seat := 0; seat < 6; seat++ {
			if s := BotSeed(match*0x9e3779b97f4a7c15, seat); s > math.MaxInt64 {
				t.Fatalf("BotSeed(%d, %d) = %d, over 2^63−1", match*0x9e3779b97f4a7c15, seat, s)
			}
		}
	}
}
