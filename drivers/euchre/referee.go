package euchre

import (
	"context"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Decide asks the bot at position pos for one decision: input is the full
// text of its stdin. answer is the first line it printed. problem is empty,
// or says in a sentence why the bot gave no usable answer (it crashed, ran
// out of time, broke its memory limit): the referee then uses the phase's
// default. For the trick phase the answer is ignored, but a problem is
// still the bot's fault.
type Decide func(ctx context.Context, pos int, phase Phase, input string) (answer, problem string)

// The events Referee records, by kind. Hands and tricks are numbered from
// 1; positions (0-3, seat = position mod 2) from 0.
type (
	// DealEvent ("deal") opens a hand.
	DealEvent struct {
		Hand   int        `json:"hand"`
		Dealer int        `json:"dealer"`
		Hands  [][]string `json:"hands"` // by position, in the order dealt
		Upcard string     `json:"upcard"`
	}
	// DecisionEvent ("decision") is one run of a bot: what it read and the
	// first line it printed.
	DecisionEvent struct {
		Hand     int    `json:"hand"`
		Position int    `json:"position"`
		Seat     int    `json:"seat"`
		Phase    Phase  `json:"phase"`
		Input    string `json:"input"`
		Answer   string `json:"answer"`
	}
	// DefaultEvent ("default") is a fault of the bot: its answer was
	// invalid, late or missing, or it broke the memory rule, and the
	// phase's default was used instead (Default is empty for the trick
	// phase, which has no answer).
	DefaultEvent struct {
		Hand     int    `json:"hand"`
		Position int    `json:"position"`
		Seat     int    `json:"seat"`
		Phase    Phase  `json:"phase"`
		Answer   string `json:"answer"`
		Default  string `json:"default"`
		Reason   string `json:"reason"`
	}
	// BiddingEvent ("bidding") is a round of ordering or naming: the
	// answers in order from left of the dealer, and who decided (-1: all
	// passed).
	BiddingEvent struct {
		Hand      int      `json:"hand"`
		Round     Phase    `json:"round"`
		Decisions []string `json:"decisions"`
		By        int      `json:"by"`
	}
	// DiscardEvent ("discard") is the dealer picking up the upcard.
	DiscardEvent struct {
		Hand      int    `json:"hand"`
		Dealer    int    `json:"dealer"`
		Upcard    string `json:"upcard"`
		Discarded string `json:"discarded"`
	}
	// TrumpEvent ("trump") fixes the hand's trump, makers and a lone player.
	TrumpEvent struct {
		Hand      int      `json:"hand"`
		Trump     string   `json:"trump"`
		Maker     int      `json:"maker"`
		Makers    int      `json:"makers"` // team
		Alone     int      `json:"alone"`  // position playing alone, -1
		SitsOut   int      `json:"sits_out"`
		Decisions []string `json:"decisions"` // the y/n answers from left of the dealer
	}
	// ThrownInEvent ("thrown_in") is a hand everyone passed twice.
	ThrownInEvent struct {
		Hand int `json:"hand"`
	}
	// TrickEvent ("trick") is a finished trick, cards in order of play
	// from the leader, "p" for one who sits out.
	TrickEvent struct {
		Hand   int      `json:"hand"`
		Trick  int      `json:"trick"`
		Leader int      `json:"leader"`
		Cards  []string `json:"cards"`
		Winner int      `json:"winner"`
	}
	// HandScoreEvent ("hand_score") closes a hand; Points are the game
	// totals after it, by team.
	HandScoreEvent struct {
		Hand   int    `json:"hand"`
		Makers int    `json:"makers"`
		Alone  bool   `json:"alone"`
		Tricks [2]int `json:"tricks"`
		Scored [2]int `json:"scored"`
		Points [2]int `json:"points"`
	}
	// EndEvent ("end") is the game's result: game points by team, the
	// winning team (-1: a draw at max_hands) and the hands played.
	EndEvent struct {
		Points   [2]int `json:"points"`
		Winner   int    `json:"winner"`
		Hands    int    `json:"hands"`
		Defaults [4]int `json:"defaults"` // by position
	}
)

// Result is a finished game.
type Result struct {
	Points   [2]int // game points by team
	Winner   int    // team, or -1 for a draw when MaxHands ran out
	Hands    int    // hands dealt, thrown-in ones included
	Defaults [4]int // faults by position
	// Decisions are the decisions asked for by position, trick messages
	// aside (their answer is ignored), and Own those answered by the bot
	// itself rather than by the default.
	Decisions, Own [4]int
}

// Referee plays one game with seed, asking decide for every decision and
// recording the game's events in rec. s must be valid (Settings.Validate);
// the decoder checks that long before a match, so Referee panics otherwise.
// A bot's misbehaviour never ends the game: it gets the default. When ctx
// is cancelled Referee stops and returns ctx's error.
func Referee(ctx context.Context, s Settings, seed uint64, decide Decide, rec drivers.Recorder) (*Result, error) {
	return RefereeSeats(ctx, s, seed, TeamSeats, decide, rec)
}

// TeamSeats is the seat of each position when a match has two seats, one
// a team: seat 0 plays positions 0 and 2, seat 1 positions 1 and 3.
var TeamSeats = [4]int{0, 1, 0, 1}

// RefereeSeats is Referee with the match's seat of each position, as the
// decision and default events record it.
func RefereeSeats(ctx context.Context, s Settings, seed uint64, seats [4]int, decide Decide, rec drivers.Recorder) (*Result, error) {
	if err := s.Validate(); err != nil {
		panic("euchre: Referee with invalid settings: " + err.Error())
	}
	g := &game{ctx: ctx, s: s, seed: seed, seats: seats, decide: decide, rec: rec}
	res := &Result{Winner: -1}
	for res.Hands < s.MaxHands && g.points[0] < s.Target && g.points[1] < s.Target {
		g.hand = res.Hands + 1
		g.playHand((s.FirstDealer + res.Hands) % 4)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Hands++
	}
	res.Points, res.Defaults, res.Decisions, res.Own = g.points, g.defaults, g.decisions, g.own
	switch {
	case g.points[0] > g.points[1]:
		res.Winner = 0
	case g.points[1] > g.points[0]:
		res.Winner = 1
	}
	rec.Event("end", EndEvent{Points: res.Points, Winner: res.Winner, Hands: res.Hands, Defaults: res.Defaults})
	return res, nil
}

// game is the state of a game while Referee runs it.
type game struct {
	ctx    context.Context
	s      Settings
	seed   uint64
	seats  [4]int // the match's seat of each position
	decide Decide
	rec    drivers.Recorder

	points   [2]int
	defaults [4]int
	// decisions asked for and answered by the bot's own answer, by
	// position, trick messages aside (Result.Decisions, Result.Own)
	decisions, own [4]int
	hand           int // number of the hand being played, from 1
}

// ask runs one decision and returns the answer, normalized and valid: the
// bot's own, or the default when check finds a problem with it or the bot
// gave none.
func (g *game) ask(pos int, phase Phase, input string, check func(string) string, def string) string {
	if g.ctx.Err() != nil {
		return def
	}
	if phase != Trick {
		g.decisions[pos]++
	}
	raw, problem := g.decide(g.ctx, pos, phase, input)
	if g.ctx.Err() != nil {
		return def
	}
	g.rec.Event("decision", DecisionEvent{Hand: g.hand, Position: pos, Seat: g.seats[pos], Phase: phase, Input: input, Answer: raw})
	a := Normalize(raw)
	if problem == "" && phase != Trick {
		if a == "" {
			problem = "printed no answer"
		} else {
			problem = check(a)
		}
	}
	if problem == "" {
		if phase != Trick {
			g.own[pos]++
		}
		return a
	}
	g.defaults[pos]++
	g.rec.Event("default", DefaultEvent{Hand: g.hand, Position: pos, Seat: g.seats[pos], Phase: phase,
		Answer: clip(raw), Default: def, Reason: problem})
	return def
}

// clip keeps a garbage answer's record short.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// order is the positions in the order they are asked, from left of dealer.
func order(dealer int) [4]int {
	return [4]int{(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4, dealer}
}

// playHand plays hand number g.hand, dealt by dealer: the deal, the
// bidding, going alone, the five tricks and the score.
func (g *game) playHand(dealer int) {
	d := DealHand(g.seed, g.hand-1, dealer)
	ev := DealEvent{Hand: g.hand, Dealer: dealer, Upcard: d.Upcard.String(), Hands: make([][]string, 4)}
	for p, h := range d.Hands {
		for _, c := range h {
			ev.Hands[p] = append(ev.Hands[p], c.String())
		}
	}
	g.rec.Event("deal", ev)

	maker, trump := g.bid(dealer, &d.Hands, d.Upcard)
	if maker < 0 {
		return
	}
	makers := Team(maker)
	alone, out := g.goAlone(dealer, &d.Hands, maker, trump)
	tricks := g.playTricks(dealer, &d.Hands, trump, out)
	g.score(makers, alone >= 0, tricks)
}

// pts is the game points of position p's team.
func (g *game) pts(p int) int { return g.points[Team(p)] }

// bid runs the bidding: a round of ordering the upcard up (then the
// dealer's discard), and if all pass a round of naming trump. It returns
// the maker and trump, or maker -1 when the hand is thrown in.
func (g *game) bid(dealer int, hands *[4][]Card, up Card) (maker int, trump Suit) {
	var decisions []string
	maker = -1
	for _, p := range order(dealer) {
		in := Input(hands[p], g.pts(p), 0, Ordering, up.String(), strings.Join(decisions, ","))
		a := g.ask(p, Ordering, in, checkOrder, "p")
		decisions = append(decisions, a)
		if a == "o" && maker < 0 {
			maker = p
		}
	}
	g.rec.Event("bidding", BiddingEvent{Hand: g.hand, Round: Ordering, Decisions: decisions, By: maker})
	if maker >= 0 {
		g.discard(dealer, hands, up)
		return maker, up.Suit()
	}
	return g.name(dealer, hands, up)
}

// discard has the dealer pick up the upcard up and discard a card.
func (g *game) discard(dealer int, hands *[4][]Card, up Card) {
	h := hands[dealer]
	in := Input(h, g.pts(dealer), 0, Discard, up.String())
	a := g.ask(dealer, Discard, in, func(a string) string { return checkDiscard(a, h, up) }, h[0].String())
	c, _ := ParseCard(a)
	if c != up {
		hands[dealer] = append(without(h, c), up)
	}
	g.rec.Event("discard", DiscardEvent{Hand: g.hand, Dealer: dealer, Upcard: up.String(), Discarded: c.String()})
}

// name runs the round of naming trump, any suit but the upcard's. It
// returns the maker and trump, or maker -1 when all pass and the hand is
// thrown in.
func (g *game) name(dealer int, hands *[4][]Card, up Card) (maker int, trump Suit) {
	var decisions []string
	maker = -1
	for _, p := range order(dealer) {
		in := Input(hands[p], g.pts(p), 0, Naming, strings.Join(decisions, ","))
		a := g.ask(p, Naming, in, func(a string) string { return checkName(a, up.Suit()) }, "p")
		decisions = append(decisions, a)
		if a != "p" && maker < 0 {
			maker = p
			trump, _ = ParseSuit(a)
		}
	}
	g.rec.Event("bidding", BiddingEvent{Hand: g.hand, Round: Naming, Decisions: decisions, By: maker})
	if maker < 0 {
		g.rec.Event("thrown_in", ThrownInEvent{Hand: g.hand})
	}
	return maker, trump
}

// goAlone asks everyone whether to go alone; the first of the makers'
// team to say yes does, and his partner sits out. It records the trump
// event and returns who plays alone and who sits out, -1 for none.
func (g *game) goAlone(dealer int, hands *[4][]Card, maker int, trump Suit) (alone, out int) {
	makers := Team(maker)
	var decisions []string
	alone, out = -1, -1
	for _, p := range order(dealer) {
		in := Input(hands[p], g.pts(p), 0, Alone, trump.String(), strings.Join(decisions, ","))
		a := g.ask(p, Alone, in, checkAlone, "n")
		decisions = append(decisions, a)
		if a == "y" && alone < 0 && Team(p) == makers {
			alone, out = p, (p+2)%4
		}
	}
	g.rec.Event("trump", TrumpEvent{Hand: g.hand, Trump: trump.String(), Maker: maker, Makers: makers,
		Alone: alone, SitsOut: out, Decisions: decisions})
	return alone, out
}

// playTricks plays the hand's five tricks, out sitting out, and returns
// the tricks each team took.
func (g *game) playTricks(dealer int, hands *[4][]Card, trump Suit, out int) [2]int {
	var tricks [2]int
	leader := (dealer + 1) % 4
	if leader == out {
		leader = (leader + 1) % 4
	}
	for t := 1; t <= 5; t++ {
		trick := g.trick(leader, hands, trump, out, tricks)
		winner := (leader + Winner(trick, trump)) % 4
		tricks[Team(winner)]++
		g.showTrick(t, leader, winner, trick, trump, tricks)
		leader = winner
	}
	return tricks
}

// trick has each player from leader on play a card, out sitting out
// (NoCard), and returns the cards in order of play. The cards played
// leave hands; tricks, those taken so far, are for the players' input.
func (g *game) trick(leader int, hands *[4][]Card, trump Suit, out int, tricks [2]int) []Card {
	trick := make([]Card, 0, 4)
	for i := range 4 {
		p := (leader + i) % 4
		if p == out {
			trick = append(trick, NoCard)
			continue
		}
		first := NoCard
		if len(trick) > 0 {
			first = trick[0]
		}
		h := hands[p]
		legal := Legal(h, trump, first)
		in := Input(h, g.pts(p), tricks[Team(p)], Turn, trump.String(), FormatCards(trick))
		a := g.ask(p, Turn, in, func(a string) string { return checkPlay(a, h, legal, trump, first) }, legal[0].String())
		c, _ := ParseCard(a)
		hands[p] = without(h, c)
		trick = append(trick, c)
	}
	return trick
}

// showTrick records trick number t and shows it to every player (the
// trick phase), with the tricks taken so far.
func (g *game) showTrick(t, leader, winner int, trick []Card, trump Suit, tricks [2]int) {
	cards := make([]string, 4)
	for i, c := range trick {
		cards[i] = c.String()
	}
	g.rec.Event("trick", TrickEvent{Hand: g.hand, Trick: t, Leader: leader, Cards: cards, Winner: winner})
	list := FormatCards(trick)
	for p := range 4 {
		idx := (p - leader + 4) % 4
		in := Input(nil, g.pts(p), tricks[Team(p)], Trick, strconv.Itoa(idx), trump.String(), list)
		g.ask(p, Trick, in, nil, "")
	}
}

// score adds the hand's score to the game points and records it.
func (g *game) score(makers int, alone bool, tricks [2]int) {
	mk, df := HandScore(tricks[makers], alone)
	var scored [2]int
	scored[makers], scored[1-makers] = mk, df
	g.points[0] += scored[0]
	g.points[1] += scored[1]
	g.rec.Event("hand_score", HandScoreEvent{Hand: g.hand, Makers: makers, Alone: alone,
		Tricks: tricks, Scored: scored, Points: g.points})
}
