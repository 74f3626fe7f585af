package drivers

import (
	"slices"
	"testing"
)

// TestBotSeed: BotSeed's values are fixed (SHA-256, computed here by
// another implementation), so a bot gets the same seed on every machine
// and from every release, and never the match seed itself.
func TestBotSeed(t *testing.T) {
	for _, c := range []struct {
		match uint64
		seat  int
		want  uint64
	}{
		{2009, 0, 8187478163326546841},
		{2009, 1, 17114389468607640649},
		{0, 0, 17236639944000032251},
	} {
		if got := BotSeed(c.match, c.seat); got != c.want {
			t.Errorf("BotSeed(%d, %d) = %d, want %d", c.match, c.seat, got, c.want)
		}
	}
}

// TestBotEnv: the three names, the seed BotSeed's.
func TestBotEnv(t *testing.T) {
	got := BotEnv("r001-g01-s1", 1, 2009)
	want := []string{"ARBITER_MATCH=r001-g01-s1", "ARBITER_SEAT=1", "ARBITER_SEED=17114389468607640649"}
	if !slices.Equal(got, want) {
		t.Errorf("BotEnv = %q, want %q", got, want)
	}
}
