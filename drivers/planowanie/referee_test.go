package planowanie

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	rules "github.com/arbiter-contests/arbiter/drivers/house/planowanie"
	"github.com/google/go-cmp/cmp"
)

// declareNothing and firstLegal make a predictable partner for scripted
// tests: it declares nothing and plays its first legal card.
func declareNothing(rules.Table) int { return 0 }
func firstLegal(t rules.Table) Card  { return Legal(t.Hand(), t.Led())[0] }

// scripted is a fake Player for referee tests: it keeps a bot's table so it
// always knows its hand, answers like firstLegal, and lets script take over
// any answer.
type scripted struct {
	t      rules.Table
	script func(cmd string, t rules.Table) (ok bool, text string, err error, done bool)
	left   time.Duration
	timed  bool
	cmds   []string
	after  func(n int) // called after each Ask with the number of Asks so far
}

func newScripted() *scripted { return &scripted{t: rules.NewTable()} }

func (p *scripted) Ask(cmd string) (bool, string, error) {
	p.cmds = append(p.cmds, cmd)
	if p.after != nil {
		defer p.after(len(p.cmds))
	}
	if p.script != nil {
		if ok, text, err, done := p.script(cmd, p.t); done {
			return ok, text, err
		}
	}
	text, err := p.t.Handle(strings.Fields(cmd), declareNothing, firstLegal)
	if err != nil {
		return false, err.Error(), nil
	}
	return true, text, nil
}

func (p *scripted) Left() (time.Duration, bool) { return p.left, p.timed }

// on makes a script that answers the first command named name with the
// given answer when also cond holds (cond may be nil).
func on(name string, cond func(t rules.Table) bool, ok bool, text string, err error) func(string, rules.Table) (bool, string, error, bool) {
	fired := false
	return func(cmd string, t rules.Table) (bool, string, error, bool) {
		if fired || !strings.HasPrefix(cmd+" ", name+" ") || (cond != nil && !cond(t)) {
			return false, "", nil, false
		}
		fired = true
		return ok, text, err, true
	}
}

// canRenege holds when the bot could break the follow-suit rule now.
func canRenege(t rules.Table) bool {
	led := t.Led()
	return led != 0 && len(Legal(t.Hand(), led)) < len(t.Hand()) && Legal(t.Hand(), led)[0].Suit == led
}

