// Package drivertest is the conformance suite every game driver runs: one
// Run(t, Suite) that a driver's own test calls with its game, its house
// bots and its faulty bots, in the manner of restic's backend tests. What
// the suite checks holds for every driver, whatever its game:
//
//   - normal: a game between house bots ends with one SeatResult per seat,
//     none with a fault or a default, and a transcript;
//   - deterministic: the same game with the same seed again gives the
//     identical transcript and outcome (timings aside);
//   - settings: LoadGame of the JSON of a game's Settings gives a game
//     whose Settings marshal to the same bytes and that plays the same
//     transcript as the first;
//   - fault: every faulty bot the driver lists, in every seat in turn,
//     gets its verdict on its own seat and no other seat gets one; the
//     list must cover every kind of BaseKinds;
//   - limit: a bot that goes over each limit (memory, processes, output,
//     cpu) gets that limit's verdict; these bots are hostile, so they run
//     only in a PID namespace and cgroup of their own, and a case is
//     skipped only when proc's probe says its limit is not enforced here,
//     saying why;
//   - cancel: cancelling the match's context makes Play return ctx's
//     error, with no process of the match left, not even a grandchild
//     that left the bot's session.
//
// After every match no process of it may be left and no zombie child of
// the test (internal/proctest).
//
// Bots are real processes: the test binary is every bot, through
// internal/testbot. A driver's test registers its house bots and faulty
// bots there, calls testbot.Main from TestMain and gives the suite their
// argv (testbot.Argv). The suite's own hostile and silent bots are
// registered by this package.
//
// A game whose bots' faults do not end the match (Auction, Euchre: the
// seat gets the game's default answer instead) says so with
// Suite.Defaults, which reads the fault kinds from its transcript.
package drivertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// Suite is what a driver gives the conformance suite.
type Suite struct {
	// Driver is the driver under test; the suite builds its games with
	// Driver.LoadGame, as a run from a plan does.
	Driver drivers.Driver
	// Settings is the game the suite plays: its JSON is given to
	// LoadGame. Keep the game short; it is played some dozen times.
	Settings any
	// Seats is how many bots play a match.
	Seats int
	// Clock is every match's clock (Match.Clock). Faulty bots that are
	// to run out of time must do so against it (or against the game's
	// own limits in Settings), and it must leave house bots ample time.
	Clock drivers.Clock
	// Seed is the matches' seed; 0 means 1.
	Seed uint64
	// House are the house bots' commands (testbot.Argv of
	// testbot.HouseName): seat i of a normal game plays House[i%len].
	House [][]string
	// Faults are the driver's faulty bots: every fault kind it can
	// produce, each in every seat.
	Faults []Fault
	// LimitSettings, when not nil, is the game of the limit cases in
	// place of Settings: one whose own time limits leave a bot spinning
	// long enough to be killed by its CPU limit (see CPULimit).
	LimitSettings any
	// LimitClock, when not zero, is the limit cases' clock in place of
	// Clock: long enough for the spinning bot to be killed by its CPU
	// limit first.
	LimitClock drivers.Clock
	// Timings matches the timings in the lines a game sends and receives
	// (a time_left command, say): the suite compares transcripts with
	// every match replaced by "<time>". Nil when the lines carry none.
	Timings *regexp.Regexp
	// Defaults reads from a match's transcript the fault kinds of the
	// answers seat got the game's default for, in a game where such
	// faults do not end the match; nil when every fault ends it.
	Defaults func(tr *Transcript, seat int) []string
}

// Fault is a faulty bot and the verdict it must get.
type Fault struct {
	// Name names the case.
	Name string
	// Bot is the faulty bot's command (testbot.Argv).
	Bot []string
	// Kind is the verdict: the fault of its SeatResult, or, in a game
	// that defaults, the kind of every default it got. Kinds beside it
	// are accepted too, when the machine makes the verdict ambiguous.
	Kind  string
	Kinds []string
	// Detail, when not nil, must match the detail of the bad seat's
	// fault: where it happened, say.
	Detail *regexp.Regexp
	// Limits are the faulty bot's limits.
	Limits drivers.Limits
	// Seats are the seats to try it in; nil means every seat.
	Seats []int
	// Settings, when not nil, is the game this case plays in place of
	// Suite.Settings (one that gives the fault its chance).
	Settings any
	// Clock, when not zero, is the case's clock in place of Suite.Clock.
	Clock drivers.Clock
	// once makes one of the suite's hostile bots misbehave in its first
	// run of the match only and then play as the first house bot: in a
	// game that runs a process per move and goes on after a fault, one
	// verdict is enough, and a spinning bot in every run is minutes.
	once bool
}

