package bricks

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
)

// TestPythonPlayer plays the example's Python player, run from its player
// folder as the import of info.txt runs it, against the house bots in
// both seats: it must finish every duel without a fault.
func TestPythonPlayer(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	folder, err := filepath.Abs("../../examples/bricks/players/simple")
	if err != nil {
		t.Fatal(err)
	}
	limits := Limits{Startup: drivers.Duration(10 * time.Second), Move: drivers.Duration(10 * time.Second), Silence: drivers.Duration(20 * time.Second)}
	g := testGame(7, []board.Cell{{X: 3, Y: 1}, {X: 5, Y: 5}}, limits)
	r := newRun(t)
	for i, house := range []string{"random", "keeper"} {
		for py := range 2 {
			m := r.match(t, "py", uint64(i*2+py), t.TempDir(), player{house, "HOUSE"}, player{house, "HOUSE"})
			m.Seats[py] = drivers.Seat{Bot: "simple", Nick: "SIMPLE", Command: []string{"python3", "bot.py"}, Dir: folder,
				Stderr: filepath.Join(m.Dir, "py.stderr"), Env: []string{"ARBITER_TEST_RUN=" + r.id}}
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			for s, res := range out.Seats {
				if res.Fault != "" {
					t.Errorf("%s vs python (python in seat %d): seat %d fault %s: %s", house, py, s, res.Fault, res.Detail)
				}
			}
		}
	}
	r.assertNoProcessLeft(t)
}
