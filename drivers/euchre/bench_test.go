package euchre

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// BenchmarkGameProcesses is one whole game to 10 points between the rules
// and random house bots, every decision a process (the test binary as
// `arbiter bot`), with memory checks: the driver's normal path. Compare
// with BenchmarkRefereeGame, the same game in process.
func BenchmarkGameProcesses(b *testing.B) {
	g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(10 * time.Second)}}
	decisions := 0
	for b.Loop() {
		m, _ := processMatch(b, 7, house(b, "rules"), house(b, "random"))
		rec := &events{}
		m.Record = rec
		if _, err := g.Play(context.Background(), m); err != nil {
			b.Fatal(err)
		}
		decisions += len(rec.of("decision"))
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// BenchmarkRefereeGame is the game of BenchmarkGameProcesses with the house
// bots called in process.
func BenchmarkRefereeGame(b *testing.B) {
	decisions := 0
	for b.Loop() {
		rec := &events{}
		if _, err := Referee(context.Background(), DefaultSettings(), 7, inProcess(b, 7, team(rules, random)), rec); err != nil {
			b.Fatal(err)
		}
		decisions += len(rec.of("decision"))
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}
