package blokus

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// deadBot writes a bot that exits with status 1 without reading
// anything, as /bin/false does, and returns its command.
func deadBot(t *testing.T) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dead.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

// TestBothFaultAtOnce: when both players' answers to the set-up are
// faults, each gets its own fault and fault event (in seat order), they
// share the places (1.5 each, so neither wins) and neither is sent quit;
// when both cannot start, each gets its own start fault and they share
// the places too. Before, only seat 0 was at fault and seat 1 won.
func TestBothFaultAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name, kind, detail string
		command            func(t *testing.T, seat int) []string
	}{
		{"both crash", drivers.FaultCrash, "answering set_board", func(t *testing.T, _ int) []string { return deadBot(t) }},
		{"neither starts", drivers.FaultStart, "no-such-bot", func(t *testing.T, _ int) []string {
			return []string{filepath.Join(t.TempDir(), "no-such-bot")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &Game{settings: classicSettings(t), clock: DefaultClock}
			rec := &events{}
			m := processMatch(t, 1, g.clock, token(t), rec, "greedy", "greedy")
			for i := range m.Seats {
				m.Seats[i].Command = tc.command(t, i)
			}
			out, err := g.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range out.Seats {
				if s.Fault != tc.kind || s.Place != 1.5 || !strings.Contains(s.Detail, tc.detail) {
					t.Errorf("seat %d: fault %q place %v detail %q; want fault %q, place 1.5, a detail with %q", i, s.Fault, s.Place, s.Detail, tc.kind, tc.detail)
				}
				if slices.Contains(rec.sent[i], "quit") {
					t.Errorf("seat %d, faulty, was sent quit", i)
				}
			}
			var seats []int
			for _, f := range rec.of("fault") {
				seats = append(seats, f.(FaultEvent).Seat)
			}
			if !slices.Equal(seats, []int{0, 1}) {
				t.Errorf("fault events for seats %v, want 0 then 1", seats)
			}
		})
	}
}