// CPULimit is the cpu limit of the suite's spinning bot. A game's own
// move limits in Suite.LimitSettings must be well over it, so that the
// bot is killed by the limit rather than the clock.
const CPULimit = "1s"

// envRun and envDir are in every bot's environment: a marker that finds
// the match's processes, and a folder the suite's bots write pids to.
const (
	envRun = "DRIVERTEST_RUN"
	envDir = "DRIVERTEST_DIR"
	// envOnce and envThen make a hostile bot misbehave once (see
	// Fault.once): the file that says it did, and the JSON argv it then
	// runs in its place.
	envOnce = "DRIVERTEST_ONCE"
	envThen = "DRIVERTEST_THEN"
)

// Run runs the conformance suite on s.
func Run(t *testing.T, s Suite) {
	if s.Seats < 1 || len(s.House) == 0 {
		t.Fatalf("drivertest: a suite needs Seats and House bots (have %d seats, %d house bots)", s.Seats, len(s.House))
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	raw, err := json.Marshal(s.Settings)
	if err != nil {
		t.Fatalf("drivertest: Settings: %v", err)
	}
	var first *played
	t.Run("normal", func(t *testing.T) { first = s.normal(t, raw) })
	t.Run("deterministic", func(t *testing.T) { s.deterministic(t, raw, first) })
	t.Run("settings", func(t *testing.T) { s.roundTrip(t, raw, first) })
	t.Run("fault", func(t *testing.T) { s.faults(t, raw) })
	t.Run("limit", func(t *testing.T) { s.limits(t) })
	t.Run("cancel", func(t *testing.T) { s.cancel(t, raw) })
}

// load is LoadGame, failing the test on an error.
func (s *Suite) load(t *testing.T, raw []byte) drivers.Game {
	t.Helper()
	g, err := s.Driver.LoadGame(raw)
	if err != nil {
		t.Fatalf("%s: LoadGame(%s): %v", s.Driver.Name(), raw, err)
	}
	return g
}

// houseSeats is the bots of a normal game.
func (s *Suite) houseSeats() [][]string {
	bots := make([][]string, s.Seats)
	for i := range bots {
		bots[i] = s.House[i%len(s.House)]
	}
	return bots
}

func (s *Suite) normal(t *testing.T, raw []byte) *played {
	g := s.load(t, raw)
	if err := g.Seats(s.Seats); err != nil {
		t.Fatalf("the game cannot seat %d bots: %v", s.Seats, err)
	}
	p := s.play(t, g, s.houseSeats(), nil)
	if p.err != nil {
		t.Fatalf("Play: %v", p.err)
	}
	checkOutcome(t, p, s.Seats)
	for i, r := range p.out.Seats {
		if r.Fault != "" || r.Defaults != 0 {
			t.Errorf("seat %d: house bot got fault %q (%s), %d defaults", i, r.Fault, r.Detail, r.Defaults)
		}
	}
	if len(p.tr.Lines) == 0 {
		t.Errorf("the game recorded no transcript")
	}
	return p
}

// checkOutcome checks what holds of every outcome: one result per seat,
// with a known fault kind, a finite score and a place in range.
func checkOutcome(t *testing.T, p *played, seats int) {
	t.Helper()
	if p.out == nil || len(p.out.Seats) != seats {
		t.Fatalf("outcome %+v: want %d seat results", p.out, seats)
	}
	for i, r := range p.out.Seats {
		if r.Fault != "" && !slices.Contains(Kinds, r.Fault) {
			t.Errorf("seat %d: unknown fault kind %q", i, r.Fault)
		}
		if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
			t.Errorf("seat %d: score %v", i, r.Score)
		}
		if r.Place < 0 || r.Place > float64(seats) {
			t.Errorf("seat %d: place %v out of 1..%d", i, r.Place, seats)
		}
		if r.Fault != "" && r.Detail == "" {
			t.Errorf("seat %d: fault %q without a detail", i, r.Fault)
		}
	}
}

