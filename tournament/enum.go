package tournament

import (
	"fmt"
	"strings"
)

// value is what the enumerated types of this package have in common.
type value interface {
	~uint8
	fmt.Stringer
}

// parse finds the value of all named s; kind names the type in the error.
func parse[T value](all []T, kind, s string) (T, error) {
	for _, v := range all {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q: this arbiter knows %s", kind, s, Names(all))
}

// Names lists the names of values, quoted and separated by commas, as
// messages show the choices.
func Names[T fmt.Stringer](values []T) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v.String())
	}
	return strings.Join(q, ", ")
}

// Problem is a setting of a tournament that cannot work, as a format or
// seat design finds it; the configuration reports it at Attr, the
// tournament block's attribute it concerns ("" for the block itself).
type Problem struct {
	Attr    string
	Summary string
	Detail  string
}
