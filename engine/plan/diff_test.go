package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/drivers"
)

func diffBase() *Plan {
	return &Plan{Version: Version, Tournament: "season", Seed: 777, Rounds: 2, Players: 2,
		Game: Game{Driver: "bricks", Name: "season",
			Settings: json.RawMessage(`{"size":9,"filled":[[3,1]],"limits":{"startup":"2s","move":"1s"}}`)},
		Bots: []Bot{
			{Name: "alice", Command: []string{"python3", "alice.py"}, Dir: "bots/alice"},
			{Name: "keeper", House: "bricks/keeper"},
		},
		Matches: []Match{
			{ID: "r1", Round: 1, Group: 1, Shift: 1, Seed: 1, Seats: []string{"alice", "keeper"}, Clock: drivers.Clock{Total: drivers.Duration(5 * time.Minute)}},
			{ID: "r2", Round: 2, Group: 1, Shift: 1, Seed: 2, Seats: []string{"keeper", "alice"}, Clock: drivers.Clock{Total: drivers.Duration(5 * time.Minute)}},
		},
	}
}

// TestDiff checks that each change to a plan is named by where it is in
// the plan file, with its old and new values, in the file's order.
func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(p *Plan)
		want   []string
	}{
		{"the same plan differs in nothing", func(p *Plan) {}, nil},
		{"a fingerprint is not the plan's content", func(p *Plan) {
			p.Bots[0].Fingerprint = &Fingerprint{Hash: "sha256:x"}
			p.Arbiter = &Arbiter{}
		}, nil},
		{"a game setting is named by its path", func(p *Plan) {
			p.Game.Settings = json.RawMessage(`{"size":9,"filled":[[3,1]],"limits":{"startup":"2s","move":"800ms"}}`)
		}, []string{"game.settings.limits.move: 1s → 800ms"}},
		{"a setting added and a setting removed", func(p *Plan) {
			p.Game.Settings = json.RawMessage(`{"size":9,"limits":{"startup":"2s","move":"1s"},"delay":"0s"}`)
		}, []string{"game.settings.filled removed (was [[3, 1]])", "game.settings.delay added: 0s"}},
		{"a list of numbers position by position", func(p *Plan) {
			p.Game.Settings = json.RawMessage(`{"size":9,"filled":[[3,2]],"limits":{"startup":"2s","move":"1s"}}`)
		}, []string{"game.settings.filled[0][1]: 1 → 2"}},
		{"a longer list: the element added", func(p *Plan) {
			p.Game.Settings = json.RawMessage(`{"size":9,"filled":[[3,1],[4,2]],"limits":{"startup":"2s","move":"1s"}}`)
		}, []string{"game.settings.filled[1] added: [4, 2]"}},
		{"a shorter list: the element removed", func(p *Plan) {
			p.Game.Settings = json.RawMessage(`{"size":9,"filled":[],"limits":{"startup":"2s","move":"1s"}}`)
		}, []string{"game.settings.filled[0] removed (was [3, 1])"}},
		{"a bot added says where it runs", func(p *Plan) {
			p.Bots = append(p.Bots, Bot{Name: "cid", Command: []string{"python3", "cid.py"}, Dir: "players/cid"})
		}, []string{"bots: + cid (players/cid)"}},
		{"a bot removed, and the matches that lose it", func(p *Plan) {
			p.Bots = p.Bots[1:]
			p.Matches = nil
		}, []string{"bots: - alice (bots/alice)", "matches: 2 → 0, 2 removed (r1, r2)"}},
		{"a bot's field by the bot's name", func(p *Plan) {
			p.Bots[0].Command = []string{"python3", "alice2.py"}
		}, []string{"bots.alice.command[1]: alice.py → alice2.py"}},
		{"bots in another order", func(p *Plan) {
			p.Bots[0], p.Bots[1] = p.Bots[1], p.Bots[0]
		}, []string{"bots: order alice, keeper → keeper, alice"}},
		{"grades added", func(p *Plan) {
			p.Grades = []Grade{{"A", 10}}
		}, []string{"grades added: [{label A, percent 10}]"}},
		{"seed, and so every match", func(p *Plan) {
			p.Seed = 8
			p.Matches[0].Seed, p.Matches[1].Seed = 3, 4
		}, []string{"seed: 777 → 8", "matches: 2 → 2, 2 changed (r1, r2)"}},
		{"a clock changed in every match: the change named once", func(p *Plan) {
			for i := range p.Matches {
				p.Matches[i].Clock.Total = drivers.Duration(4 * time.Minute)
			}
		}, []string{"matches[*].clock.total: 5m0s → 4m0s (2 matches)", "matches: 2 → 2, 2 changed (r1, r2)"}},
		{"a clock changed in one match alone", func(p *Plan) {
			p.Matches[1].Clock.Move = drivers.Duration(time.Second)
		}, []string{"matches[*].clock.move added: 1s (1 match)", "matches: 2 → 2, 1 changed (r2)"}},
		{"different changes in the matches: the count line alone", func(p *Plan) {
			p.Matches[0].Clock.Total = drivers.Duration(time.Minute)
			p.Matches[1].Clock.Total = drivers.Duration(2 * time.Minute)
		}, []string{"matches: 2 → 2, 2 changed (r1, r2)"}},
		{"matches added, with the first few named", func(p *Plan) {
			p.Rounds = 5
			for _, id := range []string{"r3", "r4", "r5"} {
				p.Matches = append(p.Matches, Match{ID: id, Seats: []string{"alice", "keeper"}})
			}
		}, []string{"rounds: 2 → 5", "matches: 2 → 5, 3 added (r3, r4 and 1 more)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := diffBase()
			tc.change(p)
			if d := cmp.Diff(tc.want, Diff(diffBase(), p)); d != "" {
				t.Errorf("Diff (-want +got):\n%s", d)
			}
		})
	}
}

