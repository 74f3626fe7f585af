package bricks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func decode(t *testing.T, src string) *Game {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "game.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	g, diags := Driver{}.DecodeGame(f.Body, &hcl.EvalContext{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return g.(*Game)
}

// TestSameSeedSameBoard: the random cells of a board are drawn once for
// the whole tournament from the board's seed, so the same configuration
// gives the same board every time, and another seed another board.
func TestSameSeedSameBoard(t *testing.T) {
	board := func(seed string) string {
		return "board {\n  size = 9\n  filled = [[4, 4]]\n  random = 8\n" + seed + "}\n"
	}
	a, b := decode(t, board("  seed = 42\n")), decode(t, board("  seed = 42\n"))
	if !cmp.Equal(a.settings.Filled, b.settings.Filled) {
		t.Errorf("seed 42 gave %v, then %v", a.settings.Filled, b.settings.Filled)
	}
	if len(a.settings.Filled) != 9 {
		t.Errorf("%d filled cells, want 1 fixed and 8 random: %v", len(a.settings.Filled), a.settings.Filled)
	}
	if c := decode(t, board("  seed = 43\n")); cmp.Equal(a.settings.Filled, c.settings.Filled) {
		t.Errorf("seeds 42 and 43 gave the same board %v", a.settings.Filled)
	}
	d, e := decode(t, board("")), decode(t, board("  seed = 1\n"))
	if !cmp.Equal(d.settings.Filled, e.settings.Filled) {
		t.Errorf("without a seed the board is not the one of seed %d: %v and %v", DefaultBoardSeed, d.settings.Filled, e.settings.Filled)
	}
	// The plan records the drawn board; a game loaded from it plays on the
	// same cells.
	raw, err := json.Marshal(a.Settings())
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Driver{}.LoadGame(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.settings, loaded.(*Game).settings); diff != "" {
		t.Errorf("settings after a round trip through the plan (-want +got):\n%s", diff)
	}
	if got := Message(a.settings.Size, a.settings.Filled); got != Message(9, b.settings.Filled) {
		t.Errorf("board message %s", got)
	}
}

func TestDefaultLimits(t *testing.T) {
	g := decode(t, "board {\n  size = 5\n}\n")
	if g.settings.Limits != DefaultLimits {
		t.Errorf("limits %+v, want the original's %+v", g.settings.Limits, DefaultLimits)
	}
	g = decode(t, "board {\n  size = 5\n}\nclock {\n  move = \"2s\"\n  silence = \"9s\"\n}\n")
	if want := (Limits{Startup: DefaultLimits.Startup, Delay: DefaultLimits.Delay, Move: 2e9, Silence: 9e9}); g.settings.Limits != want {
		t.Errorf("limits %+v, want %+v", g.settings.Limits, want)
	}
}

// TestNoDelay: the wake-up delay may be none, as the original's
// Tournament's default (wakeUpTime = 0); the limits may not.
func TestNoDelay(t *testing.T) {
	g := decode(t, "board {\n  size = 5\n}\nclock {\n  delay = \"0s\"\n}\n")
	if g.settings.Limits.Delay != 0 {
		t.Errorf("delay %v, want none", g.settings.Limits.Delay)
	}
	raw, err := json.Marshal(g.Settings())
	if err != nil {
		t.Fatal(err)
	}
	if loaded, err := (Driver{}).LoadGame(raw); err != nil || loaded.(*Game).settings.Limits != g.settings.Limits {
		t.Errorf("loaded from the plan: %v, %v", loaded, err)
	}
	for _, clock := range []string{`delay = "-1s"`, `startup = "0s"`, `move = "0s"`, `move = "500us"`, `startup = "999us"`} {
		f, diags := hclsyntax.ParseConfig([]byte("board {\n  size = 5\n}\nclock {\n  "+clock+"\n}\n"), "game.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if _, diags := (Driver{}).DecodeGame(f.Body, &hcl.EvalContext{}); !diags.HasErrors() || diags[0].Summary != "Invalid duration" {
			t.Errorf("%s: %v, want an invalid duration", clock, diags)
		}
	}
}

