package planowanie

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Player is the referee's view of one bot in a GTP-like session.
type Player interface {
	// Ask writes one command line and reads the bot's full response (a line
	// starting with '=' or '?', then lines up to an empty line). ok is true
	// for '='; text is the response after the sign, trimmed. The bot's clock
	// is charged inside Ask.
	//
	// A non-nil error is a fault that ends the match. Its kind comes from a
	// FaultKind() string method anywhere in the error's chain (one of
	// drivers.FaultTime, FaultCrash, FaultProtocol); an error without one is
	// a crash.
	Ask(cmd string) (ok bool, text string, err error)
	// Left is the bot's remaining clock; ok is false when the clock is
	// unlimited.
	Left() (left time.Duration, ok bool)
}

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
	// FaultEvent ("fault") is the misbehaviour that ended the match.
	FaultEvent struct {
		Seat   int    `json:"seat"`
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	// WarningEvent ("warning") is a '?' answer to a command that only
	// informs the bot; the game goes on.
	WarningEvent struct {
		Seat    int    `json:"seat"`
		Command string `json:"command"`
		Answer  string `json:"answer"`
	}
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
// detail, nobody else gets a fault, and the scores are the points of the
// deals finished before the fault (the deal in progress scores nothing).
// The bots that did not fault are still sent quit.
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
		ctx:     ctx,
		s:       s,
		seed:    seed,
		players: players,
		rec:     rec,
		scores:  make([]int, len(players)),
		faulty:  -1,
		results: make([]drivers.SeatResult, len(players)),
	}
	_ = m.play() // how it ended is already in m
	if ctx.Err() == nil {
		m.quit()
		rec.Event("end", EndEvent{Scores: slices.Clone(m.scores)})
	}
	for i, sc := range m.scores {
		m.results[i].Score = float64(sc)
	}
	return &drivers.Outcome{Seats: m.results}
}

// errOver unwinds a match that a fault or a cancellation has ended; what
// happened is already in the match.
var errOver = errors.New("match over")

// match is the state of one match while Referee runs it.
type match struct {
	ctx     context.Context
	s       Settings
	seed    uint64
	players []Player
	rec     drivers.Recorder

	scores  []int
	faulty  int
	results []drivers.SeatResult
	// where says which part of the game is being played, for details.
	where string
}

