package bricks

import (
	"strings"
	"testing"
)

func mv(x1, y1, x2, y2 int) Move { return Move{{X: x1, Y: y1}, {X: x2, Y: y2}} }

func TestParseMove(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Move
		ok   bool
	}{
		{"horizontal", "1x2_2x2", mv(1, 2, 2, 2), true},
		{"vertical_written_bottom_first", "3x1_3x0", mv(3, 1, 3, 0), true},
		{"leading_zeros_are_decimal", "010x0_011x0", mv(10, 0, 11, 0), true},
		{"negative_numbers_parse_so_that_the_move_is_illegal_not_gibberish", "-1x0_0x0", mv(-1, 0, 0, 0), true},
		{"large_numbers_parse", "998x998_998x997", mv(998, 998, 998, 997), true},
		{"one_cell", "1x2", Move{}, false},
		{"three_cells", "1x2_2x2_3x2", Move{}, false},
		{"comma_instead_of_x", "1,2_2,2", Move{}, false},
		{"upper_case_X", "1X2_2X2", Move{}, false},
		{"inner_space", "1x2 _2x2", Move{}, false},
		{"hex", "0x1_0x2x", Move{}, false},
		{"empty", "", Move{}, false},
		{"word", "pass", Move{}, false},
		{"double_sign", "--1x0_0x0", Move{}, false},
		{"too_many_digits", "1234567890x0_0x0", Move{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseMove(tt.text)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Errorf("ParseMove(%q) = %v, %v; want %v, %v", tt.text, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	// A 5×5 board with (2, 2) filled beforehand and a domino at (0,0)-(1,0).
	b := NewBoard(5, []Cell{{X: 2, Y: 2}})
	b.Place(mv(0, 0, 1, 0))
	tests := []struct {
		name string
		move Move
		want string // a part of the problem; "" for a legal move
	}{
		{"horizontal_domino", mv(3, 3, 4, 3), ""},
		{"vertical_domino", mv(4, 0, 4, 1), ""},
		{"halves_in_either_order", mv(4, 1, 4, 0), ""},
		{"along_the_far_edges", mv(4, 4, 3, 4), ""},
		{"diagonal_pair_is_not_a_domino", mv(3, 0, 4, 1), "not side by side"},
		{"anti_diagonal_pair_is_not_a_domino", mv(1, 4, 0, 3), "not side by side"},
		{"distant_pair_in_a_row", mv(0, 3, 2, 3), "not side by side"},
		{"distant_pair_in_a_column", mv(4, 0, 4, 4), "not side by side"},
		{"knight_pair", mv(0, 2, 1, 4), "not side by side"},
		{"same_cell_twice", mv(3, 3, 3, 3), "same cell"},
		{"off_the_right_edge", mv(4, 1, 5, 1), "off the 5×5 board"},
		{"off_the_bottom_edge", mv(0, 4, 0, 5), "off the 5×5 board"},
		{"negative_cell", mv(-1, 1, 0, 1), "off the 5×5 board"},
		{"onto_a_prefilled_cell", mv(2, 1, 2, 2), "already filled"},
		{"onto_a_placed_domino", mv(1, 0, 1, 1), "already filled"},
		{"onto_the_same_domino_again", mv(0, 0, 1, 0), "already filled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := b.Check(tt.move)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Check(%v) = %q, want %q", tt.move, got, tt.want)
			}
		})
	}
}

