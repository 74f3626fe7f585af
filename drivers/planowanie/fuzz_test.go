package planowanie

import (
	"slices"
	"testing"
)

// FuzzAnswer: any line a bot answers gen_declare or gen_move with is a
// declaration or card the rules allow, or a problem (a fault), never a
// crash.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"0", "3", "-1", "5C", "AS", "10H", "x", "", "5c", "99999999999999999999", "-", "6C 5D"} {
		f.Add(s)
	}
	d := TournamentDeck()
	held := hand(d, "5C 5D 5H 5S 6C")
	f.Fuzz(func(t *testing.T, text string) {
		if l, problem := parseDeclaration(text, 5); problem == "" && (l < 0 || l > 5) {
			t.Errorf("parseDeclaration(%q) = %d, outside 0..5", text, l)
		}
		for _, led := range []byte{0, 'C', 'S'} {
			c, problem := checkCard(d, text, held, led)
			if problem == "" && !slices.Contains(Legal(held, led), c) {
				t.Errorf("checkCard(%q, led %q) = %v, not a legal card", text, led, c)
			}
		}
	})
}
