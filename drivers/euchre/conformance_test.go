package euchre

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
)

// TestConformance runs the driver conformance suite on Euchre, one hand
// long, with the bad bots of TestFaultyBots: a misbehaving bot gets the
// default answer, recorded as a default event whose reason says why, and
// the match goes on; its verdicts are read from those reasons (see
// defaultKind).
func TestConformance(t *testing.T) {
	s := DefaultSettings()
	s.MaxHands = 1
	drivertest.Run(t, drivertest.Suite{
		Driver:   Driver{},
		Settings: s,
		Seats:    2,
		// Seed 31 brings every phase round in the first hand.
		Seed:       31,
		Clock:      drivers.Clock{Move: drivers.Duration(testMove)},
		LimitClock: drivers.Clock{Move: drivers.Duration(time.Minute)},
		House:      [][]string{house(t, "rules"), house(t, "random")},
		Faults: []drivertest.Fault{
			{Name: "crash", Bot: bad(t, "crash", Ordering), Kind: drivers.FaultCrash},
			{Name: "signal", Bot: bad(t, "signal", Alone), Kind: drivers.FaultCrash},
			{Name: "crash_after_answer", Bot: bad(t, "answercrash", Ordering), Kind: drivers.FaultCrash},
			{Name: "hang", Bot: bad(t, "hang", Ordering), Kind: drivers.FaultTime, Clock: drivers.Clock{Move: drivers.Duration(hangMove)}},
			{Name: "garbage", Bot: bad(t, "garbage", Turn), Kind: drivers.FaultIllegal},
			{Name: "empty", Bot: bad(t, "empty", Alone), Kind: drivers.FaultProtocol},
			{Name: "blank", Bot: bad(t, "blank", Ordering), Kind: drivers.FaultProtocol},
			{Name: "memory_rule", Bot: bad(t, "memory", Ordering), Kind: drivers.FaultFiles},
			{Name: "missing", Bot: []string{"/nonexistent/euchre-bot"}, Kind: drivers.FaultStart},
		},
		Defaults: func(tr *drivertest.Transcript, seat int) []string {
			var kinds []string
			for _, e := range tr.Events("default") {
				if d := e.(DefaultEvent); d.Seat == seat {
					kinds = append(kinds, defaultKind(d.Reason))
				}
			}
			return kinds
		},
	})
}

// defaultKind is the fault kind of a default's reason: a run that failed
// says its kind first ("crash: exited with status 3"); an answer that was
// missing is a protocol fault, a broken memory rule a files fault, and any
// other answer the rules refused an illegal one.
func defaultKind(reason string) string {
	if k, _, ok := strings.Cut(reason, ": "); ok && slices.Contains(drivertest.Kinds, k) {
		return k
	}
	switch {
	case strings.Contains(reason, "printed no answer"):
		return drivers.FaultProtocol
	case strings.Contains(reason, "memory rule"):
		return drivers.FaultFiles
	}
	return drivers.FaultIllegal
}