func TestEnd(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		filled []Cell
		moves  []Move
		want   bool // HasMove after the moves
	}{
		{name: "empty_board_has_moves", n: 3, want: true},
		{
			name: "starting_board_without_a_move", n: 3,
			// A checkerboard: no two free cells side by side.
			filled: []Cell{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: 2, Y: 1}, {X: 1, Y: 2}},
			want:   false,
		},
		{
			name: "one_free_pair_left", n: 3,
			filled: []Cell{{X: 1, Y: 0}, {X: 0, Y: 1}, {X: 2, Y: 1}},
			want:   true,
		},
		{
			name: "normal_end_after_four_moves", n: 3,
			// Four dominoes leave only the centre free.
			moves: []Move{mv(0, 0, 1, 0), mv(2, 0, 2, 1), mv(2, 2, 1, 2), mv(0, 2, 0, 1)},
			want:  false,
		},
		{
			name: "isolated_free_cells_are_no_move", n: 3,
			moves: []Move{mv(0, 1, 1, 1), mv(1, 0, 2, 0), mv(1, 2, 2, 2)},
			want:  false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBoard(tt.n, tt.filled)
			for _, m := range tt.moves {
				if p := b.Check(m); p != "" {
					t.Fatalf("move %v: %s", m, p)
				}
				b.Place(m)
			}
			if got := b.HasMove(); got != tt.want {
				t.Errorf("HasMove() = %v, want %v", got, tt.want)
			}
			if got := len(b.Moves()) > 0; got != tt.want {
				t.Errorf("Moves() = %v, disagrees with HasMove", b.Moves())
			}
		})
	}
}

func TestMessage(t *testing.T) {
	for _, tt := range []struct {
		n     int
		cells []Cell
		want  string
	}{
		{7, []Cell{{X: 2, Y: 3}, {X: 4, Y: 5}}, "7_2x3_4x5"},
		{5, nil, "5"},
	} {
		if got := Message(tt.n, tt.cells); got != tt.want {
			t.Errorf("Message = %q, want %q", got, tt.want)
		}
		b, err := parseBoardMessage(tt.want)
		if err != nil || b.N != tt.n {
			t.Errorf("parseBoardMessage(%q) = %v, %v", tt.want, b, err)
		}
	}
}

// TestKeeperSolvesEndgames checks the keeper against the game's own
// rules: in every position it calls won, the move it picks leaves no move
// that wins back, by brute force.
func TestKeeperSolvesEndgames(t *testing.T) {
	b := NewBoard(5, []Cell{{X: 2, Y: 2}, {X: 0, Y: 4}, {X: 4, Y: 0}})
	for _, m := range []Move{mv(0, 0, 1, 0), mv(3, 3, 3, 4), mv(1, 2, 1, 3)} {
		b.Place(m)
	}
	k := &keeper{memo: map[region]uint8{}, limit: 1 << 30} // solve alone: no limit set by choose
	m, ok := k.solve(b)
	if !ok {
		t.Fatal("the keeper found no winning move in a position it can read")
	}
	b.Place(m)
	if wins(b) {
		t.Errorf("after the keeper's %v, the opponent to move still wins", m)
	}
}

// wins reports by brute force whether the player to move wins.
func wins(b *Board) bool {
	for _, m := range b.Moves() {
		c := b.Clone()
		c.Place(m)
		if !wins(c) {
			return true
		}
	}
	return false
}

// TestOriginalProblem checks the original's sentences for an illegal
// move (game.Rules and game.Matrix), in its order: the first cell, the
// second, then the pair.
func TestOriginalProblem(t *testing.T) {
	b := NewBoard(3, []Cell{{X: 1, Y: 1}})
	for _, tt := range []struct{ move, want string }{
		{"0x0_0x3", "DataCell(0;3) is outside data matrix 3x3."},
		{"-1x0_0x0", "DataCell(-1;0) is outside data matrix 3x3."},
		// The first cell is checked before the second is off the board.
		{"1x1_1x9", "Cell(1;1) already has a value of true."},
		{"0x1_1x1", "Cell(1;1) already has a value of true."},
		{"0x0_2x0", "Blocks (0;0) and (2;0) are not neighbours!"},
		{"0x0_0x0", "Blocks (0;0) and (0;0) are not neighbours!"},
		// The original let this one through (its columns differ by
		// one); arbiter rejects it with the original's sentence.
		{"0x0_1x2", "Blocks (0;0) and (1;2) are not neighbours!"},
	} {
		m, ok := ParseMove(tt.move)
		if !ok {
			t.Fatalf("%s does not parse", tt.move)
		}
		if b.Check(m) == "" {
			t.Errorf("%s is legal", tt.move)
		}
		if got := b.OriginalProblem(m); got != tt.want {
			t.Errorf("%s: %q; want %q", tt.move, got, tt.want)
		}
	}
}
