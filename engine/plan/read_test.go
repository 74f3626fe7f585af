package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/tournament"
)

func testPlan() *Plan {
	p := &Plan{Version: Version, Tournament: "t", Game: Game{Driver: "d", Name: "g", Settings: json.RawMessage(`{}`)},
		Format: tournament.Groups, Seats: tournament.Swap, Deal: tournament.PerMatch, Seed: 1, Rounds: 1, Players: 2,
		Bots:    []Bot{{Name: "a", House: "d/x"}, {Name: "b", Command: []string{"./b"}, Dir: "bots"}},
		Matches: []Match{{ID: "r001-g01-s1", Round: 1, Group: 1, Shift: 1, Seed: 7, Seats: []string{"a", "b"}}}}
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

func TestParseRefuses(t *testing.T) {
	rehash := func(f func(p *Plan)) []byte {
		p := testPlan()
		f(p)
		p.Hash = p.ComputeHash()
		return encode(t, p)
	}
	good := string(encode(t, testPlan()))
	for _, tt := range []struct {
		name, src, want string
	}{
		{"edited", strings.Replace(good, `"seed": 7`, `"seed": 8`, 1), "does not match its hash"},
		{"unknown field", strings.Replace(good, `"tournament": "t",`, `"tournament": "t", "extra": 1,`, 1), `unknown field "extra"`},
		{"two objects", good + good, "more follows"},
		{"unknown format", strings.Replace(good, `"format": "groups"`, `"format": "knockout"`, 1), `unknown format "knockout"`},
		{"not JSON", "tournament \"t\" {}", "not a plan"},
		{"other version", string(rehash(func(p *Plan) { p.Version = Version + 1 })), "version"},
		{"stranger seated", string(rehash(func(p *Plan) { p.Matches[0].Seats[1] = "z" })), `seats "z"`},
		{"no matches", string(rehash(func(p *Plan) { p.Matches = nil })), "no matches"},
		{"bot without command", string(rehash(func(p *Plan) { p.Bots[1].Command = nil })), "neither"},
	} {
		if _, err := Parse([]byte(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
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
