package board

import "testing"

// A number that is not whole is told with its value and the range the
// setting takes, not in HCL's words (a whole number between
// -9223372036854775808 and 9223372036854775807) nor as "not number".
func TestNotAWholeNumber(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`board { size = 5.5 }`, "size must be a whole number from 1 up, not 5.5."},
		{"board {\n  size = 5\n  random = 1.5\n}", "random must be a whole number from 0 up, not 1.5."},
		{"board {\n  size = 5\n  seed = \"x\"\n}", `seed must be a whole number from 0 up, not "x".`},
	} {
		_, diags := parse(t, "t.hcl", tt.src)
		if len(diags) != 1 || diags[0].Detail != tt.want {
			t.Errorf("%s: %v, want one error %q", tt.src, diags, tt.want)
		}
	}
}
