package rating

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstBayeselo compares random data sets with the real bayeselo. It
// runs only when BAYESELO names a bayeselo v0057 binary, since the program
// is not part of this repository.
func TestAgainstBayeselo(t *testing.T) {
	bin := os.Getenv("BAYESELO")
	if bin == "" {
		t.Skip("set BAYESELO to a bayeselo binary to compare with it")
	}
	cases := 60
	if n, err := strconv.Atoi(os.Getenv("BAYESELO_CASES")); err == nil {
		cases = n
	}
	for seed := range uint64(cases) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { compareWithBayeselo(t, bin, seed) })
	}
}

func randomTournament(rng *rand.Rand) ([]string, []Game) {
	n := 2 + rng.IntN(30)
	names := make([]string, n)
	for i := range names {
		switch rng.IntN(4) {
		case 0:
			names[i] = fmt.Sprintf("Bot %d v1.%d", i, rng.IntN(100))
		case 1:
			names[i] = fmt.Sprintf("p%d", i)
		case 2:
			names[i] = fmt.Sprintf(`Q"uote\%d`, i)
		default:
			names[i] = fmt.Sprintf("Łukasz-%d_%s", i, strings.Repeat("x", rng.IntN(20)))
		}
	}
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = rng.NormFloat64() * 200
	}
	drawRate := rng.Float64() * 0.5
	var games []Game
	play := func(w, b int) {
		p := 1 / (1 + math.Pow(10, (strength[b]-strength[w])/400))
		var res Result
		switch u := rng.Float64(); {
		case u < drawRate:
			res = Draw
		case u < drawRate+(1-drawRate)*p:
			res = WhiteWins
		default:
			res = BlackWins
		}
		games = append(games, Game{w, b, res})
	}
	// A random chain first keeps the game graph connected, as bayeselo
	// needs for the covariance.
	perm := rng.Perm(n)
	for i := 1; i < n; i++ {
		play(perm[i-1], perm[i])
	}
	for range rng.IntN(20 * n) {
		w, b := rng.IntN(n), rng.IntN(n)
		if w != b {
			play(w, b)
		}
	}
	rng.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
	return names, games
}

func compareWithBayeselo(t *testing.T, bin string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 42))
	names, games := randomTournament(rng)
	opt := DefaultOptions()
	cmds := []string{}
	if rng.IntN(2) == 0 {
		opt.Advantage = float64(rng.IntN(100))
		cmds = append(cmds, fmt.Sprint("advantage ", opt.Advantage))
	}
	if rng.IntN(3) == 0 {
		opt.DrawElo = float64(50 + rng.IntN(200))
		cmds = append(cmds, fmt.Sprint("drawelo ", opt.DrawElo))
	}
	if rng.IntN(4) == 0 {
		opt.Confidence = 0.5 + 0.49*rng.Float64()
		cmds = append(cmds, fmt.Sprintf("confidence %.17g", opt.Confidence))
	}
	// bayeselo's `prior p` adds p-2 to the float32 draws already there;
	// for p = 0 the leftovers are not 0, which matters only when some
	// rating has no finite maximum, so 0 is left out.
	if rng.IntN(4) == 0 {
		opt.Prior = []float64{0.5, 1, 3, 4, 10}[rng.IntN(5)]
		cmds = append(cmds, fmt.Sprint("prior ", opt.Prior))
	}
	nSetup := len(cmds)
	cmds = append(cmds, "mm", "exactdist", "ratings", "covariance", "ratings", "los", "x", "x")

	dir := t.TempDir()
	var pgn bytes.Buffer
	if err := WritePGN(&pgn, names, games); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "g.pgn"), pgn.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("readpgn g.pgn\nelo\n" + strings.Join(cmds, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	// Each command's output follows the prompt that asked for it.
	seg := strings.Split(string(out), "ResultSet-EloRating>")[1:]
	wantExact, wantCov, wantLOS := seg[nSetup+2], seg[nSetup+4], seg[nSetup+5]

	// Read back what bayeselo read, to check the PGN path too.
	rn, rg, _, err := ReadPGN(bytes.NewReader(pgn.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Fit(rn, rg, opt)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	plus, minus := r.ExactDist()
	r.WriteTable(&got, plus, minus)
	if got.String() != wantExact {
		t.Errorf("exactdist ratings differ (%d players, %d games, %+v)\ngot:\n%s\nwant:\n%s", len(names), len(games), opt, got.String(), wantExact)
	}
	got.Reset()
	plus, minus = r.CovarianceIntervals()
	r.WriteTable(&got, plus, minus)
	if got.String() != wantCov {
		t.Errorf("covariance ratings differ (%+v)\ngot:\n%s\nwant:\n%s", opt, got.String(), wantCov)
	}
	got.Reset()
	r.WriteLOS(&got)
	if got.String() != wantLOS {
		t.Errorf("los differs (%+v)\ngot:\n%s\nwant:\n%s", opt, got.String(), wantLOS)
	}
}
