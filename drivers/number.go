package drivers

import (
	"math/big"
	"strings"
)

// NumberText writes a number of a configuration for a message as its
// author would write it: a whole number in digits (9223372036854775808,
// not 9.223372036854775808e+18, which reads as a fraction someone
// rounded), anything else in the shortest form that reads back the same
// (2.5, 1e-30). A whole number of more than 30 digits is written with an
// exponent too (1e+30): its digits would say nothing more.
func NumberText(f *big.Float) string {
	if f.IsInt() && !f.IsInf() {
		if digits := f.Text('f', 0); len(strings.TrimPrefix(digits, "-")) <= 30 {
			return digits
		}
	}
	return f.Text('g', -1)
}

// Sentence capitalises a message and ends it with a full stop, as a
// diagnostic's detail reads.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// List joins words as a sentence lists them: "a", "a and b", "a, b and c".
func List(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
