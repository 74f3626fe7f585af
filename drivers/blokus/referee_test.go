package blokus

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
	"github.com/arbiter-contests/arbiter/drivers/board"
	core "github.com/arbiter-contests/arbiter/drivers/house/blokus"
	"github.com/google/go-cmp/cmp"
)

// firstLegal places the first legal placement: a predictable partner for
// scripted tests.
func firstLegal(moves []Placement) Placement { return moves[0] }

// scripted is a fake Player for referee tests: it keeps a bot's table, so
// it follows the game; it answers gen_move from moves while there are any,
// then like firstLegal, and script may take over any answer (the table
// still takes in the command).
type scripted struct {
	t      core.Table
	moves  []string
	script func(cmd string) (ok bool, text string, err error, done bool)
	cmds   []string
}

func newScripted(moves ...string) *scripted {
	return &scripted{t: core.NewTable(), moves: moves}
}

func (p *scripted) Ask(cmd string) (bool, string, error) {
	p.cmds = append(p.cmds, cmd)
	if p.script != nil {
		if ok, text, err, done := p.script(cmd); done {
			if cmd != "gen_move" {
				// The bot still follows the game it refused to confirm.
				_, _ = p.t.Handle(strings.Fields(cmd), firstLegal)
			}
			return ok, text, err
		}
	}
	if cmd == "gen_move" && len(p.moves) > 0 {
		mv := p.moves[0]
		p.moves = p.moves[1:]
		return true, mv, nil
	}
	text, err := p.t.Handle(strings.Fields(cmd), firstLegal)
	if err != nil {
		return false, err.Error(), nil
	}
	return true, text, nil
}

func (p *scripted) Left() (time.Duration, bool) { return 2 * time.Second, true }

// on answers the first command named name with the given answer.
func on(name string, ok bool, text string, err error) func(string) (bool, string, error, bool) {
	fired := false
	return func(cmd string) (bool, string, error, bool) {
		if fired || !strings.HasPrefix(cmd+" ", name+" ") {
			return false, "", nil, false
		}
		fired = true
		return ok, text, err, true
	}
}

func settingsOf(t *testing.T, rows, cols int, filled []board.Cell, stones ...string) Settings {
	return Settings{Board: board.Spec{Rows: rows, Cols: cols, Filled: filled}, Stones: stonesOf(t, stones...)}
}

func TestRefereeGames(t *testing.T) {
	tests := []struct {
		name       string
		s          Settings
		moves      [2][]string // answers to gen_move, by seat
		wantReason string
		wantScores []int
		wantPlaces []float64
		wantMoves  []string // "1: cells" or "2: pass", in order
	}{
		{
			name: "placing every stone ends the game at once", s: settingsOf(t, 5, 5, nil, "0,0"),
			wantReason: "all placed", wantScores: []int{20, -1}, wantPlaces: []float64{1, 2},
			wantMoves: []string{"1: 4,0"},
		},
		{
			name: "the game ends when neither player can move; equal scores draw", s: settingsOf(t, 3, 3, nil, "0,0;1,0;0,1", "0,0"),
			moves:      [2][]string{{"2,0 1,0 2,1"}, {"0,2 0,1 1,2"}},
			wantReason: "no moves", wantScores: []int{-1, -1}, wantPlaces: []float64{1.5, 1.5},
			wantMoves: []string{"1: 1,0 2,0 2,1", "2: 0,1 0,2 1,2"},
		},
		{
			name: "a stuck player passes and the other goes on", s: settingsOf(t, 3, 4, []board.Cell{{X: 1, Y: 1}}, "0,0", "0,0;1,0"),
			moves:      [2][]string{{"2,0", "pass"}, {"0,3", "1,2 2,2"}},
			wantReason: "all placed", wantScores: []int{-2, 20}, wantPlaces: []float64{2, 1},
			wantMoves: []string{"1: 2,0", "2: 0,3", "1: pass", "2: 1,2 2,2"},
		},
		{
			name: "a stuck player may spell pass in capitals", s: settingsOf(t, 3, 4, []board.Cell{{X: 1, Y: 1}}, "0,0", "0,0;1,0"),
			moves:      [2][]string{{"2,0", "PASS"}, {"0,3", "1,2 2,2"}},
			wantReason: "all placed", wantScores: []int{-2, 20}, wantPlaces: []float64{2, 1},
			wantMoves: []string{"1: 2,0", "2: 0,3", "1: pass", "2: 1,2 2,2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := []*scripted{newScripted(tt.moves[0]...), newScripted(tt.moves[1]...)}
			rec := &events{}
			out := Referee(t.Context(), tt.s, 1, []Player{ps[0], ps[1]}, rec)
			for i, s := range out.Seats {
				if s.Fault != "" {
					t.Fatalf("seat %d: fault %s: %s", i, s.Fault, s.Detail)
				}
			}
			end := rec.of("end")
			if len(end) != 1 {
				t.Fatalf("%d end events", len(end))
			}
			e := end[0].(EndEvent)
			if e.Reason != tt.wantReason || !slices.Equal(e.Scores, tt.wantScores) {
				t.Errorf("end = %+v, want reason %q scores %v", e, tt.wantReason, tt.wantScores)
			}
			var scores []int
			var places []float64
			for _, s := range out.Seats {
				scores = append(scores, int(s.Score))
				places = append(places, s.Place)
			}
			if !slices.Equal(scores, tt.wantScores) || !slices.Equal(places, tt.wantPlaces) {
				t.Errorf("scores %v places %v, want %v %v", scores, places, tt.wantScores, tt.wantPlaces)
			}
			if tt.wantMoves != nil {
				var got []string
				for _, m := range rec.of("move") {
					mv := m.(MoveEvent)
					text := FormatCells(mv.Cells)
					if mv.Pass {
						text = "pass"
					}
					got = append(got, fmt.Sprintf("%d: %s", mv.Player, text))
				}
				if diff := cmp.Diff(tt.wantMoves, got); diff != "" {
					t.Errorf("moves (-want +got):\n%s", diff)
				}
			}
			for i, p := range ps {
				if len(p.moves) > 0 {
					t.Errorf("seat %d was not asked for its moves %v", i, p.moves)
				}
				if last := p.cmds[len(p.cmds)-1]; last != "quit" {
					t.Errorf("seat %d's last command is %q, want quit", i, last)
				}
			}
		})
	}
}

