package euchre

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// Partnerships come from the match's seed: the same seed, the same
// partners; over seeds, every one of the three pairings of four bots.
func TestPartnersFromTheSeed(t *testing.T) {
	pairings := map[[2]int]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		p := Partners(seed)
		if p != Partners(seed) {
			t.Fatalf("seed %d: partners %v, then %v", seed, p, Partners(seed))
		}
		seen := map[int]bool{}
		for _, s := range p {
			seen[s] = true
		}
		if len(seen) != 4 {
			t.Fatalf("seed %d: %v is not a seating of four bots", seed, p)
		}
		// The partner of seat 0.
		for pos, s := range p {
			if s == 0 {
				pairings[[2]int{0, p[(pos+2)%4]}] = true
			}
		}
	}
	if len(pairings) != 3 {
		t.Errorf("40 seeds partner seat 0 with %v; want all three", pairings)
	}
}

// Four distinct bots, one a position: the seat that misbehaves is charged
// its own defaults, every decision is recorded at its bot's seat, and
// partners share their team's result.
func TestFourBots(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 2
	const seed = 31
	m, marker := processMatch(t, seed, house(t, "rules"), house(t, "random"), bad(t, "crash", Ordering), house(t, "rules"))
	rec := &events{}
	m.Record = rec
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	proctest.AssertNoEnv(t, marker)
	seats := Partners(seed)
	if p := rec.of("partners"); len(p) != 1 || p[0].(PartnersEvent).Seats != seats {
		t.Fatalf("partners events %v, want one of %v", p, seats)
	}
	for _, e := range rec.of("decision") {
		if d := e.(DecisionEvent); d.Seat != seats[d.Position] {
			t.Fatalf("decision of position %d recorded at seat %d; the position is seat %d's", d.Position, d.Seat, seats[d.Position])
		}
	}
	defaults := rec.of("default")
	if len(defaults) == 0 {
		t.Fatal("the crashing bot got no default")
	}
	for _, e := range defaults {
		if d := e.(DefaultEvent); d.Seat != 2 {
			t.Errorf("default of seat %d: %+v", d.Seat, d)
		}
	}
	if len(out.Seats) != 4 || out.Seats[2].Defaults != len(defaults) {
		t.Fatalf("outcome %+v; seat 2 has %d defaults", out.Seats, len(defaults))
	}
	for pos, s := range seats {
		partner := seats[(pos+2)%4]
		if got := out.Seats[s].Partners; len(got) != 1 || got[0] != partner {
			t.Errorf("seat %d has partners %v, want [%d]: the statistics credit a team's win to both partners from them", s, got, partner)
		}
		if out.Seats[s].Score != out.Seats[partner].Score {
			t.Errorf("seats %d and %d are partners but score %v and %v", s, partner, out.Seats[s].Score, out.Seats[partner].Score)
		}
		if opp := seats[(pos+1)%4]; out.Seats[s].Score+out.Seats[opp].Score != 1 {
			t.Errorf("seats %d and %d are opponents but score %v and %v", s, opp, out.Seats[s].Score, out.Seats[opp].Score)
		}
	}
}

// A bot of four that never starts loses the match with a start fault,
// and its team with it: its partner scores nothing (without a fault of
// its own), the opponents win.
func TestFourBotsNeverStarted(t *testing.T) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
	g.settings.MaxHands = 1
	// Seed 32: its team, playing on its defaults, wins the hand on the
	// cards.
	const seed = 32
	missing := filepath.Join(t.TempDir(), "nope.sh")
	m, marker := processMatch(t, seed, house(t, "rules"), house(t, "random"), []string{missing}, house(t, "rules"))
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	proctest.AssertNoEnv(t, marker)
	seats := Partners(seed)
	pos := slices.Index(seats[:], 2)
	partner, opps := seats[(pos+2)%4], []int{seats[(pos+1)%4], seats[(pos+3)%4]}
	if s := out.Seats[2]; s.Fault != drivers.FaultStart || s.Score != 0 {
		t.Errorf("seat 2, whose program is missing: %+v; want a start fault, no score", s)
	}
	if s := out.Seats[partner]; s.Fault != "" || s.Score != 0 {
		t.Errorf("seat %d, the partner: %+v; want its team's loss, no fault", partner, s)
	}
	for _, o := range opps {
		if s := out.Seats[o]; s.Fault != "" || s.Score != 1 {
			t.Errorf("seat %d, an opponent: %+v; want the win", o, s)
		}
	}
}
