// Package fakegame is a game driver for tests of what lies above drivers
// (the engine, the command line): "numbers", the smallest game that still
// runs real bot processes through drivers/proc. In each of Turns turns
// every seat, in seat order, is sent "turn K" and answers a whole number
// from 0 to Max; a seat scores the sum of its answers. The first fault
// ends the match: the faulty seat scores 0.
//
// It is not in drivers/all: a test that wants it looks it up with Lookup.
package fakegame

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// Name is the driver's name: game "numbers" "<name>".
const Name = "numbers"

// Lookup is drivers/all.Driver with this driver added.
func Lookup(name string) (drivers.Driver, bool) {
	if name == Name {
		return Driver{}, true
	}
	return all.Driver(name)
}

// Names is drivers/all.Names with this driver added.
func Names() []string { return append(all.Names(), Name) }

// Settings are the game's options.
type Settings struct {
	Turns int `json:"turns"`
	Max   int `json:"max"`
}

func (s Settings) validate() error {
	if s.Turns < 1 || s.Max < 0 {
		return fmt.Errorf("numbers needs turns >= 1 and max >= 0, not %d and %d", s.Turns, s.Max)
	}
	return nil
}

// Driver is the numbers driver.
type Driver struct{}

func (Driver) Name() string { return Name }

var schema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "turns", Required: true}, {Name: "max", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{drivers.ClockBlock},
}

func (Driver) DecodeGame(body hcl.Body, ctx *hcl.EvalContext) (drivers.Decoded, hcl.Diagnostics) {
	content, diags := body.Content(schema)
	d := &decoded{}
	for name, v := range map[string]*int{"turns": &d.s.Turns, "max": &d.s.Max} {
		if a, ok := content.Attributes[name]; ok {
			diags = append(diags, gohcl.DecodeExpression(a.Expr, ctx, v)...)
		}
	}
	for _, b := range content.Blocks {
		c, cd := drivers.DecodeSessionClock(b, ctx)
		diags = append(diags, cd...)
		d.clock = c
	}
	if !diags.HasErrors() {
		if err := d.s.validate(); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid numbers game",
				Detail: err.Error(), Subject: body.MissingItemRange().Ptr()})
		}
	}
	return d, diags
}

func (Driver) LoadGame(raw json.RawMessage) (drivers.Game, error) {
	var s Settings
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("numbers settings: %w", err)
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return &Game{s: s}, nil
}

// HouseBots: "greedy" always answers Max; "random" answers a number drawn
// from its seed and seat.
func (Driver) HouseBots() []drivers.HouseBot {
	return []drivers.HouseBot{
		{Name: "greedy", Doc: "answers the largest number", Run: func(in io.Reader, out io.Writer, env func(string) string) error {
			return serve(in, out, func(max int) int { return max })
		}},
		{Name: "random", Doc: "answers a seeded random number", Run: func(in io.Reader, out io.Writer, env func(string) string) error {
			seed, _ := strconv.ParseUint(env("ARBITER_SEED"), 10, 64)
			seat, _ := strconv.ParseUint(env("ARBITER_SEAT"), 10, 64)
			rng := rand.New(rand.NewPCG(seed, seat))
			return serve(in, out, func(max int) int { return rng.IntN(max + 1) })
		}},
	}
}

// serve answers "max M" with nothing and every "turn K" with pick(M), until
// "quit" or the end of its input.
func serve(in io.Reader, out io.Writer, pick func(max int) int) error {
	sc := bufio.NewScanner(in)
	max := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "max":
			max, _ = strconv.Atoi(f[1])
		case len(f) == 2 && f[0] == "turn":
			if _, err := fmt.Fprintln(out, pick(max)); err != nil {
				return err
			}
		case len(f) == 1 && f[0] == "quit":
			return nil
		}
	}
	return sc.Err()
}

type decoded struct {
	s     Settings
	clock drivers.Clock
}

func (d *decoded) Settings() any        { return d.s }
func (d *decoded) Clock() drivers.Clock { return d.clock }
func (d *decoded) CheckSeats(n int, subject hcl.Range) hcl.Diagnostics {
	if n >= 1 {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Game cannot be played with these seats",
		Detail: fmt.Sprintf("numbers needs at least 1 seat, not %d.", n), Subject: subject.Ptr()}}
}

// Game is a loaded numbers game.
type Game struct{ s Settings }

func (g *Game) Settings() any { return g.s }

func (g *Game) Seats(n int) error {
	if n < 1 {
		return fmt.Errorf("numbers needs at least 1 seat, not %d", n)
	}
	return nil
}

// Play referees one match: "max M" to every seat, then Turns turns of
// "turn K", then "quit".
func (g *Game) Play(ctx context.Context, m *drivers.Match) (*drivers.Outcome, error) {
	out := &drivers.Outcome{Seats: make([]drivers.SeatResult, len(m.Seats))}
	sessions := make([]*proc.Session, len(m.Seats))
	defer func() {
		for _, s := range sessions {
			if s != nil {
				s.Kill()
			}
		}
	}()
	fault := func(i int, err error, where string) (*drivers.Outcome, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		kind, detail := drivers.FaultCrash, err.Error()
		var f *proc.Fault
		if errors.As(err, &f) {
			kind, detail = f.Kind, f.Detail
		}
		detail += where
		m.Record.Event("fault", map[string]any{"seat": i, "kind": kind, "detail": detail})
		out.Seats[i] = drivers.SeatResult{Fault: kind, Detail: detail, TimeMS: sessionTime(sessions[i])}
		return out, nil
	}
	for i, seat := range m.Seats {
		s, err := proc.Start(ctx, proc.Spec{Bot: seat.Bot, Argv: seat.Command, Dir: seat.Dir, Env: seat.Env,
			Stderr: seat.Stderr, Clock: m.Clock, Limits: seat.Limits,
			OnSend: func(l string) { m.Record.Sent(i, l) }, OnRecv: func(l string, at time.Time) { drivers.RecordReceived(m.Record, i, l, at) }})
		if err != nil {
			return fault(i, err, "")
		}
		sessions[i] = s
		if err := s.Write("max "+strconv.Itoa(g.s.Max), time.Now().Add(time.Second)); err != nil {
			return fault(i, err, ", told the largest number")
		}
	}
	for k := 1; k <= g.s.Turns; k++ {
		for i, s := range sessions {
			var line string
			err := s.Exchange(fmt.Sprintf("turn %d", k), func(deadline time.Time) error {
				var err error
				line, err = s.ReadLine(deadline)
				return err
			})
			where := fmt.Sprintf(", answering turn %d", k)
			if err != nil {
				return fault(i, err, where)
			}
			n, err := strconv.Atoi(strings.TrimSpace(line))
			switch {
			case err != nil:
				return fault(i, &proc.Fault{Kind: drivers.FaultProtocol, Detail: fmt.Sprintf("answered %q, not a number", line)}, where)
			case n < 0 || n > g.s.Max:
				return fault(i, &proc.Fault{Kind: drivers.FaultIllegal, Detail: fmt.Sprintf("answered %d, not from 0 to %d", n, g.s.Max)}, where)
			}
			out.Seats[i].Score += float64(n)
		}
	}
	for i, s := range sessions {
		s.Close("quit")
		out.Seats[i].TimeMS = sessionTime(s)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	m.Record.Event("end", out.Seats)
	return out, nil
}

func sessionTime(s *proc.Session) int64 {
	if s == nil {
		return 0
	}
	return s.Used().Milliseconds()
}
