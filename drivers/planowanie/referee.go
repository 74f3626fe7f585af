package planowanie

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// Player is the referee's view of one bot in a GTP-like session; see
// gtp.Player.
type Player = gtp.Player

// The events Referee records, by kind. Deals and tricks are numbered from 1
// as in the rules; seats from 0 as in the protocol.
type (
	// DealEvent ("deal") opens a deal: the hands, by seat.
	DealEvent struct {
		Deal   int        `json:"deal"`
		Cards  int        `json:"cards"`
		Leader int        `json:"leader"`
		Hands  [][]string `json:"hands"`
	}
	// DeclareEvent ("declare") reveals every declaration of a deal, by seat.
	DeclareEvent struct {
		Deal     int   `json:"deal"`
		Declared []int `json:"declared"`
	}
	// TrickEvent ("trick") is one finished trick. Cards is by seat; the
	// order of play is leader, leader+1, ... round the table.
	TrickEvent struct {
		Deal   int      `json:"deal"`
		Trick  int      `json:"trick"`
		Leader int      `json:"leader"`
		Cards  []string `json:"cards"`
		Winner int      `json:"winner"`
	}
	// DealScoreEvent ("deal_score") closes a deal, by seat. Scores are the
	// game totals after this deal.
	DealScoreEvent struct {
		Deal     int   `json:"deal"`
		Tricks   []int `json:"tricks"`
		Declared []int `json:"declared"`
		Points   []int `json:"points"`
		Scores   []int `json:"scores"`
	}
	// FaultEvent ("fault") is the misbehaviour that ended the match, one
	// for each seat that faulted on the same command, in seat order.
	FaultEvent = gtp.FaultEvent
	// WarningEvent ("warning") is a '?' answer to a command that only
	// informs the bot; the game goes on.
	WarningEvent = gtp.WarningEvent
	// EndEvent ("end") is the final score of a match that was not cancelled,
	// including one a fault ended early.
	EndEvent struct {
		Scores []int `json:"scores"`
	}
)

// Referee plays one match of the game s between players, players[i] in seat
// i, dealing from seed, and records the game's events in rec. s must satisfy
// s.Validate(len(players)); the decoder checks that long before a match, so
// Referee panics otherwise.
//
// A bot's misbehaviour ends the match at once: its seat gets the fault and a
// detail and the last place, nobody else gets a fault and every other seat
// is first (placeAfterFault), and the scores are the points of the deals
// finished before the fault (the deal in progress scores nothing).
// When several bots' answers to the same command (one all seats are told
// at once) are faults, each of them gets its own and they share the last
// places; so do the seats whose declarations of a deal are faults, with
// Settings.DeclarationsTogether (see declare). The bots that did not
// fault are still sent quit.
//
// time_left is sent before gen_declare and gen_move only to a player whose
// Left reports a limited clock: there is no honest number to send for an
// unlimited one, and the protocol lets bots do without it.
//
// When ctx is cancelled Referee stops asking, sends no quit, records no end
// and returns the scores so far; an Ask error after cancellation is taken to
// be the cancellation, not a fault. Seat times are left at zero for the
// caller, which owns the clocks.
func Referee(ctx context.Context, s Settings, seed uint64, players []Player, rec drivers.Recorder) *drivers.Outcome {
	if err := s.Validate(len(players)); err != nil {
		panic("planowanie: Referee with invalid settings: " + err.Error())
	}
	m := &match{
		Match:  gtp.NewMatch(ctx, players, rec),
		s:      s,
		seed:   seed,
		scores: make([]int, len(players)),
	}
	_ = m.play() // how it ended is already in m
	if ctx.Err() == nil {
		m.Quit()
		rec.Event("end", EndEvent{Scores: slices.Clone(m.scores)})
	}
	for i, sc := range m.scores {
		m.Results[i].Score = float64(sc)
	}
	out := &drivers.Outcome{Seats: m.Results}
	placeAfterFault(out)
	return out
}

