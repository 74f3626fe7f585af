package main

import (
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/stats"
)

// The standings show a Stage column when some bot has a stage and a Grade
// column when some bot has a grade, each on its own.
func TestStageAndGradeColumnsApart(t *testing.T) {
	for _, tt := range []struct {
		st         []stats.Standing
		stage, grd bool
	}{
		{[]stats.Standing{{Rank: 1, Bot: "a", Grade: "gold"}, {Rank: 2, Bot: "b"}}, false, true},
		{[]stats.Standing{{Rank: 1, Bot: "a", Stage: "final"}, {Rank: 2, Bot: "b", Stage: "groups"}}, true, false},
		{[]stats.Standing{{Rank: 1, Bot: "a", Stage: "final", Grade: "gold"}}, true, true},
		{[]stats.Standing{{Rank: 1, Bot: "a"}}, false, false},
	} {
		var b strings.Builder
		if err := writeStandings(&b, tt.st); err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(b.String(), "\n")
		if strings.Contains(header, "Stage") != tt.stage || strings.Contains(header, "Grade") != tt.grd {
			t.Errorf("%+v: header %q, want Stage %v, Grade %v", tt.st, header, tt.stage, tt.grd)
		}
	}
}
