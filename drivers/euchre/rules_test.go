package euchre

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func card(tb testing.TB, s string) Card {
	tb.Helper()
	c, ok := ParseCard(s)
	if !ok {
		tb.Fatalf("bad card %q", s)
	}
	return c
}

func cards(tb testing.TB, s string) []Card {
	tb.Helper()
	cs, ok := ParseCards(s)
	if !ok {
		tb.Fatalf("bad cards %q", s)
	}
	return cs
}

func suit(tb testing.TB, s string) Suit {
	tb.Helper()
	u, ok := ParseSuit(s)
	if !ok {
		tb.Fatalf("bad suit %q", s)
	}
	return u
}

func TestBowers(t *testing.T) {
	for _, tc := range []struct {
		name        string
		card, trump string
		right, left bool
		follows     string
	}{
		{"jack of trump is the right bower", "jh", "h", true, false, "h"},
		{"jack of the same colour is the left bower and a trump", "jd", "h", false, true, "h"},
		{"left bower of spades is the jack of clubs", "jc", "s", false, true, "s"},
		{"left bower of clubs is the jack of spades", "js", "c", false, true, "c"},
		{"jack of the other colour is a plain jack", "js", "h", false, false, "s"},
		{"ace of trump is not a bower", "ah", "h", false, false, "h"},
		{"plain card follows its own suit", "9d", "h", false, false, "d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, tr := card(t, tc.card), suit(t, tc.trump)
			if c.IsRight(tr) != tc.right || c.IsLeft(tr) != tc.left || c.Follows(tr) != suit(t, tc.follows) {
				t.Errorf("%s with trump %s: right %v left %v follows %s; want %v %v %s",
					c, tr, c.IsRight(tr), c.IsLeft(tr), c.Follows(tr), tc.right, tc.left, tc.follows)
			}
		})
	}
}

func TestTrumpRanking(t *testing.T) {
	// Highest first, trump hearts, led clubs.
	order := cards(t, "jh,jd,ah,kh,qh,th,9h,ac,kc,qc,jc,tc,9c")
	tr, led := suit(t, "h"), suit(t, "c")
	for i := 1; i < len(order); i++ {
		if order[i-1].Power(tr, led) <= order[i].Power(tr, led) {
			t.Errorf("%s should beat %s with trump %s, led %s", order[i-1], order[i], tr, led)
		}
	}
	for _, c := range cards(t, "ad,kd,js,as") {
		if c.Power(tr, led) != 0 {
			t.Errorf("%s, neither trump nor led, has power %d", c, c.Power(tr, led))
		}
	}
}

