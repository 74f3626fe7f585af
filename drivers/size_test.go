package drivers

import (
	"math/big"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   cty.Value
		want int64
		err  string // part of the error; "" for none
	}{
		{cty.NumberIntVal(0), 0, ""},
		{cty.NumberIntVal(4096), 4096, ""},
		{cty.StringVal("4096"), 4096, ""},
		{cty.StringVal("7B"), 7, ""},
		{cty.StringVal("10kB"), 10_000, ""},
		{cty.StringVal("10KB"), 10_000, ""},
		{cty.StringVal("10MB"), 10_000_000, ""},
		{cty.StringVal("2GB"), 2_000_000_000, ""},
		{cty.StringVal("512KiB"), 512 << 10, ""},
		{cty.StringVal("400MiB"), 400 << 20, ""},
		{cty.StringVal("1GiB"), 1 << 30, ""},
		{cty.StringVal(" 400 mib "), 400 << 20, ""},
		{cty.StringVal("0MB"), 0, ""},
		{cty.NumberIntVal(-1), 0, "not a whole number of bytes"},
		{cty.NumberFloatVal(1.5), 0, "not a whole number of bytes"},
		{cty.NumberVal(new(big.Float).SetFloat64(1e30)), 0, "not a whole number of bytes"},
		{cty.StringVal("10XB"), 0, `unknown unit "XB"`},
		{cty.StringVal("400 megs"), 0, `unknown unit "megs"`},
		{cty.StringVal("1.5GB"), 0, "not a whole number followed by a unit"},
		{cty.StringVal("-3MB"), 0, "not a whole number followed by a unit"},
		{cty.StringVal("MB"), 0, "not a whole number followed by a unit"},
		{cty.StringVal(""), 0, "not a whole number followed by a unit"},
		{cty.StringVal("99999999999GiB"), 0, "too large"},
		{cty.StringVal("99999999999999999999"), 0, "too large"},
		{cty.True, 0, "found bool"},
		{cty.NullVal(cty.String), 0, "no value"},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("ParseSize(%#v): %v", tt.in, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseSize(%#v) = %d, %v; want an error saying %q", tt.in, got, err, tt.err)
		case tt.err == "" && got != tt.want:
			t.Errorf("ParseSize(%#v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