func TestLoadGameRejectsBadSettings(t *testing.T) {
	for _, raw := range []string{
		`{"size":4,"filled":[],"board":{"rows":4,"cols":4},"limits":{"startup":"1s","move":"1s","silence":"5s"}}`,
		`{"size":5,"filled":[[5,0]],"board":{"rows":5,"cols":5},"limits":{"startup":"1s","move":"1s","silence":"5s"}}`,
		`{"size":5,"filled":[],"board":{"rows":5,"cols":5},"limits":{"startup":"1s","move":"9s","silence":"5s"}}`,
		// Under the clock floor, as validate refuses it.
		`{"size":5,"filled":[],"board":{"rows":5,"cols":5},"limits":{"startup":"1s","move":"500µs","silence":"5s"}}`,
	} {
		if _, err := (Driver{}).LoadGame(json.RawMessage(raw)); err == nil {
			t.Errorf("LoadGame(%s) accepted it", raw)
		}
	}
}

// TestDelayHasNoFloor: delay is a wait before the board is sent, not a
// limit on an answer, so a delay under a millisecond is no error (the
// original's setting starts at 0 ms).
func TestDelayHasNoFloor(t *testing.T) {
	g := decode(t, "board {\n  size = 5\n}\nclock {\n  delay = \"500us\"\n}\n")
	if g.settings.Limits.Delay != 500e3 {
		t.Errorf("delay = %v, want 500µs", g.settings.Limits.Delay)
	}
	raw, _ := json.Marshal(g.Settings())
	if _, err := (Driver{}).LoadGame(raw); err != nil {
		t.Errorf("LoadGame of a delay of 500µs: %v", err)
	}
}

// TestNoFirstMove: the board, random cells included, is fixed when the
// configuration is read, so a board on which no domino fits (every cell
// filled, or one free cell left) is warned of at its board block: the
// first player loses every duel normally (docs/protocols/bricks.md). A
// plan read back with it runs.
func TestNoFirstMove(t *testing.T) {
	for _, tc := range []struct{ name, board string }{
		{"every cell filled", "board {\n  size = 3\n  filled = [[0,0],[1,0],[2,0],[0,1],[1,1],[2,1],[0,2],[1,2],[2,2]]\n}\n"},
		{"one free cell", "board {\n  size = 5\n  random = 24\n}\n"},
		{"no two free cells side by side", "board {\n  size = 3\n  filled = [[1,0],[0,1],[2,1],[1,2]]\n}\n"},
	} {
		f, diags := hclsyntax.ParseConfig([]byte(tc.board), "game.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, diags = Driver{}.DecodeGame(f.Body, &hcl.EvalContext{})
		if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Summary != "No legal first move on this board" || diags[0].Subject == nil || diags[0].Subject.Start.Line != 3 {
			t.Errorf("%s: %v, want one warning at line 3: no legal first move", tc.name, diags)
		} else if strings.Contains(strings.ToLower(diags[0].Detail), "no legal first move") {
			t.Errorf("%s: the detail repeats the summary: %s", tc.name, diags[0].Detail)
		}
	}
	raw := `{"size":3,"filled":[[1,0],[0,1],[2,1],[1,2]],"board":{"rows":3,"cols":3,"filled":[[1,0],[0,1],[2,1],[1,2]]},"limits":{"startup":"1s","move":"1s","silence":"5s"}}`
	if _, err := (Driver{}).LoadGame(json.RawMessage(raw)); err != nil {
		t.Errorf("LoadGame of a board with no move: %v, want it played to the protocol's end", err)
	}
	// One domino's room is enough.
	decode(t, "board {\n  size = 3\n  filled = [[1,0],[0,1],[2,1],[2,2]]\n}\n")
}
