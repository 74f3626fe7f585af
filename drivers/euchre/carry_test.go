package euchre

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// counterFile is the counting bot's memory file.
const counterFile = "count"

// The counting bot keeps, in its one memory file, how many matches it has
// seen and their ids: "n=<count> seen=<id>,<id>,...". Its answers depend on
// the count (it orders in the ordering round when the count is odd), so
// a match's result depends on the memory it was handed.
func init() {
	testbot.Register("counter", func([]string) int {
		in, _ := io.ReadAll(os.Stdin)
		n, seen := readCounter(counterFile)
		if match := os.Getenv("ARBITER_MATCH"); len(seen) == 0 || seen[len(seen)-1] != match {
			n, seen = n+1, append(seen, match)
		}
		if err := os.WriteFile(counterFile, []byte(fmt.Sprintf("n=%d seen=%s\n", n, strings.Join(seen, ","))), 0o644); err != nil {
			return 1
		}
		return counterAnswer(string(in), n)
	})
	testbot.Register("spy", func([]string) int {
		in, _ := io.ReadAll(os.Stdin)
		// What of the results it may see: the folder around its memory
		// folder, the other bots' memory, its own memory before the
		// match, and the plan.
		var sees, read []string
		ents, _ := os.ReadDir("..")
		for _, e := range ents {
			sees = append(sees, e.Name())
		}
		for _, p := range []string{"../a/" + counterFile, "../b/" + counterFile, "../c/" + counterFile, "../d.in/" + counterFile, "../../../../plan.json"} {
			if _, err := os.ReadFile(p); err == nil {
				read = append(read, p)
			}
		}
		note := fmt.Sprintf("sees=%s read=%s\n", strings.Join(sees, ","), strings.Join(read, ","))
		if err := os.WriteFile(counterFile, []byte(note), 0o644); err != nil {
			return 1
		}
		return counterAnswer(string(in), 1)
	})
}

// counterAnswer is the counting bot's answer to input after n matches.
func counterAnswer(input string, n int) int {
	s, err := ParseInput(input)
	if err != nil {
		return 1
	}
	switch s.Phase {
	case Ordering:
		fmt.Println(map[bool]string{true: "o", false: "p"}[n%2 == 1])
	case Naming:
		fmt.Println("p")
	case Discard:
		fmt.Println(s.Hand[0])
	case Alone:
		fmt.Println("n")
	case Turn:
		fmt.Println(Legal(s.Hand, s.Trump, first(s.Played))[0])
	}
	return 0
}

// readCounter reads a counting bot's memory file; a missing one is 0.
func readCounter(path string) (int, []string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, nil
	}
	var n int
	var seen string
	fmt.Sscanf(string(b), "n=%d seen=%s", &n, &seen)
	if seen == "" {
		return n, nil
	}
	return n, strings.Split(seen, ",")
}

const carryConfig = `
bot "a" { command = %[1]s }
bot "b" { command = %[1]s }
bot "c" { command = %[1]s }
bot "d" { command = %[3]s }
game "euchre" "g" {
  max_hands = 1
  memory    = "per-bot"
  clock { move = "20s" }
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.a, bot.b, bot.c, bot.d]
  format  = "round-robin"
  players = %[2]d
  seed    = 5
}
`

// carryRunner compiles the counting bots' round robin (players a match)
// into a runner of jobs workers writing to out.
func carryRunner(t *testing.T, players int, out string, jobs int) *engine.Runner {
	return carryRunnerD(t, players, out, jobs, "counter")
}

// carryRunnerD is carryRunner with bot d the testbot named d.
func carryRunnerD(t *testing.T, players int, out string, jobs int, d string) *engine.Runner {
	t.Helper()
	return configRunner(t, fmt.Sprintf(carryConfig, botArgv(t, "counter"), players, botArgv(t, d)), out, jobs)
}