// TestText checks the text of settings: in the order they were written,
// strings bare unless they would not read back as one word.
func TestText(t *testing.T) {
	got := Text(json.RawMessage(`{"size":9,"board":{"rows":9,"filled":[[3,1]]},"name":"a b","deck":"","on":true,"x":null}`))
	want := `{size 9, board {rows 9, filled [[3, 1]]}, name "a b", deck "", on true, x null}`
	if got != want {
		t.Errorf("Text = %s, want %s", got, want)
	}
}

// TestDiffLongList checks that lists of unnamed elements of different
// lengths are compared element by element: what changed past the width a
// value is clipped to is still told apart, and an element inserted or
// removed anywhere is told as that alone, the elements after it matched
// from the end.
func TestDiffLongList(t *testing.T) {
	// deals is a plan of n deals as range(1, n+1) makes them, the last
	// one's leader last.
	deals := func(n, last int) *Plan {
		p := diffBase()
		var ds []string
		for i := 1; i <= n; i++ {
			leader := (i - 1) % 4
			if i == n {
				leader = last
			}
			ds = append(ds, fmt.Sprintf(`{"cards":%d,"leader":%d}`, i, leader))
		}
		p.Game.Settings = json.RawMessage(`{"deals":[` + strings.Join(ds, ",") + `]}`)
		return p
	}
	// listed is a plan of the deals given as cards, leader pairs.
	listed := func(pairs ...[2]int) *Plan {
		p := diffBase()
		var ds []string
		for _, d := range pairs {
			ds = append(ds, fmt.Sprintf(`{"cards":%d,"leader":%d}`, d[0], d[1]))
		}
		p.Game.Settings = json.RawMessage(`{"deals":[` + strings.Join(ds, ",") + `]}`)
		return p
	}
	three := listed([2]int{1, 0}, [2]int{2, 1}, [2]int{3, 2})
	for _, tc := range []struct {
		name     string
		old, new *Plan
		want     []string
	}{
		{"a deal added", deals(3, 2), deals(4, 3), []string{"game.settings.deals[3] added: {cards 4, leader 3}"}},
		{"a deal removed", deals(4, 3), deals(3, 2), []string{"game.settings.deals[3] removed (was {cards 4, leader 3})"}},
		{"a deal changed and one added", deals(4, 1), deals(5, 0), []string{
			"game.settings.deals[3].leader: 1 → 3", "game.settings.deals[4] added: {cards 5, leader 0}"}},
		{"the last deal changed", deals(4, 3), deals(4, 1), []string{"game.settings.deals[3].leader: 3 → 1"}},
		{"deals added, one line each", deals(1, 0), deals(3, 2), []string{
			"game.settings.deals[1] added: {cards 2, leader 1}", "game.settings.deals[2] added: {cards 3, leader 2}"}},
		{"a deal inserted at the front", three, listed([2]int{5, 3}, [2]int{1, 0}, [2]int{2, 1}, [2]int{3, 2}), []string{
			"game.settings.deals[0] added: {cards 5, leader 3}"}},
		{"a deal inserted in the middle", three, listed([2]int{1, 0}, [2]int{5, 3}, [2]int{2, 1}, [2]int{3, 2}), []string{
			"game.settings.deals[1] added: {cards 5, leader 3}"}},
		{"the first deal removed", three, listed([2]int{2, 1}, [2]int{3, 2}), []string{
			"game.settings.deals[0] removed (was {cards 1, leader 0})"}},
		{"a deal in the middle changed and one inserted after it", three, listed([2]int{1, 0}, [2]int{2, 2}, [2]int{7, 1}, [2]int{3, 2}), []string{
			"game.settings.deals[1].leader: 1 → 2", "game.settings.deals[2] added: {cards 7, leader 1}"}},
		{"the same deal once more", listed([2]int{1, 0}, [2]int{1, 0}), listed([2]int{1, 0}, [2]int{1, 0}, [2]int{1, 0}), []string{
			"game.settings.deals[2] added: {cards 1, leader 0}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, Diff(tc.old, tc.new)); d != "" {
				t.Errorf("Diff (-want +got):\n%s", d)
			}
		})
	}
}

