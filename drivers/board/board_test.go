package board

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/diagtest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// parse decodes the one board block of src.
func parse(t *testing.T, name, src string) (Spec, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s does not parse: %v", name, diags)
	}
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{Block}})
	if diags.HasErrors() || len(content.Blocks) != 1 {
		t.Fatalf("%s: want one board block: %v", name, diags)
	}
	return Decode(content.Blocks[0], &hcl.EvalContext{}, Most{})
}

// TestInvalid decodes every file of testdata/invalid: every error must be
// expected and every expectation met, so each file also proves that all its
// errors are reported in one go.
func TestInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := parse(t, file, string(src))
			diagtest.Check(t, file, string(src), diags)
		})
	}
}

func seed(n uint64) *uint64 { return &n }

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want Spec
	}{
		{
			name: "square_without_cells",
			src:  `board { size = 7 }`,
			want: Spec{Rows: 7, Cols: 7},
		},
		{
			name: "rectangle_with_cells_sorted_in_reading_order",
			src:  "board {\n  rows = 3\n  cols = 4\n  filled = [[3, 2], [2, 0], [0, 1]]\n}",
			want: Spec{Rows: 3, Cols: 4, Filled: []Cell{{X: 2, Y: 0}, {X: 0, Y: 1}, {X: 3, Y: 2}}},
		},
		{
			name: "map_gives_its_size",
			src:  "board {\n  map = <<-EOT\n    .#..\n    ....\n    #..#\n    EOT\n}\n",
			want: Spec{Rows: 3, Cols: 4, Filled: []Cell{{X: 1, Y: 0}, {X: 0, Y: 2}, {X: 3, Y: 2}}},
		},
		{
			name: "map_matching_its_size",
			src:  "board {\n  size = 2\n  map = \"#.\\n.#\"\n}\n",
			want: Spec{Rows: 2, Cols: 2, Filled: []Cell{{X: 0, Y: 0}, {X: 1, Y: 1}}},
		},
		{
			name: "random_with_seed",
			src:  "board {\n  size = 5\n  random = 3\n  seed = 42\n}",
			want: Spec{Rows: 5, Cols: 5, Random: 3, Seed: seed(42)},
		},
		{
			name: "random_may_fill_every_free_cell",
			src:  "board {\n  size = 2\n  filled = [[0, 0]]\n  random = 3\n}",
			want: Spec{Rows: 2, Cols: 2, Filled: []Cell{{X: 0, Y: 0}}, Random: 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := parse(t, tt.name+".hcl", tt.src)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("a decoded spec does not validate: %v", err)
			}
		})
	}
}

func TestCells(t *testing.T) {
	fixed := Spec{Rows: 5, Cols: 5, Filled: []Cell{{X: 1, Y: 0}, {X: 4, Y: 4}}}
	if got := fixed.Cells(1); !cmp.Equal(got, fixed.Filled) {
		t.Errorf("fixed cells: got %v, want %v", got, fixed.Filled)
	}

	random := Spec{Rows: 9, Cols: 9, Filled: []Cell{{X: 4, Y: 4}}, Random: 10}
	a, b := random.Cells(7), random.Cells(7)
	if !cmp.Equal(a, b) {
		t.Errorf("same seed, different boards: %v and %v", a, b)
	}
	if len(a) != 11 {
		t.Fatalf("%d cells, want the fixed one and 10 drawn: %v", len(a), a)
	}
	seen := map[Cell]bool{}
	for i, c := range a {
		if !random.On(c) || seen[c] {
			t.Errorf("cell %v off the board or twice in %v", c, a)
		}
		seen[c] = true
		if i > 0 && Compare(a[i-1], c) >= 0 {
			t.Errorf("cells not in reading order: %v", a)
		}
	}
	if !seen[Cell{X: 4, Y: 4}] {
		t.Errorf("the fixed cell is missing from %v", a)
	}
	if c := random.Cells(8); cmp.Equal(a, c) {
		t.Errorf("seeds 7 and 8 drew the same board %v", a)
	}

	// With its own seed, the board is the same whatever the match seed.
	random.Seed = seed(3)
	if x, y := random.Cells(1), random.Cells(2); !cmp.Equal(x, y) {
		t.Errorf("a board with a seed changed with the match seed: %v and %v", x, y)
	}

	full := Spec{Rows: 2, Cols: 2, Filled: []Cell{{X: 0, Y: 0}}, Random: 3}
	if got := full.Cells(5); len(got) != 4 {
		t.Errorf("drawing every free cell gave %v", got)
	}
}

// TestCellsPinned pins one draw, so that a change of the algorithm (which
// would change every tournament's boards) cannot pass unnoticed.
func TestCellsPinned(t *testing.T) {
	s := Spec{Rows: 5, Cols: 5, Random: 3, Seed: seed(42)}
	got, _ := json.Marshal(s.Cells(0))
	const want = `[[1,0],[1,4],[2,4]]`
	if string(got) != want {
		t.Errorf("Cells = %s, want %s", got, want)
	}
}

func TestJSON(t *testing.T) {
	s := Spec{Rows: 3, Cols: 4, Filled: []Cell{{X: 2, Y: 0}, {X: 0, Y: 1}}, Random: 2, Seed: seed(9)}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"rows":3,"cols":4,"filled":[[2,0],[0,1]],"random":2,"seed":9}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestValidate(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    Spec
		want string
	}{
		{"no_rows", Spec{Cols: 3}, "each side"},
		{"off_board", Spec{Rows: 3, Cols: 3, Filled: []Cell{{X: 3, Y: 0}}}, "off the"},
		{"twice", Spec{Rows: 3, Cols: 3, Filled: []Cell{{X: 1, Y: 0}, {X: 1, Y: 0}}}, "twice"},
		{"too_random", Spec{Rows: 2, Cols: 2, Filled: []Cell{{X: 1, Y: 0}}, Random: 4}, "free cells"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

// TestGamesLimit: a board over a game's own bound is refused in the
// game's words, at the attribute that is over, even where it is over
// MaxSide too, so that the message names a size that will do.
func TestGamesLimit(t *testing.T) {
	most := Most{Side: 64, Game: "Blokus", Rule: "a Blokus board has at most 64 of each"}
	for _, tc := range []struct{ src, want string }{
		{"board { size = 1001 }", "size is over 64; a Blokus board has at most 64 of each."},
		{"board {\n rows = 20\n cols = 65\n}", "cols is over 64; a Blokus board has at most 64 of each."},
		{"board {\n rows = 2000\n cols = 5\n}", "rows is over 64; a Blokus board has at most 64 of each."},
	} {
		f, diags := hclsyntax.ParseConfig([]byte(tc.src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		content, _ := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{Block}})
		_, diags = Decode(content.Blocks[0], &hcl.EvalContext{}, most)
		if len(diags) != 1 || diags[0].Summary != "Board too large for Blokus" || diags[0].Detail != tc.want {
			t.Errorf("%q: got %v, want one error %q", tc.src, diags, tc.want)
		}
	}
	if _, diags := parse(t, "t.hcl", "board { size = 1001 }"); len(diags) != 1 || diags[0].Detail != "size is over 1000; boards have at most 1000 cells a side." {
		t.Errorf("without a game's limit: %v", diags)
	}
}