// placeAfterFault places the seats of a match that faults ended, as the
// contest's rules say: "the faulty bot loses; every other bot is a
// winner". Every other seat is first, the faulty one last; seats that
// faulted together share the last places (gtp.PlaceFaulty). The scores
// stay the points of the deals finished before the fault. It does
// nothing when no seat has a fault.
func placeAfterFault(out *drivers.Outcome) { gtp.PlaceFaulty(out.Seats) }

// match is the state of one match while Referee runs it.
type match struct {
	gtp.Match
	s    Settings
	seed uint64

	scores []int
}

func (m *match) play() error {
	n := len(m.Players)
	d := m.s.Deck
	game := []string{"set_game", strconv.Itoa(len(m.s.Deals))}
	for _, spec := range m.s.Deals {
		game = append(game, strconv.Itoa(spec.Cards), strconv.Itoa(spec.Leader))
	}
	setGame := strings.Join(game, " ")
	if err := m.TellAllBefore(-1, "",
		func(int) string { return "set_deck " + d.Ranks + " " + d.Suits },
		func(i int) string { return fmt.Sprintf("set_players %d %d", n, i) },
		func(int) string { return setGame }); err != nil {
		return err
	}
	for k, spec := range m.s.Deals {
		if err := m.deal(k, spec); err != nil {
			return err
		}
	}
	return nil
}

func (m *match) deal(k int, spec DealSpec) error {
	m.Where = fmt.Sprintf(" in deal %d", k+1)
	hands, err := m.dealHands(k, spec)
	if err != nil {
		return err
	}
	declared, err := m.declare(k, spec)
	if err != nil {
		return err
	}
	tricks := make([]int, len(m.Players))
	leader := spec.Leader
	for t := range spec.Cards {
		m.Where = fmt.Sprintf(" in deal %d, trick %d", k+1, t+1)
		winner, err := m.trick(k, t, leader, hands, t < spec.Cards-1)
		if err != nil {
			return err
		}
		tricks[winner]++
		leader = winner
	}
	m.score(k, spec, tricks, declared)
	return nil
}

// dealHands deals deal k's hands, records them and sends each player its
// own.
func (m *match) dealHands(k int, spec DealSpec) ([][]Card, error) {
	n := len(m.Players)
	hands := Hands(m.s.Deck, m.seed, k, n, spec.Cards)
	ev := DealEvent{Deal: k + 1, Cards: spec.Cards, Leader: spec.Leader, Hands: make([][]string, n)}
	for i, h := range hands {
		for _, c := range h {
			ev.Hands[i] = append(ev.Hands[i], c.String())
		}
	}
	m.Rec.Event("deal", ev)
	// Seat 0 declares first: its gen_declare goes out with its hand.
	if err := m.TellAllBefore(0, "gen_declare", func(i int) string {
		return fmt.Sprintf("set_cards %d %s", spec.Cards, FormatCards(hands[i]))
	}); err != nil {
		return nil, err
	}
	return hands, nil
}

// declare asks every player, in seat order, for its declaration of deal
// k, records them, and tells them all to every player: the declarations
// go to all players at once, in seat order of the declarer, with the
// leader's first gen_move. With Settings.DeclarationsTogether a faulty
// declaration ends the match only once every seat has declared.
func (m *match) declare(k int, spec DealSpec) ([]int, error) {
	declared := make([]int, len(m.Players))
	var over error
	for i := range m.Players {
		l, err := m.declaration(i, spec)
		if err != nil {
			if !m.s.DeclarationsTogether || m.Ctx.Err() != nil {
				return nil, err
			}
			// Judged, the bot is ended, so that what it still runs
			// takes nothing from the seats after it, which declare too.
			m.Kill(i)
			over = err
			continue
		}
		declared[i] = l
	}
	if over != nil {
		return nil, over
	}
	m.Rec.Event("declare", DeclareEvent{Deal: k + 1, Declared: slices.Clone(declared)})
	tell := make([]func(int) string, len(declared))
	for i, l := range declared {
		cmd := fmt.Sprintf("declare %d %d", i, l)
		tell[i] = func(int) string { return cmd }
	}
	if err := m.TellAllBefore(spec.Leader, "gen_move", tell...); err != nil {
		return nil, err
	}
	return declared, nil
}

