package bricks

import (
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/board"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// TestConformance runs the driver conformance suite on Bricks, with the
// faulty bots of TestFaultCodes (which checks the original's codes and
// replay lines besides).
func TestConformance(t *testing.T) {
	bot := func(name string) []string { return testbot.Argv(t, name) }
	cells := []board.Cell{{X: 2, Y: 2}} // the taken bot plays on (2, 2)
	// The limit cases' spinning bot must be killed by its CPU limit
	// before the game's own move limit.
	long := Limits{Startup: drivers.Duration(time.Minute), Move: drivers.Duration(time.Minute), Silence: drivers.Duration(2 * time.Minute)}
	drivertest.Run(t, drivertest.Suite{
		Driver:        Driver{},
		Settings:      testGame(5, cells, testLimits).settings,
		Seats:         2,
		Clock:         drivers.Clock{Move: testLimits.Silence},
		LimitSettings: testGame(5, cells, long).settings,
		LimitClock:    drivers.Clock{Move: long.Silence},
		// Only random: the keeper's first move on a 5 × 5 board may take
		// more than the 1s move limit of these games on a loaded machine.
		House: [][]string{bot(testbot.HouseName("random"))},
		Faults: []drivertest.Fault{
			{Name: "notok", Bot: bot(modeNotOK), Kind: drivers.FaultProtocol},
			{Name: "lateok", Bot: bot(modeLateOK), Kind: drivers.FaultTime},
			{Name: "garbage", Bot: bot(modeGarbage), Kind: drivers.FaultProtocol},
			{Name: "diagonal", Bot: bot(modeDiagonal), Kind: drivers.FaultIllegal},
			{Name: "taken", Bot: bot(modeTaken), Kind: drivers.FaultIllegal},
			{Name: "slow", Bot: bot(modeSlow), Kind: drivers.FaultTime},
			{Name: "mute", Bot: bot(modeMute), Kind: drivers.FaultTime},
			{Name: "die", Bot: bot(modeDie), Kind: drivers.FaultCrash},
			{Name: "missing", Bot: []string{"/nonexistent/bricks-bot"}, Kind: drivers.FaultStart},
		},
	})
}
