package start

import (
	"testing"

	"github.com/arbiter-contests/arbiter/drivers/all"
)

// TestSameBotsAsTheDrivers: the house bots that run from init are those
// `arbiter bot -list` lists, each doing the same.
func TestSameBotsAsTheDrivers(t *testing.T) {
	for _, game := range all.Names() {
		if _, ok := games[game]; !ok {
			t.Errorf("the house bots of %s do not run from init", game)
		}
	}
	for game := range games {
		drv, ok := all.Driver(game)
		if !ok {
			t.Errorf("%s runs house bots here, but is no driver", game)
			continue
		}
		want := drv.HouseBots()
		got, _ := HouseBots(game)
		if len(got) != len(want) {
			t.Errorf("%s: %d house bots here, %d in its driver", game, len(got), len(want))
			continue
		}
		for i, hb := range got {
			w := want[i]
			if hb.Name != w.Name || hb.Doc != w.Doc || (hb.Run == nil) != (w.Run == nil) || (hb.Move == nil) != (w.Move == nil) {
				t.Errorf("%s: bot %d here is %s (%q), in its driver %s (%q)", game, i, hb.Name, hb.Doc, w.Name, w.Doc)
			}
		}
	}
}

func TestRunLeavesMistakesToMain(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"-list"},
		{"planowanie/greedy", "-list"},
		{"planowanie/nobody"},
		{"planowanie/greedy", "extra"},
		{"nogame/random"},
		{"planowanie"},
	} {
		if ran, err := run(args); ran || err != nil {
			t.Errorf("run(%q) = %v, %v; want it left to arbiter's main", args, ran, err)
		}
	}
}
