// Command arbiter-bench prints every row of the performance table of
// docs/benchmarks.md: each pair measured side by side in the same run,
// interleaved (A, B, A, B, ...), the median of each side taken, one line
// per row
//
//	ratio NAME VALUE goal OP LIMIT
//
// followed by the absolute figures. It builds the test binaries of the
// packages whose benchmarks it runs and arbiter itself, so it needs the Go
// toolchain; run it from the repository:
//
//	go run ./cmd/arbiter-bench [-rounds 3] [-cmd-rounds 1] [-bayeselo PATH] [-short]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	_ "github.com/arbiter-contests/arbiter/internal/linuxonly" // a build for another system stops there
)

func main() {
	rounds := flag.Int("rounds", 3, "interleaved runs of each side of a benchmark pair (the median is kept)")
	cmdRounds := flag.Int("cmd-rounds", 1, "interleaved runs of each arbiter command (rank, plan, validate, run), the slow rows")
	bayeselo := flag.String("bayeselo", "", "a bayeselo binary to compare `arbiter rank -pgn` with (otherwise only arbiter's figures are printed)")
	short := flag.Bool("short", false, "a tenth of the sizes (100,000 games and matches, 8 matches for -j): a quick look, not the table")
	keep := flag.String("dir", "", "keep the binaries and generated inputs in this directory (default: a temporary one, removed)")
	flag.Parse()
	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "arbiter-bench-")
		check(err)
		defer os.RemoveAll(d)
		dir = d
	}
	dir, err := filepath.Abs(dir)
	check(err)
	b := &bench{dir: dir, rounds: max(*rounds, 1), cmdRounds: max(*cmdRounds, 1), scale: 1}
	if *short {
		b.scale = 10
	}
	b.build()
	b.session()
	b.planowanie()
	b.starts()
	b.perMove()
	b.rank(*bayeselo)
	b.plans()
	b.throughput()
	b.charged()
	fmt.Println()
	for _, l := range b.abs {
		fmt.Println(l)
	}
}

// bench holds the run's directory and the absolute figures printed after
// the ratios.
type bench struct {
	dir       string
	rounds    int
	cmdRounds int
	scale     int
	abs       []string
	rawRTT    float64  // ns, BenchmarkRawPipe, the floor of a round trip (the faster of unpinned and on one CPU)
	pin       []string // a command that runs benchmarks on one CPU, while set
}

func (b *bench) ratio(name string, v float64, op string, limit float64) {
	fmt.Printf("ratio %s %.3g goal %s %g\n", name, v, op, limit)
}

func (b *bench) absf(format string, a ...any) {
	b.abs = append(b.abs, fmt.Sprintf(format, a...))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "arbiter-bench:", err)
		os.Exit(1)
	}
}
