package euchre

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestInputExample is the turn input of euchre.md, byte for byte (its 8h is
// not a card of the deck, so the trick line is passed as text).
func TestInputExample(t *testing.T) {
	got := Input(cards(t, "js,ah,qc,ts,jc"), 2, 0, Turn, "h", "td,8h,p")
	want := "js,ah,qc,ts,jc\n2\n0\nturn\nh\ntd,8h,p\n"
	if got != want {
		t.Errorf("Input = %q, want %q", got, want)
	}
}

// TestInputPhases pins the first input of every phase with a one-line
// example each, as the table of euchre.md describes them.
func TestInputPhases(t *testing.T) {
	hand := cards(t, "js,ah,qc,ts,jc")
	for _, tc := range []struct {
		name, got, want string
	}{
		{"ordering, first asked", Input(hand, 0, 0, Ordering, "9h", ""), "js,ah,qc,ts,jc\n0\n0\nordering\n9h\n\n"},
		{"ordering, third asked", Input(hand, 3, 0, Ordering, "9h", "p,o"), "js,ah,qc,ts,jc\n3\n0\nordering\n9h\np,o\n"},
		{"naming", Input(hand, 0, 0, Naming, "p,p"), "js,ah,qc,ts,jc\n0\n0\nnaming\np,p\n"},
		{"discard", Input(hand, 7, 0, Discard, "9h"), "js,ah,qc,ts,jc\n7\n0\ndiscard\n9h\n"},
		{"alone", Input(hand, 0, 0, Alone, "s", "n,y"), "js,ah,qc,ts,jc\n0\n0\nalone\ns\nn,y\n"},
		{"turn, leading", Input(hand[:3], 0, 2, Turn, "s", ""), "js,ah,qc\n0\n2\nturn\ns\n\n"},
		{"trick", Input(nil, 9, 3, Trick, "1", "s", "td,js,p,ac"), "\n9\n3\ntrick\n1\ns\ntd,js,p,ac\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestInputGolden pins every input of two whole hands, as the referee sends
// them: one ordered (with the discard) and one named with a player alone.
// Refresh with go test -run InputGolden -update after a deliberate change.
func TestInputGolden(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 2
	// Hand 1 (dealer 0): everyone passes the upcard, 2 names a suit that is
	// not the turned-down one and goes alone, so 0 (the dealer) sits out.
	// Hand 2 (dealer 1): 3 orders, 1 picks up and discards its third card.
	down := DealHand(21, 0, 0).Upcard.Suit()
	named := ((down + 2) % 4).String()
	sc := &scripted{tb: t, answer: func(hand, pos int, st *Situation) string {
		switch {
		case hand == 1 && pos == 2 && st.Phase == Naming:
			return named
		case hand == 1 && pos == 2 && st.Phase == Alone:
			return "y"
		case hand == 2 && pos == 3 && st.Phase == Ordering:
			return "o"
		case hand == 2 && st.Phase == Discard:
			return st.Hand[2].String()
		}
		return ""
	}}
	if _, err := Referee(context.Background(), s, 21, sc.decide, nopRecorder{}); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"hand-named-alone", "hand-ordered"} {
		got := sc.inputs(i + 1)
		path := filepath.Join("testdata", name+".golden")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("%s differs (-want +got):\n%s", path, diff)
		}
	}
	if !strings.Contains(sc.inputs(1), "\nturn\n") || !strings.Contains(sc.inputs(2), "\ndiscard\n") {
		t.Error("the golden hands miss a phase")
	}
}
