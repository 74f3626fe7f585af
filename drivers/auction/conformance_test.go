package auction

import (
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/drivertest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// TestConformance runs the driver conformance suite on Auction, on a
// board of two cells: a misbehaving bot's answers count as bids of 0 and
// are recorded as defaults, so its verdicts are the kinds of its default
// events (and a bot that cannot start also gets the start fault). Every
// round starts each bot afresh, and at a load of 45 a house bot's start
// went past a 3 s clock (a time default, in the hang case): the clock is
// 6 s, not more, as the hang bot waits it out in each of its 3 rounds.
func TestConformance(t *testing.T) {
	bot := func(name string, args ...string) []string { return testbot.Argv(t, name, args...) }
	tiny := Settings{Boards: []Board{{Name: "tiny", Cols: 2, Rows: 1, Capital: 6}}, IdleRounds: 2,
		Files: FileLimits{Count: 10, Bytes: 10_000_000}}
	drivertest.Run(t, drivertest.Suite{
		Driver:     Driver{},
		Settings:   tiny,
		Seats:      3,
		Clock:      drivers.Clock{Move: drivers.Duration(6 * time.Second)},
		LimitClock: drivers.Clock{Move: drivers.Duration(time.Minute)},
		House: [][]string{bot(testbot.HouseName("random")), bot(testbot.HouseName("share")),
			bot(testbot.HouseName("square")), bot(testbot.HouseName("neighbour"))},
		Faults: []drivertest.Fault{
			{Name: "crash", Bot: bot("crash"), Kind: drivers.FaultCrash},
			{Name: "hang", Bot: bot("hang"), Kind: drivers.FaultTime},
			{Name: "garbage", Bot: bot("garbage"), Kind: drivers.FaultIllegal},
			{Name: "over_capital", Bot: bot("fixed", "7"), Kind: drivers.FaultIllegal},
			{Name: "silent", Bot: bot("silent"), Kind: drivers.FaultProtocol},
			{Name: "vandal", Bot: bot("writestate"), Kind: FilesKind},
			{Name: "quota", Bot: bot("quota"), Kind: FilesKind},
			{Name: "missing", Bot: []string{"/nonexistent/auction-bot"}, Kind: drivers.FaultStart},
		},
		Defaults: func(tr *drivertest.Transcript, seat int) []string {
			var kinds []string
			for _, e := range tr.Events("default") {
				if d := e.(DefaultEvent); d.Seat == seat {
					kinds = append(kinds, d.Kind)
				}
			}
			return kinds
		},
	})
}
