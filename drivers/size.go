package drivers

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// sizeRE is a size written as a string: digits, then an optional unit,
// with spaces allowed around and between them ("10MB", "512 KiB", "4096").
var sizeRE = regexp.MustCompile(`^\s*([0-9]+)\s*([A-Za-z]*)\s*$`)

// sizeUnits are the units of a size, lower-cased: decimal (kB, MB, GB,
// powers of 1000) and binary (KiB, MiB, GiB, powers of 1024).
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
}

// ParseSize reads a size as every configuration block writes one (a
// limits block's memory, files and output, a game's file quota): a whole
// number of bytes, given as a number or a string of digits, or a string of
// digits followed by a unit, B, kB, MB, GB (powers of 1000) or KiB, MiB,
// GiB (powers of 1024), in any letter case. It returns a size from 0 up;
// the caller checks its own lower bound and reports the error at the
// attribute's range, so the message names the file and line.
func ParseSize(v cty.Value) (int64, error) {
	if v.IsNull() || !v.IsKnown() {
		return 0, errors.New("it has no value")
	}
	switch v.Type() {
	case cty.Number:
		n, acc := v.AsBigFloat().Int64()
		if acc != 0 || n < 0 || !v.AsBigFloat().IsInt() {
			return 0, fmt.Errorf("%s is not a whole number of bytes from 0 up", NumberText(v.AsBigFloat()))
		}
		return n, nil
	case cty.String:
	default:
		return 0, fmt.Errorf("found %s, not a number or a string", v.Type().FriendlyName())
	}
	s := v.AsString()
	m := sizeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a whole number followed by a unit", s)
	}
	unit, ok := sizeUnits[strings.ToLower(m[2])]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q in %q (use B, kB, MB, GB, KiB, MiB or GiB)", m[2], s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n > math.MaxInt64/unit {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * unit, nil
}

// FormatSize writes n bytes as a size a limits block takes: with the
// largest binary or decimal unit it is a whole number of ("400MiB",
// "10MB"), else in bytes ("1000B"; over 1 MiB, MiB to a tenth).
func FormatSize(n int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}} {
		if n >= u.n && n%u.n == 0 {
			return fmt.Sprintf("%d%s", n/u.n, u.name)
		}
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%dB", n)
}
