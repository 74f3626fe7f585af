package blokus_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/diagtest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/blokus"
	"github.com/arbiter-contests/arbiter/internal/userfile"
)

func load(path string) (*config.Config, hcl.Diagnostics) {
	return config.Load(path, config.Options{Driver: all.Driver, DriverNames: all.Names(), Environ: []string{}})
}

// TestInvalid loads every file in testdata/invalid. Each line that should
// carry diagnostics ends with "# ERROR: <summary>, <summary>..."; every
// error must be expected and every expectation met, so a file also proves
// that all its errors are reported in one go.
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
			_, diags := load(file)
			diagtest.Check(t, file, string(src), diags)
		})
	}
}

// TestExamples loads both example tournaments, compiles their plans, and
// reads each game back from the plan's settings, as a run does.
func TestExamples(t *testing.T) {
	for _, dir := range []string{"course", "classic"} {
		t.Run(dir, func(t *testing.T) {
			cfg, diags := load(filepath.Join("../../examples/blokus", dir))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			for _, d := range diags {
				t.Errorf("warning: %v", d)
			}
			tour := cfg.Tournaments[0]
			p, diags := compile.Compile(cfg, tour)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			g, err := blokus.Driver{}.LoadGame(p.Game.Settings)
			if err != nil {
				t.Fatal(err)
			}
			var s blokus.Settings
			if err := json.Unmarshal(p.Game.Settings, &s); err != nil {
				t.Fatal(err)
			}
			want := map[string][2]int{"course": {10, 9}, "classic": {20, 21}}[dir]
			if s.Board.Rows != want[0] || len(s.Stones) != want[1] {
				t.Errorf("board %d rows, %d stones; want %v", s.Board.Rows, len(s.Stones), want)
			}
			// classic limits each move to 2s; the course each turn
			// (its play and gen_move together), after a start-up allowance.
			want2s := map[string]drivers.Clock{"course": blokus.DefaultClock, "classic": {Move: drivers.Duration(2e9), Total: drivers.Duration(60e9)}}[dir]
			if c := tour.Game.Game.Clock(); c != want2s || p.Matches[0].Clock != c {
				t.Errorf("clock %+v, plan's %+v, want %+v", c, p.Matches[0].Clock, want2s)
			}
			if diff := cmp.Diff(s, g.Settings()); diff != "" {
				t.Errorf("LoadGame's settings differ from the plan's (-plan +loaded):\n%s", diff)
			}
		})
	}
}

// TestEditingHCLChangesTheGame: the board size and the stone set are
// config, not code.
func TestEditingHCLChangesTheGame(t *testing.T) {
	dir := t.TempDir()
	src := `
game "blokus" "g" {
  board {
    rows   = 7
    cols   = 12
    filled = [[5, 3]]
  }
  stones {
    stone "T" {
      art = <<-EOT
        ###
        .#.
      EOT
    }
    stone "L" { cells = [[-1, 5], [-1, 6], [0, 6]] }
  }
  clock { move = "2s" }
}`
	if err := os.WriteFile(filepath.Join(dir, "g.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	b, _ := json.Marshal(cfg.Games[0].Game.Settings())
	want := `{"board":{"rows":7,"cols":12,"filled":[[5,3]]},"stones":[{"name":"T","cells":[[0,0],[1,0],[2,0],[1,1]]},{"name":"L","cells":[[0,0],[0,1],[1,1]]}]}`
	if string(b) != want {
		t.Errorf("settings\n got %s\nwant %s", b, want)
	}
}

// TestStonesFileIsBounded: a stones file is read up to userfile.Limit,
// and one larger is refused naming it, however short its lines.
func TestStonesFileIsBounded(t *testing.T) {
	dir := t.TempDir()
	comment := "#" + strings.Repeat("-", 1022) + "\n"
	big := "0 0\n" + strings.Repeat(comment, userfile.Limit/len(comment)+1)
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `game "blokus" "g" {
  board { size = 3 }
  stones { file = "big.txt" }
  clock { move = "2s" }
}`
	if err := os.WriteFile(filepath.Join(dir, "g.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := load(dir)
	want := filepath.Join(dir, "big.txt") + " is larger than 16 MiB"
	if !diags.HasErrors() || !strings.Contains(diags.Error(), want) || diags[0].Subject.Start.Line != 3 {
		t.Errorf("diagnostics: %v\nwant one on line 3 saying %q", diags, want)
	}
}
