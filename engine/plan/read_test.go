package plan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
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
	big.Matches = big.ListedRound(1, [][]string{{"a", "b"}, {"b", "a"}}, drivers.Clock{Move: drivers.Duration(1e9)}, nil)
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
		_, _, _, _, err := checkStream(strings.NewReader(src))
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
