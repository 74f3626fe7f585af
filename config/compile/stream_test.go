package compile

import (
	"bytes"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Stream's matches, walked any number of times, are Compile's, and so
// are its hash and its plan as JSON.
func TestStreamIsCompile(t *testing.T) {
	bots := []string{"a", "b", "c", "d", "e", "f1", "f2"}
	for name, body := range map[string]string{
		"groups with fill": `bots = [bot.a, bot.b, bot.c, bot.d, bot.e]
			fill = [bot.f1, bot.f2]
			players = 3
			rounds = 3
			seats = "rotate"
			seed = 5`,
		"round robin": `bots = [bot.a, bot.b, bot.c, bot.d]
			format = "round-robin"
			players = 2
			rounds = 4
			seats = "swap"
			deal = "per-group"`,
		"swiss, later rounds": `bots = [bot.a, bot.b, bot.c, bot.d]
			format = "swiss"
			players = 2
			rounds = 3`,
	} {
		t.Run(name, func(t *testing.T) {
			cfg := load(t, bots, body)
			want, diags := Compile(cfg, cfg.Tournaments[0])
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			p, ms, n, diags := Stream(cfg, cfg.Tournaments[0])
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if p.Matches != nil || n != len(want.Matches) || p.Hash != want.Hash || want.Hash != want.ComputeHash() {
				t.Fatalf("Stream: %d matches listed, n %d, hash %.12s; Compile: %d matches, hash %.12s", len(p.Matches), n, p.Hash, len(want.Matches), want.Hash)
			}
			for range 2 {
				var got []plan.Match
				ms(func(m *plan.Match) bool {
					c := *m
					c.Seats = slices.Clone(m.Seats)
					got = append(got, c)
					return true
				})
				if diff := cmp.Diff(want.Matches, got); diff != "" {
					t.Fatalf("Stream's matches differ from Compile's (-want +got):\n%s", diff)
				}
			}
			var a, b bytes.Buffer
			if err := want.Encode(&a, true); err != nil {
				t.Fatal(err)
			}
			if err := p.EncodeSeq(&b, true, ms); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("EncodeSeq of Stream differs from Encode of Compile:\n%s\n%s", b.Bytes(), a.Bytes())
			}
		})
	}
}
