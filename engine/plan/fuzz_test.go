package plan

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzParse: any bytes given as a saved plan are a plan that passes its
// checks or an error, never a crash; and so are they when whoever edited
// them made the hash match again (the hash is no signature), which takes
// the fuzzer past the hash to the checks of a plan's content.
func FuzzParse(f *testing.F) {
	for _, path := range []string{
		"../testdata/field12/plan.json",
		"../../internal/report/testdata/staged/plan.json",
		"../../internal/report/testdata/placement/plan.json",
		"../../internal/report/testdata/euchre4/plan.json",
		"../../internal/report/testdata/auction/plan.json",
		"../../internal/report/testdata/slow-blokus/plan.json",
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := Parse(b); err == nil && p == nil {
			t.Fatal("Parse: no plan and no error")
		}
		var p Plan
		if json.Unmarshal(b, &p) != nil {
			return
		}
		p.Hash = p.ComputeHash()
		rehashed, err := json.Marshal(&p)
		if err != nil {
			return
		}
		if q, err := Parse(rehashed); err == nil && q == nil {
			t.Fatal("Parse: no plan and no error")
		}
	})
}
