package blokus

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// Player is the referee's view of one bot in a GTP-like session; see
// gtp.Player.
type Player = gtp.Player

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
	// FaultEvent ("fault") is the misbehaviour that ended the match, one
	// for each player that faulted on the same command, in seat order.
	FaultEvent = gtp.FaultEvent
	// WarningEvent ("warning") is a '?' answer to a command that only
	// informs the bot; the game goes on.
	WarningEvent = gtp.WarningEvent
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
// loses; the other bot is still sent quit. When both players' answers to
// the same command (one both are told at once, like the set-up) are
// faults, each gets its own and they share the places, 1.5 each: neither
// wins (gtp.PlaceFaulty).
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
	m := &match{Match: gtp.NewMatch(ctx, players, rec), rules: rules, pos: NewPosition(rules)}
	m.MaxQuote = 200
	_ = m.play() // how it ended is already in m
	scores := []int{m.pos.Score(0), m.pos.Score(1)}
	if ctx.Err() == nil {
		m.Quit()
		reason := m.reason
		if len(m.Faulty) > 0 {
			reason = "fault"
		}
		rec.Event("end", EndEvent{Reason: reason, Scores: scores,
			Placed: []int{m.pos.Placed(0), m.pos.Placed(1)}, Left: []int{m.pos.Left(0), m.pos.Left(1)}})
	}
	for i, sc := range scores {
		m.Results[i].Score = float64(sc)
	}
	switch {
	case len(m.Faulty) > 0:
		gtp.PlaceFaulty(m.Results)
	case scores[0] > scores[1]:
		m.Results[0].Place, m.Results[1].Place = 1, 2
	case scores[0] < scores[1]:
		m.Results[0].Place, m.Results[1].Place = 2, 1
	default:
		m.Results[0].Place, m.Results[1].Place = 1.5, 1.5
	}
	return &drivers.Outcome{Seats: m.Results}
}

type match struct {
	gtp.Match
	rules *Rules
	pos   *Position

	turn   int
	moves  [2]int // each player's moves so far, passes included
	reason string
}

func (m *match) play() error {
	r := m.rules
	m.Rec.Event("board", BoardEvent{Rows: r.Rows(), Cols: r.Cols(), Filled: r.Blocked(), Stones: r.Stones()})
	stones := []string{"set_stones", strconv.Itoa(len(r.Stones()))}
	for _, s := range r.Stones() {
		stones = append(stones, FormatStone(s.Cells))
	}
	setStones := strings.Join(stones, " ")
	setup := []func(int) string{
		func(int) string { return fmt.Sprintf("set_board %d %d", r.Rows(), r.Cols()) },
		func(i int) string { return "set_player " + strconv.Itoa(i+1) },
		func(int) string { return setStones },
	}
	if len(r.Blocked()) > 0 {
		cmd := fmt.Sprintf("set_blocked %d %s", len(r.Blocked()), FormatCells(r.Blocked()))
		setup = append(setup, func(int) string { return cmd })
	}
	// The set-up goes out at once, with player 1's first gen_move.
	first := 0
	if m.reason = m.over(0); m.reason != "" {
		first = -1
	}
	if err := m.TellAllBefore(first, "gen_move", setup...); err != nil {
		return err
	}
	for pl := 0; m.reason == ""; pl = 1 - pl {
		if err := m.move(pl); err != nil {
			return err
		}
	}
	return nil
}

// over says why the game is over before player pl's turn: "all placed",
// "no moves", or "" while it goes on.
func (m *match) over(pl int) string {
	switch {
	case m.pos.Done(1 - pl):
		return "all placed"
	case !m.pos.HasMove(pl) && !m.pos.HasMove(1-pl):
		return "no moves"
	}
	return ""
}

// move asks player pl for its move, checks it and tells both players,
// and the next player its turn with it (gtp.Match.TellAllBefore) unless
// the move ended the game (reason).
func (m *match) move(pl int) error {
	m.turn++
	m.moves[pl]++
	// The game's turn, as the transcript's move events number it, and
	// the player's own count, which its author knows.
	m.Where = fmt.Sprintf(" on turn %d (its move %d)", m.turn, m.moves[pl])
	text, err := m.Gen(pl, "gen_move")
	if err != nil {
		return err
	}
	ev := MoveEvent{Turn: m.turn, Player: pl + 1}
	var play string
	if strings.EqualFold(text, "pass") {
		if alt, ok := m.pos.FirstMove(pl); ok {
			return m.AnswerFault(pl, drivers.FaultIllegal, fmt.Sprintf("passed, but could place stone %s on %s%s",
				m.rules.StoneOf(alt).Name, FormatCells(m.rules.Cells(alt)), m.Where))
		}
		ev.Pass = true
		play = fmt.Sprintf("play %d pass", pl+1)
	} else {
		cells, err := ParseCells(text)
		if err != nil {
			return m.AnswerFault(pl, drivers.FaultProtocol, fmt.Sprintf("answered gen_move with %q, which is neither cells row,col nor pass%s", gtp.Clip(text), m.Where))
		}
		pm, problem := m.pos.Check(pl, cells)
		if problem != "" {
			return m.AnswerFault(pl, drivers.FaultIllegal, problem+m.Where)
		}
		stone := m.pos.Apply(pl, pm)
		ev.Stone = m.rules.Stones()[stone].Name
		ev.Cells = m.rules.Cells(pm)
		play = fmt.Sprintf("play %d %s", pl+1, FormatCells(ev.Cells))
	}
	m.Rec.Event("move", ev)
	next := 1 - pl
	if m.reason = m.over(next); m.reason != "" {
		next = -1
	}
	return m.TellAllBefore(next, "gen_move", func(int) string { return play })
}
