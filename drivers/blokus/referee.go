package blokus

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Player is the referee's view of one bot in a GTP-like session.
type Player interface {
	// Ask writes one command line and reads the bot's full response (a line
	// starting with '=' or '?', then lines up to an empty line). ok is true
	// for '='; text is the response after the sign, trimmed. The bot's
	// clock is charged inside Ask.
	//
	// A non-nil error is a fault that ends the match. Its kind comes from
	// a FaultKind() string method anywhere in the error's chain (one of
	// drivers.FaultTime, FaultCrash, FaultProtocol); an error without one
	// is a crash.
	Ask(cmd string) (ok bool, text string, err error)
	// Left is the time the bot has for its next answer; ok is false when
	// it is unlimited.
	Left() (left time.Duration, ok bool)
}

// The events Referee records, by kind. Players are numbered 1 and 2 as in
// the protocol (seat 0 is player 1); cells are [row, col].
type (
	// BoardEvent ("board") opens the match: the board and the stone set.
	BoardEvent struct {
		Rows   int     `json:"rows"`
		Cols   int     `json:"cols"`
		Filled []Cell  `json:"filled,omitempty"`
		Stones []Stone `json:"stones"`
	}
	// MoveEvent ("move") is one turn: a stone placed, or a pass.
	MoveEvent struct {
		Turn   int    `json:"turn"`
		Player int    `json:"player"`
		Pass   bool   `json:"pass,omitempty"`
		Stone  string `json:"stone,omitempty"`
		Cells  []Cell `json:"cells,omitempty"`
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
	// EndEvent ("end") is the final score of a match that was not
	// cancelled, by seat, with why it ended: "all placed" (a player placed
	// all its stones), "no moves" (neither player can move) or "fault".
	EndEvent struct {
		Reason string `json:"reason"`
		Scores []int  `json:"scores"`
		Placed []int  `json:"placed"` // stones placed
		Left   []int  `json:"left"`   // cells not placed
	}
)

// Referee plays one match of s between players[0] (player 1) and
// players[1] (player 2), the board's random cells drawn from seed, and
// records the game's events in rec. s must be valid (the decoder checks);
// Referee panics otherwise.
//
// Player 1 moves first; then they alternate. A player that cannot place
// any stone is still asked for a move and must answer pass; the referee
// proves every pass by searching for a placement, and a pass while one
// exists is illegal. The game ends when a player has placed all its
// stones or neither can move (then nobody is asked).
//
// Scores are 20 for placing every stone, minus the cells of the stones
// not placed. Places: the higher score is first, equal scores share 1.5.
// A fault ends the match at once: both keep the score of the board as it
// stands, and the faulty seat is placed second whatever the scores, so it
// loses; the other bot is still sent quit.
//
// When ctx is cancelled Referee stops asking, sends no quit, records no
// end and returns the scores so far.
func Referee(ctx context.Context, s Settings, seed uint64, players []Player, rec drivers.Recorder) *drivers.Outcome {
	if len(players) != 2 {
		panic("blokus: Referee needs two players")
	}
	rules, err := s.Rules(seed)
	if err != nil {
		panic("blokus: Referee with invalid settings: " + err.Error())
	}
	m := &match{ctx: ctx, rules: rules, pos: NewPosition(rules), players: players, rec: rec,
		faulty: -1, results: make([]drivers.SeatResult, 2)}
	_ = m.play() // how it ended is already in m
	scores := []int{m.pos.Score(0), m.pos.Score(1)}
	if ctx.Err() == nil {
		m.quit()
		reason := m.reason
		if m.faulty >= 0 {
			reason = "fault"
		}
		rec.Event("end", EndEvent{Reason: reason, Scores: scores,
			Placed: []int{m.pos.placed[0], m.pos.placed[1]}, Left: []int{m.pos.Left(0), m.pos.Left(1)}})
	}
	for i, sc := range scores {
		m.results[i].Score = float64(sc)
	}
	switch {
	case m.faulty >= 0:
		m.results[m.faulty].Place, m.results[1-m.faulty].Place = 2, 1
	case scores[0] > scores[1]:
		m.results[0].Place, m.results[1].Place = 1, 2
	case scores[0] < scores[1]:
		m.results[0].Place, m.results[1].Place = 2, 1
	default:
		m.results[0].Place, m.results[1].Place = 1.5, 1.5
	}
	return &drivers.Outcome{Seats: m.results}
}

// errOver unwinds a match that a fault or a cancellation has ended.
var errOver = errors.New("match over")

type match struct {
	ctx     context.Context
	rules   *Rules
	pos     *Position
	players []Player
	rec     drivers.Recorder

	turn    int
	reason  string
	faulty  int
	results []drivers.SeatResult
	where   string
}

func (m *match) play() error {
	r := m.rules
	m.rec.Event("board", BoardEvent{Rows: r.rows, Cols: r.cols, Filled: r.blocked, Stones: r.stones})
	if err := m.tellAll(func(int) string { return fmt.Sprintf("set_board %d %d", r.rows, r.cols) }); err != nil {
		return err
	}
	if err := m.tellAll(func(i int) string { return "set_player " + strconv.Itoa(i+1) }); err != nil {
		return err
	}
	stones := []string{"set_stones", strconv.Itoa(len(r.stones))}
	for _, s := range r.stones {
		stones = append(stones, FormatStone(s.Cells))
	}
	setStones := strings.Join(stones, " ")
	if err := m.tellAll(func(int) string { return setStones }); err != nil {
		return err
	}
	if len(r.blocked) > 0 {
		cmd := fmt.Sprintf("set_blocked %d %s", len(r.blocked), FormatCells(r.blocked))
		if err := m.tellAll(func(int) string { return cmd }); err != nil {
			return err
		}
	}
	for pl := 0; ; pl = 1 - pl {
		if m.pos.Done(1 - pl) {
			m.reason = "all placed"
			return nil
		}
		if !m.pos.HasMove(pl) && !m.pos.HasMove(1-pl) {
			m.reason = "no moves"
			return nil
		}
		if err := m.move(pl); err != nil {
			return err
		}
	}
}

// move asks player pl for its move, checks it and tells both players.
func (m *match) move(pl int) error {
	m.turn++
	m.where = fmt.Sprintf(" on turn %d", m.turn)
	text, err := m.gen(pl)
	if err != nil {
		return err
	}
	ev := MoveEvent{Turn: m.turn, Player: pl + 1}
	var play string
	if strings.EqualFold(text, "pass") {
		if alt, ok := m.pos.FirstMove(pl); ok {
			return m.fault(pl, drivers.FaultIllegal, fmt.Sprintf("passed, but could place stone %s on %s%s",
				m.rules.stones[m.rules.shapes[alt.Shape].stones[0]].Name, FormatCells(m.rules.Cells(alt)), m.where))
		}
		ev.Pass = true
		play = fmt.Sprintf("play %d pass", pl+1)
	} else {
		cells, err := ParseCells(text)
		if err != nil {
			return m.fault(pl, drivers.FaultProtocol, fmt.Sprintf("answered gen_move with %q, which is neither cells row,col nor pass%s", truncate(text), m.where))
		}
		pm, problem := m.pos.Check(pl, cells)
		if problem != "" {
			return m.fault(pl, drivers.FaultIllegal, problem+m.where)
		}
		stone := m.pos.Apply(pl, pm)
		ev.Stone = m.rules.stones[stone].Name
		ev.Cells = m.rules.Cells(pm)
		play = fmt.Sprintf("play %d %s", pl+1, FormatCells(ev.Cells))
	}
	m.rec.Event("move", ev)
	return m.tellAll(func(int) string { return play })
}

// quit ends the session of every bot that did not fault.
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

// gen asks a bot for its move, telling it its time first; a refusal is a
// protocol fault, since the game cannot go on without the answer.
func (m *match) gen(seat int) (string, error) {
	if left, ok := m.players[seat].Left(); ok {
		if err := m.tell(seat, fmt.Sprintf("time_left %d", max(left.Milliseconds(), 0))); err != nil {
			return "", err
		}
	}
	ok, text, err := m.ask(seat, "gen_move")
	if err != nil {
		return "", err
	}
	if !ok {
		return "", m.fault(seat, drivers.FaultProtocol, fmt.Sprintf("answered ? to gen_move (%q)%s", truncate(text), m.where))
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

// truncate keeps details short when a bot answers with a flood.
func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