func TestRefereeFaults(t *testing.T) {
	const anyWhere = ` in deal \d+, trick \d+$`
	notInHand := func(t rules.Table) string {
		for _, c := range t.Deck().Cards() {
			if !slices.Contains(t.Hand(), c) && !t.Gone(c) {
				return c.String()
			}
		}
		return ""
	}
	tests := []struct {
		name       string
		seat       int
		script     func(string, rules.Table) (bool, string, error, bool)
		wantKind   string // "" for no fault
		wantDetail string // regexp
		wantWarn   []WarningEvent
	}{
		{
			name: "not following suit is illegal, on the seat that reneged", seat: 2,
			script: func(cmd string, t rules.Table) (bool, string, error, bool) {
				if cmd != "gen_move" || !canRenege(t) {
					return false, "", nil, false
				}
				for _, c := range t.Hand() {
					if c.Suit != t.Led() {
						return true, c.String(), nil, true
					}
				}
				panic("unreachable")
			},
			wantKind: drivers.FaultIllegal, wantDetail: `^played (\S\S) but must follow suit (\S) \(holds (\S\S)( \S\S)*\)` + anyWhere,
		},
		{
			name: "? to gen_move is a protocol fault", seat: 1,
			script:   on("gen_move", nil, false, "thinking too hard", nil),
			wantKind: drivers.FaultProtocol, wantDetail: `^answered \? to gen_move \("thinking too hard"\) in deal 1, trick 1$`,
		},
		{
			name: "? to gen_declare is a protocol fault", seat: 0,
			script:   on("gen_declare", nil, false, "", nil),
			wantKind: drivers.FaultProtocol, wantDetail: `^answered \? to gen_declare \(""\) in deal 1$`,
		},
		{
			name: "a declaration that is not a number is illegal", seat: 3,
			script:   on("gen_declare", nil, true, "many", nil),
			wantKind: drivers.FaultIllegal, wantDetail: `^declared "many", which is not a whole number of tricks in deal 1$`,
		},
		{
			name: "a declaration above the hand is illegal", seat: 1,
			script:   on("gen_declare", nil, true, "2", nil),
			wantKind: drivers.FaultIllegal, wantDetail: `^declared 2, but a declaration must be between 0 and 1 in deal 1$`,
		},
		{
			name: "a negative declaration is illegal", seat: 1,
			script:   on("gen_declare", func(t rules.Table) bool { return t.Deal() == 2 }, true, "-1", nil),
			wantKind: drivers.FaultIllegal, wantDetail: `^declared -1, but a declaration must be between 0 and 3 in deal 3$`,
		},
		{
			name: "a card not in the hand is illegal", seat: 0,
			script: func(cmd string, t rules.Table) (bool, string, error, bool) {
				if cmd != "gen_move" {
					return false, "", nil, false
				}
				return true, notInHand(t), nil, true
			},
			wantKind: drivers.FaultIllegal, wantDetail: `^played (\S\S), which is not in its hand \(holds \S\S\) in deal 1, trick 1$`,
		},
		{
			name: "a card not in the deck is illegal", seat: 0,
			script:   on("gen_move", nil, true, "1X", nil),
			wantKind: drivers.FaultIllegal, wantDetail: `^played 1X, which is not a card of the deck \(ranks 23456789TJQKA, suits CDHS\) in deal 1, trick 1$`,
		},
		{
			name: "a malformed card is illegal", seat: 0,
			script:   on("gen_move", nil, true, "ace of spades", nil),
			wantKind: drivers.FaultIllegal, wantDetail: `^answered gen_move with "ace of spades", which is not a card \(a card is a rank then a suit, like AC\) in deal 1, trick 1$`,
		},
		{
			name: "an Ask error of kind time is a time fault", seat: 1,
			script:   on("gen_move", nil, false, "", faultError{drivers.FaultTime, "its clock ran out"}),
			wantKind: drivers.FaultTime, wantDetail: `^its clock ran out, answering gen_move in deal 1, trick 1$`,
		},
		{
			name: "the fault kind is found in a wrapped error", seat: 2,
			script:   on("play", nil, false, "", fmt.Errorf("reading: %w", faultError{drivers.FaultProtocol, "no = or ?"})),
			wantKind: drivers.FaultProtocol, wantDetail: `^reading: no = or \?, answering play in deal 1, trick 1$`,
		},
		{
			name: "an Ask error without a kind is a crash", seat: 0,
			script:   on("set_players", nil, false, "", errors.New("broken pipe")),
			wantKind: drivers.FaultCrash, wantDetail: `^broken pipe, answering set_players$`,
		},
		{
			name: "? to set_deck is only a warning", seat: 1,
			script:   on("set_deck", nil, false, "unknown command", nil),
			wantWarn: []WarningEvent{{Seat: 1, Command: "set_deck", Answer: "unknown command"}},
		},
		{
			name: "? to declare is only a warning", seat: 3,
			script:   on("declare", nil, false, "", nil),
			wantWarn: []WarningEvent{{Seat: 3, Command: "declare", Answer: ""}},
		},
		{
			name: "? to quit is only a warning", seat: 0,
			script:   on("quit", nil, false, "bye", nil),
			wantWarn: []WarningEvent{{Seat: 0, Command: "quit", Answer: "bye"}},
		},
		{
			name: "an error answering quit is ignored", seat: 0,
			script: on("quit", nil, false, "", errors.New("already gone")),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := make([]*scripted, 4)
			players := make([]Player, 4)
			for i := range ps {
				ps[i] = newScripted()
				players[i] = ps[i]
			}
			ps[tt.seat].script = tt.script
			rec := &events{}
			out := Referee(t.Context(), Tournament(), 99, players, rec)

			for i, s := range out.Seats {
				wantKind := ""
				if i == tt.seat {
					wantKind = tt.wantKind
				}
				if s.Fault != wantKind {
					t.Errorf("seat %d fault = %q, want %q (detail %q)", i, s.Fault, wantKind, s.Detail)
				}
			}
			if tt.wantKind != "" {
				detail := out.Seats[tt.seat].Detail
				if !regexp.MustCompile(tt.wantDetail).MatchString(detail) {
					t.Errorf("detail = %q, want it to match %s", detail, tt.wantDetail)
				}
				want := []any{FaultEvent{Seat: tt.seat, Kind: tt.wantKind, Detail: detail}}
				if diff := cmp.Diff(want, rec.of("fault")); diff != "" {
					t.Errorf("fault events (-want +got):\n%s", diff)
				}
				if last := ps[tt.seat].cmds[len(ps[tt.seat].cmds)-1]; strings.HasPrefix(last, "quit") {
					t.Errorf("the faulty bot was sent quit")
				}
				// "The faulty bot loses; every other bot is a winner."
				for i, s := range out.Seats {
					if want := map[bool]float64{true: 4, false: 1}[i == tt.seat]; s.Place != want {
						t.Errorf("seat %d placed %v after seat %d's fault, want %v", i, s.Place, tt.seat, want)
					}
				}
			} else if n := len(rec.of("deal_score")); n != 13 {
				t.Errorf("%d deals scored, want the whole game of 13", n)
			}
			for i, p := range ps {
				if i != tt.seat || tt.wantKind == "" {
					if last := p.cmds[len(p.cmds)-1]; last != "quit" {
						t.Errorf("seat %d's last command is %q, want quit", i, last)
					}
				}
			}
			var gotWarn []WarningEvent
			for _, w := range rec.of("warning") {
				gotWarn = append(gotWarn, w.(WarningEvent))
			}
			if diff := cmp.Diff(tt.wantWarn, gotWarn); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			checkScores(t, out, rec)
		})
	}
}