// botArgv is the command of the testbot named name, in HCL.
func botArgv(t *testing.T, name string) string {
	var quoted []string
	for _, a := range testbot.Argv(t, name) {
		quoted = append(quoted, strconv.Quote(a))
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// configRunner compiles the tournament of the configuration src into a
// runner of jobs workers writing to out.
func configRunner(t *testing.T, src, out string, jobs int) *engine.Runner {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) (drivers.Driver, bool) { return Driver{}, name == "euchre" }
	cfg, diags := config.Load(dir, config.Options{Driver: lookup, DriverNames: []string{"euchre"}, Environ: []string{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, diags := compile.Compile(cfg, cfg.Tournaments[0])
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &engine.Runner{Plan: p, Drivers: lookup, Root: cfg.Root, Out: out, Jobs: jobs, Log: hclog.NewNullLogger()}
}

// cancelAfter cancels a run once n matches finished.
type cancelAfter struct {
	mu       sync.Mutex
	n        int
	finished int
	cancel   context.CancelFunc
}

func (c *cancelAfter) Begin(int, int)      {}
func (c *cancelAfter) Started(*plan.Match) {}
func (c *cancelAfter) Finished(*plan.Match, *engine.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished++; c.finished == c.n {
		c.cancel()
	}
}

// carried is what a results directory holds of a carrying run: every
// file of every match's state folder, and every match's scores and
// defaults.
func carried(t *testing.T, out string) map[string]string {
	t.Helper()
	got := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(out, engine.MatchesDir, "*", engine.StateDir, "*", "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(out, f)
		got[rel] = string(b)
	}
	_, results, err := engine.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		var seats []string
		for _, s := range r.Seats {
			seats = append(seats, fmt.Sprintf("%s %v %d", s.Bot, s.Score, s.Defaults))
		}
		got["result "+r.Match] = strings.Join(seats, "; ")
	}
	return got
}

// checkCounts checks that every bot's memory counted its matches in plan
// order: after its k-th match its file says n=k and lists those matches,
// and it brought in what its previous match left.
func checkCounts(t *testing.T, p *plan.Plan, out string) {
	t.Helper()
	seen := map[string][]string{}
	for _, m := range p.Matches {
		for _, bot := range m.Seats {
			state := filepath.Join(out, engine.MatchesDir, m.ID, engine.StateDir, bot)
			inN, inSeen := readCounter(filepath.Join(state+".in", counterFile))
			if want := seen[bot]; inN != len(want) || !slices.Equal(inSeen, want) {
				t.Errorf("%s brought n=%d %v into match %s; want n=%d %v", bot, inN, inSeen, m.ID, len(want), want)
			}
			seen[bot] = append(seen[bot], m.ID)
			n, got := readCounter(filepath.Join(state, counterFile))
			if want := seen[bot]; n != len(want) || !slices.Equal(got, want) {
				t.Errorf("%s left n=%d %v after match %s; want n=%d %v", bot, n, got, m.ID, len(want), want)
			}
		}
	}
}

// With memory = "per-bot" every bot keeps one memory file across its
// matches: it sees 1, 2, 3 ... in plan order at -j 1 and at -j 2 (where
// matches of other bots run at once), a run cancelled midway and resumed
// leaves the same memory and results, and a replayed match starts from
// the memory it had.
func TestPerBotMemoryAcrossMatches(t *testing.T) {
	for _, players := range []int{2, 4} {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			one := t.TempDir()
			r := carryRunner(t, players, one, 1)
			if _, err := r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkCounts(t, r.Plan, one)
			want := carried(t, one)

			two := t.TempDir()
			r = carryRunner(t, players, two, 2)
			if _, err := r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			compareCarried(t, "-j 2", want, carried(t, two))

			resumed := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			r = carryRunner(t, players, resumed, 2)
			r.Progress = &cancelAfter{n: 2, cancel: cancel}
			if _, err := r.Run(ctx); !errors.Is(err, engine.ErrInterrupted) {
				t.Fatalf("cancelled run: %v", err)
			}
			r = carryRunner(t, players, resumed, 2)
			if _, err := r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			compareCarried(t, "cancelled and resumed", want, carried(t, resumed))

			// A match in the middle of the plan, replayed alone.
			id := r.Plan.Matches[len(r.Plan.Matches)/2].ID
			replay := carryRunner(t, players, t.TempDir(), 1)
			replay.Only = []string{id}
			replayed, err := replay.Replay(context.Background(), one)
			if err != nil {
				t.Fatal(err)
			}
			if len(replayed) != 1 || replayed[0].Diff != "" {
				t.Errorf("replay of %s: %+v", id, replayed)
			}
			for k, v := range carried(t, replay.Out) {
				if strings.HasPrefix(k, "matches") && want[k] != v {
					t.Errorf("replay: %s holds %q, the run %q", k, v, want[k])
				}
			}
		})
	}
}

func compareCarried(t *testing.T, how string, want, got map[string]string) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("%s: %s is %q, at -j 1 %q", how, k, got[k], want[k])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d files and results, at -j 1 %d", how, len(got), len(want))
	}
}

// A bot in the default sandbox sees its own memory folder and nothing else
// of the results: not the other bots' memory (which is there, in the same
// match's folder), not its memory as it was before the match, not the plan.
func TestPerBotMemoryIsPrivate(t *testing.T) {
	if !proc.Machine().Sandbox {
		// Without it a bot reads what arbiter can (proc.SandboxMissing),
		// as on 386, which has no seccomp filter.
		t.Skipf("no sandbox here: %s", proc.Machine().Why["sandbox"])
	}
	out := t.TempDir()
	r := carryRunnerD(t, 2, out, 2, "spy")
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range r.Plan.Matches {
		if !slices.Contains(m.Seats, "d") {
			continue
		}
		state := filepath.Join(out, engine.MatchesDir, m.ID, engine.StateDir)
		note, err := os.ReadFile(filepath.Join(state, "d", counterFile))
		if err != nil {
			t.Fatal(err)
		}
		if string(note) != "sees=d read=\n" {
			t.Errorf("match %s: the spy noted %q; it should see only its own folder (d) and read nothing", m.ID, note)
		}
		for _, other := range m.Seats {
			if _, err := os.Stat(filepath.Join(state, other, counterFile)); other != "d" && err != nil {
				t.Errorf("match %s: %s kept no memory for the spy to look for: %v", m.ID, other, err)
			}
		}
		checked++
	}
	if checked != 6 {
		t.Errorf("the spy played %d matches, want 6", checked)
	}
}