// TestRefereeProtocol checks the commands a bot is sent: the setup, a
// time_left before every gen_move, every placement to both players.
func TestRefereeProtocol(t *testing.T) {
	s := settingsOf(t, 3, 4, []board.Cell{{X: 1, Y: 1}}, "0,0", "0,0;1,0")
	ps := []*scripted{newScripted("2,0", "pass"), newScripted("0,3", "1,2 2,2")}
	Referee(t.Context(), s, 1, []Player{ps[0], ps[1]}, &events{})
	want := [][]string{{
		"set_board 3 4", "set_player 1", "set_stones 2 0,0 0,0;1,0", "set_blocked 1 1,1",
		"time_left 2000", "gen_move", "play 1 2,0", "play 2 0,3",
		"time_left 2000", "gen_move", "play 1 pass", "play 2 1,2 2,2", "quit",
	}, {
		"set_board 3 4", "set_player 2", "set_stones 2 0,0 0,0;1,0", "set_blocked 1 1,1",
		"play 1 2,0", "time_left 2000", "gen_move", "play 2 0,3",
		"play 1 pass", "time_left 2000", "gen_move", "play 2 1,2 2,2", "quit",
	}}
	for i := range ps {
		if diff := cmp.Diff(want[i], ps[i].cmds); diff != "" {
			t.Errorf("seat %d commands (-want +got):\n%s", i, diff)
		}
	}
}