// BaseKinds are the fault kinds every driver can produce, each of which
// a suite's Faults must cover.
var BaseKinds = []string{drivers.FaultTime, drivers.FaultIllegal, drivers.FaultProtocol, drivers.FaultCrash, drivers.FaultStart}

// Kinds are the fault kinds of package drivers.
var Kinds = []string{
	drivers.FaultTime, drivers.FaultIllegal, drivers.FaultProtocol, drivers.FaultCrash, drivers.FaultStart,
	drivers.FaultMemory, drivers.FaultProcesses, drivers.FaultOutput, drivers.FaultFiles, drivers.FaultNetwork,
}

func (s *Suite) deterministic(t *testing.T, raw []byte, first *played) {
	if first == nil || first.err != nil {
		t.Skip("the normal game failed")
	}
	again := s.play(t, s.load(t, raw), s.houseSeats(), nil)
	if again.err != nil {
		t.Fatalf("Play: %v", again.err)
	}
	sameGame(t, "the same seed again", s.Timings, first, again)
}

func (s *Suite) roundTrip(t *testing.T, raw []byte, first *played) {
	g := s.load(t, raw)
	b1, err := json.Marshal(g.Settings())
	if err != nil {
		t.Fatalf("Settings: %v", err)
	}
	g2 := s.load(t, b1)
	b2, err := json.Marshal(g2.Settings())
	if err != nil {
		t.Fatalf("Settings: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Errorf("LoadGame(Settings) changed the settings:\n%s\nbecame\n%s", b1, b2)
	}
	if first == nil || first.err != nil {
		t.Skip("the normal game failed")
	}
	again := s.play(t, g2, s.houseSeats(), nil)
	if again.err != nil {
		t.Fatalf("Play: %v", again.err)
	}
	sameGame(t, "the game loaded from its own settings", s.Timings, first, again)
}

// sameGame compares two games' transcripts and outcomes, timings aside.
func sameGame(t *testing.T, what string, timings *regexp.Regexp, a, b *played) {
	t.Helper()
	la, lb := a.tr.Normalized(timings), b.tr.Normalized(timings)
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			t.Errorf("%s: transcripts differ at line %d of %d/%d:\n  first: %s\n  again: %s", what, i+1, len(la), len(lb), x, y)
			break
		}
	}
	oa, ob := normalOutcome(a.out), normalOutcome(b.out)
	if oa != ob {
		t.Errorf("%s: outcomes differ:\n  first: %s\n  again: %s", what, oa, ob)
	}
}

// normalOutcome is an outcome's JSON without the time the bots used.
func normalOutcome(o *drivers.Outcome) string {
	c := drivers.Outcome{Seats: slices.Clone(o.Seats), PlayedOut: o.PlayedOut}
	for i := range c.Seats {
		c.Seats[i].TimeMS, c.Seats[i].OffMoveMS = 0, 0
	}
	b, _ := json.Marshal(c)
	return string(b)
}

func (s *Suite) faults(t *testing.T, raw []byte) {
	for _, k := range BaseKinds {
		if !slices.ContainsFunc(s.Faults, func(f Fault) bool { return f.Kind == k }) {
			t.Errorf("no faulty bot gets a %s verdict: every driver can produce %q", k, BaseKinds)
		}
	}
	for _, f := range s.Faults {
		seats := f.Seats
		if seats == nil {
			for i := range s.Seats {
				seats = append(seats, i)
			}
		}
		fraw := raw
		if f.Settings != nil {
			var err error
			if fraw, err = json.Marshal(f.Settings); err != nil {
				t.Fatalf("%s: Settings: %v", f.Name, err)
			}
		}
		for _, seat := range seats {
			t.Run(fmt.Sprintf("%s/seat%d", f.Name, seat), func(t *testing.T) {
				t.Parallel()
				s.fault(t, s.load(t, fraw), f, seat)
			})
		}
	}
}

