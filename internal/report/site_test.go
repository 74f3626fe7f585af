package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/arbiter-contests/arbiter/engine"
)

// TestLoadStaged: the standings of a tournament in stages are `arbiter
// rank`'s, ranked by the last stage reached, with stages and grades, and
// headed as rank heads them.
func TestLoadStaged(t *testing.T) {
	const dir = "testdata/staged"
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Rank              int
		Bot, Stage, Grade string
	}
	var got []row
	for _, st := range s.Stats.Standings {
		got = append(got, row{st.Rank, st.Bot, st.Stage, st.Grade})
	}
	// As `arbiter rank testdata/staged` prints them.
	want := []row{{1, "d", "final", "gold"}, {2, "b", "final", "silver"}, {3, "f", "final", "silver"},
		{4, "a", "final", ""}, {5, "c", "groups", ""}, {6, "e", "groups", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings (-rank +page):\n%s", diff)
	}
	// All of it is what rank computes.
	p, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ranked, _, err := engine.RankDir(dir, p, results)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ranked, s.Stats, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("statistics (-rank +page):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"groups", "final"}, s.Stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	if want := "by the last stage reached, then place in its group (Stage)"; s.Ranked != want {
		t.Errorf("Ranked = %q, want %q", s.Ranked, want)
	}
}

// TestLoadPlayoffs: playoffs are counted apart from the planned matches,
// as `arbiter rank` counts them.
func TestLoadPlayoffs(t *testing.T) {
	s, err := Load("testdata/placement")
	if err != nil {
		t.Fatal(err)
	}
	if want := "12 of 12 matches finished, 6 playoff(s)"; s.Finished != want {
		t.Errorf("Finished = %q, want %q (arbiter rank's)", s.Finished, want)
	}
	if want := "by mean place, ties broken by playoffs"; s.Ranked != want {
		t.Errorf("Ranked = %q, want %q", s.Ranked, want)
	}
}
