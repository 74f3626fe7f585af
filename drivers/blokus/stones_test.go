package blokus

import (
	"fmt"
	"os"
	"testing"
)

// The stone sets of the referee's tests (the rules' tests in
// drivers/house/blokus have the same).

const classicFile = "../../examples/blokus/classic/stones/classic.txt"

// small is the set of most rule rows: I1, I2, V3, L4 (which is chiral),
// T4.
var small = []string{"0,0", "0,0;1,0", "0,0;1,0;0,1", "0,0;0,1;0,2;1,2", "0,0;1,0;2,0;1,1"}

// stonesOf makes a stone set from "x,y;x,y" strings, named S1, S2, ...
func stonesOf(t testing.TB, specs ...string) []Stone {
	t.Helper()
	var out []Stone
	for i, s := range specs {
		cells, err := ParseStone(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Stone{Name: fmt.Sprintf("S%d", i+1), Cells: Normalise(cells)})
	}
	return out
}

// classicStones is the 21-piece set of the example, read from its file.
func classicStones(t testing.TB) []Stone {
	t.Helper()
	f, err := os.Open(classicFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs, err := ParseStonesFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []Stone
	for _, s := range fs {
		out = append(out, Stone{Name: fmt.Sprintf("classic:%d", s.Line), Cells: Normalise(s.Cells)})
	}
	return out
}