// fault plays f in seat bad among house bots and checks its verdict.
func (s *Suite) fault(t *testing.T, g drivers.Game, f Fault, bad int) *played {
	bots := s.houseSeats()
	bots[bad] = f.Bot
	m := s.newMatch(t, bots, func(seat int) drivers.Limits {
		if seat == bad {
			return f.Limits
		}
		return drivers.Limits{}
	})
	if f.Clock != (drivers.Clock{}) {
		m.Clock = f.Clock
	}
	if f.once {
		then, err := json.Marshal(s.House[0])
		if err != nil {
			t.Fatal(err)
		}
		m.Seats[bad].Env = append(m.Seats[bad].Env,
			envOnce+"="+filepath.Join(filepath.Dir(m.pidDir), fmt.Sprintf("once-seat%d", bad)), envThen+"="+string(then))
	}
	p := m.play(t, context.Background(), g)
	if p.err != nil {
		t.Fatalf("Play: %v", p.err)
	}
	checkOutcome(t, p, s.Seats)
	want := append([]string{f.Kind}, f.Kinds...)
	got := s.verdicts(p, bad)
	if len(got) == 0 {
		t.Errorf("seat %d got no verdict, want %s; outcome %+v", bad, f.Kind, p.out.Seats)
	}
	for _, k := range got {
		if !slices.Contains(want, k) {
			t.Errorf("seat %d: verdict %q, want %q; outcome %+v", bad, k, want, p.out.Seats)
		}
	}
	if d := p.out.Seats[bad].Detail; f.Detail != nil && !f.Detail.MatchString(d) {
		t.Errorf("seat %d: detail %q does not match %s", bad, d, f.Detail)
	}
	for i := range s.Seats {
		if v := s.verdicts(p, i); i != bad && len(v) > 0 {
			t.Errorf("seat %d, a house bot, got verdicts %q; outcome %+v", i, v, p.out.Seats)
		}
	}
	t.Logf("seat %d: %+v", bad, p.out.Seats[bad])
	return p
}

// verdicts are the fault kinds seat got in p: its fault, and the kinds
// of its defaults. A seat that defaulted must count them in its result.
func (s *Suite) verdicts(p *played, seat int) []string {
	var out []string
	r := p.out.Seats[seat]
	if r.Fault != "" {
		out = append(out, r.Fault)
	}
	if s.Defaults != nil {
		d := s.Defaults(p.tr, seat)
		if len(d) != r.Defaults {
			out = append(out, fmt.Sprintf("(%d defaults in the transcript, %d in the outcome)", len(d), r.Defaults))
		}
		out = append(out, d...)
	} else if r.Defaults != 0 {
		out = append(out, fmt.Sprintf("(%d defaults)", r.Defaults))
	}
	return out
}

// played is one finished Play.
type played struct {
	out *drivers.Outcome
	err error
	tr  *Transcript
}

// match is a match being set up: its directory, marker and pid folder.
type match struct {
	*drivers.Match
	run     string // the value of envRun
	pidDir  string // where the suite's bots write the pids of grandchildren
	started string // where the silent bot says it started
}

