package main

import (
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// The plan's clock line says the game's clock when no match is listed
// (a staged tournament whose matches are all known only during the
// run), not "unlimited".
func TestDescribeClockWithoutMatches(t *testing.T) {
	move := drivers.Clock{Move: drivers.Duration(3 * time.Second)}
	p := &plan.Plan{Stages: []plan.Stage{{Name: "a", Clock: move}}}
	none := plan.Seq(func(func(*plan.Match) bool) {})
	if got := describeClock(p, none); got != "move 3s" {
		t.Errorf("describeClock without matches = %q, want %q", got, "move 3s")
	}
	total := drivers.Clock{Total: drivers.Duration(time.Minute)}
	one := plan.Seq(func(yield func(*plan.Match) bool) { yield(&plan.Match{Clock: total}) })
	if got := describeClock(p, one); got != "total 1m0s" {
		t.Errorf("describeClock of a listed match = %q, want %q", got, "total 1m0s")
	}
}