func (m *match) play() error {
	n := len(m.players)
	d := m.s.Deck
	if err := m.tellAll(func(int) string { return "set_deck " + d.Ranks + " " + d.Suits }); err != nil {
		return err
	}
	if err := m.tellAll(func(i int) string { return fmt.Sprintf("set_players %d %d", n, i) }); err != nil {
		return err
	}
	game := []string{"set_game", strconv.Itoa(len(m.s.Deals))}
	for _, spec := range m.s.Deals {
		game = append(game, strconv.Itoa(spec.Cards), strconv.Itoa(spec.Leader))
	}
	setGame := strings.Join(game, " ")
	if err := m.tellAll(func(int) string { return setGame }); err != nil {
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
	n := len(m.players)
	d := m.s.Deck
	m.where = fmt.Sprintf(" in deal %d", k+1)
	hands := Hands(d, m.seed, k, n, spec.Cards)
	ev := DealEvent{Deal: k + 1, Cards: spec.Cards, Leader: spec.Leader, Hands: make([][]string, n)}
	for i, h := range hands {
		for _, c := range h {
			ev.Hands[i] = append(ev.Hands[i], c.String())
		}
	}
	m.rec.Event("deal", ev)
	if err := m.tellAll(func(i int) string {
		return fmt.Sprintf("set_cards %d %s", spec.Cards, FormatCards(hands[i]))
	}); err != nil {
		return err
	}

	declared := make([]int, n)
	for i := range m.players {
		text, err := m.gen(i, "gen_declare")
		if err != nil {
			return err
		}
		l, problem := parseDeclaration(text, spec.Cards)
		if problem != "" {
			return m.fault(i, drivers.FaultIllegal, problem+m.where)
		}
		declared[i] = l
	}
	m.rec.Event("declare", DeclareEvent{Deal: k + 1, Declared: slices.Clone(declared)})
	for j := range m.players {
		for i, l := range declared {
			if err := m.tell(j, fmt.Sprintf("declare %d %d", i, l)); err != nil {
				return err
			}
		}
	}

	tricks := make([]int, n)
	leader := spec.Leader
	for t := range spec.Cards {
		m.where = fmt.Sprintf(" in deal %d, trick %d", k+1, t+1)
		trick := make([]Card, 0, n)
		bySeat := make([]string, n)
		for p := range n {
			seat := (leader + p) % n
			text, err := m.gen(seat, "gen_move")
			if err != nil {
				return err
			}
			var led byte
			if len(trick) > 0 {
				led = trick[0].Suit
			}
			c, problem := checkCard(d, text, hands[seat], led)
			if problem != "" {
				return m.fault(seat, drivers.FaultIllegal, problem+m.where)
			}
			hands[seat] = slices.DeleteFunc(hands[seat], func(h Card) bool { return h == c })
			trick = append(trick, c)
			bySeat[seat] = c.String()
			play := fmt.Sprintf("play %d %s", seat, c)
			if err := m.tellAll(func(int) string { return play }); err != nil {
				return err
			}
		}
		winner := (leader + d.Winner(trick)) % n
		tricks[winner]++
		m.rec.Event("trick", TrickEvent{Deal: k + 1, Trick: t + 1, Leader: leader, Cards: bySeat, Winner: winner})
		leader = winner
	}

	points := make([]int, n)
	for i := range points {
		points[i] = DealScore(tricks[i], declared[i], spec.Cards)
		m.scores[i] += points[i]
	}
	m.rec.Event("deal_score", DealScoreEvent{
		Deal: k + 1, Tricks: tricks, Declared: declared, Points: points, Scores: slices.Clone(m.scores),
	})
	return nil
}

// quit ends the session of every bot that did not fault. Its answers no
// longer matter: the game is over.
func (m *match) quit() {
	m.where = ""
	for i, p := range m.players {
		if i == m.faulty || m.ctx.Err() != nil {
			continue
		}
		if ok, text, err := p.Ask("quit"); err == nil && !ok {
			m.warn(i, "quit", text)
		}
	}
}

// ask is Player.Ask that turns an error into the fault that ends the match.
func (m *match) ask(seat int, cmd string) (ok bool, text string, err error) {
	if m.ctx.Err() != nil {
		return false, "", errOver
	}
	ok, text, err = m.players[seat].Ask(cmd)
	if err != nil {
		if m.ctx.Err() != nil {
			return false, "", errOver
		}
		name, _, _ := strings.Cut(cmd, " ")
		return false, "", m.fault(seat, faultKind(err), fmt.Sprintf("%s, answering %s%s", faultDetail(err), name, m.where))
	}
	return ok, text, nil
}

// tell sends a command that only informs the bot; a refusal is a warning.
func (m *match) tell(seat int, cmd string) error {
	ok, text, err := m.ask(seat, cmd)
	if err != nil {
		return err
	}
	if !ok {
		name, _, _ := strings.Cut(cmd, " ")
		m.warn(seat, name, text)
	}
	return nil
}

func (m *match) tellAll(cmd func(seat int) string) error {
	for i := range m.players {
		if err := m.tell(i, cmd(i)); err != nil {
			return err
		}
	}
	return nil
}

// gen asks a bot for a decision, telling it its clock first; a refusal is
// a protocol fault, since the game cannot go on without the answer.
func (m *match) gen(seat int, cmd string) (string, error) {
	if left, ok := m.players[seat].Left(); ok {
		if err := m.tell(seat, fmt.Sprintf("time_left %d", max(left.Milliseconds(), 0))); err != nil {
			return "", err
		}
	}
	ok, text, err := m.ask(seat, cmd)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", m.fault(seat, drivers.FaultProtocol, fmt.Sprintf("answered ? to %s (%q)%s", cmd, text, m.where))
	}
	return text, nil
}

func (m *match) fault(seat int, kind, detail string) error {
	m.faulty = seat
	m.results[seat].Fault = kind
	m.results[seat].Detail = detail
	m.rec.Event("fault", FaultEvent{Seat: seat, Kind: kind, Detail: detail})
	return errOver
}

func (m *match) warn(seat int, command, answer string) {
	m.rec.Event("warning", WarningEvent{Seat: seat, Command: command, Answer: answer})
}

func faultKind(err error) string {
	var k interface{ FaultKind() string }
	if errors.As(err, &k) {
		if kind := k.FaultKind(); kind != "" {
			return kind
		}
	}
	return drivers.FaultCrash
}

// faultDetail is the sentence of a fault error without its kind, which
// the result already carries.
func faultDetail(err error) string {
	var d interface{ FaultDetail() string }
	if errors.As(err, &d) {
		return d.FaultDetail()
	}
	return err.Error()
}

// parseDeclaration reads an answer to gen_declare; problem says what is
// wrong with it, or is empty.
func parseDeclaration(text string, cards int) (l int, problem string) {
	digits := strings.TrimPrefix(text, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Sprintf("declared %q, which is not a whole number of tricks", text)
	}
	l, err := strconv.Atoi(text)
	if err != nil || l < 0 || l > cards {
		return 0, fmt.Sprintf("declared %s, but a declaration must be between 0 and %d", text, cards)
	}
	return l, ""
}

// checkCard reads an answer to gen_move from a player holding hand, led
// being the led suit or 0; problem says what is wrong with it, or is empty.
func checkCard(d Deck, text string, hand []Card, led byte) (c Card, problem string) {
	c, ok := d.Parse(text)
	switch {
	case !ok && len(text) != 2:
		return c, fmt.Sprintf("answered gen_move with %q, which is not a card (a card is a rank then a suit, like %c%c)", text, d.Ranks[len(d.Ranks)-1], d.Suits[0])
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
