package gtp

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestTellAllBeforeFaultsOfOneCommand: every seat whose answer to the
// command that faulted first is a fault has its own fault, in seat order;
// a seat whose fault came at a later command than that is not judged (the
// match ended before it), and quit goes to it and to no faulty seat.
// Seats 1 and 2 close their output on the first command, seat 0 on the
// second.
func TestTellAllBeforeFaultsOfOneCommand(t *testing.T) {
	m, _, rec := botMatch(t, 3, drivers.Clock{Total: drivers.Duration(20 * time.Second)})
	first := func(i int) string { return []string{"echo", "close-out", "close-out"}[i] }
	second := func(i int) string { return []string{"close-out", "echo", "echo"}[i] }
	if err := m.TellAllBefore(-1, "", first, second); err != ErrOver {
		t.Fatalf("TellAllBefore = %v, want ErrOver", err)
	}
	if !slices.Equal(m.Faulty, []int{1, 2}) || m.Results[0].Fault != "" ||
		m.Results[1].Fault != drivers.FaultCrash || m.Results[2].Fault != drivers.FaultCrash ||
		!strings.HasSuffix(m.Results[2].Detail, "answering close-out") {
		t.Fatalf("faulty seats %v, results %+v; want the crashes of seats 1 and 2 on the first command, seat 0 unjudged", m.Faulty, m.Results)
	}
	m.Quit()
	var events, quits []string
	for _, l := range rec.get() {
		switch {
		case strings.HasPrefix(l, "fault ") || strings.HasPrefix(l, "warning "):
			events = append(events, l)
		case strings.HasSuffix(l, "> quit"):
			quits = append(quits, l)
		}
	}
	if len(events) != 2 || !strings.HasPrefix(events[0], "fault {Seat:1 Kind:crash") || !strings.HasPrefix(events[1], "fault {Seat:2 Kind:crash") {
		t.Errorf("events %q, want seat 1's crash then seat 2's", events)
	}
	if !slices.Equal(quits, []string{"0 > quit"}) {
		t.Errorf("quit sent %q, want it sent to seat 0 only", quits)
	}
}

// TestStartFaultsEverySeat: every seat whose bot does not start has its
// own start fault, in seat order, whatever the order the starts finished
// in; a seat that started has none.
func TestStartFaultsEverySeat(t *testing.T) {
	rec := &lines{}
	dm := &drivers.Match{ID: "start", Clock: drivers.Clock{Total: drivers.Duration(20 * time.Second)}, Record: rec}
	for _, argv := range []string{"/nonexistent/gtp-bot-0", os.Args[0], "/nonexistent/gtp-bot-2"} {
		dm.Seats = append(dm.Seats, drivers.Seat{Bot: "b", Command: []string{argv}, Dir: t.TempDir(), Env: []string{"GTP_TEST_BOT=1"}})
	}
	ss, out, err := Start(context.Background(), dm)
	ss.Kill()
	for _, s := range ss {
		if s != nil {
			proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
		}
	}
	if err != nil || out == nil {
		t.Fatalf("Start = %+v, %v; want an outcome", out, err)
	}
	if out.Seats[0].Fault != drivers.FaultStart || out.Seats[1].Fault != "" || out.Seats[2].Fault != drivers.FaultStart ||
		!strings.Contains(out.Seats[2].Detail, "gtp-bot-2") {
		t.Errorf("outcome %+v; want start faults for seats 0 and 2 only, each with its own detail", out.Seats)
	}
	var events []string
	for _, l := range rec.get() {
		if strings.HasPrefix(l, "fault ") {
			events = append(events, l)
		}
	}
	if len(events) != 2 || !strings.HasPrefix(events[0], "fault {Seat:0 Kind:start") || !strings.HasPrefix(events[1], "fault {Seat:2 Kind:start") {
		t.Errorf("fault events %q, want seat 0's then seat 2's", events)
	}
}

// TestPlaceFaulty: the seats without a fault are first; the faulty ones
// share the last places, the mean of the places they span.
func TestPlaceFaulty(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults []string
		want   []float64
	}{
		{"no fault leaves the places", []string{"", "", ""}, []float64{0, 0, 0}},
		{"one faulty seat is last", []string{"", "crash", "", ""}, []float64{1, 4, 1, 1}},
		{"two faulty seats share the last two places", []string{"crash", "", "time", ""}, []float64{3.5, 1, 3.5, 1}},
		{"every seat faulty: all tied, none first alone", []string{"crash", "crash", "crash", "crash"}, []float64{2.5, 2.5, 2.5, 2.5}},
		{"both of two players faulty", []string{"start", "start"}, []float64{1.5, 1.5}},
		{"one of two players faulty", []string{"", "protocol"}, []float64{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seats := make([]drivers.SeatResult, len(tc.faults))
			for i, f := range tc.faults {
				seats[i].Fault = f
			}
			PlaceFaulty(seats)
			var got []float64
			for _, s := range seats {
				got = append(got, s.Place)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("places %v, want %v", got, tc.want)
			}
		})
	}
}
