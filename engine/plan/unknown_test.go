package plan

import (
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// UnknownBot's hint names every bot in a folder of the name given, and
// calls it a bots_from folder only for a submitted bot's.
func TestUnknownBotFolders(t *testing.T) {
	submitted := &drivers.Limits{Sandbox: &drivers.Sandbox{Submitted: true}}
	for _, tt := range []struct {
		bots      []Bot
		want, not string
	}{
		{[]Bot{{Name: "fast", Dir: "eng"}, {Name: "slow", Dir: "eng"}}, `the bots fast, slow run in folders of that name`, "bots_from"},
		{[]Bot{{Name: "fast", Dir: "eng"}, {Name: "x", Dir: "other"}}, `the bot "fast" runs in the folder "eng": use fast`, "bots_from"},
		{[]Bot{{Name: "Zo__", Dir: "players/Zoë", Limits: submitted}}, `a bots_from folder's name becomes a bot's name`, "run in folders"},
	} {
		p := &Plan{Bots: tt.bots}
		err := p.UnknownBot(strings.TrimPrefix(tt.bots[0].Dir, "players/"))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), tt.not) {
			t.Errorf("%+v: %v, want it to say %q and not %q", tt.bots, err, tt.want, tt.not)
		}
	}
}
