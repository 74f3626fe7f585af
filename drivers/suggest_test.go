package drivers

import "testing"

// A suggestion is made for a typo, never for a name that merely has few
// letters to differ in.
func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		rule, name string
		known      []string
		want       string
	}{
		{"typo of a block type", "gmae", []string{"bot", "deck", "game", "tournament"}, "game"},
		{"a letter left out", "leadr", []string{"cards", "leader"}, "leader"},
		{"two letters swapped in a long name", "tournamnet", []string{"bot", "tournament"}, "tournament"},
		{"a letter added", "bots", []string{"bot", "game"}, "bot"},
		{"the nearest of several", "randon", []string{"greedy", "random", "randomer"}, "random"},
		{"a short name is no typo of another short one", "zz", []string{"a", "b", "c", "e"}, ""},
		{"nor of a one-letter one", "zz", []string{"q", "f"}, ""},
		{"one letter for another", "b", []string{"a"}, ""},
		{"too far", "tournament", []string{"tour"}, ""},
		{"nothing known", "x", nil, ""},
	} {
		if got := Closest(tc.name, tc.known); got != tc.want {
			t.Errorf("%s: Closest(%q, %q) = %q, want %q", tc.rule, tc.name, tc.known, got, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	for _, tt := range []struct {
		words []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := List(tt.words); got != tt.want {
			t.Errorf("List(%q) = %q, want %q", tt.words, got, tt.want)
		}
	}
}
