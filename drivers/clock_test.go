package drivers

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestClockFloorOnlyOnAnswerLimits: total, move and turn under 1 ms
// would fault every bot and are refused; startup, an allowance added to
// a limit, cannot fault one and has no floor.
func TestClockFloorOnlyOnAnswerLimits(t *testing.T) {
	for _, tc := range []struct {
		attr string
		err  bool
	}{{"total", true}, {"move", true}, {"turn", true}, {"startup", false}} {
		src := "clock {\n  " + tc.attr + " = \"500us\"\n}\n"
		f, diags := hclsyntax.ParseConfig([]byte(src), "c.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		content, _ := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{ClockBlock}})
		_, diags = DecodeSessionClock(content.Blocks[0], &hcl.EvalContext{})
		if diags.HasErrors() != tc.err {
			t.Errorf("%s = \"500us\": %v, want an error: %v", tc.attr, diags, tc.err)
		}
	}
}
