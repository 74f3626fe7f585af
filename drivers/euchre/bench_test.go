package euchre

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
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
		if _, err := Referee(context.Background(), DefaultSettings(), 7, inProcess(b, 7, team("rules", "random")), rec); err != nil {
			b.Fatal(err)
		}
		decisions += len(rec.of("decision"))
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "decisions/game")
}

// BenchmarkBareForkExec runs the random house bot of BenchmarkGameProcesses
// on one real decision's input with plain os/exec: the floor a decision as
// a process is judged against (BenchmarkGameProcesses's ns/op divided by
// its decisions/game).
func BenchmarkBareForkExec(b *testing.B) {
	rec := &events{}
	if _, err := Referee(context.Background(), DefaultSettings(), 7, inProcess(b, 7, team("rules", "random")), rec); err != nil {
		b.Fatal(err)
	}
	input := rec.of("decision")[0].(DecisionEvent).Input
	argv := house(b, "random")
	dir := b.TempDir()
	for b.Loop() {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "ARBITER_SEED=7", "ARBITER_SEAT=1")
		cmd.Stdin = strings.NewReader(input)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil || out.Len() == 0 {
			b.Fatal(out.String(), err)
		}
	}
}