func TestRefereeFaults(t *testing.T) {
	classic := classicSettings(t)
	tests := []struct {
		name       string
		s          Settings
		seat       int
		moves      []string
		script     func(string) (bool, string, error, bool)
		wantKind   string // "" for no fault
		wantDetail string // regexp
		wantWarn   []WarningEvent
	}{
		{name: "a pass while a stone can be placed is illegal", s: classic, seat: 0, moves: []string{"pass"},
			wantKind: drivers.FaultIllegal, wantDetail: `^passed, but could place stone classic\S*:\d+ on \d+,\d+( \d+,\d+)* on turn 1 \(its move 1\)$`},
		{name: "a pass later in the game while a stone can be placed is illegal", s: classic, seat: 1, moves: []string{"0,19", "pass"},
			wantKind: drivers.FaultIllegal, wantDetail: `^passed, but could place .* on turn 4 \(its move 2\)$`},
		{name: "a mirrored stone is illegal", s: settingsOf(t, 5, 5, nil, small...), seat: 0, moves: []string{"2,1 3,1 4,1 4,0"},
			wantKind: drivers.FaultIllegal, wantDetail: `^placed stone S4 mirrored; stones may be rotated but not flipped on turn 1 \(its move 1\)$`},
		{name: "a first stone off the start corner is illegal", s: classic, seat: 1, moves: []string{"0,0"},
			wantKind: drivers.FaultIllegal, wantDetail: `^placed its first stone on 0,0, which does not cover its start cell 0,19 on turn 2 \(its move 1\)$`},
		{name: "a stone off the board is illegal", s: classic, seat: 0, moves: []string{"19,0 20,0"},
			wantKind: drivers.FaultIllegal, wantDetail: `^placed cell 20,0, which is outside the 20 × 20 board on turn 1 \(its move 1\)$`},
		{name: "an answer that is not cells is a protocol fault", s: classic, seat: 0, moves: []string{"I5 at the corner"},
			wantKind: drivers.FaultProtocol, wantDetail: `^answered gen_move with "I5 at the corner", which is neither cells row,col nor pass on turn 1 \(its move 1\)$`},
		{name: "an empty answer is a protocol fault", s: classic, seat: 1, moves: []string{""},
			wantKind: drivers.FaultProtocol, wantDetail: `^answered gen_move with "", which is neither`},
		{name: "? to gen_move is a protocol fault", s: classic, seat: 1, script: on("gen_move", false, "no idea", nil),
			wantKind: drivers.FaultProtocol, wantDetail: `^answered \? to gen_move \("no idea"\) on turn 2 \(its move 1\)$`},
		{name: "an Ask error of kind time is a time fault", s: classic, seat: 0, script: on("gen_move", false, "", faultError{drivers.FaultTime, "its clock ran out"}),
			wantKind: drivers.FaultTime, wantDetail: `^its clock ran out, answering gen_move on turn 1 \(its move 1\)$`},
		{name: "an Ask error without a kind is a crash", s: classic, seat: 1, script: on("set_stones", false, "", errors.New("broken pipe")),
			wantKind: drivers.FaultCrash, wantDetail: `^broken pipe, answering set_stones$`},
		{name: "? to set_stones is only a warning", s: classic, seat: 1, script: on("set_stones", false, "too many", nil),
			wantWarn: []WarningEvent{{Seat: 1, Command: "set_stones", Answer: "too many"}}},
		{name: "? to play is only a warning", s: classic, seat: 0, script: on("play", false, "", nil),
			wantWarn: []WarningEvent{{Seat: 0, Command: "play", Answer: ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := []*scripted{newScripted(), newScripted()}
			ps[tt.seat].moves = tt.moves
			ps[tt.seat].script = tt.script
			rec := &events{}
			out := Referee(t.Context(), tt.s, 5, []Player{ps[0], ps[1]}, rec)
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
				if out.Seats[tt.seat].Place != 2 || out.Seats[1-tt.seat].Place != 1 {
					t.Errorf("places %v, %v: the faulty seat must lose", out.Seats[0].Place, out.Seats[1].Place)
				}
				if e := rec.of("end"); len(e) != 1 || e[0].(EndEvent).Reason != "fault" {
					t.Errorf("end events %v, want one with reason fault", e)
				}
				if slices.Contains(ps[tt.seat].cmds, "quit") {
					t.Errorf("the faulty bot was sent quit")
				}
				if last := ps[1-tt.seat].cmds[len(ps[1-tt.seat].cmds)-1]; last != "quit" {
					t.Errorf("the other bot's last command is %q, want quit", last)
				}
			} else if e := rec.of("end"); len(e) != 1 || e[0].(EndEvent).Reason == "fault" {
				t.Errorf("end events %v, want a whole game", e)
			}
			var gotWarn []WarningEvent
			for _, w := range rec.of("warning") {
				gotWarn = append(gotWarn, w.(WarningEvent))
			}
			if diff := cmp.Diff(tt.wantWarn, gotWarn); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefereeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	ps := []*scripted{newScripted(), newScripted()}
	ps[1].script = func(cmd string) (bool, string, error, bool) {
		if cmd == "gen_move" {
			cancel()
			return false, "", errors.New("killed"), true
		}
		return false, "", nil, false
	}
	rec := &events{}
	out := Referee(ctx, classicSettings(t), 1, []Player{ps[0], ps[1]}, rec)
	if out.Seats[1].Fault != "" || len(rec.of("end")) != 0 || slices.Contains(ps[0].cmds, "quit") {
		t.Errorf("a cancelled match recorded a fault %q, an end %v or sent quit", out.Seats[1].Fault, rec.of("end"))
	}
}

// TestRandomFilledCellsKeepStartsFree draws a board nearly full of random
// cells for many seeds: the start cells stay free and exactly random cells
// are filled.
func TestRandomFilledCellsKeepStartsFree(t *testing.T) {
	s := Settings{Board: board.Spec{Rows: 3, Cols: 3, Random: 7}, Stones: stonesOf(t, "0,0")}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(50) {
		f := s.Filled(seed)
		if len(f) != 7 || slices.Contains(f, Cell{Row: 2, Col: 0}) || slices.Contains(f, Cell{Row: 0, Col: 2}) {
			t.Fatalf("seed %d: filled %v", seed, f)
		}
	}
	if !slices.Equal(s.Filled(3), s.Filled(3)) {
		t.Error("the same seed drew different cells")
	}
	s.Board.Random = 8
	if err := s.Validate(); err == nil {
		t.Error("8 random cells on a 3 × 3 board with two start cells validated")
	}
}
