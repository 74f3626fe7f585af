package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// twoSeats is a game that seats two bots only (its other methods are
// not called when later steps are made).
type twoSeats struct{ drivers.Game }

func (twoSeats) Seats(n int) error {
	if n != 2 {
		return fmt.Errorf("two players, not %d", n)
	}
	return nil
}

// tiedResults are results of ms in which every bot scores alike.
func tiedResults(ms []plan.Match) []Result {
	var out []Result
	for _, m := range ms {
		r := Result{Match: m.ID, Round: m.Round, Group: m.Group, Seed: m.Seed}
		for _, b := range m.Seats {
			r.Seats = append(r.Seats, stats.SeatResult{Bot: b})
		}
		out = append(out, r)
	}
	return out
}

// TestStepWarningsOnce makes the playoffs of a stage whose group A ties
// three bots, which the game cannot seat, and whose group B ties two
// bots in every playoff: each playoff finds A's tie again, and the run
// warns of it once.
func TestStepWarningsOnce(t *testing.T) {
	dir := t.TempDir()
	hcl := `game "auction" "g" {
  board "small" {
    cols    = 2
    rows    = 2
    capital = 20
  }
}
tournament "t" {
  game   = game.auction.g
  bots   = [bot.b1, bot.b2, bot.b3, bot.b4, bot.b5]
  seats  = "fixed"
  rating = "placement"
  rounds = 1
  seed   = 1
  stage "a" {
    groups = 2
    split  = "seeded"
  }
  stage "b" { bots = [winners(stage.a)] }
}
`
	for i := 1; i <= 5; i++ {
		hcl += fmt.Sprintf("bot \"b%d\" { house = \"auction/random\" }\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names(), Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var logged bytes.Buffer
	s := &session{game: twoSeats{}, log: hclog.New(&hclog.LoggerOptions{Output: &logged}), full: *p,
		sum: &Summary{Results: tiedResults(p.Matches)}}
	for step := 0; step < 3; step++ {
		pr, _, err := s.makeNext(step)
		if err != nil || pr == nil || pr.Rule != "playoff" {
			t.Fatalf("step %d: %+v, %v; want a playoff of group B", step, pr, err)
		}
		s.full.Matches = append(s.full.Matches, pr.Matches...)
		s.sum.Results = append(s.sum.Results, tiedResults(pr.Matches)...)
	}
	if n := strings.Count(logged.String(), "tie not played off"); n != 1 {
		t.Errorf("the unseated tie of group A was warned of %d times, want once:\n%s", n, logged.String())
	}
}
