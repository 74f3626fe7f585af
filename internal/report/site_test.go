package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stats"
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
	// As `arbiter rank testdata/staged` prints them: b, d and f tie in the
	// final (mean place 2, each 1-1 against the others), so by name.
	want := []row{{1, "b", "final", "gold"}, {2, "d", "final", "silver"}, {3, "f", "final", "silver"},
		{4, "a", "final", ""}, {5, "c", "groups", ""}, {6, "e", "groups", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings (-rank +page):\n%s", diff)
	}
	// The final's stage file was made by an arbiter from before ties were
	// ordered by whole Elo: it seeds d before f, today's f before d. The
	// file is what was played: it is read, and the page says it differs.
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "testdata/staged/rounds/stage-final.json is not the stage that the plan and testdata/staged/results.jsonl make") {
		t.Errorf("warnings: %q", s.Warnings)
	}
	// All of it is what rank computes.
	p, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ranked, _, err := engine.RankDir(dir, p, results, all.Driver)
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

// TestLoadEuchreStderr: a Euchre seat's bot plays two positions, each
// with its stderr file (pos<N>-<bot>.stderr); the page shows the end of
// both, each under its position.
func TestLoadEuchreStderr(t *testing.T) {
	s, err := Load("testdata/euchre")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Matches[0]
	if m.Seats[1].Bot != "bad" || m.Seats[1].Defaults == 0 {
		t.Fatalf("seat 1 of %s is %+v, not the bad bot with defaults", m.Match, m.Seats[1])
	}
	got := m.Stderr[1]
	for _, want := range []string{"position 1 (pos1-bad.stderr)", "bad at 1\n", "position 3 (pos3-bad.stderr)", "bad at 3\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("seat 1's stderr on the page does not hold %q:\n%s", want, got)
		}
	}
	if i1, i3 := strings.Index(got, "position 1"), strings.Index(got, "position 3"); i1 > i3 {
		t.Errorf("position 3 comes before position 1:\n%s", got)
	}
	if m.Stderr[0] != "" {
		t.Errorf("seat 0 made no fault, but its stderr is shown: %q", m.Stderr[0])
	}
}

// TestLoadStderrCutAtACharacter: the end of a stderr of two-byte
// characters, cut 2 KiB from its end in the middle of one, begins at the
// next character, not with half of one (shown as �).
func TestLoadStderrCutAtACharacter(t *testing.T) {
	s, err := Load("testdata/crash-planowanie")
	if err != nil {
		t.Fatal(err)
	}
	m := s.Matches[0]
	if m.Seats[3].Bot != "crash" || m.Seats[3].Fault == "" {
		t.Fatalf("seat 3 of %s is %+v, not the crash bot with its fault", m.Match, m.Seats[3])
	}
	got := m.Stderr[3]
	if !utf8.ValidString(got) || !strings.HasPrefix(got, "…é") || !strings.HasSuffix(got, "é\na\n") {
		t.Errorf("seat 3's stderr on the page is %q…%q; want …é, whole characters, to the end", got[:min(8, len(got))], got[max(0, len(got)-8):])
	}
	if n := len(strings.TrimPrefix(got, "…")); n > stderrExcerpt || n < stderrExcerpt-utf8.UTFMax {
		t.Errorf("seat 3's stderr on the page is %d bytes after the …; want up to %d, less what the cut left of a character", n, stderrExcerpt)
	}
}

// countAnswers counts what a seat was sent and charged for, not the quit
// (or Bricks' STOP) that ends its session.
func TestCountAnswersLeavesOutTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	lines := `{"t":1,"seat":0,"send":"set_deck 23456789TJQKA CDHS"}
{"t":2,"seat":0,"recv":"="}
{"t":3,"seat":1,"send":"gen_move"}
{"t":4,"seat":1,"recv":"= AS"}
{"t":5,"seat":0,"send":"quit"}
{"t":6,"seat":1,"send":"STOP"}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := countAnswers(path, 2)
	if err != nil || !slices.Equal(n, []int{1, 1}) {
		t.Errorf("countAnswers = %v, %v; want [1 1]", n, err)
	}
}

// TestHistoryHasNoPointBeforeFirstGame: the rating chart has no point
// (null) for a bot in the rounds before its first game, where the prior
// alone would put it at Elo 0, and a point once it has played.
func TestHistoryHasNoPointBeforeFirstGame(t *testing.T) {
	p := &plan.Plan{Bots: []plan.Bot{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Matches: []plan.Match{{ID: "r001-g01-s1", Round: 1}, {ID: "r002-g01-s1", Round: 2}}}
	results := []engine.Result{
		{Match: "r001-g01-s1", Round: 1, Seats: []stats.SeatResult{{Bot: "a", SeatResult: drivers.SeatResult{Score: 1}}, {Bot: "b"}}},
		{Match: "r002-g01-s1", Round: 2, Seats: []stats.SeatResult{{Bot: "c", SeatResult: drivers.SeatResult{Score: 1}}, {Bot: "a"}}},
	}
	st := &stats.Stats{Standings: []stats.Standing{{Bot: "a"}, {Bot: "b"}, {Bot: "c"}}}
	h, err := history(p, results, st)
	if err != nil {
		t.Fatal(err)
	}
	c := h.Elo[2]
	if len(c) != 2 || c[0] != nil || c[1] == nil {
		t.Errorf("c's Elo by round: %v, want no point in round 1 and one in round 2", c)
	}
}

// TestMatchesInPlanOrder: the page lists the finished matches in plan
// order (paired rounds, stages and playoffs as the run paired them), not
// in the order results.jsonl holds them, which is the order they finished
// in and differs with -j: the page's data is the same either way.
func TestMatchesInPlanOrder(t *testing.T) {
	for _, name := range []string{"placement", "staged"} {
		t.Run(name, func(t *testing.T) {
			dir := copyResults(t, name)
			path := filepath.Join(dir, engine.ResultsFile)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
			var want []string
			for _, l := range lines {
				var r struct{ Match string }
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatal(err)
				}
				want = append(want, r.Match) // testdata's lines are in plan order
			}
			// As -j 2 might have finished them: each pair the other way.
			for i := 0; i+1 < len(lines); i += 2 {
				lines[i], lines[i+1] = strings.TrimSuffix(lines[i+1], "\n")+"\n", strings.TrimSuffix(lines[i], "\n")+"\n"
			}
			if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range s.Matches {
				got = append(got, m.Match)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("matches (-plan order +page):\n%s", diff)
			}
		})
	}
}

// TestRunningInPlanOrder: the matches without a result yet are listed in
// plan order, as the finished ones are, not by id: group 100 of a round
// of 200 bots comes after group 99 (r001-g100-s1 sorts before
// r001-g99-s1), a playoff after the rounds. A folder the plan does not
// list comes last.
func TestRunningInPlanOrder(t *testing.T) {
	dir := t.TempDir()
	p := &plan.Plan{}
	want := []string{"r001-g99-s1", "r001-g100-s1", "r002-g01-s1", "playoff-1-g01-s1", "zz-unknown"}
	for _, id := range want[:4] {
		p.Matches = append(p.Matches, plan.Match{ID: id})
	}
	for _, id := range []string{"zz-unknown", "playoff-1-g01-s1", "r001-g98-s1", "r001-g100-s1", "r002-g01-s1", "r001-g99-s1"} {
		if err := os.MkdirAll(filepath.Join(dir, engine.MatchesDir, id), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := running(dir, p, map[string]bool{"r001-g98-s1": true})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("running (-plan order +listed):\n%s", diff)
	}
}
