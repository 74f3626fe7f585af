package fakegame

import (
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

func TestMain(m *testing.M) {
	testbot.HouseBots(Driver{}.HouseBots())
	for _, mode := range Modes {
		testbot.Register(mode, func([]string) int { return Faulty(mode, testbot.Command(ModeLinger)) })
	}
	testbot.Main(m)
}

// TestConformance: the fake game is a driver like the others.
func TestConformance(t *testing.T) {
	bot := func(name string) []string { return testbot.Argv(t, name) }
	drivertest.Run(t, drivertest.Suite{
		Driver:     Driver{},
		Settings:   Settings{Turns: 3, Max: 9},
		Seats:      3,
		Clock:      drivers.Clock{Total: drivers.Duration(2 * time.Second), Move: drivers.Duration(time.Second)},
		LimitClock: drivers.Clock{Move: drivers.Duration(time.Minute)},
		House:      [][]string{bot(testbot.HouseName("greedy")), bot(testbot.HouseName("random"))},
		Faults: []drivertest.Fault{
			{Name: "slow", Bot: bot(ModeSlow), Kind: drivers.FaultTime},
			{Name: "mute", Bot: bot(ModeMute), Kind: drivers.FaultTime},
			{Name: "illegal", Bot: bot(ModeIllegal), Kind: drivers.FaultIllegal},
			{Name: "garbage", Bot: bot(ModeGarbage), Kind: drivers.FaultProtocol},
			{Name: "crash", Bot: bot(ModeCrash), Kind: drivers.FaultCrash},
			{Name: "missing", Bot: []string{"/nonexistent/numbers-bot"}, Kind: drivers.FaultStart},
		},
	})
}
