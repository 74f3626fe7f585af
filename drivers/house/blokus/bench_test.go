package blokus

import (
	"math/rand/v2"
	"testing"
)

// benchPositions plays a seeded random game of classic Blokus on 20×20
// and keeps the position, with the player to move, after 4 stones (early),
// after 20 (mid) and the last one in which the player to move still had a
// move (late); stuck is the final position, where the player to move has
// stones left and no placement: the case a pass must be proved in.
func benchPositions(b *testing.B) map[string]struct {
	p  *Position
	pl int
} {
	r := mustRules(b, 20, 20, nil, classicStones(b))
	out := map[string]struct {
		p  *Position
		pl int
	}{}
	rng := rand.New(rand.NewPCG(2018, 12))
	p := NewPosition(r)
	placed, stuck := 0, 0
	var last *Position
	lastPl := 0
	pl := 0
	for ; stuck < 2 && !p.Done(0) && !p.Done(1); pl = 1 - pl {
		moves := p.LegalMoves(pl, nil)
		if len(moves) == 0 {
			stuck++
			continue
		}
		stuck = 0
		last, lastPl = p.Clone(), pl
		switch placed {
		case 4:
			out["early"] = struct {
				p  *Position
				pl int
			}{p.Clone(), pl}
		case 20:
			out["mid"] = struct {
				p  *Position
				pl int
			}{p.Clone(), pl}
		}
		p.Apply(pl, moves[rng.IntN(len(moves))])
		placed++
	}
	out["late"] = struct {
		p  *Position
		pl int
	}{last, lastPl}
	for try := range 2 {
		if q := (pl + try) % 2; !p.Done(q) && !p.HasMove(q) {
			out["stuck"] = struct {
				p  *Position
				pl int
			}{p, q}
			break
		}
	}
	if len(out) != 4 {
		b.Fatalf("the seeded game gave positions %v", out)
	}
	return out
}

// BenchmarkHasMove is the referee's proof that a pass is honest (or that
// the game is over), on classic Blokus; compare with the 2 s a bot gets
// per move in the course.
func BenchmarkHasMove(b *testing.B) {
	pos := benchPositions(b)
	for _, name := range []string{"early", "mid", "late", "stuck"} {
		b.Run(name, func(b *testing.B) {
			p, pl := pos[name].p, pos[name].pl
			want := name != "stuck"
			for b.Loop() {
				if p.HasMove(pl) != want {
					b.Fatal("HasMove changed its mind")
				}
			}
		})
	}
}

// BenchmarkLegalMoves lists every legal placement, what the house bots do
// before each move; moves/op is how many there were.
func BenchmarkLegalMoves(b *testing.B) {
	pos := benchPositions(b)
	for _, name := range []string{"early", "mid", "late", "stuck"} {
		b.Run(name, func(b *testing.B) {
			p, pl := pos[name].p, pos[name].pl
			buf := make([]Placement, 0, 4096)
			n := 0
			for b.Loop() {
				buf = p.LegalMoves(pl, buf)
				n = len(buf)
			}
			b.ReportMetric(float64(n), "moves/op")
		})
	}
}

// BenchmarkCheck is the referee's check of one bot move.
func BenchmarkCheck(b *testing.B) {
	pos := benchPositions(b)
	p, pl := pos["mid"].p, pos["mid"].pl
	m := p.LegalMoves(pl, nil)[0]
	cells := p.r.Cells(m)
	for b.Loop() {
		if _, problem := p.Check(pl, cells); problem != "" {
			b.Fatal(problem)
		}
	}
}
