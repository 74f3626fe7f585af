package bricks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/tournament"
)

const orderConfig = `
bot "a" { command = ["true"] }
bot "b" { command = ["true"] }
bot "c" { command = ["true"] }
game "bricks" "g" {
  board { size = 3 }
}
tournament "t" {
  game    = game.bricks.g
  bots    = [bot.a, bot.b, bot.c]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  %s
}
`

// planSeats compiles orderConfig with the tournament attribute attr and
// lists its matches' seats.
func planSeats(t *testing.T, attr string) (tournament.Order, []string) {
	t.Helper()
	dir := t.TempDir()
	src := strings.Replace(orderConfig, "%s", attr, 1)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var seats []string
	for _, m := range p.Matches {
		seats = append(seats, strings.Join(m.Seats, "-"))
	}
	return p.Order, seats
}

// TestDefaultOrder: a Bricks tournament plays its duels in the original's
// order (each first player's opponents in turn, so duels.txt numbers them
// as the original does) unless it sets order; order = "by-group" gives
// arbiter's usual order.
func TestDefaultOrder(t *testing.T) {
	order, seats := planSeats(t, "")
	if want := []string{"a-b", "a-c", "b-a", "b-c", "c-a", "c-b"}; order != tournament.BySeat || !cmp.Equal(seats, want) {
		t.Errorf("default: order %v, duels %v; want by-seat, %v", order, seats, want)
	}
	order, seats = planSeats(t, `order = "by-group"`)
	if want := []string{"a-b", "b-a", "a-c", "c-a", "b-c", "c-b"}; order != tournament.ByGroup || !cmp.Equal(seats, want) {
		t.Errorf("by-group: order %v, duels %v; want by-group, %v", order, seats, want)
	}
}

// TestStagedBricksKeepsItsOrder: a tournament in stages lists each
// stage's matches itself, so Bricks's default order is not put in its
// plan.
func TestStagedBricksKeepsItsOrder(t *testing.T) {
	dir := t.TempDir()
	src := strings.Replace(orderConfig, "format  = \"round-robin\"", "", 1)
	src = strings.Replace(src, "%s", `stage "one" { players = 2 }`, 1)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if p.Order != tournament.ByGroup || len(p.Stages) != 1 {
		t.Errorf("order %v with %d stage(s); want by-group, 1", p.Order, len(p.Stages))
	}
}
