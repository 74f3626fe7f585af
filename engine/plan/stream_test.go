package plan

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
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

// The match encoder writes what encoding/json writes for any match: ids,
// names, variants and stages with characters it escapes, nil and empty
// seats, every optional field set or not, clocks changing or not.
func TestMatchEncoderIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	strs := []string{"", "r001-g01-s1", "a<b>&c", "quote\"back\\slash", "tab\there\nnl", "é ü 漢", "\u2028\u2029", "bad\xffutf8", "ctl\x01\x7f", "x"}
	str := func() string { return strs[rng.IntN(len(strs))] }
	clocks := []drivers.Clock{{}, {Total: drivers.Duration(6e10)}, {Move: drivers.Duration(1e9), Turn: drivers.Duration(2e9), Startup: drivers.Duration(5e8)}}
	var enc matchEncoder
	for i := range 2000 {
		m := Match{ID: str(), Round: rng.IntN(1000) - 5, Group: rng.IntN(100), Shift: rng.IntN(5), Seed: rng.Uint64() >> uint(rng.IntN(64)),
			Variant: str(), Clock: clocks[rng.IntN(len(clocks))], Stage: str(), Pool: rng.IntN(3) - 1}
		switch rng.IntN(4) {
		case 0:
		case 1:
			m.Seats = []string{}
		default:
			for range 1 + rng.IntN(4) {
				m.Seats = append(m.Seats, str())
			}
		}
		for _, indent := range []bool{false, true} {
			var want []byte
			var err error
			if indent {
				want, err = json.MarshalIndent(&m, "    ", "  ")
			} else {
				want, err = json.Marshal(&m)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := enc.append(nil, &m, indent)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("match %d, indent %v:\ngot  %s\nwant %s", i, indent, got, want)
			}
		}
	}
}