// checkScores checks the outcome and the end event carry the sum of the
// recorded deal scores: on a fault, the deals finished before it.
func checkScores(t *testing.T, out *drivers.Outcome, rec *events) {
	t.Helper()
	sums := make([]int, len(out.Seats))
	for _, e := range rec.of("deal_score") {
		ds := e.(DealScoreEvent)
		for i := range sums {
			if want := DealScore(ds.Tricks[i], ds.Declared[i], sumFrom(ds.Tricks, 0)); ds.Points[i] != want {
				t.Errorf("deal %d seat %d: %d points for %d tricks declaring %d, want %d", ds.Deal, i, ds.Points[i], ds.Tricks[i], ds.Declared[i], want)
			}
			sums[i] += ds.Points[i]
		}
		if !slices.Equal(ds.Scores, sums) {
			t.Errorf("deal %d: running scores %v, want %v", ds.Deal, ds.Scores, sums)
		}
	}
	for i, s := range out.Seats {
		if s.Score != float64(sums[i]) {
			t.Errorf("seat %d score = %v, want the sum of its deal scores %d", i, s.Score, sums[i])
		}
	}
	ends := rec.of("end")
	if len(ends) != 1 || !slices.Equal(ends[0].(EndEvent).Scores, sums) {
		t.Errorf("end events = %v, want one with scores %v", ends, sums)
	}
	if rec.kinds[len(rec.kinds)-1] != "end" {
		t.Errorf("last event is %q, want end", rec.kinds[len(rec.kinds)-1])
	}
}

func sumFrom(v []int, i int) int {
	s := 0
	for _, x := range v[i:] {
		s += x
	}
	return s
}

