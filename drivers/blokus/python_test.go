package blokus

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// examplesDir holds the adapter, base.py, the course player and corners.py.
const examplesDir = "../../examples/blokus"

func needPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not in PATH")
	}
}

// pythonMatch is a match under clock between argv (run in
// examples/blokus) in seat seat and the house bot greedy in the other.
func pythonMatch(t *testing.T, clock drivers.Clock, seed uint64, run string, rec drivers.Recorder, seat int, argv ...string) *drivers.Match {
	dir, err := filepath.Abs(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	bots := []string{"greedy", "greedy"}
	m := processMatch(t, seed, clock, run, rec, bots...)
	m.Seats[seat].Bot = "python"
	m.Seats[seat].Command = argv
	m.Seats[seat].Dir = dir
	return m
}

// playPython plays one game with 10 s a move and returns the python
// seat's result, failing the test on a fault when wantFault is empty.
func playPython(t *testing.T, s Settings, seed uint64, seat int, wantFault string, argv ...string) (drivers.SeatResult, *events) {
	t.Helper()
	return playPythonUnder(t, drivers.Clock{Move: drivers.Duration(10 * time.Second)}, s, seed, seat, wantFault, argv...)
}

// playPythonUnder is playPython under clock.
func playPythonUnder(t *testing.T, clock drivers.Clock, s Settings, seed uint64, seat int, wantFault string, argv ...string) (drivers.SeatResult, *events) {
	t.Helper()
	run := token(t)
	rec := &events{}
	m := pythonMatch(t, clock, seed, run, rec, seat, argv...)
	g := &Game{settings: s, clock: m.Clock}
	out, err := g.Play(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Seats[seat]
	if got.Fault != wantFault {
		stderr, _ := os.ReadFile(m.Seats[seat].Stderr)
		t.Fatalf("seed %d: python seat fault %q (%s), want %q\nstderr:\n%s", seed, got.Fault, got.Detail, wantFault, stderr)
	}
	if out.Seats[1-seat].Fault != "" {
		t.Fatalf("greedy faulted: %s %s", out.Seats[1-seat].Fault, out.Seats[1-seat].Detail)
	}
	proctest.AssertNoEnv(t, "BLOKUS_TEST_RUN="+run)
	return got, rec
}

// TestCoursePlayerThroughAdapter plays whole games of the course-style
// player.py, which uses only the BasePlayer API, through the real adapter
// against greedy, from both seats, on both example boards.
func TestCoursePlayerThroughAdapter(t *testing.T) {
	needPython(t)
	argv := []string{"python3", "adapter/blokus_adapter.py", "players/course_player.py"}
	for _, tc := range []struct {
		name string
		s    Settings
	}{{"course 10x10", courseSettings(t)}, {"classic 20x20", classicSettings(t)}} {
		for seat := range 2 {
			t.Run(fmt.Sprintf("%s seat %d", tc.name, seat), func(t *testing.T) {
				t.Parallel()
				_, rec := playPython(t, tc.s, 4, seat, "", argv...)
				e := rec.of("end")
				if len(e) != 1 || e[0].(EndEvent).Placed[seat] < 5 {
					t.Errorf("end %v: the course player placed too few stones", e)
				}
			})
		}
	}
}

// TestCornersPyPlaysAGame plays the example bot that speaks the protocol
// itself.
func TestCornersPyPlaysAGame(t *testing.T) {
	needPython(t)
	for seat := range 2 {
		_, rec := playPython(t, classicSettings(t), 5, seat, "", "python3", "bots/corners.py")
		if e := rec.of("end"); len(e) != 1 || e[0].(EndEvent).Placed[seat] < 10 {
			t.Errorf("end %v: corners.py placed too few stones", e)
		}
	}
}

// TestSlowConstructorWithinStartup: under the course's default clock (2 s
// a turn, 5 s to start), a course player whose constructor takes 2.5 s
// plays. The adapter builds the player on set_stones, the third set-up
// command, so the start-up allowance must cover the whole set-up, not
// set_board alone, which the adapter answers at once.
func TestSlowConstructorWithinStartup(t *testing.T) {
	needPython(t)
	players, err := filepath.Abs(filepath.Join(examplesDir, "players"))
	if err != nil {
		t.Fatal(err)
	}
	argv := writePlayer(t, fmt.Sprintf(`
import sys, time
sys.path.insert(0, %q)
import course_player

class Player(course_player.Player):
    def __init__(self, *args):
        time.sleep(2.5)
        super().__init__(*args)
`, players))
	for seat := range 2 {
		t.Run(fmt.Sprintf("seat %d", seat), func(t *testing.T) {
			t.Parallel()
			playPythonUnder(t, DefaultClock, courseSettings(t), 4, seat, "", argv...)
		})
	}
}

// writePlayer writes a player.py into a fresh directory and returns the
// adapter command that runs it.
func writePlayer(t *testing.T, src string) []string {
	dir := t.TempDir()
	p := filepath.Join(dir, "player.py")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	adapter, err := filepath.Abs(filepath.Join(examplesDir, "adapter", "blokus_adapter.py"))
	if err != nil {
		t.Fatal(err)
	}
	return []string{"python3", adapter, p}
}

// A player as a student might write it: `import base`, the board sizes
// named ny and nx, prints to stdout, the score and stones-file helpers of
// the API, its own helper module beside it. It places the first legal
// stone it finds, biggest first.
const variantPlayer = `
import base
import helper

class Player(base.BasePlayer):
    def __init__(self, name, ny, nx, which, stones):
        base.BasePlayer.__init__(self, name, ny, nx, which, stones)
        self.text = helper.TEXT
        self.used = [False] * len(self.stones)
        print("hello from", self.name, self.which)

    def move(self):
        self.print()
        print("score", self.getScore(self.which), self.getScore(-self.which))
        mine = [(r, c) for r in range(self.rows) for c in range(self.cols) if self.board[r][c] == self.which]
        order = sorted(range(len(self.stones)), key=lambda i: -len(self.stones[i]))
        for i in order:
            if self.used[i]:
                continue
            for rot in helper.rotations(self.stones[i]):
                for r0 in range(self.rows):
                    for c0 in range(self.cols):
                        cells = [[r0 + y, c0 + x] for x, y in rot]
                        if helper.legal(self, cells, mine):
                            self.used[i] = True
                            for r, c in cells:
                                self.board[r][c] = self.which
                            return cells
        return []
`

const variantHelper = `
TEXT = "variant"

def rotations(stone):
    out, cur = [], stone
    for _ in range(4):
        mx, my = min(x for x, _ in cur), min(y for _, y in cur)
        cur = sorted([x - mx, y - my] for x, y in cur)
        if cur not in out:
            out.append(cur)
        cur = [[-y, x] for x, y in cur]
    return out

def legal(p, cells, mine):
    for r, c in cells:
        if not (0 <= r < p.rows and 0 <= c < p.cols) or p.board[r][c] != 0:
            return False
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (r + dr, c + dc) in mine:
                return False
    if not mine:
        start = [p.rows - 1, 0] if p.which == 1 else [0, p.cols - 1]
        return start in cells
    return any((r + dr, c + dc) in mine for r, c in cells for dr in (-1, 1) for dc in (-1, 1))
`

// TestAdapterToleratesVariants runs a player written differently from the
// example, with prints on stdout, through the adapter.
func TestAdapterToleratesVariants(t *testing.T) {
	needPython(t)
	starArgs := strings.Replace(variantPlayer,
		"def __init__(self, name, ny, nx, which, stones):\n        base.BasePlayer.__init__(self, name, ny, nx, which, stones)",
		"def __init__(self, *args):\n        super().__init__(*args)", 1)
	if starArgs == variantPlayer {
		t.Fatal("the *args variant did not replace the constructor")
	}
	for i, src := range []string{variantPlayer, starArgs} {
		argv := writePlayer(t, src)
		if err := os.WriteFile(filepath.Join(filepath.Dir(argv[2]), "helper.py"), []byte(variantHelper), 0o644); err != nil {
			t.Fatal(err)
		}
		playPython(t, courseSettings(t), 6, i, "", argv...)
	}
}

// TestAdapterFaults: a course player's mistakes become the match's faults.
func TestAdapterFaults(t *testing.T) {
	needPython(t)
	for _, tt := range []struct {
		name, src, kind, detail string
	}{
		{"an exception in move is a protocol fault", `
from base import BasePlayer
class Player(BasePlayer):
    def move(self):
        raise RuntimeError("oops")
`, drivers.FaultProtocol, `^answered \? to gen_move \("RuntimeError: oops"\) on turn \d \(its move \d\)$`},
		{"returning [] while a stone fits is an illegal pass", `
from base import BasePlayer
class Player(BasePlayer):
    def move(self):
        return []
`, drivers.FaultIllegal, `^passed, but could place stone .* on turn \d \(its move \d\)$`},
		{"a mirrored stone is illegal", `
from base import BasePlayer
class Player(BasePlayer):
    def move(self):
        # S4 flipped: the course set's Z4 is .## / ##.
        if self.which == 1:
            return [[8, 0], [8, 1], [9, 1], [9, 2]]
        return [[0, 7], [0, 8], [1, 8], [1, 9]]
`, drivers.FaultIllegal, `mirrored; stones may be rotated but not flipped on turn \d \(its move \d\)$`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			argv := writePlayer(t, tt.src)
			got, _ := playPython(t, courseSettings(t), 1, 1, tt.kind, argv...)
			if !regexp.MustCompile(tt.detail).MatchString(got.Detail) {
				t.Errorf("detail %q, want it to match %s", got.Detail, tt.detail)
			}
		})
	}
}

// TestBaseLoadStones checks the course helper reads the example's stones
// file like ParseStonesFile does.
func TestBaseLoadStones(t *testing.T) {
	needPython(t)
	cmd := exec.Command("python3", "-c", `
import sys
sys.path.insert(0, "adapter")
import base
s = base.loadStones("classic/stones/classic.txt")
print(len(s), sum(len(x) for x in s), s[12])
`)
	cmd.Dir = examplesDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	stones := classicStones(t)
	cells := 0
	for _, s := range stones {
		cells += len(s.Cells)
	}
	if got := strings.TrimSpace(string(out)); got != "21 89 [[1, 0], [1, 1], [1, 2], [0, 2], [0, 3]]" || cells != 89 {
		t.Errorf("loadStones: %s; Go reads %d cells", got, cells)
	}
}
