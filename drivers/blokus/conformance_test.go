package blokus

import (
	"regexp"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// TestConformance runs the driver conformance suite on Blokus, on the
// course's 10 × 10 board, with the faulty bots of TestFaultsWithProcesses.
func TestConformance(t *testing.T) {
	bot := func(name string) []string { return testbot.Argv(t, name) }
	drivertest.Run(t, drivertest.Suite{
		Driver:     Driver{},
		Settings:   courseSettings(t),
		Seats:      2,
		Clock:      drivers.Clock{Move: drivers.Duration(time.Second)},
		LimitClock: drivers.Clock{Move: drivers.Duration(time.Minute)},
		Timings:    regexp.MustCompile(`^time_left \d+$`),
		House:      [][]string{bot(testbot.HouseName("greedy")), bot(testbot.HouseName("random"))},
		Faults: []drivertest.Fault{
			{Name: "illegal", Bot: bot(modeIllegal), Kind: drivers.FaultIllegal},
			{Name: "pass", Bot: bot(modePass), Kind: drivers.FaultIllegal},
			{Name: "garbage", Bot: bot(modeGarbage), Kind: drivers.FaultProtocol},
			{Name: "slow", Bot: bot(modeSlow), Kind: drivers.FaultTime},
			{Name: "crash", Bot: bot(modeCrash), Kind: drivers.FaultCrash},
			{Name: "missing", Bot: []string{"/nonexistent/blokus-bot"}, Kind: drivers.FaultStart},
		},
	})
}