// TestRefereeTranscript pins the exact command order of a tiny game: what
// every bot is told, when time_left is sent, and that declarations are all
// asked for before any is revealed.
func TestRefereeTranscript(t *testing.T) {
	s := Settings{Deck: Deck{Ranks: "123", Suits: "ab"}, Deals: []DealSpec{{Cards: 1, Leader: 1}, {Cards: 2, Leader: 0}}}
	// Seed 7 deals 1a / 3a in deal 1 and 3a 2b / 1b 3b in deal 2 (checked
	// below); both bots declare 0 and play their first legal card.
	p0, p1 := newScripted(), newScripted()
	p0.left, p0.timed = 1234900*time.Microsecond, true // floors to 1234 ms
	p1.left, p1.timed = 0, false                       // unlimited: no time_left
	var order []string
	log := func(seat int, p *scripted) func(int) {
		return func(n int) { order = append(order, fmt.Sprintf("%d %s", seat, p.cmds[n-1])) }
	}
	p0.after, p1.after = log(0, p0), log(1, p1)
	rec := &events{}
	out := Referee(t.Context(), s, 7, []Player{p0, p1}, rec)

	var hands []any
	for _, e := range rec.of("deal") {
		hands = append(hands, e.(DealEvent).Hands)
	}
	wantHands := []any{[][]string{{"1a"}, {"3a"}}, [][]string{{"3a", "2b"}, {"1b", "3b"}}}
	if diff := cmp.Diff(wantHands, hands); diff != "" {
		t.Fatalf("hands (-want +got):\n%s", diff)
	}
	want := []string{
		// A broadcast of several commands goes to each player in one
		// write (the scripted players take them at once, AskAll), seat
		// after seat.
		"0 set_deck 123 ab", "0 set_players 2 0", "0 set_game 2 1 1 2 0",
		"1 set_deck 123 ab", "1 set_players 2 1", "1 set_game 2 1 1 2 0",
		// deal 1: one card each, seat 1 leads
		"0 set_cards 1 1a", "1 set_cards 1 3a",
		"0 time_left 1234", "0 gen_declare", "1 gen_declare",
		"0 declare 0 0", "0 declare 1 0", "1 declare 0 0", "1 declare 1 0",
		"1 gen_move", "0 play 1 3a", "1 play 1 3a",
		"0 time_left 1234", "0 gen_move", "0 play 0 1a", "1 play 0 1a",
		// deal 2: seat 0 leads and wins the first trick with a trump
		"0 set_cards 2 3a 2b", "1 set_cards 2 1b 3b",
		"0 time_left 1234", "0 gen_declare", "1 gen_declare",
		"0 declare 0 0", "0 declare 1 0", "1 declare 0 0", "1 declare 1 0",
		"0 time_left 1234", "0 gen_move", "0 play 0 3a", "1 play 0 3a",
		"1 gen_move", "0 play 1 1b", "1 play 1 1b",
		"0 time_left 1234", "0 gen_move", "0 play 0 2b", "1 play 0 2b",
		"1 gen_move", "0 play 1 3b", "1 play 1 3b",
		"0 quit", "1 quit",
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Fatalf("commands (-want +got):\n%s", diff)
	}
	wantTricks := []any{
		TrickEvent{Deal: 1, Trick: 1, Leader: 1, Cards: []string{"1a", "3a"}, Winner: 1},
		TrickEvent{Deal: 2, Trick: 1, Leader: 0, Cards: []string{"3a", "1b"}, Winner: 0},
		TrickEvent{Deal: 2, Trick: 2, Leader: 0, Cards: []string{"2b", "3b"}, Winner: 1},
	}
	if diff := cmp.Diff(wantTricks, rec.of("trick")); diff != "" {
		t.Errorf("tricks (-want +got):\n%s", diff)
	}
	// Both declared 0: seat 0 made it in deal 1 (a bonus of 1), neither did
	// in deal 2.
	wantScores := []any{
		DealScoreEvent{Deal: 1, Tricks: []int{0, 1}, Declared: []int{0, 0}, Points: []int{1, 1}, Scores: []int{1, 1}},
		DealScoreEvent{Deal: 2, Tricks: []int{1, 1}, Declared: []int{0, 0}, Points: []int{1, 1}, Scores: []int{2, 2}},
	}
	if diff := cmp.Diff(wantScores, rec.of("deal_score")); diff != "" {
		t.Errorf("deal scores (-want +got):\n%s", diff)
	}
	checkScores(t, out, rec)
}

func TestRefereeTimeLeftNeverNegative(t *testing.T) {
	p0, p1 := newScripted(), newScripted()
	p0.left, p0.timed = -3*time.Second, true
	Referee(t.Context(), Tournament(), 1, []Player{p0, p1, newScripted(), newScripted()}, &events{})
	for _, c := range p0.cmds {
		if strings.HasPrefix(c, "time_left") && c != "time_left 0" {
			t.Fatalf("sent %q for an overdrawn clock, want time_left 0", c)
		}
	}
	for _, c := range p1.cmds {
		if strings.HasPrefix(c, "time_left") {
			t.Fatalf("sent %q to a bot with an unlimited clock", c)
		}
	}
}

// TestRefereeCancelled: when ctx is cancelled the process layer kills the
// bots, so Ask fails; that is the cancellation, not anybody's fault.
func TestRefereeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ps := []*scripted{newScripted(), newScripted(), newScripted(), newScripted()}
	asked, atCancel := 0, -1
	for _, p := range ps {
		p.after = func(int) { asked++ }
	}
	ps[2].script = func(cmd string, t rules.Table) (bool, string, error, bool) {
		if len(ps[2].cmds) == 100 {
			cancel()
			atCancel = asked + 1
			return false, "", faultError{drivers.FaultCrash, "killed"}, true
		}
		return false, "", nil, false
	}
	rec := &events{}
	out := Referee(ctx, Tournament(), 1, []Player{ps[0], ps[1], ps[2], ps[3]}, rec)
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Errorf("seat %d has fault %q after cancellation", i, s.Fault)
		}
	}
	if len(rec.of("end")) != 0 || len(rec.of("fault")) != 0 {
		t.Errorf("recorded end or fault events after cancellation: %v", rec.kinds)
	}
	if n := len(rec.of("deal_score")); n == 13 {
		t.Fatalf("the game finished before the cancellation the test meant")
	}
	if asked != atCancel {
		t.Errorf("the referee asked %d more commands after cancellation", asked-atCancel)
	}
	checkRunning(t, out, rec)
}

