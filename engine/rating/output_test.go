package rating

import (
	"fmt"
	"strings"
	"testing"
)

// Rows are bayeselo's table unrounded: rounded as WriteTable rounds them,
// they give its lines, in its order.
func TestRowsAreTheTable(t *testing.T) {
	names, games := readRef(t)
	r, err := Fit(names, games, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	plus, minus := r.ExactDist()
	var table strings.Builder
	if err := r.WriteTable(&table, plus, minus); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n")[1:]
	rows := r.Rows(plus, minus)
	if len(rows) != len(lines) {
		t.Fatalf("%d rows, %d lines in the table", len(rows), len(lines))
	}
	for k, row := range rows {
		if row.Wins+row.Draws+row.Losses != row.Games {
			t.Errorf("row %d: %d+%d+%d is not %d games", k, row.Wins, row.Draws, row.Losses, row.Games)
		}
		got := strings.Fields(fmt.Sprintf("%d %s %d %d %d %d %d%% %d %d%%", row.Rank, row.Player,
			roundHalfAway(row.Elo), roundHalfAway(row.Plus), roundHalfAway(row.Minus), row.Games,
			roundHalfAway(100*row.Score), roundHalfAway(row.Opponent), roundHalfAway(100*row.DrawRate)))
		if want := strings.Fields(lines[k]); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("row %d: %v, the table says %v", k, got, want)
		}
	}
}