// declaration asks seat i for its declaration in a deal of spec and
// judges it: an error is the fault it recorded (or the match's end).
func (m *match) declaration(i int, spec DealSpec) (int, error) {
	text, err := m.Gen(i, "gen_declare")
	if err != nil {
		return 0, err
	}
	l, problem := parseDeclaration(text, spec.Cards)
	if problem != "" {
		return 0, m.AnswerFault(i, drivers.FaultIllegal, problem+m.Where)
	}
	return l, nil
}

// trick plays trick t of deal k, led by leader: each player in turn is
// asked for a card, which leaves its hand and is told to everyone. It
// records the trick and returns its winner. The next player's gen_move
// goes out with each play (gtp.Match.TellAllBefore), the winner's with
// the trick's last when another trick follows (more).
func (m *match) trick(k, t, leader int, hands [][]Card, more bool) (int, error) {
	n := len(m.Players)
	d := m.s.Deck
	trick := make([]Card, 0, n)
	bySeat := make([]string, n)
	winner := -1
	for p := range n {
		seat := (leader + p) % n
		text, err := m.Gen(seat, "gen_move")
		if err != nil {
			return 0, err
		}
		var led byte
		if len(trick) > 0 {
			led = trick[0].Suit
		}
		c, problem := checkCard(d, text, hands[seat], led)
		if problem != "" {
			return 0, m.AnswerFault(seat, drivers.FaultIllegal, problem+m.Where)
		}
		hands[seat] = slices.DeleteFunc(hands[seat], func(h Card) bool { return h == c })
		trick = append(trick, c)
		bySeat[seat] = c.String()
		next := (seat + 1) % n
		if p == n-1 {
			winner = (leader + d.Winner(trick)) % n
			next = winner
			if !more {
				next = -1
			}
		}
		play := fmt.Sprintf("play %d %s", seat, c)
		if err := m.TellAllBefore(next, "gen_move", func(int) string { return play }); err != nil {
			return 0, err
		}
	}
	m.Rec.Event("trick", TrickEvent{Deal: k + 1, Trick: t + 1, Leader: leader, Cards: bySeat, Winner: winner})
	return winner, nil
}

// score adds deal k's points to the match scores and records them.
func (m *match) score(k int, spec DealSpec, tricks, declared []int) {
	points := make([]int, len(m.Players))
	for i := range points {
		points[i] = DealScore(tricks[i], declared[i], spec.Cards)
		m.scores[i] += points[i]
	}
	m.Rec.Event("deal_score", DealScoreEvent{
		Deal: k + 1, Tricks: tricks, Declared: declared, Points: points, Scores: slices.Clone(m.scores),
	})
}

// parseDeclaration reads an answer to gen_declare; problem says what is
// wrong with it, or is empty.
func parseDeclaration(text string, cards int) (l int, problem string) {
	digits := strings.TrimPrefix(text, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Sprintf("declared %q, which is not a whole number of tricks", gtp.Clip(text))
	}
	l, err := strconv.Atoi(text)
	if err != nil || l < 0 || l > cards {
		return 0, fmt.Sprintf("declared %s, but a declaration must be between 0 and %d", gtp.Clip(text), cards)
	}
	return l, ""
}

// checkCard reads an answer to gen_move from a player holding hand, led
// being the led suit or 0; problem says what is wrong with it, or is empty.
func checkCard(d Deck, text string, hand []Card, led byte) (c Card, problem string) {
	c, ok := d.Parse(text)
	switch {
	case !ok && len(text) != 2:
		return c, fmt.Sprintf("answered gen_move with %q, which is not a card (a card is a rank then a suit, like %c%c)", gtp.Clip(text), d.Ranks[len(d.Ranks)-1], d.Suits[0])
	case !ok:
		return c, fmt.Sprintf("played %s, which is not a card of the deck (ranks %s, suits %s)", text, d.Ranks, d.Suits)
	case !slices.Contains(hand, c):
		return c, fmt.Sprintf("played %s, which is not in its hand (holds %s)", c, FormatCards(hand))
	}
	if legal := Legal(hand, led); !slices.Contains(legal, c) {
		return c, fmt.Sprintf("played %s but must follow suit %c (holds %s)", c, led, FormatCards(legal))
	}
	return c, ""
}