// TestDiffPathNames checks that a name in a path is quoted when it would
// not read as one step of it: a dot would read as two.
func TestDiffPathNames(t *testing.T) {
	old, p := diffBase(), diffBase()
	for _, q := range []*Plan{old, p} {
		q.Bots[0].Name = "alice.v2"
		q.Game.Settings = json.RawMessage(`{"a.b":1,"my key":1,"plain":1}`)
	}
	p.Bots[0].Command = []string{"python3", "alice2.py"}
	p.Game.Settings = json.RawMessage(`{"a.b":2,"my key":2,"plain":2}`)
	want := []string{
		`game.settings."a.b": 1 → 2`,
		`game.settings."my key": 1 → 2`,
		`game.settings.plain: 1 → 2`,
		`bots."alice.v2".command[1]: alice.py → alice2.py`,
	}
	if d := cmp.Diff(want, Diff(old, p)); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
}

// TestDiffMatchFields checks that a change to the matches' fields is
// named whatever else changed in them: each change that several matches
// share, with how many, and not what differs from match to match (a
// seed), which the count line tells.
func TestDiffMatchFields(t *testing.T) {
	four := func() *Plan {
		p := diffBase()
		p.Matches = append(p.Matches,
			Match{ID: "r3", Round: 3, Group: 1, Shift: 1, Seed: 5, Seats: []string{"alice", "keeper"}, Clock: drivers.Clock{Total: drivers.Duration(5 * time.Minute)}},
			Match{ID: "r4", Round: 4, Group: 1, Shift: 1, Seed: 6, Seats: []string{"keeper", "alice"}, Clock: drivers.Clock{Total: drivers.Duration(5 * time.Minute)}})
		return p
	}
	for _, tc := range []struct {
		name   string
		change func(p *Plan)
		want   []string
	}{
		{"the seed and every clock", func(p *Plan) {
			p.Seed = 8
			for i := range p.Matches {
				p.Matches[i].Seed = uint64(100 + i)
				p.Matches[i].Clock.Total = drivers.Duration(4 * time.Minute)
			}
		}, []string{"seed: 777 → 8", "matches[*].clock.total: 5m0s → 4m0s (4 matches)", "matches: 4 → 4, 4 changed (r1, r2 and 2 more)"}},
		{"clocks changed by different amounts", func(p *Plan) {
			for i := range p.Matches {
				p.Matches[i].Clock.Total = drivers.Duration(time.Duration(3+i%2) * time.Minute)
			}
		}, []string{"matches[*].clock.total: 5m0s → 3m0s (2 matches)", "matches[*].clock.total: 5m0s → 4m0s (2 matches)", "matches: 4 → 4, 4 changed (r1, r2 and 2 more)"}},
		{"a clock in some matches, the seats in others", func(p *Plan) {
			p.Matches[0].Clock.Total = drivers.Duration(4 * time.Minute)
			p.Matches[1].Clock.Total = drivers.Duration(4 * time.Minute)
			p.Matches[2].Seats = []string{"keeper", "alice"}
			p.Matches[3].Seats = []string{"alice", "keeper"}
		}, []string{"matches[*].clock.total: 5m0s → 4m0s (2 matches)", "matches: 4 → 4, 4 changed (r1, r2 and 2 more)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := four()
			tc.change(p)
			if d := cmp.Diff(tc.want, Diff(four(), p)); d != "" {
				t.Errorf("Diff (-want +got):\n%s", d)
			}
		})
	}
}
