package engine

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestDocsNameEveryMeasuredField: every field a replay leaves out as a
// time measured during the match (measured) is named where the docs
// list what differs from run to run, so that an organiser who compares
// two runs by the docs' list, as README tells contestants to, does not
// take a timing for a broken promise.
func TestDocsNameEveryMeasuredField(t *testing.T) {
	// Each place is a file and the text its list of timings starts with.
	places := []struct{ file, from string }{
		{"../README.md", "What differs from run to run"},
		{"../docs/results.md", "## What is the same from run to run"},
		{"../docs/plans.md", "A saved plan gives the same results"},
		{"../docs/replay.md", "For each match it prints whether"},
		{"../docs/drivers.md", "A time the driver measures"},
	}
	fields := make([]string, 0, len(measured))
	for f := range measured {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	for _, p := range places {
		b, err := os.ReadFile(p.file)
		if err != nil {
			t.Fatal(err)
		}
		_, para, ok := strings.Cut(string(b), p.from)
		if !ok {
			t.Fatalf("%s has no %q", p.file, p.from)
		}
		para, _, _ = strings.Cut(strings.TrimLeft(para, "\n"), "\n\n")
		for _, f := range fields {
			if !strings.Contains(para, "`"+f+"`") {
				t.Errorf("%s's paragraph %q does not name `%s`, which a replay leaves out as measured", p.file, p.from, f)
			}
		}
	}
}
