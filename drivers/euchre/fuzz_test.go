package euchre

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// FuzzAnswer: any line a bot prints is, normalised as the referee does,
// a valid answer of each phase or a problem (a default is played), never
// a crash.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"o", "p", "h", "js", "JS\n", " n ", "y", "", "10h", "x", "\xff"} {
		f.Add(s)
	}
	hand, _ := ParseCards("js jc as kh 9d")
	up, _ := ParseCard("qs")
	first, _ := ParseCard("ah")
	f.Fuzz(func(t *testing.T, raw string) {
		a := Normalize(raw)
		_ = checkOrder(a)
		_ = checkAlone(a)
		if checkName(a, up.Suit()) == "" && a != "p" {
			if s, ok := ParseSuit(a); !ok || s == up.Suit() {
				t.Errorf("checkName accepted %q", a)
			}
		}
		if checkDiscard(a, hand, up) == "" {
			if c, ok := ParseCard(a); !ok || (c != up && !slices.Contains(hand, c)) {
				t.Errorf("checkDiscard accepted %q", a)
			}
		}
		for _, trump := range []Suit{up.Suit(), first.Suit()} {
			for _, lead := range []Card{NoCard, first} {
				legal := Legal(hand, trump, lead)
				if checkPlay(a, hand, legal, trump, lead) == "" {
					if c, ok := ParseCard(a); !ok || !slices.Contains(legal, c) {
						t.Errorf("checkPlay accepted %q", a)
					}
				}
			}
		}
	})
}

// FuzzMemory: whatever a bot leaves in its memory folder between runs
// (names, kinds, sizes), checkMemory keeps it only when it is one regular
// file within the limit, and otherwise empties the folder, never a
// crash.
func FuzzMemory(f *testing.F) {
	f.Add("m", []byte{8})
	f.Add("m\nn", []byte{0, 0})
	f.Add("big", []byte{80})
	f.Add("d\nl\nq\ns\nr", []byte{1, 2, 3, 4, 5})
	f.Fuzz(func(t *testing.T, names string, kinds []byte) {
		dir := filepath.Join(t.TempDir(), "memory")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := proctest.Litter(dir, names, kinds); err != nil {
			t.Fatal(err)
		}
		s := DefaultSettings()
		s.Memory = 100
		problem, err := checkMemory(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if problem != "" && len(ents) > 0 {
			t.Errorf("%s, but the folder still holds %d entries", problem, len(ents))
		}
		if problem == "" && len(ents) > 1 {
			t.Errorf("no problem with %d entries", len(ents))
		}
		for _, e := range ents {
			if fi, err := os.Lstat(filepath.Join(dir, e.Name())); err != nil || !fi.Mode().IsRegular() || fi.Size() > 100 {
				t.Errorf("%s is kept: %v %v", e.Name(), fi.Mode(), err)
			}
		}
	})
}
