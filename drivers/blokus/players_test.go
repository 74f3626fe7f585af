package blokus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
)

// readAnswer reads one response the way the process layer does: a line
// starting with '=' or '?', then lines up to an empty one.
func readAnswer(r *bufio.Reader) (ok bool, text string, err error) {
	var lines []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false, "", fmt.Errorf("reading an answer: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if lines == nil {
			if line == "" || (line[0] != '=' && line[0] != '?') {
				return false, "", faultError{drivers.FaultProtocol, fmt.Sprintf("answer %q starts with neither = nor ?", line)}
			}
			ok = line[0] == '='
			line = line[1:]
		} else if line == "" {
			return ok, strings.TrimSpace(strings.Join(lines, "\n")), nil
		}
		lines = append(lines, line)
	}
}

// faultError is how a process layer would classify an Ask error.
type faultError struct{ kind, msg string }

func (e faultError) Error() string     { return e.msg }
func (e faultError) FaultKind() string { return e.kind }

// pipePlayer is a house bot running in a goroutine behind a pair of pipes,
// with a clock that only counts.
type pipePlayer struct {
	w    *io.PipeWriter
	r    *bufio.Reader
	done chan error
}

func startBot(bot drivers.HouseBot, seed uint64, seat int) *pipePlayer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	env := map[string]string{"ARBITER_SEED": strconv.FormatUint(seed, 10), "ARBITER_SEAT": strconv.Itoa(seat)}
	p := &pipePlayer{w: inW, r: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := bot.Run(inR, outW, func(k string) string { return env[k] })
		outW.Close()
		inR.Close()
		p.done <- err
	}()
	return p
}

func (p *pipePlayer) Ask(cmd string) (bool, string, error) {
	if _, err := io.WriteString(p.w, cmd+"\n"); err != nil {
		return false, "", err
	}
	return readAnswer(p.r)
}

func (p *pipePlayer) Left() (time.Duration, bool) { return 2 * time.Second, true }

// stop closes the bot's input and waits for it; a bot must return nil at
// EOF as well as after quit.
func (p *pipePlayer) stop() error {
	p.w.Close()
	return <-p.done
}

func houseBot(tb testing.TB, name string) drivers.HouseBot {
	for _, b := range HouseBots() {
		if b.Name == name {
			return b
		}
	}
	tb.Fatalf("no house bot %q", name)
	return drivers.HouseBot{}
}

// playHouse plays one game of s between two house bots over pipes.
func playHouse(tb testing.TB, s Settings, seed uint64, names ...string) (*drivers.Outcome, *events) {
	tb.Helper()
	players := make([]Player, len(names))
	pipes := make([]*pipePlayer, len(names))
	for i, n := range names {
		pipes[i] = startBot(houseBot(tb, n), seed, i)
		players[i] = pipes[i]
	}
	rec := &events{}
	out := Referee(tb.Context(), s, seed, players, rec)
	for i, p := range pipes {
		if err := p.stop(); err != nil {
			tb.Errorf("bot %d (%s) ended with %v", i, names[i], err)
		}
	}
	return out, rec
}

// events is a Recorder that keeps the game events and the lines sent,
// checking each event encodes as JSON the way a journal would write it.
type events struct {
	kinds []string
	data  []any
	sent  [2][]string
}

func (e *events) Sent(seat int, line string) { e.sent[seat] = append(e.sent[seat], line) }
func (e *events) Received(int, string)       {}
func (e *events) Event(kind string, data any) {
	if _, err := json.Marshal(data); err != nil {
		panic(fmt.Sprintf("event %s does not encode: %v", kind, err))
	}
	e.kinds = append(e.kinds, kind)
	e.data = append(e.data, data)
}

// of returns the events of one kind.
func (e *events) of(kind string) []any {
	var out []any
	for i, k := range e.kinds {
		if k == kind {
			out = append(out, e.data[i])
		}
	}
	return out
}

// classicSettings is the classic example's game: 20 × 20, 21 pieces.
func classicSettings(tb testing.TB) Settings {
	return Settings{Board: board.Spec{Rows: 20, Cols: 20}, Stones: classicStones(tb)}
}

// courseSettings is a 10 × 10 board with the pieces of up to four cells,
// like the course example.
func courseSettings(tb testing.TB) Settings {
	return Settings{Board: board.Spec{Rows: 10, Cols: 10}, Stones: classicStones(tb)[:9]}
}