// checkRunning checks the outcome of an unfinished match carries the
// scores of the deals finished so far.
func checkRunning(t *testing.T, out *drivers.Outcome, rec *events) {
	t.Helper()
	sums := make([]float64, len(out.Seats))
	for _, e := range rec.of("deal_score") {
		for i, p := range e.(DealScoreEvent).Points {
			sums[i] += float64(p)
		}
	}
	for i, s := range out.Seats {
		if s.Score != sums[i] {
			t.Errorf("seat %d score = %v, want %v", i, s.Score, sums[i])
		}
	}
}

func TestRefereeFullGame(t *testing.T) {
	names := []string{"greedy", "random", "greedy", "random"}
	out, rec := playHouse(t, Tournament(), 2024, names)
	for i, s := range out.Seats {
		if s.Fault != "" {
			t.Fatalf("seat %d (%s): fault %s: %s", i, names[i], s.Fault, s.Detail)
		}
	}
	counts := map[string]int{}
	for _, k := range rec.kinds {
		counts[k]++
	}
	want := map[string]int{"deal": 13, "declare": 13, "trick": 91, "deal_score": 13, "end": 1}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("event counts (-want +got):\n%s", diff)
	}
	checkScores(t, out, rec)
	// Every deal's tricks go to somebody: the tricks sum to the cards.
	for i, e := range rec.of("deal_score") {
		if got := sumFrom(e.(DealScoreEvent).Tricks, 0); got != i+1 {
			t.Errorf("deal %d: %d tricks taken, want %d", i+1, got, i+1)
		}
	}
}

// TestHouseBotsReplay: a seeded house bot plays the same game twice, and
// another seed gives another game.
func TestHouseBotsReplay(t *testing.T) {
	names := []string{"random", "random", "greedy", "random"}
	_, a := playHouse(t, Tournament(), 5, names)
	_, b := playHouse(t, Tournament(), 5, names)
	if diff := cmp.Diff(a.data, b.data); diff != "" {
		t.Fatalf("the same seed played differently (-first +second):\n%s", diff)
	}
	_, c := playHouse(t, Tournament(), 6, names)
	if cmp.Equal(a.data, c.data) {
		t.Fatal("another seed played the same game")
	}
}

// TestGreedyBeatsRandom plays greedy against random from seeds 1..200, two
// of each at the table, swapping seats every other game.
func TestGreedyBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("200 games")
	}
	sum := map[string]float64{}
	games := map[string]int{}
	for seed := uint64(1); seed <= 200; seed++ {
		names := []string{"greedy", "random", "greedy", "random"}
		if seed%2 == 0 {
			names = []string{"random", "greedy", "random", "greedy"}
		}
		out, _ := playHouse(t, Tournament(), seed, names)
		for i, s := range out.Seats {
			if s.Fault != "" {
				t.Fatalf("seed %d seat %d (%s): fault %s: %s", seed, i, names[i], s.Fault, s.Detail)
			}
			sum[names[i]] += s.Score
			games[names[i]]++
		}
	}
	g, r := sum["greedy"]/float64(games["greedy"]), sum["random"]/float64(games["random"])
	t.Logf("mean score over 200 games: greedy %.1f, random %.1f", g, r)
	if g < r*1.5 {
		t.Errorf("greedy's mean %.1f is not clearly above random's %.1f", g, r)
	}
}

func TestHouseBotsSorted(t *testing.T) {
	var names []string
	for _, b := range HouseBots() {
		names = append(names, b.Name)
		if b.Doc == "" || b.Run == nil {
			t.Errorf("house bot %q lacks Doc or Run", b.Name)
		}
	}
	if want := []string{"greedy", "random"}; !slices.Equal(names, want) {
		t.Fatalf("HouseBots() = %v, want %v", names, want)
	}
}

func BenchmarkRefereeGame(b *testing.B) {
	names := []string{"greedy", "random", "greedy", "random"}
	for i := 0; b.Loop(); i++ {
		out, _ := playHouse(b, Tournament(), uint64(i), names)
		if out.Seats[0].Fault != "" {
			b.Fatal(out.Seats[0].Detail)
		}
	}
}
