package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// The test binary doubles as arbiter's house bots: "testbinary bot
// GAME/NAME [ARG ...]" plays one, as `arbiter bot` does.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == "bot" {
		os.Exit(runHouseBot(os.Args[2], os.Args[3:]))
	}
	os.Exit(m.Run())
}

func runHouseBot(name string, args []string) int {
	for _, d := range all.Names() {
		drv, _ := all.Driver(d)
		for _, hb := range drv.HouseBots() {
			if d+"/"+hb.Name != name {
				continue
			}
			var err error
			if hb.Move != nil {
				err = hb.Move(args, os.Stdout, os.Getenv)
			} else {
				err = hb.Run(os.Stdin, os.Stdout, os.Getenv)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "no house bot %s\n", name)
	return 2
}

// examples are the example configurations, one or more per driver.
var examples = []string{"planowanie", "bricks", "blokus/course", "blokus/classic", "auction", "euchre"}

// TestLoadGameRebuildsTheDecodedGame: the engine plays only games that
// LoadGame rebuilt from a plan's settings, so for every driver the
// rebuilt game must be the decoded one: its settings encode to the same
// bytes, and it referees the plan's first match exactly as the decoded
// game does, sent for sent, event for event.
func TestLoadGameRebuildsTheDecodedGame(t *testing.T) {
	seen := map[string]bool{}
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			cfg, diags := config.Load(filepath.Join("../../examples", ex), config.Options{Driver: all.Driver, DriverNames: all.Names(), Environ: []string{}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			tour := cfg.Tournaments[0]
			p, diags := compile.Compile(cfg, tour)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			seen[p.Game.Driver] = true
			drv, _ := all.Driver(p.Game.Driver)
			loaded, err := drv.LoadGame(p.Game.Settings)
			if err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(loaded.Settings())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, p.Game.Settings) {
				t.Errorf("settings after LoadGame:\n%s\nthe plan's:\n%s", again, p.Game.Settings)
			}
			decoded, ok := tour.Game.Game.(drivers.Game)
			if !ok {
				t.Fatalf("the decoded %s game does not play: the comparison needs it to", p.Game.Driver)
			}
			m := &p.Matches[0]
			want := play(t, decoded, drv, m)
			got := play(t, loaded, drv, m)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("match %s played by the loaded game differs from the decoded game's (-decoded +loaded):\n%s", m.ID, diff)
			}
			if len(want.Events) < 2 {
				t.Errorf("match %s recorded only %v: it did not play", m.ID, want.Events)
			}
		})
	}
	for _, d := range all.Names() {
		if !seen[d] {
			t.Errorf("no example of driver %s: its LoadGame is not tested", d)
		}
	}
}

// played is a match's transcript without timings: the game's events in
// order, and per seat the lines sent and received in order (seats may be
// asked at once, so the order across seats is not the game's).
type played struct {
	Events []string
	Lines  map[int][]string
	Out    drivers.Outcome
}

type recorder struct {
	mu sync.Mutex
	p  *played
}

// timeLeft is the clock that GTP games tell a bot before a decision:
// timing, so not compared.
var timeLeft = regexp.MustCompile(`^time_left \d+$`)

func (r *recorder) Sent(seat int, line string) {
	r.line(seat, "> "+timeLeft.ReplaceAllString(line, "time_left (ms)"))
}

func (r *recorder) Received(seat int, line string) { r.line(seat, "< "+line) }

func (r *recorder) line(seat int, l string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Lines[seat] = append(r.p.Lines[seat], l)
}

func (r *recorder) Event(kind string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte(err.Error())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Events = append(r.p.Events, kind+" "+string(b))
}

// play referees m with the driver's house bots in its seats, taking turns.
func play(t *testing.T, g drivers.Game, drv drivers.Driver, m *plan.Match) played {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := played{Lines: map[int][]string{}}
	dir := t.TempDir()
	match := &drivers.Match{ID: m.ID, Seed: m.Seed, Round: m.Round, Variant: m.Variant, Dir: dir, Clock: m.Clock, Record: &recorder{p: &p}}
	house := drv.HouseBots()
	for i := range m.Seats {
		hb := house[i%len(house)]
		match.Seats = append(match.Seats, drivers.Seat{
			Bot: hb.Name, Nick: hb.Name,
			Command: []string{self, "bot", drv.Name() + "/" + hb.Name},
			Dir:     dir,
			Stderr:  filepath.Join(t.TempDir(), "stderr"),
			Env:     drivers.BotEnv(m.ID, i, m.Seed),
		})
	}
	out, err := g.Play(context.Background(), match)
	if err != nil {
		t.Fatal(err)
	}
	p.Out = *out
	for i := range p.Out.Seats {
		p.Out.Seats[i].TimeMS = 0
	}
	return p
}
