package plan

import "testing"

// TestGradeOf checks the Blokus course's bands (the course's
// rules, B3B33ALP's seed document: top 10 %, 20 %, 40 % of the final ranking) on a
// course of 30 and of 4.
func TestGradeOf(t *testing.T) {
	p := &Plan{Grades: []Grade{{"+1", 40}, {"+3", 10}, {"+2", 20}}}
	want30 := map[int]string{1: "+3", 3: "+3", 4: "+2", 6: "+2", 7: "+1", 12: "+1", 13: "", 30: ""}
	for rank, want := range want30 {
		if got := p.GradeOf(rank, 30); got != want {
			t.Errorf("rank %d of 30: grade %q, want %q", rank, got, want)
		}
	}
	want4 := map[int]string{1: "+1", 2: "", 4: ""}
	for rank, want := range want4 {
		if got := p.GradeOf(rank, 4); got != want {
			t.Errorf("rank %d of 4: grade %q, want %q", rank, got, want)
		}
	}
	if got := (&Plan{}).GradeOf(1, 10); got != "" {
		t.Errorf("no grades: %q", got)
	}
}
