package drivers

import (
	"fmt"

	"github.com/agext/levenshtein"
)

// Closest is the name of known that name is a typo of, or "": the
// nearest by edit distance, if it is near for names of their length. A
// distance of up to three, but at most half the longer name, is a typo
// (gmae for game, leadr for leader, tournamnet for tournament); more
// says that the two names have little in common, and a suggestion would
// only mislead (zz is not a typo of a).
func Closest(name string, known []string) string {
	best, bestDist := "", 4
	for _, k := range known {
		d := levenshtein.Distance(name, k, nil)
		if d < bestDist && 2*d <= max(len(name), len(k)) {
			best, bestDist = k, d
		}
	}
	return best
}

// Suggest is " (did you mean "x"?)" for the name of known that name is
// a typo of (Closest), or "", to end a message that name is unknown.
func Suggest(name string, known []string) string {
	best := Closest(name, known)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
