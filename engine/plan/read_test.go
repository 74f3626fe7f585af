package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

func testPlan() *Plan {
	p := &Plan{Version: Version, Tournament: "t", Game: Game{Driver: "d", Name: "g", Settings: json.RawMessage(`{}`)},
		Format: tournament.Groups, Seats: tournament.Swap, Deal: tournament.PerMatch, Seed: 1, Rounds: 1, Players: 2,
		Bots: []Bot{{Name: "a", House: "d/x"}, {Name: "b", Command: []string{"./b"}, Dir: "bots"}},
		Matches: []Match{{ID: "r001-g01-s1", Round: 1, Group: 1, Shift: 1, Seed: 7, Seats: []string{"a", "b"}},
			{ID: "r001-g01-s2", Round: 1, Group: 1, Shift: 2, Seed: 9, Seats: []string{"b", "a"}}}}
	p.Hash = p.ComputeHash()
	return p
}

func encode(t *testing.T, p *Plan) []byte {
	t.Helper()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseReadsWhatIsWritten(t *testing.T) {
	b := encode(t, testPlan())
	p, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if again := encode(t, p); string(again) != string(b) {
		t.Errorf("a plan read and written again changed:\n%s\nwas\n%s", again, b)
	}
}

// refusals are plans that Parse refuses, with what its error says.
func refusals(t *testing.T) []struct{ name, src, want string } {
	rehash := func(f func(p *Plan)) []byte {
		p := testPlan()
		f(p)
		p.Hash = p.ComputeHash()
		return encode(t, p)
	}
	good := string(encode(t, testPlan()))
	return []struct{ name, src, want string }{
		{"edited", strings.Replace(good, `"seed": 7`, `"seed": 8`, 1), "does not match its hash"},
		{"unknown field", strings.Replace(good, `"tournament": "t",`, `"tournament": "t", "extra": 1,`, 1), `unknown field "extra"`},
		{"unknown match field", strings.Replace(good, `"seed": 7,`, `"seed": 7, "extra": 1,`, 1), `unknown field "extra"`},
		{"two objects", good + good, "more follows"},
		{"unknown format", strings.Replace(good, `"format": "groups"`, `"format": "knockout"`, 1), `unknown format "knockout"`},
		{"not JSON", "tournament \"t\" {}", "not a plan"},
		{"truncated", good[:len(good)-40], "not a plan"},
		{"other version", string(rehash(func(p *Plan) { p.Version = Version + 1 })), "version"},
		{"stranger seated", string(rehash(func(p *Plan) { p.Matches[0].Seats[1] = "z" })), `seats "z"`},
		{"no matches", string(rehash(func(p *Plan) { p.Matches = nil })), "no matches"},
		{"empty matches", string(rehash(func(p *Plan) { p.Matches = []Match{} })), "no matches"},
		{"bot without command", string(rehash(func(p *Plan) { p.Bots[1].Command = nil })), "neither"},
		{"no driver", string(rehash(func(p *Plan) { p.Game.Driver = "" })), "no game driver"},
		// What the configuration's compiler never makes, by the rules
		// it makes plans by.
		{"id twice", string(rehash(func(p *Plan) { p.Matches[1].ID = p.Matches[0].ID })), `match "r001-g01-s1" (the 2nd of the list): its id is listed twice`},
		{"id a path", string(rehash(func(p *Plan) { p.Matches[1].ID = "../../x" })), `its id is not letters`},
		{"seats fewer than players", string(rehash(func(p *Plan) { p.Matches[1].Seats = []string{"a"} })), "it has 1 seats, but its matches seat players = 2"},
		{"players 0", string(rehash(func(p *Plan) { p.Players = 0 })), "players is 0, but it is a whole number from 1 to 1000"},
		{"players 0 and no seats", string(rehash(func(p *Plan) {
			p.Players = 0
			for i := range p.Matches {
				p.Matches[i].Seats = nil
			}
		})), "it has no seats"},
		{"round out of range", string(rehash(func(p *Plan) { p.Matches[1].Round = -1 })), "its round is -1, but rounds run from 1 to 1"},
		{"rounds 0", string(rehash(func(p *Plan) { p.Rounds = 0 })), "its round is 1, but rounds run from 1 to 0"},
		{"negative clock", string(rehash(func(p *Plan) { p.Matches[0].Clock.Total = -drivers.Duration(1e9) })), "its clock's total is negative (-1s)"},
		{"a match missing", string(rehash(func(p *Plan) { p.Matches = p.Matches[:1] })), "matches: it lists 1, but 1 round(s) of 1 group(s) of 2 seating(s) are 2"},
		{"swap of three", string(rehash(func(p *Plan) {
			p.Players = 3
			for i := range p.Matches {
				p.Matches[i].Seats = append(p.Matches[i].Seats, "a")
			}
		})), `seats: seats = "swap" plays both orders of two bots, but players is 3`},
		{"later pairing no format makes", string(rehash(func(p *Plan) { p.Later = &Later{Pairing: tournament.ByScore, From: 0} })), `later: the rounds of format groups with these settings are paired "" from round 0, not "swiss" from round 0`},
		{"later revision unknown", string(rehash(func(p *Plan) { p.Later = &Later{Revision: 99} })),
			"later.revision is 99, but this arbiter pairs by revisions 0 to "},
		{"later revision without pairing", string(rehash(func(p *Plan) { p.Later = &Later{Revision: 1} })), "later.revision is 1, but the plan pairs no rounds"},
		{"not enough fill", string(rehash(func(p *Plan) {
			p.Rounds, p.Format, p.Seats, p.Players = 2, tournament.Swiss, tournament.Rotate, 3
			p.Later = &Later{Pairing: tournament.ByScore, From: 2}
			p.Matches = p.ListedRound(1, [][]string{{"a", "b", "a"}}, drivers.Clock{}, nil)
		})), "format swiss: 2 bots make 1 group(s) of 3 seats, so up to 1 seat(s) of a group must be filled"},
		{"sprt alpha", string(rehash(func(p *Plan) {
			p.Stop = &Stop{SPRT: &SPRT{Candidate: "a", Elo0: 0, Elo1: 5, Alpha: 5, Beta: 0.05}}
		})), "stop.sprt.alpha: alpha must be a number between 0 and 0.5 (exclusive), not 5."},
		{"sprt bounds", string(rehash(func(p *Plan) {
			p.Stop = &Stop{SPRT: &SPRT{Candidate: "a", Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}}
		})), "stop.sprt.elo1: elo0 (5) must be less than elo1 (0)"},
		{"max_matches", string(rehash(func(p *Plan) { p.Stop = &Stop{MaxMatches: -1} })), "stop.max_matches: max_matches must be a whole number"},
		{"bot name a path", string(rehash(func(p *Plan) {
			p.Bots[1].Name = "../b"
			p.Matches[0].Seats[1], p.Matches[1].Seats[0] = "../b", "../b"
		})), `bot "../b": its name is not letters`},
		{"memory too small", string(rehash(func(p *Plan) { p.Bots[1].Limits = &drivers.Limits{Memory: 400} })), `bot "b": limits.memory: memory is 400B, but the smallest memory limit is 1MiB`},
		{"output too small", string(rehash(func(p *Plan) { p.Bots[1].Limits = &drivers.Limits{Output: 1} })), `bot "b": limits.output: output is 1B, but the smallest output limit is 2B`},
		{"move under the clock floor", string(rehash(func(p *Plan) { p.Matches[1].Clock.Move = drivers.Duration(500e3) })), "its clock's move is 500µs, but the shortest limit is 1ms"},
		{"tournament a path", string(rehash(func(p *Plan) { p.Tournament = "../t" })), `tournament "../t" is not a name`},
		{"tournament name too long", string(rehash(func(p *Plan) { p.Tournament = strings.Repeat("t", tournament.MaxNameBytes+1) })), `bytes, but a name has at most 200`},
		{"bot name too long", string(rehash(func(p *Plan) {
			long := strings.Repeat("b", tournament.MaxNameBytes+1)
			p.Bots[1].Name = long
			p.Matches[0].Seats[1], p.Matches[1].Seats[0] = long, long
		})), `its name has 201 bytes, but a name has at most 200`},
		// Checked before anything lists the 12! seatings of the design.
		{"permute of twelve", string(rehash(func(p *Plan) {
			p.Players, p.Seats = 12, tournament.Permute
			for i := range p.Matches {
				p.Matches[i].Seats = slices.Repeat([]string{"a", "b"}, 6)
			}
		})), `seats: `},
		{"stage of no stage", string(rehash(func(p *Plan) { p.Matches[0].Stage = "final" })), `it belongs to stage "final", but the plan has no stages`},
	}
}

// stagedPlan is testPlan played as one stage of its two bots.
func stagedPlan() *Plan {
	p := testPlan()
	p.Stages = []Stage{{Name: "s", Format: tournament.RoundRobin, Players: 2, Rounds: 1, Seats: tournament.Swap,
		Pools: 1, Split: "random", Bots: []Pick{{Bot: "a"}, {Bot: "b"}}, Clock: drivers.Clock{Total: drivers.Duration(time.Minute)}}}
	for i := range p.Matches {
		p.Matches[i].ID, p.Matches[i].Stage, p.Matches[i].Pool = fmt.Sprintf("s-A-r001-g01-s%d", i+1), "s", 1
	}
	p.Hash = p.ComputeHash()
	return p
}

// TestStagedPlanRefusesStop: a tournament in stages has no stopping rule
// (its configuration refuses a stop block), so a plan that holds both,
// which no arbiter compiled, is refused as it is read, rather than run
// to a stop that ends the tournament while its headline says its next
// stage is to come.
func TestStagedPlanRefusesStop(t *testing.T) {
	if _, err := Parse(encode(t, stagedPlan())); err != nil {
		t.Fatalf("a plan in stages without a stop: %v", err)
	}
	p := stagedPlan()
	p.Stop = &Stop{MaxMatches: 1}
	p.Hash = p.ComputeHash()
	_, err := Parse(encode(t, p))
	if want := "stop: a tournament in stages has no stopping rule"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a plan in stages with a stop: %v, want an error saying %q", err, want)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tt := range refusals(t) {
		if _, err := Parse([]byte(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

// Check, which streams the matches, accepts what Read accepts and refuses
// what it refuses with the same error; it reads the plan's fields and
// counts its matches as Read does, whatever the order of the fields.
func TestCheckIsRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tt := range refusals(t) {
		path := write(strings.ReplaceAll(tt.name, " ", "-"), tt.src)
		_, rerr := Read(path)
		_, _, cerr := Check(path)
		if rerr == nil || cerr == nil || rerr.Error() != cerr.Error() {
			t.Errorf("%s: Check says %v, Read %v", tt.name, cerr, rerr)
		}
	}

	big := testPlan()
	big.Rounds = 2
	big.Matches = big.ListedRound(1, [][]string{{"a", "b"}}, drivers.Clock{Move: drivers.Duration(1e9)}, nil)
	big.Matches = append(big.Matches, big.ListedRound(2, [][]string{{"a", "b"}}, drivers.Clock{}, []string{"v"})...)
	big.Hash = big.ComputeHash()
	var compact bytes.Buffer
	if err := big.Encode(&compact, false); err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(compact.Bytes(), &fields); err != nil {
		t.Fatal(err)
	}
	matchesFirst, _ := json.Marshal(fields) // keys sorted: "matches" before "players"
	dup := strings.Replace(string(encode(t, big)), `"seed": 1,`, `"seed": 2, "seed": 1,`, 1)
	for name, src := range map[string]string{"indented": string(encode(t, big)), "compact": compact.String(), "matches not last": string(matchesFirst), "repeated field": dup} {
		// The plans arbiter writes are streamed; the others read whole.
		_, _, _, err := checkStream(strings.NewReader(src))
		if streamed := name == "indented" || name == "compact"; streamed != (err == nil) {
			t.Errorf("%s: checkStream: %v", name, err)
		}
		path := write(strings.ReplaceAll(name, " ", "-"), src)
		want, err := Read(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, n, err := Check(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n != len(want.Matches) || got.Matches != nil {
			t.Errorf("%s: Check counts %d matches (and holds %d), Read reads %d", name, n, len(got.Matches), len(want.Matches))
		}
		want.Matches = nil
		if a, b := encode(t, got), encode(t, want); !bytes.Equal(a, b) {
			t.Errorf("%s: Check reads\n%s\nRead\n%s", name, a, b)
		}
	}
}

func TestDirIn(t *testing.T) {
	for _, tt := range []struct{ dir, want string }{{"bots/x", "/r/bots/x"}, {".", "/r"}, {"/abs/b", "/abs/b"}} {
		if got := (&Bot{Dir: tt.dir}).DirIn("/r"); got != tt.want {
			t.Errorf("dir %q in /r: %q, want %q", tt.dir, got, tt.want)
		}
	}
}

// A saved plan is not refused for limits validate only warns of (an
// output under 64 B, files under 4 KiB: bots have run under them), nor
// for a cpu limit under a second, which validate refuses but an earlier
// arbiter compiled and ran (enforced as a second), nor for a startup
// allowance under the clock floor, which cannot fault a bot.
func TestParseTakesWarnedLimits(t *testing.T) {
	p := testPlan()
	p.Bots[1].Limits = &drivers.Limits{Output: 16, Files: 1 << 10, CPU: "500ms"}
	p.Matches[0].Clock.Startup = drivers.Duration(500e3)
	p.Hash = p.ComputeHash()
	if _, err := Parse(encode(t, p)); err != nil {
		t.Errorf("Parse: %v, want the plan taken", err)
	}
}