func TestLegal(t *testing.T) {
	for _, tc := range []struct {
		name, hand, trump, first, want string
	}{
		{"leading: any card", "9c,jd,ah", "h", "", "9c,jd,ah"},
		{"must follow the led suit", "9c,tc,ah,kd", "h", "ac", "9c,tc"},
		{"void in the led suit: any card", "9c,ah,kd", "h", "as", "9c,ah,kd"},
		{"left bower must follow a trump lead", "jd,9c,ac", "h", "9h", "jd"},
		{"left bower does not follow its printed suit", "jd,9c", "h", "ad", "jd,9c"},
		{"left bower led calls for trumps", "9h,ad,kc", "h", "jd", "9h"},
		{"left bower led: a diamond is not a follow", "ad,kc", "h", "jd", "ad,kc"},
		{"right bower with trumps led", "jh,9c", "h", "ah", "jh"},
		{"a player who sits out is skipped for the led card", "9c,th", "h", "ac", "9c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := NoCard
			if tc.first != "" {
				first = card(t, tc.first)
			}
			got := FormatCards(Legal(cards(t, tc.hand), suit(t, tc.trump), first))
			if got != tc.want {
				t.Errorf("Legal = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestCheckPlaySaysWhichSuitWasLed checks that a refused card's reason
// names the lead, the suit it asks for (bowers counted) and the cards
// that follow it, so that an author sees which rule the bot broke.
func TestCheckPlaySaysWhichSuitWasLed(t *testing.T) {
	for _, tc := range []struct {
		name, hand, trump, first, play, want string
	}{
		{"a plain suit", "9c,ts,ad", "h", "kd", "ts", "played ts but must follow suit: the lead kd is a diamond (trump h), and it holds ad"},
		{"a trump lead", "jd,9c,qs", "h", "ah", "9c", "played 9c but must follow suit: the lead ah is a trump (trump h), and it holds jd; the left bower, jd, is a trump, not a diamond"},
		{"the left bower led", "tc,js,ks", "s", "jc", "tc", "played tc but must follow suit: the lead jc, the left bower, is a trump (trump s), and it holds js,ks"},
		{"the left bower is no diamond", "jd,qd,9c", "h", "9d", "jd", "played jd but must follow suit: the lead 9d is a diamond (trump h), and it holds qd; the left bower, jd, is a trump, not a diamond"},
		{"not in its hand", "9c,ts", "h", "kd", "ad", "played ad, which is not in its hand (9c,ts)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, tr, first := cards(t, tc.hand), suit(t, tc.trump), card(t, tc.first)
			if got := checkPlay(tc.play, h, Legal(h, tr, first), tr, first); got != tc.want {
				t.Errorf("checkPlay = %q\nwant        %q", got, tc.want)
			}
		})
	}
}

func TestWinner(t *testing.T) {
	for _, tc := range []struct {
		name, trick, trump string
		want               int
	}{
		{"highest of the led suit", "9c,ac,kc,tc", "h", 1},
		{"off-suit ace does not win", "9c,as,ad,tc", "h", 3},
		{"lowest trump beats the led ace", "ac,9h,kc,qc", "h", 1},
		{"left bower beats the ace of trump", "ah,jd,kh,9c", "h", 1},
		{"right bower beats the left bower", "jd,9h,jh,ah", "h", 2},
		{"left bower led wins over lower trumps", "jd,ah,kh,qh", "h", 0},
		{"a player who sits out never wins", "9c,p,tc,qc", "h", 3},
		{"sits out after the leader", "9s,p,ts,9h", "h", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Winner(cards(t, tc.trick), suit(t, tc.trump)); got != tc.want {
				t.Errorf("Winner(%s) = %d, want %d", tc.trick, got, tc.want)
			}
		})
	}
}

func TestHandScore(t *testing.T) {
	for _, tc := range []struct {
		name              string
		tricks            int
		alone             bool
		makers, defenders int
	}{
		{"three tricks: one point", 3, false, 1, 0},
		{"four tricks: one point", 4, false, 1, 0},
		{"march: two points", 5, false, 2, 0},
		{"alone march: four points", 5, true, 4, 0},
		{"alone with four tricks: one point", 4, true, 1, 0},
		{"alone with three tricks: one point", 3, true, 1, 0},
		{"two tricks: euchred, defenders two", 2, false, 0, 2},
		{"no tricks: euchred, defenders two", 0, false, 0, 2},
		{"alone and euchred: defenders two", 1, true, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, d := HandScore(tc.tricks, tc.alone)
			if m != tc.makers || d != tc.defenders {
				t.Errorf("HandScore(%d, %v) = %d, %d; want %d, %d", tc.tricks, tc.alone, m, d, tc.makers, tc.defenders)
			}
		})
	}
}

// TestScoringInGames checks that every hand_score event of real games adds
// up: the points follow HandScore from the tricks, and the game ends at the
// target.
func TestScoringInGames(t *testing.T) {
	seen := map[[2]int]bool{} // (maker tricks, alone)
	for seed := range uint64(60) {
		rec := &events{}
		bots := team("rules", "random")
		if seed%2 == 1 {
			bots = team("random", "random")
		}
		res, err := Referee(context.Background(), DefaultSettings(), seed, inProcess(t, seed, bots), rec)
		if err != nil {
			t.Fatal(err)
		}
		var pts [2]int
		for _, e := range rec.of("hand_score") {
			hs := e.(HandScoreEvent)
			if hs.Tricks[0]+hs.Tricks[1] != 5 {
				t.Fatalf("seed %d hand %d: tricks %v do not add to 5", seed, hs.Hand, hs.Tricks)
			}
			mk, df := HandScore(hs.Tricks[hs.Makers], hs.Alone)
			if hs.Scored[hs.Makers] != mk || hs.Scored[1-hs.Makers] != df {
				t.Fatalf("seed %d hand %d: scored %v for %+v", seed, hs.Hand, hs.Scored, hs)
			}
			pts[0] += hs.Scored[0]
			pts[1] += hs.Scored[1]
			if hs.Points != pts {
				t.Fatalf("seed %d hand %d: points %v, want %v", seed, hs.Hand, hs.Points, pts)
			}
			alone := 0
			if hs.Alone {
				alone = 1
			}
			seen[[2]int{min(hs.Tricks[hs.Makers], 3), alone}] = true
			if hs.Tricks[hs.Makers] == 5 {
				seen[[2]int{5, alone}] = true
			}
		}
		if res.Points != pts || max(pts[0], pts[1]) < 10 || max(pts[0], pts[1]) > 13 || res.Winner < 0 || pts[res.Winner] < 10 {
			t.Fatalf("seed %d: result %+v after points %v", seed, res, pts)
		}
		if pts[1-res.Winner] >= 10 {
			t.Fatalf("seed %d: both teams reached the target: %v", seed, pts)
		}
	}
	for _, k := range [][2]int{{0, 0}, {3, 0}, {5, 0}, {0, 1}, {3, 1}, {5, 1}} {
		// {0,x}: euchred (min(tricks,3) < 3 is recorded as 0..2)
		found := seen[k]
		if k[0] == 0 {
			found = seen[[2]int{0, k[1]}] || seen[[2]int{1, k[1]}] || seen[[2]int{2, k[1]}]
		}
		if !found {
			t.Errorf("no game had a hand with maker tricks %d, alone %d: the scoring case is untested", k[0], k[1])
		}
	}
}

func TestSettingsValidate(t *testing.T) {
	s := Settings{Target: 0, FirstDealer: 4, MaxHands: 0, Memory: -1}
	err := s.Validate()
	if err == nil || strings.Count(err.Error(), "\n") != 3 {
		t.Errorf("Validate(%+v) = %v, want four problems", s, err)
	}
	if err := DefaultSettings().Validate(); err != nil {
		t.Error(err)
	}
}

// script answers for tests: the answer a position gives in a phase.
func answers(m map[int]map[Phase]string) func(hand, pos int, s *Situation) string {
	return func(_, pos int, s *Situation) string { return m[pos][s.Phase] }
}

// TestGoingAlone: the partner of a lone maker is never asked for a card,
// appears as p in the others' turn inputs and gets the trick message with
// its index at the p; only the first maker's y counts.
func TestGoingAlone(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	// Dealer 0; position 1 orders and says n, defender 2 says y (ignored),
	// 3 (1's partner) says y: 3 plays alone and 1, left of the dealer, sits
	// out.
	sc := &scripted{tb: t, answer: answers(map[int]map[Phase]string{
		1: {Ordering: "o", Alone: "n"},
		2: {Alone: "y"},
		3: {Alone: "y"},
	})}
	rec := &events{}
	if _, err := Referee(context.Background(), s, 5, sc.decide, rec); err != nil {
		t.Fatal(err)
	}
	tr := rec.of("trump")[0].(TrumpEvent)
	if tr.Maker != 1 || tr.Makers != 1 || tr.Alone != 3 || tr.SitsOut != 1 ||
		!slices.Equal(tr.Decisions, []string{"n", "y", "y", "n"}) {
		t.Fatalf("trump event %+v: want maker 1, alone 3 (2's y is a defender's), 1 sitting out", tr)
	}
	// Position 1 is left of the dealer but sits out: 2 leads the first trick.
	if l := rec.of("trick")[0].(TrickEvent).Leader; l != 2 {
		t.Errorf("first trick led by %d, want 2", l)
	}
	turns, tricks := 0, 0
	for _, a := range sc.log {
		s, _ := ParseInput(a.input)
		switch a.phase {
		case Turn:
			if a.pos == 1 {
				t.Errorf("position 1 sits out but was asked for a card:\n%s", a.input)
			}
			turns++
			if n := len(s.Played); n > 0 {
				// The sitter sits after the lone player's right-hand
				// opponent: it is in the list for everyone after it.
				leader := (a.pos - n + 4) % 4
				for i, c := range s.Played {
					if ((leader+i)%4 == 1) != (c == NoCard) {
						t.Errorf("position %d sees %s: p must stand exactly at position 1's place", a.pos, FormatCards(s.Played))
					}
				}
			}
		case Trick:
			tricks++
			if a.pos == 1 && s.Played[s.Index] != NoCard {
				t.Errorf("the sitter's trick message does not point at p:\n%s", a.input)
			}
			if a.pos != 1 && s.Played[s.Index] == NoCard {
				t.Errorf("position %d's trick message points at p:\n%s", a.pos, a.input)
			}
			if !slices.Contains(s.Played, NoCard) || len(s.Played) != 4 {
				t.Errorf("trick message without the sitter's p:\n%s", a.input)
			}
		}
	}
	if turns != 15 || tricks != 20 {
		t.Errorf("%d turn and %d trick inputs, want 15 (three players, five tricks) and 20", turns, tricks)
	}
	hs := rec.of("hand_score")[0].(HandScoreEvent)
	if !hs.Alone || hs.Makers != 1 {
		t.Errorf("hand score %+v: want team 1 alone", hs)
	}
}

// TestFirstMakersYCounts: when both makers say y, the first one asked
// plays alone.
func TestFirstMakersYCounts(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	sc := &scripted{tb: t, answer: answers(map[int]map[Phase]string{
		3: {Ordering: "o", Alone: "y"},
		1: {Alone: "y"},
	})}
	rec := &events{}
	if _, err := Referee(context.Background(), s, 5, sc.decide, rec); err != nil {
		t.Fatal(err)
	}
	if tr := rec.of("trump")[0].(TrumpEvent); tr.Maker != 3 || tr.Alone != 1 || tr.SitsOut != 3 {
		t.Errorf("trump event %+v: want 1 (asked before 3) alone and 3 sitting out", tr)
	}
}

// TestOnlyMakersGoAlone: a defender's y alone does not make anyone sit out.
func TestOnlyMakersGoAlone(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	sc := &scripted{tb: t, answer: answers(map[int]map[Phase]string{
		2: {Ordering: "o"},
		1: {Alone: "y"},
		3: {Alone: "y"},
	})}
	rec := &events{}
	if _, err := Referee(context.Background(), s, 5, sc.decide, rec); err != nil {
		t.Fatal(err)
	}
	if tr := rec.of("trump")[0].(TrumpEvent); tr.Alone != -1 || tr.SitsOut != -1 {
		t.Errorf("trump event %+v: defenders' y must be ignored", tr)
	}
	if len(rec.of("default")) != 0 {
		t.Errorf("defaults %v: a defender's y is a valid answer", rec.of("default"))
	}
}

// TestAllPassRedeal: when everybody passes twice, the hand is thrown in and
// the next dealer deals the next hand's cards; nobody scores.
func TestAllPassRedeal(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 3
	s.FirstDealer = 2
	sc := &scripted{tb: t}
	rec := &events{}
	res, err := Referee(context.Background(), s, 9, sc.decide, rec)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rec.of("thrown_in")); n != 3 || len(rec.of("hand_score")) != 0 || len(rec.of("trick")) != 0 {
		t.Errorf("%d hands thrown in, %d scored, %d tricks; want 3, 0, 0", n, len(rec.of("hand_score")), len(rec.of("trick")))
	}
	for i, e := range rec.of("deal") {
		d := e.(DealEvent)
		if d.Dealer != (2+i)%4 {
			t.Errorf("hand %d dealt by %d, want %d", d.Hand, d.Dealer, (2+i)%4)
		}
		want := DealHand(9, i, d.Dealer)
		if d.Upcard != want.Upcard.String() || strings.Join(d.Hands[0], ",") != FormatCards(want.Hands[0]) {
			t.Errorf("hand %d is not the seed's deal number %d", d.Hand, i)
		}
	}
	// 4 ordering and 4 naming decisions per hand, and nothing else.
	if len(sc.log) != 24 {
		t.Errorf("%d decisions, want 24", len(sc.log))
	}
	if res.Winner != -1 || res.Points != [2]int{} || res.Hands != 3 {
		t.Errorf("result %+v: want a scoreless draw after max_hands", res)
	}
}

// TestNamingTheTurnedDownSuit: naming the turned-down suit counts as a
// pass (with a fault); the next valid name decides.
func TestNamingTheTurnedDownSuit(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	down := DealHand(3, 0, 0).Upcard.Suit()
	other := (down + 1) % 4
	sc := &scripted{tb: t, answer: answers(map[int]map[Phase]string{
		1: {Naming: down.String()},
		2: {Naming: strings.ToUpper(other.String())},
		3: {Naming: down.String()},
	})}
	rec := &events{}
	if _, err := Referee(context.Background(), s, 3, sc.decide, rec); err != nil {
		t.Fatal(err)
	}
	b := rec.of("bidding")[1].(BiddingEvent)
	if b.By != 2 || !slices.Equal(b.Decisions, []string{"p", other.String(), "p", "p"}) {
		t.Errorf("naming %+v: want 1's turned-down suit as p and 2 deciding", b)
	}
	if tr := rec.of("trump")[0].(TrumpEvent); tr.Trump != other.String() || tr.Makers != 0 {
		t.Errorf("trump %+v", tr)
	}
	if n := len(rec.of("default")); n != 2 {
		t.Errorf("%d defaults, want 2 (positions 1 and 3 named the turned-down suit)", n)
	}
}

// TestDefaults: every phase's invalid answer gets the phase's default, is
// counted against the position and recorded; the game goes on.
func TestDefaults(t *testing.T) {
	deal := DealHand(11, 0, 0)
	for _, tc := range []struct {
		name    string
		pos     int
		phase   Phase
		bad     string
		script  map[int]map[Phase]string
		def     string
		outcome func(t *testing.T, rec *events)
	}{
		{name: "ordering garbage is a pass", pos: 1, phase: Ordering, bad: "order!", def: "p"},
		{name: "ordering empty is a pass", pos: 2, phase: Ordering, bad: "  ", def: "p"},
		{name: "ordering a suit is a pass", pos: 3, phase: Ordering, bad: "h", def: "p"},
		{name: "naming garbage is a pass", pos: 1, phase: Naming, bad: "hearts", def: "p"},
		{name: "naming the turned-down suit is a pass", pos: 2, phase: Naming, bad: deal.Upcard.Suit().String(), def: "p"},
		{name: "discard of a card not held is the first card", pos: 0, phase: Discard, bad: "xx",
			script: map[int]map[Phase]string{1: {Ordering: "o"}}, def: deal.Hands[0][0].String(),
			outcome: func(t *testing.T, rec *events) {
				d := rec.of("discard")[0].(DiscardEvent)
				if d.Discarded != deal.Hands[0][0].String() {
					t.Errorf("discarded %s, want the first card %s", d.Discarded, deal.Hands[0][0])
				}
			}},
		{name: "alone garbage is no", pos: 1, phase: Alone, bad: "yes",
			script: map[int]map[Phase]string{1: {Ordering: "o"}}, def: "n",
			outcome: func(t *testing.T, rec *events) {
				if tr := rec.of("trump")[0].(TrumpEvent); tr.Alone != -1 {
					t.Errorf("alone %d after an invalid answer", tr.Alone)
				}
			}},
		{name: "turn garbage is the first legal card", pos: 2, phase: Turn, bad: "ace",
			script: map[int]map[Phase]string{1: {Ordering: "o"}}},
		{name: "turn card not in hand is the first legal card", pos: 3, phase: Turn, bad: "9z",
			script: map[int]map[Phase]string{1: {Ordering: "o"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			s.MaxHands = 1
			done := false
			sc := &scripted{tb: t, answer: func(hand, pos int, st *Situation) string {
				if pos == tc.pos && st.Phase == tc.phase && !done {
					done = true
					return tc.bad
				}
				return tc.script[pos][st.Phase]
			}}
			rec := &events{}
			res, err := Referee(context.Background(), s, 11, sc.decide, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !done {
				t.Fatalf("position %d was never asked in phase %s", tc.pos, tc.phase)
			}
			ds := rec.of("default")
			if len(ds) != 1 {
				t.Fatalf("defaults %+v, want exactly one", ds)
			}
			d := ds[0].(DefaultEvent)
			want := tc.def
			if tc.phase == Turn {
				for _, a := range sc.log {
					if a.pos == tc.pos && a.phase == Turn {
						st, _ := ParseInput(a.input)
						want = Legal(st.Hand, st.Trump, first(st.Played))[0].String()
						break
					}
				}
			}
			if d.Position != tc.pos || d.Seat != tc.pos%2 || d.Phase != tc.phase || d.Answer != tc.bad || d.Default != want || d.Reason == "" {
				t.Errorf("default event %+v, want position %d phase %s answer %q default %s", d, tc.pos, tc.phase, tc.bad, want)
			}
			if res.Defaults[tc.pos] != 1 {
				t.Errorf("defaults by position %v", res.Defaults)
			}
			if tc.outcome != nil {
				tc.outcome(t, rec)
			}
			if tc.phase != Ordering && tc.phase != Naming && len(rec.of("hand_score")) != 1 {
				t.Errorf("the hand was not played to its end")
			}
		})
	}
}

// TestAnswersAreTrimmedAndLowerCased: " O \r" orders, "JH " is a card.
func TestAnswersAreTrimmedAndLowerCased(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	sc := &scripted{tb: t, answer: func(hand, pos int, st *Situation) string {
		switch {
		case pos == 1 && st.Phase == Ordering:
			return " O \r"
		case st.Phase == Turn:
			return " " + strings.ToUpper(Legal(st.Hand, st.Trump, first(st.Played))[0].String()) + "\t"
		}
		return ""
	}}
	rec := &events{}
	if _, err := Referee(context.Background(), s, 4, sc.decide, rec); err != nil {
		t.Fatal(err)
	}
	if ds := rec.of("default"); len(ds) != 0 {
		t.Errorf("defaults %+v for answers that are valid once trimmed and lower-cased", ds)
	}
	if b := rec.of("bidding")[0].(BiddingEvent); b.By != 1 {
		t.Errorf("ordering %+v, want 1 to order", b)
	}
}
