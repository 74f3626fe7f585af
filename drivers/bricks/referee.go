package bricks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Codes are the original referee's end codes.
const (
	CodeNormal   = 'N' // the winner made the last move
	CodeIllegal  = 'M' // a move off the board, onto a filled cell, or not a domino
	CodeProtocol = 'P' // an answer that does not parse
	CodeLate     = 'T' // a move answered after the move limit
	CodeLateOK   = 'K' // OK answered after the start-up limit
	CodeSilent   = 'D' // no answer within the silence limit, or the process ended
	CodeNoStart  = 'S' // the program could not be started
)

// Files a duel leaves in its match directory.
const (
	ReplayFile = "duel.txt"  // the replay in the original's format
	EndFile    = "duel.json" // how it ended, for the original's score files
)

// End is how a duel ended; it is kept beside the replay as duel.json.
type End struct {
	Code string `json:"code"`
	// Winner is the winning seat (0 started).
	Winner int `json:"winner"`
	// Message is the original referee's closing sentence.
	Message string `json:"message"`
	// Error is the line the original writes to err.txt, or "".
	Error string `json:"error,omitempty"`
	// Moves is how many dominoes were placed.
	Moves int `json:"moves"`
}

// EndEvent ("end") closes a transcript; FaultEvent ("fault") names a
// faulty seat; MoveEvent ("move") is a placed domino.
type (
	EndEvent struct {
		End
		Board string `json:"board"`
	}
	FaultEvent struct {
		Seat   int    `json:"seat"`
		Code   string `json:"code"`
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	MoveEvent struct {
		Seat int    `json:"seat"`
		Move string `json:"move"`
	}
)

// duel is one match while Play runs it.
type duel struct {
	ctx      context.Context
	m        *drivers.Match
	s        Settings
	sessions [2]*proc.Session
	used     [2]time.Duration
	nicks    [2]string
	replay   []string
	moves    int
	// the fault, when one ended the duel
	faulty int
	code   byte
	kind   string
	detail string
	last   string // the replay's last move text
	msg    string
	errLn  string
	// stopping is set once the duel sends STOP: from then on the
	// transcript gets the STOP lines in seat order from stop itself,
	// not from the bots' sessions at once.
	stopping bool
	// silenceUnder says a seat's failed answer failed before the
	// silence limit: a time fault then is a limit's, not silence.
	silenceUnder [2]bool
}

// errEnded unwinds a duel that a fault ended; what happened is in the duel.
var errEnded = errors.New("duel over")

// Play referees one duel: seat 0 starts, seat 1 follows.
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	if len(m.Seats) != 2 {
		return nil, fmt.Errorf("bricks: a duel has 2 seats, not %d", len(m.Seats))
	}
	d := &duel{ctx: ctx, m: m, s: g.settings, faulty: -1}
	for i, seat := range m.Seats {
		d.nicks[i] = seat.Nick
		if d.nicks[i] == "" {
			d.nicks[i] = seat.Bot
		}
	}
	defer func() {
		var wg sync.WaitGroup
		for _, s := range d.sessions {
			if s != nil {
				wg.Add(1)
				go func() { defer wg.Done(); s.Kill() }()
			}
		}
		wg.Wait()
	}()
	msg := Message(d.s.Size, d.s.Filled)
	d.replay = []string{fmt.Sprintf("%d#%s#%s#| :size :P1_nick :P2_nick", d.s.Size, d.nicks[0], d.nicks[1]), msg}

	err := d.play(msg)
	if err != nil && !errors.Is(err, errEnded) {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	d.stop()

	end := End{Code: string(rune(CodeNormal)), Moves: d.moves, Error: d.errLn}
	out := &drivers.Outcome{Seats: make([]drivers.SeatResult, 2)}
	if d.faulty >= 0 {
		end.Code = string(rune(d.code))
		end.Winner = 1 - d.faulty
		end.Message = d.msg
		d.replay = append(d.replay, d.last+" :"+d.nicks[d.faulty])
		out.Seats[d.faulty].Fault = d.kind
		out.Seats[d.faulty].Detail = d.detail
	} else {
		// The player who would move next cannot: the other made the last move.
		end.Winner = 1 - d.moves%2
		end.Message = "Player " + d.nicks[end.Winner] + " won normally!"
	}
	out.Seats[end.Winner].Score = 1
	for i := range out.Seats {
		out.Seats[i].TimeMS = d.used[i].Milliseconds()
	}
	d.replay = append(d.replay, "---", d.nicks[end.Winner], end.Message)
	m.Record.Event("end", EndEvent{End: end, Board: msg})
	if err := d.save(end); err != nil {
		return nil, err
	}
	return out, nil
}

func (d *duel) play(boardMsg string) error {
	for i, seat := range d.m.Seats {
		if err := d.initPlayer(i, seat, boardMsg); err != nil {
			return err
		}
	}

	b := NewBoard(d.s.Size, d.s.Filled)
	if !b.HasMove() {
		// The starting player cannot move: it loses normally, and is never
		// sent START.
		return nil
	}
	cmd := "START"
	for seat := 0; ; seat = 1 - seat {
		answer, late, err := d.ask(seat, cmd, time.Duration(d.s.Limits.Move))
		where := fmt.Sprintf("answering %s (move %d)", cmd, d.moves+1)
		if err != nil {
			return d.silent(seat, err, "NORESPONSE", where)
		}
		if _, early := d.sessions[seat].EarlyAnswer(); early {
			return d.early(seat, cmd, answer, where)
		}
		if late {
			return d.fault(seat, CodeLate, drivers.FaultTime, "NORESPONSE",
				fmt.Sprintf("answered %q after the move limit of %v, %s", answer, time.Duration(d.s.Limits.Move), where),
				fmt.Sprintf("Player %s -> Player %s is out of time (%s)!", d.nicks[seat], d.nicks[seat], seconds(d.s.Limits.Move)))
		}
		mv, ok := ParseMove(answer)
		if f := d.sessions[seat].ExplainAnswer(answer); !ok && f != nil {
			return d.silent(seat, f, "NORESPONSE", where) // a JVM's fatal error report
		}
		if !ok {
			return d.fault(seat, CodeProtocol, drivers.FaultProtocol, answer,
				fmt.Sprintf("answered %q, which is not a move like 1x2_2x2 (write debug output to stderr), %s", answer, where),
				fmt.Sprintf("Player %s -> Can't translate input : \"%s\".", d.nicks[seat], answer))
		}
		if problem := b.Check(mv); problem != "" {
			return d.fault(seat, CodeIllegal, drivers.FaultIllegal, answer,
				fmt.Sprintf("played %s: %s, %s", mv, problem, where),
				fmt.Sprintf("Player %s -> %s", d.nicks[seat], b.OriginalProblem(mv)))
		}
		b.Place(mv)
		d.moves++
		cmd = mv.String()
		d.replay = append(d.replay, cmd+" :"+d.nicks[seat])
		d.m.Record.Event("move", MoveEvent{Seat: seat, Move: cmd})
		if !b.HasMove() {
			return nil
		}
	}
}

// initPlayer starts seat i's player, waits the wake-up delay, sends it
// the board and wants OK within the start-up limit, as the original's
// Trial.initPlayer.
func (d *duel) initPlayer(i int, seat drivers.Seat, boardMsg string) error {
	s, err := proc.Start(d.ctx, proc.Spec{
		Bot: seat.Bot, Argv: seat.Command, Dir: seat.Dir, Env: seat.Env, Stderr: seat.Stderr,
		// Every answer may take up to the silence limit; the codes
		// T and K are told apart from the time it took (see ask).
		Clock: drivers.Clock{Move: d.s.Limits.Silence}, Limits: seat.Limits, NoStart: seat.Unbuilt, Explain: true,
		OnSend: func(line string) {
			if !d.stopping {
				d.m.Record.Sent(i, line)
			}
		},
		OnRecv: func(line string, at time.Time) { drivers.RecordReceived(d.m.Record, i, line, at) },
	})
	var f *proc.Fault
	if err != nil && !errors.As(err, &f) {
		return err // arbiter's own (proc.SetupError): no player is to blame
	}
	if err != nil {
		detail := f.Detail
		msg := detail
		if java := javaStartError(seat, os.Getenv("PATH")); java != "" && seat.Unbuilt == "" {
			msg = java
		}
		return d.fault(i, CodeNoStart, drivers.FaultStart, "null", detail,
			fmt.Sprintf("Player %s -> %s", d.nicks[i], msg))
	}
	d.sessions[i] = s
	// The original's wake-up time: the player starts before its OK
	// clock does.
	select {
	case <-time.After(time.Duration(d.s.Limits.Delay)):
	case <-d.ctx.Done():
		return d.ctx.Err()
	}
	answer, late, err := d.ask(i, boardMsg, time.Duration(d.s.Limits.Startup))
	if err != nil {
		return d.silent(i, err, "NOOKRESPONSE", "answering OK to the board")
	}
	switch {
	case late:
		return d.fault(i, CodeLateOK, drivers.FaultTime, "NOOKRESPONSE",
			fmt.Sprintf("answered OK after the start-up limit of %v", time.Duration(d.s.Limits.Startup)),
			fmt.Sprintf("Player %s -> Player %s does not answer OK within (%s)!", d.nicks[i], d.nicks[i], seconds(d.s.Limits.Startup)))
	case !strings.EqualFold(answer, "OK"):
		if f := s.ExplainAnswer(answer); f != nil {
			return d.silent(i, f, "NOOKRESPONSE", "answering OK to the board") // a JVM's fatal error report
		}
		return d.fault(i, CodeProtocol, drivers.FaultProtocol, answer,
			notOKDetail(answer, "the board"),
			fmt.Sprintf("Player %s -> Player %s should have given \"OK\", but gave \"%s\"!", d.nicks[i], d.nicks[i], answer))
	}
	return nil
}

// notOKDetail tells what answer, given to the board message (called
// board) instead of OK, was: a move there is a bot that took the board for
// a move to answer, which a debug line's hint would mislead; anything else
// most often is a debug line.
func notOKDetail(answer, board string) string {
	if _, ok := ParseMove(answer); ok {
		return fmt.Sprintf("answered %q to %s instead of OK: that is a move, but the board message "+
			"(the board's size and filled cells) is answered OK, and the first move is asked for by START or the other player's move", answer, board)
	}
	return fmt.Sprintf("answered %q to %s instead of OK (write debug output to stderr)", answer, board)
}

// ask writes line to seat and reads one answer, waiting up to the silence
// limit; late says the answer came after limit. The answer is trimmed of
// surrounding spaces and a trailing \r.
func (d *duel) ask(seat int, line string, limit time.Duration) (answer string, late bool, err error) {
	start := time.Now()
	answer, late, err = answerWithin(d.sessions[seat], line, limit)
	elapsed := time.Since(start)
	d.used[seat] += elapsed
	if err != nil {
		d.silenceUnder[seat] = elapsed < time.Duration(d.s.Limits.Silence)
		if cerr := d.ctx.Err(); cerr != nil {
			return "", false, cerr
		}
		return "", false, err
	}
	return answer, late, nil
}

// answerWithin writes line to s and reads one answer line, waiting up to
// the session's move clock, the silence limit; late says the answer came
// after limit. The answer is trimmed of surrounding spaces and a trailing
// \r. The duels and the conformance cases that judge time (check.go) both
// time answers with it, so that check faults what a duel faults.
func answerWithin(s *proc.Session, line string, limit time.Duration) (answer string, late bool, err error) {
	start := time.Now()
	// Exchange waits up to the session's move clock, the silence limit,
	// and turns a bot that a limit killed into that limit's verdict.
	// An answer is late when it was not in the pipe at arbiter's first
	// look after limit (proc's late.go), not by arbiter's own clock: a
	// reader that runs late on a busy machine turns no move into a T.
	err = s.Exchange(line, func(deadline time.Time) error {
		var err error
		if soft := start.Add(limit); deadline.IsZero() || soft.Before(deadline) {
			if answer, err = s.ReadLine(soft); err == nil || !isTimeFault(err) {
				return err
			}
			late = true
			s.ReadOn()
		}
		answer, err = s.ReadLine(deadline)
		return err
	})
	return strings.TrimSpace(answer), late, err
}

// early faults seat's move answer, which was in its output before cmd
// (START or the other player's move) was written: the player moved
// before it was asked, so the move answers nothing the referee said.
// It is a breach of the protocol, the original's P (an answer that is
// not the one the protocol wants there, as for "READY" to the board);
// the original, reading whatever line came next, took such a move.
func (d *duel) early(seat int, cmd, answer, where string) error {
	return d.fault(seat, CodeProtocol, drivers.FaultProtocol, answer, earlyMove(cmd, answer)+", "+where,
		fmt.Sprintf("Player %s -> Player %s gave \"%s\" before it was asked for a move!", d.nicks[seat], d.nicks[seat], answer))
}

// earlyMove says that answer, a player's move, was in its output before
// cmd (START or the other player's move) was written: a duel's fault
// (early), and check's, so worded for both (nothing names the referee,
// which arbiter check is not).
func earlyMove(cmd, answer string) string {
	asked := "START"
	if cmd != "START" {
		asked = "the other player's move " + cmd
	}
	return fmt.Sprintf("wrote %q before it was sent %s (it was in its output already when that was written), so it answers nothing it was asked: "+
		"a player moves only after reading START or the other player's move (debug output goes to stderr)", answer, asked)
}

// isTimeFault says whether err is a bot's time fault.
func isTimeFault(err error) bool {
	var f *proc.Fault
	return errors.As(err, &f) && f.Kind == drivers.FaultTime
}

// silent turns a failed read or write into its fault: no answer within
// the silence limit, or a process that ended (D), or a line too long (P).
func (d *duel) silent(seat int, err error, last, where string) error {
	if d.ctx.Err() != nil {
		return d.ctx.Err()
	}
	kind, detail := drivers.FaultCrash, err.Error()
	var f *proc.Fault
	if errors.As(err, &f) {
		kind, detail = f.Kind, f.Detail
	}
	nick := d.nicks[seat]
	switch kind {
	case drivers.FaultProtocol, drivers.FaultOutput:
		return d.fault(seat, CodeProtocol, kind, last, detail+", "+where,
			fmt.Sprintf("Player %s -> %s!", nick, detail))
	case drivers.FaultTime:
		if d.silenceUnder[seat] {
			// A limit (cpu) killed the bot before the silence limit.
			msg := fmt.Sprintf("Player %s does not answer: %s!", nick, detail)
			return d.fault(seat, CodeSilent, kind, last, detail+", "+where, msg)
		}
		// The original's DeadlockProtector: its replay's last line says so.
		msg := fmt.Sprintf("Player %s does not answer within %s!", nick, seconds(d.s.Limits.Silence))
		silence := time.Duration(d.s.Limits.Silence)
		if p := drivers.Partial(err); p != "" {
			return d.fault(seat, CodeSilent, kind, "DEADLOCKNORESPONSE",
				fmt.Sprintf("no full answer within the silence limit of %v, %s: %s", silence, where, drivers.WithoutLineEnd(p)), msg)
		}
		return d.fault(seat, CodeSilent, kind, "DEADLOCKNORESPONSE",
			fmt.Sprintf("no answer within the silence limit of %v, %s%s", silence, where, drivers.ArrivedNote(err)), msg)
	case drivers.FaultCrash:
		// A process that exits or closes its output: arbiter sees it at
		// once, the original read end-of-file until its DeadlockProtector
		// fired, so its files say what they say of silence.
		msg := fmt.Sprintf("Player %s does not answer within %s!", nick, seconds(d.s.Limits.Silence))
		return d.fault(seat, CodeSilent, kind, "DEADLOCKNORESPONSE", detail+", "+where, msg)
	default:
		msg := fmt.Sprintf("Player %s does not answer: %s!", nick, detail)
		// A limit that killed the bot (memory, processes, files,
		// network): the original knew only silence for these.
		return d.fault(seat, CodeSilent, kind, last, detail+", "+where, msg)
	}
}

// fault ends the duel: seat loses with code.
func (d *duel) fault(seat int, code byte, kind, last, detail, msg string) error {
	d.faulty, d.code, d.kind, d.last, d.msg = seat, code, kind, last, msg
	d.detail = fmt.Sprintf("%s (code %c)", detail, code)
	if code == CodeSilent {
		// The original's err.txt: only its DeadlockProtector's time-outs
		// (Tournament.nextDuel), not a program that cannot start.
		d.errLn = msg
	}
	d.m.Record.Event("fault", FaultEvent{Seat: seat, Code: string(rune(code)), Kind: kind, Detail: d.detail})
	return errEnded
}

// stop sends STOP to every bot still running and gives it the grace
// period to exit, all at once; a faulty bot is killed at once. A bot
// whose fault found its process ended (proc.Session.Ended) is sent
// nothing: the STOP would be recorded as sent to a process that was gone.
func (d *duel) stop() {
	d.stopping = true
	running := func(s *proc.Session) bool { return s != nil && !s.Ended() }
	for i, s := range d.sessions {
		if running(s) {
			d.m.Record.Sent(i, "STOP")
		}
	}
	var wg sync.WaitGroup
	for i, s := range d.sessions {
		if s == nil {
			continue
		}
		if !running(s) {
			s.Kill() // reaps what it may have left
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == d.faulty {
				_ = s.Write("STOP", time.Now().Add(50*time.Millisecond))
				s.Kill()
				return
			}
			s.Close("STOP")
		}()
	}
	wg.Wait()
}

// save writes the replay and how the duel ended into the match directory.
func (d *duel) save(end End) error {
	if d.m.Dir == "" {
		return nil
	}
	replay := strings.Join(d.replay, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(d.m.Dir, ReplayFile), []byte(replay), 0o644); err != nil {
		return err
	}
	b, err := json.Marshal(end)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(d.m.Dir, EndFile), append(b, '\n'), 0o644)
}

// seconds writes a limit the way the original's messages do: "0.5s", "5s".
func seconds(d drivers.Duration) string {
	return strconv.FormatFloat(time.Duration(d).Seconds(), 'f', -1, 64) + "s"
}
