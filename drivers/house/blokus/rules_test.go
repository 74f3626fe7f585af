package blokus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const classicFile = "../../../examples/blokus/classic/stones/classic.txt"

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

func mustRules(t testing.TB, rows, cols int, blocked []Cell, stones []Stone) *Rules {
	t.Helper()
	r, err := NewRules(rows, cols, blocked, stones)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustCells(t testing.TB, s string) []Cell {
	t.Helper()
	c, err := ParseCells(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// small is the set of most rule rows: I1, I2, V3, L4 (which is chiral),
// T4.
var small = []string{"0,0", "0,0;1,0", "0,0;1,0;0,1", "0,0;0,1;0,2;1,2", "0,0;1,0;2,0;1,1"}

func TestPlacementRules(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		blocked    []Cell
		stones     []string // default: small
		before     []string // moves played first, player 1, 2, 1, ...
		move       string   // by the player whose turn it is
		want       string   // regexp of the problem; "" for a legal move
	}{
		{name: "a first stone on the start cell is legal", rows: 5, cols: 5, move: "4,0 4,1"},
		{name: "a first stone off the start cell is illegal", rows: 5, cols: 5, move: "3,0 3,1",
			want: `^placed its first stone on 3,0 3,1, which does not cover its start cell 4,0$`},
		{name: "player 2 starts in the top right corner", rows: 5, cols: 5, before: []string{"4,0"}, move: "0,4 1,4"},
		{name: "player 2 may not start in another corner", rows: 5, cols: 5, before: []string{"4,0"}, move: "4,4",
			want: `^placed its first stone on 4,4, which does not cover its start cell 0,4`},
		{name: "a stone touching its own at a corner only is legal", rows: 5, cols: 5, before: []string{"4,0", "0,4"}, move: "3,1 2,1"},
		{name: "touching its own along an edge is illegal", rows: 5, cols: 5, before: []string{"4,0", "0,4"}, move: "3,0 3,1",
			want: `^placed cell 3,0 along an edge of its own stone$`},
		{name: "a stone without corner contact is illegal", rows: 5, cols: 5, before: []string{"4,0", "0,4"}, move: "2,2 2,3",
			want: `^placed a stone on 2,2 2,3, which touches none of its own at a corner$`},
		{name: "a cell left of the board is illegal", rows: 5, cols: 5, move: "4,-1 4,0",
			want: `^placed cell 4,-1, which is outside the 5 × 5 board$`},
		{name: "a cell below the board is illegal", rows: 5, cols: 5, move: "5,0 4,0",
			want: `^placed cell 5,0, which is outside the 5 × 5 board$`},
		{name: "covering its own cell is illegal", rows: 5, cols: 5, before: []string{"4,0 4,1", "0,4"}, move: "3,1 3,2 4,1",
			want: `^covered 4,1, which is its own$`},
		{name: "covering the opponent's cell is illegal", rows: 3, cols: 3, before: []string{"2,0 2,1 2,2 1,2"}, move: "0,2 1,2 0,1",
			want: `^covered 1,2, which is the opponent's$`},
		{name: "touching the opponent along an edge is legal", rows: 3, cols: 3, before: []string{"2,0 2,1 2,2 1,2"}, move: "0,2 0,1"},
		{name: "covering a filled cell is illegal", rows: 3, cols: 3, blocked: []Cell{{1, 1}}, move: "2,0 2,1 2,2 1,1",
			want: `^covered 1,1, which is a filled cell$`},
		{name: "a rotated stone is legal", rows: 5, cols: 5, move: "4,0 4,1 4,2 3,2"},
		{name: "a mirrored stone is illegal", rows: 5, cols: 5, move: "2,1 3,1 4,1 4,0",
			want: `^placed stone S4 mirrored; stones may be rotated but not flipped$`},
		{name: "a stone already used is illegal", rows: 5, cols: 5, before: []string{"4,0", "0,4"}, move: "3,1",
			want: `^placed stone S1, but has used every stone of that shape$`},
		{name: "a second stone of the same shape may be placed", rows: 5, cols: 5, stones: []string{"0,0", "0,0"},
			before: []string{"4,0", "0,4"}, move: "3,1"},
		{name: "a shape that is no stone is illegal", rows: 5, cols: 5, move: "4,0 4,1 4,2 4,3 4,4",
			want: `^placed 5 cells in a shape that is no stone of the set$`},
		{name: "a cell given twice is illegal", rows: 5, cols: 5, move: "4,0 4,0",
			want: `^placed cell 4,0 twice$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			specs := tt.stones
			if specs == nil {
				specs = small
			}
			r := mustRules(t, tt.rows, tt.cols, tt.blocked, stonesOf(t, specs...))
			p := NewPosition(r)
			pl := 0
			for _, mv := range tt.before {
				m, problem := p.Check(pl, mustCells(t, mv))
				if problem != "" {
					t.Fatalf("setup move %q by player %d: %s", mv, pl+1, problem)
				}
				p.Apply(pl, m)
				pl = 1 - pl
			}
			legal := p.LegalMoves(pl, nil)
			m, problem := p.Check(pl, mustCells(t, tt.move))
			if tt.want == "" {
				if problem != "" {
					t.Fatalf("move %q: %s, want it legal", tt.move, problem)
				}
				if !slices.Contains(legal, m) {
					t.Errorf("legal move %q (%+v) is missing from LegalMoves %v", tt.move, m, legal)
				}
				got := r.Cells(m)
				want := mustCells(t, tt.move)
				slices.SortFunc(want, cmpCell)
				slices.SortFunc(got, cmpCell)
				if !slices.Equal(got, want) {
					t.Errorf("placement %+v covers %v, want %v", m, got, want)
				}
				return
			}
			if !regexp.MustCompile(tt.want).MatchString(problem) {
				t.Errorf("move %q: problem %q, want it to match %s", tt.move, problem, tt.want)
			}
		})
	}
}

func cmpCell(a, b Cell) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

func TestScore(t *testing.T) {
	r := mustRules(t, 5, 5, nil, stonesOf(t, "0,0", "0,0;1,0"))
	p := NewPosition(r)
	if got := []int{p.Score(0), p.Score(1)}; !slices.Equal(got, []int{-3, -3}) {
		t.Errorf("scores before any stone = %v, want every cell unplaced: [-3 -3]", got)
	}
	for _, mv := range []struct {
		pl    int
		cells string
	}{{0, "4,0"}, {1, "0,4 0,3"}, {0, "3,1 2,1"}} {
		m, problem := p.Check(mv.pl, mustCells(t, mv.cells))
		if problem != "" {
			t.Fatal(problem)
		}
		p.Apply(mv.pl, m)
	}
	if !p.Done(0) || p.Done(1) {
		t.Fatalf("Done = %v, %v; want player 1 done only", p.Done(0), p.Done(1))
	}
	if got := []int{p.Score(0), p.Score(1)}; !slices.Equal(got, []int{20, -1}) {
		t.Errorf("scores = %v, want [20 -1]: 20 for all placed, minus 1 unplaced cell", got)
	}
}

func TestHasMove(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		blocked    []Cell
		stones     []string
		before     []string
		player     int
		want       bool
	}{
		{name: "an empty board has a first move", rows: 3, cols: 3, stones: []string{"0,0"}, player: 0, want: true},
		{name: "a filled diagonal leaves no corner", rows: 3, cols: 4, blocked: []Cell{{1, 1}},
			stones: []string{"0,0", "0,0;1,0"}, before: []string{"2,0", "0,3"}, player: 0},
		{name: "the other side of the same board can still move", rows: 3, cols: 4, blocked: []Cell{{1, 1}},
			stones: []string{"0,0", "0,0;1,0"}, before: []string{"2,0", "0,3"}, player: 1, want: true},
		{name: "a start cell taken by the opponent leaves no first move", rows: 1, cols: 2,
			stones: []string{"0,0;1,0"}, before: []string{"0,0 0,1"}, player: 1},
		{name: "a player with every stone placed has no move", rows: 3, cols: 3,
			stones: []string{"0,0"}, before: []string{"2,0"}, player: 0},
		{name: "a stone too long for every corner", rows: 3, cols: 4,
			stones: []string{"0,0", "0,0;1,0;2,0;3,0"}, before: []string{"2,0", "0,3"}, player: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := mustRules(t, tt.rows, tt.cols, tt.blocked, stonesOf(t, tt.stones...))
			p := NewPosition(r)
			for i, mv := range tt.before {
				m, problem := p.Check(i%2, mustCells(t, mv))
				if problem != "" {
					t.Fatalf("setup move %q: %s", mv, problem)
				}
				p.Apply(i%2, m)
			}
			if got := p.HasMove(tt.player); got != tt.want {
				t.Errorf("HasMove(player %d) = %v, want %v", tt.player+1, got, tt.want)
			}
			if n := len(p.LegalMoves(tt.player, nil)); (n > 0) != tt.want {
				t.Errorf("LegalMoves has %d moves, HasMove should be %v", n, tt.want)
			}
		})
	}
}

// bruteMoves finds every legal placement the slow way: every shape,
// rotation and origin, asked of Check.
func bruteMoves(p *Position, pl int) []Placement {
	r := p.r
	var out []Placement
	for k, sh := range r.shapes {
		for oi, o := range sh.orients {
			for row := 0; row+o.h <= r.rows; row++ {
				for col := 0; col+o.w <= r.cols; col++ {
					m := Placement{k, oi, row, col}
					if got, problem := p.Check(pl, r.Cells(m)); problem == "" {
						if got != m {
							panic(fmt.Sprintf("Check found %+v for the cells of %+v", got, m))
						}
						out = append(out, m)
					}
				}
			}
		}
	}
	return out
}

func sortPlacements(ms []Placement) {
	slices.SortFunc(ms, func(a, b Placement) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
}

// TestLegalMovesMatchBruteForce plays random games and checks, before
// every move, that the anchored search finds exactly the placements that
// Check accepts, each once.
func TestLegalMovesMatchBruteForce(t *testing.T) {
	boards := []struct {
		name       string
		rows, cols int
		blocked    []Cell
		stones     []Stone
	}{
		{"classic 20x20", 20, 20, nil, classicStones(t)},
		{"small 7x9 with filled cells", 7, 9, []Cell{{3, 3}, {3, 4}, {0, 0}}, stonesOf(t, small...)},
		{"64 columns", 6, 64, nil, stonesOf(t, small...)},
	}
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			r := mustRules(t, b.rows, b.cols, b.blocked, b.stones)
			for seed := range uint64(3) {
				rng := rand.New(rand.NewPCG(seed, 1))
				p := NewPosition(r)
				stuck := 0
				for pl := 0; stuck < 2 && !p.Done(0) && !p.Done(1); pl = 1 - pl {
					fast := p.LegalMoves(pl, nil)
					slow := bruteMoves(p, pl)
					sortPlacements(slow)
					got := slices.Clone(fast)
					sortPlacements(got)
					if !slices.Equal(got, slow) {
						t.Fatalf("seed %d player %d: LegalMoves found %d, brute force %d", seed, pl+1, len(got), len(slow))
					}
					if p.HasMove(pl) != (len(slow) > 0) {
						t.Fatalf("HasMove disagrees with %d legal moves", len(slow))
					}
					if len(fast) == 0 {
						stuck++
						continue
					}
					stuck = 0
					p.Apply(pl, fast[rng.IntN(len(fast))])
				}
			}
		})
	}
}

func TestStonesFile(t *testing.T) {
	stones, err := ParseStonesFile(strings.NewReader("# a comment\n0 0 1 0  # I2\n\n-1 -1 -1 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(stones) != 2 || stones[1].Line != 4 || !slices.Equal(Normalise(stones[1].Cells), []Point{{0, 0}, {0, 1}}) {
		t.Errorf("stones = %+v", stones)
	}
	_, err = ParseStonesFile(strings.NewReader("0 0 1\n0 a 1 1\n"))
	if err == nil || !strings.Contains(err.Error(), "line 1 has 3 numbers") || !strings.Contains(err.Error(), `line 2: "0" "a"`) {
		t.Errorf("err = %v, want both bad lines", err)
	}
	if s := classicStones(t); len(s) != 21 {
		t.Errorf("classic set has %d stones, want 21", len(s))
	}
}

func TestStoneChecks(t *testing.T) {
	for _, tt := range []struct {
		cells []Point
		want  string
	}{
		{nil, "the stone has no cells"},
		{[]Point{{0, 0}, {0, 0}}, "cell [0, 0] is given twice"},
		{[]Point{{0, 0}, {1, 1}}, "cell [1, 1] is not joined edge to edge"},
		{[]Point{{-3, 5}, {-2, 5}, {-2, 6}}, ""},
	} {
		err := CheckCells(tt.cells)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckCells(%v) = %v, want %q", tt.cells, err, tt.want)
		}
	}
	art, err := ParseArt("\n  ###\n  .#.\n")
	if err != nil || !slices.Equal(Normalise(art), []Point{{0, 0}, {1, 0}, {2, 0}, {1, 1}}) {
		t.Errorf("ParseArt = %v, %v", art, err)
	}
	if _, err := ParseArt("#x#"); err == nil {
		t.Error("ParseArt accepted 'x'")
	}
	if n := len(Rotations(Normalise([]Point{{0, 0}, {1, 0}, {0, 1}, {1, 1}}))); n != 1 {
		t.Errorf("O4 has %d rotations, want 1", n)
	}
	if n := len(Rotations([]Point{{0, 0}, {1, 0}, {2, 0}})); n != 2 {
		t.Errorf("I3 has %d rotations, want 2", n)
	}
}

func TestRulesValidation(t *testing.T) {
	for _, tt := range []struct {
		name       string
		rows, cols int
		blocked    []Cell
		stones     []Stone
		want       string
	}{
		{"board too small", 0, 5, nil, stonesOf(t, "0,0"), "rows and cols must each be from 1 to 64"},
		{"board too wide", 5, 65, nil, stonesOf(t, "0,0"), "rows and cols must each be from 1 to 64"},
		{"no stones", 5, 5, nil, nil, "the stone set is empty"},
		{"stone too big", 2, 3, nil, stonesOf(t, "0,0;1,0;2,0;3,0"), "stone S1 is 4 × 1 and does not fit on the 2 × 3 board"},
		{"start cell filled", 5, 5, []Cell{{4, 0}}, stonesOf(t, "0,0"), "player 1's start cell [4, 0] is filled"},
		{"filled cell outside", 5, 5, []Cell{{5, 0}}, stonesOf(t, "0,0"), "the filled cell [5, 0] is outside"},
		{"broken stone", 5, 5, nil, []Stone{{Name: "B", Cells: []Point{{0, 0}, {2, 0}}}}, "stone B: cell [2, 0] is not joined"},
	} {
		_, err := NewRules(tt.rows, tt.cols, tt.blocked, tt.stones)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := NewRules(3, 1, nil, stonesOf(t, "0,0;1,0;2,0")); err != nil {
		t.Errorf("a stone that fits only rotated: %v", err)
	}
}

// TestPointJSONIndented: a cell reads back from an indented plan (plan
// -json writes a cell over four lines), and only a cell reads.
func TestPointJSONIndented(t *testing.T) {
	in := []Point{{3, -1}, {0, 12}}
	b, err := json.MarshalIndent(map[string][]Point{"cells": in}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var out map[string][]Point
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v, reading\n%s", err, b)
	}
	if !slices.Equal(out["cells"], in) {
		t.Errorf("read %v, wrote %v", out["cells"], in)
	}
	for _, bad := range []string{`[1]`, `[1,2,3]`, `"1,2"`, `[1,2]x`} {
		var p Point
		if err := p.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s read as %v", bad, p)
		}
	}
}
