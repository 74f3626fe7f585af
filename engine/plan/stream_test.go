package plan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestEncodeIsMarshal: Encode writes what json.Marshal and MarshalIndent
// write, byte for byte, with and without matches and with characters the
// encoder escapes, so streaming changes neither plan.json nor the hash.
func TestEncodeIsMarshal(t *testing.T) {
	full := &Plan{Version: Version, Tournament: "a<b>&c", Game: Game{Driver: "planowanie", Name: "é", Settings: json.RawMessage(`{"x":[1,2]}`)},
		Seed: 7, Rounds: 2, Players: 2, Bots: []Bot{{Name: "x", Env: map[string]string{"K": "v"}}, {Name: "y", Command: []string{"./y", "<&>"}}},
		Later: &Later{From: 2, Clock: drivers.Clock{Total: drivers.Duration(5e9)}}}
	full.Matches = full.ListedRound(1, [][]string{{"x", "y"}, {"y", "x"}}, drivers.Clock{Move: drivers.Duration(1e9)}, []string{"v<1>"})
	for name, p := range map[string]*Plan{"full": full, "no matches": {Tournament: "t", Bots: full.Bots}, "empty list": {Matches: []Match{}}} {
		for _, indent := range []bool{false, true} {
			var want []byte
			var err error
			if indent {
				want, err = json.MarshalIndent(p, "", "  ")
				want = append(want, '\n')
			} else {
				want, err = json.Marshal(p)
			}
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := p.Encode(&got, indent); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s, indent %v:\ngot  %s\nwant %s", name, indent, got.Bytes(), want)
			}
		}
	}
}
