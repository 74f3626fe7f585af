package planowanie

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

const simplePy = "../../examples/planowanie/bots/simple.py"

// procPlayer is a bot running as a real process: the least a process layer
// must do, with a per-answer limit so that a stuck bot fails the test
// instead of hanging it.
type procPlayer struct {
	cmd    *exec.Cmd
	w      io.WriteCloser
	r      *bufio.Reader
	stderr bytes.Buffer
	used   time.Duration
}

func startProc(t testing.TB, seed uint64, seat int, argv ...string) *procPlayer {
	t.Helper()
	p := &procPlayer{cmd: exec.Command(argv[0], argv[1:]...)}
	p.cmd.Env = append(p.cmd.Environ(), fmt.Sprintf("ARBITER_SEED=%d", seed), fmt.Sprintf("ARBITER_SEAT=%d", seat))
	p.cmd.Stderr = &p.stderr
	var err error
	if p.w, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.r = bufio.NewReader(out)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *procPlayer) Ask(cmd string) (bool, string, error) {
	start := time.Now()
	defer func() { p.used += time.Since(start) }()
	if _, err := io.WriteString(p.w, cmd+"\n"); err != nil {
		return false, "", err
	}
	type answer struct {
		ok   bool
		text string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		ok, text, err := readAnswer(p.r)
		done <- answer{ok, text, err}
	}()
	select {
	case a := <-done:
		return a.ok, a.text, a.err
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		return false, "", faultError{drivers.FaultTime, "no answer in 10s"}
	}
}

func (p *procPlayer) Left() (time.Duration, bool) { return max(time.Minute-p.used, 0), true }

func (p *procPlayer) stop(t testing.TB) {
	p.w.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("%s: %v\nstderr:\n%s", p.cmd.Path, err, p.stderr.String())
	}
}

// playMixed plays one tournament game; "simple.py" seats run the example
// bot as a process, the others are house bots over pipes.
func playMixed(t testing.TB, seed uint64, names []string) *drivers.Outcome {
	t.Helper()
	players := make([]Player, len(names))
	var procs []*procPlayer
	var pipes []*pipePlayer
	for i, n := range names {
		if n == "simple.py" {
			p := startProc(t, seed, i, "python3", simplePy)
			procs = append(procs, p)
			players[i] = p
		} else {
			p := startBot(houseBot(t, n), seed, i)
			pipes = append(pipes, p)
			players[i] = p
		}
	}
	out := Referee(t.Context(), Tournament(), seed, players, &events{})
	for _, p := range procs {
		p.stop(t)
	}
	for _, p := range pipes {
		p.stop()
	}
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Fatalf("seed %d seat %d (%s): fault %s: %s", seed, i, names[i], s.Fault, s.Detail)
		}
	}
	return out
}

func needPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not in PATH")
	}
}

func TestSimplePyPlaysAGame(t *testing.T) {
	needPython(t)
	playMixed(t, 11, []string{"simple.py", "greedy", "random", "greedy"})
}

// TestSimplePyBeatsRandom plays the example bot against random, two of
// each at the table, swapping seats every other game.
func TestSimplePyBeatsRandom(t *testing.T) {
	needPython(t)
	if testing.Short() {
		t.Skip("40 games with processes")
	}
	sum := map[string]float64{}
	const games = 40
	for seed := uint64(1); seed <= games; seed++ {
		names := []string{"simple.py", "random", "simple.py", "random"}
		if seed%2 == 0 {
			names = []string{"random", "simple.py", "random", "simple.py"}
		}
		for i, s := range playMixed(t, seed, names).Seats {
			sum[names[i]] += s.Score
		}
	}
	py, r := sum["simple.py"]/(2*games), sum["random"]/(2*games)
	t.Logf("mean score over %d games: simple.py %.1f, random %.1f", games, py, r)
	if py < r*1.2 {
		t.Errorf("simple.py's mean %.1f is not clearly above random's %.1f", py, r)
	}
}