// newMatch makes a match of s between bots, whose seats get limits(seat)
// (none when limits is nil).
func (s *Suite) newMatch(t *testing.T, bots [][]string, limits func(int) drivers.Limits) *match {
	root := t.TempDir()
	m := &match{run: fmt.Sprintf("%d-%d-%s", os.Getpid(), time.Now().UnixNano(), t.Name()),
		pidDir: filepath.Join(root, "pids"), started: filepath.Join(root, "started")}
	m.Match = &drivers.Match{ID: "drivertest", Seed: s.Seed, Round: 1, Dir: filepath.Join(root, "match"),
		Clock: s.Clock, Log: hclog.NewNullLogger()}
	for _, d := range []string{m.Dir, m.pidDir, filepath.Join(root, "bots")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, argv := range bots {
		seat := drivers.Seat{
			Bot: fmt.Sprintf("bot%d", i), Nick: fmt.Sprintf("BOT%d", i), Command: argv,
			Dir:    filepath.Join(root, "bots"),
			Stderr: filepath.Join(root, fmt.Sprintf("seat%d.stderr", i)),
			Env: append(drivers.BotEnv(m.ID, i, m.Seed),
				envRun+"="+m.run, envDir+"="+root),
		}
		if limits != nil {
			seat.Limits = limits(i)
		}
		m.Seats = append(m.Seats, seat)
	}
	return m
}

// play plays one match of g and checks that nothing of it is left.
func (s *Suite) play(t *testing.T, g drivers.Game, bots [][]string, limits func(int) drivers.Limits) *played {
	t.Helper()
	m := s.newMatch(t, bots, limits)
	return m.play(t, context.Background(), g)
}

func (m *match) play(t *testing.T, ctx context.Context, g drivers.Game) *played {
	t.Helper()
	tr := &Transcript{}
	m.Record = tr
	out, err := g.Play(ctx, m.Match)
	m.assertGone(t)
	if err == nil && out == nil {
		t.Fatalf("Play returned neither an outcome nor an error")
	}
	return &played{out: out, err: err, tr: tr}
}

// assertGone fails the test for any process of the match left.
func (m *match) assertGone(t *testing.T) {
	t.Helper()
	proctest.AssertGone(t, envRun+"="+m.run)
	ents, _ := os.ReadDir(m.pidDir)
	for _, e := range ents {
		proctest.AssertPidFileGone(t, filepath.Join(m.pidDir, e.Name()))
	}
}

func (s *Suite) cancel(t *testing.T, raw []byte) {
	bots := s.houseSeats()
	silent := s.Seats - 1
	bots[silent] = testbot.Argv(t, botSilent)
	m := s.newMatch(t, bots, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the silent bot runs (and its grandchild with it).
		for ctx.Err() == nil {
			if _, err := os.Stat(m.started); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	p := m.play(t, ctx, s.load(t, raw))
	if !errors.Is(p.err, context.Canceled) {
		t.Errorf("Play returned %v (outcome %+v), want ctx's error %v", p.err, p.out, context.Canceled)
	}
	if _, err := os.Stat(m.started); err != nil {
		t.Errorf("the silent bot in seat %d never started: %v", silent, err)
	}
}

// Transcript records a match: every line sent and received and the
// game's events, in order, as JSON.
type Transcript struct {
	mu    sync.Mutex
	Lines []Line
}

// Line is one entry of a Transcript: Kind is "send", "recv" or the
// event's kind; Data is the line or the event's JSON.
type Line struct {
	Seat int
	Kind string
	Data string
	// Value is the event's data as the driver gave it (nil for lines).
	Value any
}

func (tr *Transcript) add(l Line) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.Lines = append(tr.Lines, l)
}

func (tr *Transcript) Sent(seat int, line string) { tr.add(Line{Seat: seat, Kind: "send", Data: line}) }
func (tr *Transcript) Received(seat int, line string) {
	tr.add(Line{Seat: seat, Kind: "recv", Data: line})
}

func (tr *Transcript) Event(kind string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte("unserialisable event data: " + err.Error())
	}
	tr.add(Line{Seat: -1, Kind: kind, Data: string(b), Value: data})
}

// Events are the data of the events of kind, in order.
func (tr *Transcript) Events(kind string) []any {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []any
	for _, l := range tr.Lines {
		if l.Seat < 0 && l.Kind == kind {
			out = append(out, l.Value)
		}
	}
	return out
}

// Normalized is the transcript as text lines without timings: every
// "time_ms" in events is zeroed (every "off_move_ms" dropped), and every match of timings (if not nil)
// in them and in lines is replaced by "<time>".
func (tr *Transcript) Normalized(timings *regexp.Regexp) []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := make([]string, len(tr.Lines))
	for i, l := range tr.Lines {
		data := l.Data
		if l.Seat < 0 {
			data = zeroTimes(data)
		}
		if timings != nil {
			data = timings.ReplaceAllLiteralString(data, "<time>")
		}
		out[i] = fmt.Sprintf("%d %s %s", l.Seat, l.Kind, data)
	}
	return out
}

// zeroTimes zeroes every "time_ms" member of a JSON document and drops
// every "off_move_ms" (there only when a bot was charged for CPU off move).
func zeroTimes(doc string) string {
	var v any
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return doc
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "time_ms" {
					v[k] = 0
				} else if k == "off_move_ms" {
					delete(v, k)
				} else {
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	b, _ := json.Marshal(v)
	return string(b)
}

// enforced says whether limit is enforced here, and if not why.
func enforced(limit string) (bool, string) {
	p := proc.Machine()
	if !p.PIDNS {
		return false, "hostile bots run only in a PID namespace of their own, and this machine gives none: " + p.Why["PID namespace"]
	}
	e := p.Enforcement(limit)
	return e.Enforced, e.How
}
