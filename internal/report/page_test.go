package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/rating"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/browsertest"
)

// The page's script, in Chromium, on pages of the prepared results of
// testdata (cmd/arbiter's browser tests play tournaments of every game
// instead): one browser for all of them, a second or two each.

// openPage writes the page of results directory dir and opens it at
// hash ("" for the standings), waiting for its first view.
func openPage(t *testing.T, browser context.Context, dir, hash string) context.Context {
	t.Helper()
	page := filepath.Join(t.TempDir(), "report.html")
	if _, err := Write(dir, page); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Tab(t, browser, time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page+hash), chromedp.WaitReady("body[data-ready]")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// eval evaluates a script expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// standingsTable reads the standings table: its heads, and every row's
// cells by column.
const standingsTable = `(() => {
  const t = document.querySelector("#standings-table");
  return { heads: [...t.querySelectorAll("thead th")].map((th) => th.textContent),
    rows: [...t.querySelectorAll("tbody tr")].map((tr) => Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.col, td.textContent]))) };
})()`

// seatsWidth is the width of the replay's seats table, and of its place.
const seatsWidth = `(() => { const s = document.querySelector("#replay-seats"); return [s.scrollWidth, s.clientWidth]; })()`

type standingsView struct {
	Heads []string            `json:"heads"`
	Rows  []map[string]string `json:"rows"`
}

func TestPageInBrowser(t *testing.T) {
	browser := browsertest.New(t)

	// A tournament in stages: ranked as `arbiter rank` ranks it, with
	// its Stage and Grade columns, and a summary that names the stages.
	t.Run("staged", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/staged", "")
		got := eval[standingsView](t, ctx, standingsTable)
		site, err := Load("testdata/staged")
		if err != nil {
			t.Fatal(err)
		}
		type row struct{ Rank, Bot, Stage, Grade string }
		var want, rows []row
		for _, s := range site.Stats.Standings {
			want = append(want, row{strconv.Itoa(s.Rank), s.Bot, s.Stage, s.Grade})
		}
		for _, r := range got.Rows {
			rows = append(rows, row{r["rank"], r["bot"], r["stage"], r["grade"]})
		}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("standings (-data +page):\n%s", diff)
		}
		if n := len(got.Heads); n < 2 || got.Heads[n-2] != "stage" || got.Heads[n-1] != "grade" {
			t.Errorf("the standings' columns are %q, without stage and grade last", got.Heads)
		}
		// Under the standings, as under rank's: how each pool placed its
		// bots, by its own matches alone, last stage first.
		type table struct {
			Head string
			Rows []row
		}
		var wantTables []table
		for _, tb := range site.Stats.StageTables {
			name := "stage " + tb.Stage
			if tb.Group != "" {
				name += ", group " + tb.Group
			}
			var rows []row
			for _, s := range tb.Standings {
				rows = append(rows, row{Rank: strconv.Itoa(s.Rank), Bot: s.Bot})
			}
			wantTables = append(wantTables, table{fmt.Sprintf("How %s placed its bots: its own matches alone, ranked %s; bots still tied by Elo, then name", name, tb.RankedBy), rows})
		}
		if len(wantTables) != 3 {
			t.Fatalf("testdata/staged has %d stage tables, want 3 (the final, and the groups A and B)", len(wantTables))
		}
		gotTables := eval[[]table](t, ctx, `[...document.querySelectorAll("#stage-tables table")].map((t) => ({ Head: t.previousElementSibling.textContent,
  Rows: [...t.querySelectorAll("tbody tr")].map((tr) => ({ Rank: tr.querySelector("[data-col=rank]").textContent, Bot: tr.querySelector("[data-col=bot]").textContent })) }))`)
		if diff := cmp.Diff(wantTables, gotTables); diff != "" {
			t.Errorf("stage tables (-rank +page):\n%s", diff)
		}
		// Under them, the cuts of picks decided by Elo, then name, in
		// rank's words: group A's a and c tie at places 2 and 3, and the
		// final's b, d and f tie for the final ranking (a plan written
		// when stages played no playoffs, so none broke them).
		var wantCuts []string
		for _, c := range site.Stats.TiedCuts {
			wantCuts = append(wantCuts, c.String())
		}
		if len(wantCuts) != 3 {
			t.Fatalf("testdata/staged has %d tied cuts, want 3 (a over c in group A, b over d and d over f in the final)", len(wantCuts))
		}
		gotCuts := eval[[]string](t, ctx, `[...document.querySelectorAll("#stage-tables .tied-cuts li")].map((li) => li.textContent)`)
		if diff := cmp.Diff(wantCuts, gotCuts); diff != "" {
			t.Errorf("tied cuts (-rank +page):\n%s", diff)
		}
		// Their rows are the pool's own numbers, not the standings'.
		final := site.Stats.StageTables[0].Standings[0]
		if got := eval[string](t, ctx, `document.querySelector("#stage-tables table tbody tr [data-col=matches]").textContent`); got != strconv.Itoa(final.Matches) {
			t.Errorf("the first stage table gives %s %s matches, want %d, the final's", final.Bot, got, final.Matches)
		}
		summary := eval[string](t, ctx, `document.querySelector("#summary").textContent`)
		for _, s := range []string{`Game auction "g", in 2 stages (groups, final). 6 of 6 matches finished. Ranked by the last stage reached, then place in its group (Stage).`} {
			if !strings.Contains(summary, s) {
				t.Errorf("the summary says %q, not %q", summary, s)
			}
		}
	})
	// Without stages or grades there are no such columns; playoffs are
	// not counted among the planned matches.
	t.Run("playoffs", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/placement", "")
		got := eval[standingsView](t, ctx, standingsTable)
		// Playoffs counted apart, as `arbiter rank` counts them.
		summary := eval[string](t, ctx, `document.querySelector("#summary").textContent`)
		if want := `format round-robin, 2 seats a match. 12 of 12 matches finished, 6 playoff(s). Ranked by mean place, ties broken by playoffs.`; !strings.Contains(summary, want) {
			t.Errorf("the summary says %q, not %q", summary, want)
		}
		for _, h := range got.Heads {
			if h == "stage" || h == "grade" {
				t.Errorf("the standings of a tournament without stages have a %s column: %q", h, got.Heads)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("#stage-tables *").length`); n != 0 {
			t.Errorf("a tournament without stages shows %d elements of stage tables", n)
		}
		// A tie the playoffs did not break is said under the standings.
		if ties := eval[string](t, ctx, `document.querySelector("#ties").textContent`); ties != "Still tied in placement after the last playoff: greedy1, greedy2" {
			t.Errorf("under the standings: %q", ties)
		}
	})
	// A bot that could not play, alone at the mean place of one that
	// did, is ranked behind it without a playoff, and the page says so
	// under the standings, in rank's words.
	t.Run("not played off", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/unplayed", "")
		want := "Tied in placement, not played off: crash could not play (in every match a start or build fault, or every answer replaced by the game's default), " +
			"so it ranks behind the bots of its mean place that played, without a playoff; see its faults and defaults"
		if ties := eval[string](t, ctx, `document.querySelector("#ties").textContent`); ties != want {
			t.Errorf("under the standings: %q, want %q", ties, want)
		}
	})
	// A tie the game cannot seat (three bots of two-player Blokus) is
	// never played off: the page says the tie stands, in rank's words.
	t.Run("unseated", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/unseated", "")
		want := "Tied in placement, not played off: a, b, c: the game cannot seat 3 bots in one match, so the tie stands"
		if ties := eval[string](t, ctx, `document.querySelector("#ties").textContent`); ties != want {
			t.Errorf("under the standings: %q, want %q", ties, want)
		}
	})
	// A tie of a tournament its stopping rule ended (testdata/stopped:
	// cmd/arbiter's placement_stopped_tie script's run) is never played
	// off: the page says the tie stands, in rank's words.
	t.Run("stopped", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/stopped", "")
		want := "Tied in placement, not played off: greedy1, greedy2: the stopping rule ended the tournament, so the tie stands"
		if ties := eval[string](t, ctx, `document.querySelector("#ties").textContent`); ties != want {
			t.Errorf("under the standings: %q, want %q", ties, want)
		}
	})
	// A stage's playoff to come (made, none of its matches played): the
	// summary and the lines under the standings say so, as rank does,
	// and no cut is said to order the final ranking.
	t.Run("playoff to come", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/pending", "")
		summary := eval[string](t, ctx, `document.querySelector("#summary").textContent`)
		if want := "4 of 4 matches finished (playoff 1 of stage only to come)."; !strings.Contains(summary, want) {
			t.Errorf("the summary says %q, not %q", summary, want)
		}
		if ties := eval[string](t, ctx, `document.querySelector("#ties").textContent`); ties != "Tied in placement in stage only, playoff 1 to come: s1, s2" {
			t.Errorf("under the standings: %q", ties)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll(".tied-cuts li").length`); n != 0 {
			t.Errorf("%d cut(s) said to be decided while the playoff is to come", n)
		}
	})
	// The faults chart counts the answers replaced as the standings do
	// (stats.ReplacedAnswers, which Load writes per seat): crash's four
	// defaults when it ran and answered badly, none when it could not
	// be started, whose start fault is its only bar.
	t.Run("faults chart", func(t *testing.T) {
		unstarted := copyResults(t, "unplayed")
		editFile(t, filepath.Join(unstarted, engine.ResultsFile), func(s string) string {
			return strings.Replace(s, `{"bot":"crash","score":0.5,"place":2.5,"fault":"",`,
				`{"bot":"crash","score":0.5,"place":2.5,"fault":"start","detail":"could not be started",`, 1)
		})
		for _, c := range []struct {
			dir  string
			want []string
		}{
			{"testdata/unplayed", []string{"bot", "default answers"}},
			{unstarted, []string{"bot", "start"}},
		} {
			ctx := openPage(t, browser, c.dir, "#charts")
			got := eval[[]string](t, ctx, `[...document.querySelectorAll("#chart-faults .u-legend .u-label")].map((e) => e.textContent)`)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: the faults chart's series are %q, want %q", c.dir, got, c.want)
			}
		}
	})
	// The Stage column is a tournament in stages', the Grade column a
	// graded one's: each is shown when some bot has one, not the two
	// together (testdata/staged without its grades; placement, which has
	// no stages, graded).
	t.Run("stage-or-grade", func(t *testing.T) {
		staged := copyResults(t, "staged")
		editFile(t, filepath.Join(staged, "plan.json"), func(s string) string {
			return regexp.MustCompile(`(?s)\n\s*"grades": \[.*?\],`).ReplaceAllString(s, "")
		})
		graded := copyResults(t, "placement")
		editFile(t, filepath.Join(graded, "plan.json"), func(s string) string {
			return strings.Replace(s, `"matches": [`, `"grades": [{"label": "gold", "percent": 50}], "matches": [`, 1)
		})
		for _, c := range []struct {
			dir, column, not string
		}{{staged, "stage", "grade"}, {graded, "grade", "stage"}} {
			site, err := Load(c.dir)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, s := range site.Stats.Standings {
				if s.Stage != "" && c.column == "stage" || s.Grade != "" && c.column == "grade" {
					n++
				}
				if s.Stage != "" && c.not == "stage" || s.Grade != "" && c.not == "grade" {
					t.Fatalf("%s: bot %s has a %s: %+v", c.dir, s.Bot, c.not, s)
				}
			}
			if n == 0 {
				t.Fatalf("%s: no bot has a %s", c.dir, c.column)
			}
			ctx := openPage(t, browser, c.dir, "")
			got := eval[standingsView](t, ctx, standingsTable)
			if !slices.Contains(got.Heads, c.column) || slices.Contains(got.Heads, c.not) {
				t.Errorf("%s: the standings' columns are %q; want %s and no %s", filepath.Base(c.dir), got.Heads, c.column, c.not)
			}
			shown := 0
			for _, r := range got.Rows {
				if r[c.column] != "" {
					shown++
				}
			}
			if shown != n {
				t.Errorf("%s: %d rows show a %s, want %d", filepath.Base(c.dir), shown, c.column, n)
			}
		}
	})
	// A game that runs a process per move has no clock in its
	// transcript: every step shows the result's time_ms, said to be the
	// match's.
	for _, game := range []string{"auction", "euchre"} {
		t.Run("clock-"+game, func(t *testing.T) {
			dir := filepath.Join("testdata", game)
			site, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			m := site.Matches[0]
			var want []string
			for _, s := range m.Seats {
				want = append(want, fmt.Sprintf("%d ms (match total)", s.TimeMS))
			}
			ctx := openPage(t, browser, dir, "#match="+m.Match+"&step=3")
			waitStep(t, ctx, 3)
			got := eval[[]string](t, ctx, `[...document.querySelectorAll("#replay-seats tbody tr")].map((tr) => tr.children[3].textContent)`)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("clock used at step 3 (-time_ms +page):\n%s", diff)
			}
		})
	}
	// A game whose bots run for the whole match is timed from its
	// transcript as arbiter charges the clock: a command written together
	// with others (gen_move with the play or time_left before it) from
	// when the answer before it was read, a time-out till its fault. At
	// the last step each seat has used its result's time_ms (within a
	// few ms: the transcript's times are when lines were written and
	// read, not when arbiter started and stopped the clock), and the
	// answers column counts its responses, not the lines sent to it. A
	// start within the clock's start-up allowance is not charged, as
	// arbiter does not charge it (startup-blokus: a bot that takes 1.5 s
	// to start, under Blokus's 5 s allowance, and 0.3 s on a gen_move).
	// No clock is charged for quit (fault-planowanie: a bot that takes
	// 0.3 s to answer it), nor, once a fault has ended the match, for the
	// commands other seats had not answered yet (crash-planowanie: the
	// other seats' set-up, while the bot at seat 3 takes 0.4 s to exit
	// without answering set_deck).
	for _, c := range []struct {
		game, bot string
		min, max  int64 // the bot's time_ms, so that the data holds what the case is about
	}{{"slow-planowanie", "slow", 1000, math.MaxInt64}, {"slow-blokus", "slow", 1000, math.MaxInt64}, {"startup-blokus", "slow", 300, 1000},
		{"fault-planowanie", "slowquit", 0, 200}, {"crash-planowanie", "crash", 400, math.MaxInt64}} {
		game := c.game
		t.Run("clock-"+game, func(t *testing.T) {
			dir := filepath.Join("testdata", game)
			site, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			m := site.Matches[0]
			slow := slices.IndexFunc(m.Seats, func(s engine.SeatResult) bool { return s.Bot == c.bot })
			if slow < 0 || m.Seats[slow].TimeMS < c.min || m.Seats[slow].TimeMS >= c.max {
				t.Fatalf("testdata %s: no seat of %s with a time_ms from %d ms to under %d ms: %+v", game, c.bot, c.min, c.max, m.Seats)
			}
			responses := gtpResponses(t, filepath.Join(dir, "matches", m.Match, "events.jsonl"), len(m.Seats))
			ctx := openPage(t, browser, dir, "#match="+m.Match+"&step=0")
			waitStep(t, ctx, 0)
			last := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
			eval[bool](t, ctx, `document.querySelector("#r-last").click(), true`)
			waitStep(t, ctx, last)
			type seatView struct{ Answers, Clock string }
			got := eval[[]seatView](t, ctx, `[...document.querySelectorAll("#replay-seats tbody tr")].map((tr) => ({ Answers: tr.children[2].textContent, Clock: tr.children[3].textContent }))`)
			if len(got) != len(m.Seats) {
				t.Fatalf("the seats table has %d rows, want %d", len(got), len(m.Seats))
			}
			for i, s := range m.Seats {
				ms, err := strconv.ParseFloat(strings.TrimSuffix(got[i].Clock, " ms"), 64)
				if err != nil {
					t.Errorf("seat %d's clock is %q, not N ms", i, got[i].Clock)
				} else if math.Abs(ms-float64(s.TimeMS)) > 5+0.01*float64(s.TimeMS) {
					t.Errorf("seat %d (%s) at the last step has used %q; want its time_ms, %d ms", i, s.Bot, got[i].Clock, s.TimeMS)
				}
				if want := strconv.Itoa(responses[i]); got[i].Answers != want {
					t.Errorf("seat %d (%s) at the last step has %s answers; want %s, its responses in the transcript", i, s.Bot, got[i].Answers, want)
				}
			}
		})
	}
	// A seat charged for CPU its processes used off move (off_move_ms,
	// part of its time_ms: rules.md, Time off move) shows the charge
	// under its clock, which the transcript's times do not hold; a seat
	// without one shows its clock alone. The charge is written into a copy
	// of slow-planowanie's result: it needs a bot pondering in a cgroup,
	// which this machine may not give.
	t.Run("clock-off-move", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "slow-planowanie"))); err != nil {
			t.Fatal(err)
		}
		results := filepath.Join(dir, "results.jsonl")
		b, err := os.ReadFile(results)
		if err != nil {
			t.Fatal(err)
		}
		from := `{"bot":"slow","score":9,"fault":"","time_ms":2197}`
		if !bytes.Contains(b, []byte(from)) {
			t.Fatalf("testdata/slow-planowanie's result has no %s", from)
		}
		b = bytes.Replace(b, []byte(from), []byte(`{"bot":"slow","score":9,"fault":"","time_ms":3431,"off_move_ms":1234}`), 1)
		if err := os.WriteFile(results, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=0")
		waitStep(t, ctx, 0)
		for _, step := range []string{"first", "last"} {
			if step == "last" {
				last := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
				eval[bool](t, ctx, `document.querySelector("#r-last").click(), true`)
				waitStep(t, ctx, last)
			}
			got := eval[[]string](t, ctx, `[...document.querySelectorAll("#replay-seats tbody tr")].map((tr) => { const o = tr.children[3].querySelector(".off-move"); return o ? o.textContent : ""; })`)
			if want := []string{"", "", "", "+ 1234 ms off move (match total)"}; !cmp.Equal(got, want) {
				t.Errorf("%s step: off move under the clocks %q, want %q", step, got, want)
			}
		}
	})
	// A Euchre match of four bots seats them at the positions its
	// partners event draws, not position p at seat p % 2.
	t.Run("euchre-partners", func(t *testing.T) {
		dir := filepath.Join("testdata", "euchre4")
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=3")
		waitStep(t, ctx, 3)
		got := eval[[]string](t, ctx, `[...document.querySelectorAll(".hand-box")].map((b) => b.dataset.seat + " " + b.querySelector(".who").textContent.replace(/ \(.*$/, ""))`)
		// partners: positions 0..3 at seats 2, 0, 3, 1 of r2, r3, r1, r4.
		want := []string{"2 position 0: r1", "0 position 1: r2", "3 position 2: r4", "1 position 3: r3"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the seats at the positions (-partners +page):\n%s", diff)
		}
	})
	// Auction's overrun and out events: out at a step of its own, with
	// the seat's disqualification; an overrun in the lines of its round's
	// step, and among the seat's faults, with the time used and the limit.
	t.Run("auction-events", func(t *testing.T) {
		var out struct {
			Seat   int    `json:"seat"`
			Detail string `json:"detail"`
		}
		var over struct {
			Round   int   `json:"round"`
			Seat    int   `json:"seat"`
			UsedMS  int64 `json:"used_ms"`
			LimitMS int64 `json:"limit_ms"`
		}
		b, err := os.ReadFile("testdata/auction/matches/r001-g01-s1/events.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			var ev struct {
				Event string          `json:"event"`
				Data  json.RawMessage `json:"data"`
			}
			json.Unmarshal([]byte(line), &ev)
			switch {
			case ev.Event == "out":
				json.Unmarshal(ev.Data, &out)
			case ev.Event == "overrun" && over.Round == 0:
				json.Unmarshal(ev.Data, &over)
			}
		}
		if out.Detail == "" || over.Round != 1 {
			t.Fatalf("the transcript has no out event and no overrun in round 1: %+v %+v", out, over)
		}
		faults := func(ctx context.Context, seat int) string {
			return eval[string](t, ctx, fmt.Sprintf(`document.querySelectorAll("#replay-seats tbody tr")[%d].children[4].textContent`, seat))
		}
		ctx := openPage(t, browser, "testdata/auction", "#match=r001-g01-s1&step=1")
		waitStep(t, ctx, 1)
		if label := eval[string](t, ctx, `document.querySelector("#r-label").textContent`); !strings.Contains(label, "out") || !strings.Contains(label, out.Detail) {
			t.Errorf("step 1 (the out event) is labelled %q", label)
		}
		if f := faults(ctx, out.Seat); !strings.Contains(f, out.Detail) {
			t.Errorf("seat %d's faults at step 1 are %q, without its disqualification", out.Seat, f)
		}
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); strings.Contains(notes, "unknown kind") {
			t.Errorf("the replay skips events: %s", notes)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+eval[string](t, ctx, `location.pathname`)+"#match=r001-g01-s1&step=2")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, 2)
		used, limit := fmt.Sprintf("%d ms", over.UsedMS), fmt.Sprintf("%d ms", over.LimitMS)
		lines := eval[string](t, ctx, `document.querySelector("#replay-lines").textContent`)
		if !strings.Contains(lines, "overrun") || !strings.Contains(lines, used) || !strings.Contains(lines, limit) {
			t.Errorf("the lines of round 1 do not show the overrun of seat %d (%s, limit %s):\n%s", over.Seat, used, limit, lines)
		}
		if f := faults(ctx, over.Seat); !strings.Contains(f, "overrun") || !strings.Contains(f, used) {
			t.Errorf("seat %d's faults at step 2 are %q, without its overrun", over.Seat, f)
		}
	})
	// The head-to-head of two bots picked in the standings shows `arbiter
	// rank -vs A,B`'s LOS (the estimate of their games), from A's side,
	// not BayesElo's of the LOS matrix.
	t.Run("head-to-head", func(t *testing.T) {
		site, err := Load("testdata/placement")
		if err != nil {
			t.Fatal(err)
		}
		ctx := openPage(t, browser, "testdata/placement", "")
		pct := func(x float64) string {
			if math.IsNaN(x) {
				return "–"
			}
			return fmt.Sprintf("%.1f%%", 100*x)
		}
		for _, h := range site.HeadToHead {
			for _, pair := range [][2]string{{h.A, h.B}, {h.B, h.A}} {
				want := pct(h.Estimate.LOS)
				if pair[0] != h.A {
					want = pct(1 - h.Estimate.LOS)
				}
				got := eval[string](t, ctx, fmt.Sprintf(`(() => {
  const click = (bot) => document.querySelector("#standings-table tr[data-bot='" + bot + "']").click();
  document.querySelectorAll("#standings-table tr.picked").forEach((tr) => click(tr.dataset.bot));
  click(%q); click(%q);
  const row = [...document.querySelectorAll("#h2h-table tr")].find((tr) => tr.children[0].textContent.startsWith("LOS"));
  return row ? row.children[0].textContent + ": " + row.children[1].textContent : "no LOS row";
})()`, pair[0], pair[1]))
				if wantRow := fmt.Sprintf("LOS (%s stronger): %s", pair[0], want); got != wantRow {
					t.Errorf("%s then %s: the head-to-head says %q, want %q (rank -vs %s,%s)", pair[0], pair[1], got, wantRow, pair[0], pair[1])
				}
			}
		}
	})
	// Picking bots, in the standings or by a crosstable cell, marks them
	// and shows their head-to-head without drawing the matrices again: of
	// 200 bots they hold 80,000 cells, and each click took seconds.
	t.Run("pick-keeps-matrices", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/placement", "")
		got := eval[string](t, ctx, `(() => {
  const cell = document.querySelector("#crosstable tbody td:not(.diag)"), los = document.querySelector("#los tbody td:not(.diag)");
  const bots = [...document.querySelectorAll("#standings-table tbody tr")].map((tr) => tr.dataset.bot);
  const click = (bot) => document.querySelector("#standings-table tr[data-bot='" + bot + "']").click();
  click(bots[0]); click(bots[1]);
  const picked = [...document.querySelectorAll("#standings-table tr.picked")].map((tr) => tr.dataset.bot).join();
  const h2h = (document.querySelector("#h2h h3") || {}).textContent || "";
  cell.click();
  const byCell = [...document.querySelectorAll("#standings-table tr.picked")].map((tr) => tr.dataset.bot).join();
  const kept = cell.isConnected && los.isConnected;
  return [bots[0] + "," + bots[1], picked, h2h, cell.dataset.a + "," + cell.dataset.b, byCell, kept].join(" | ");
})()`)
		parts := strings.Split(got, " | ")
		if len(parts) != 6 {
			t.Fatalf("page says %q", got)
		}
		first, picked, h2h, cell, byCell, kept := parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]
		a, b, _ := strings.Cut(first, ",")
		if picked != first || !strings.Contains(h2h, a) || !strings.Contains(h2h, b) {
			t.Errorf("clicked %s: picked %q, head-to-head %q", first, picked, h2h)
		}
		if ca, cb, _ := strings.Cut(cell, ","); byCell != ca+","+cb && byCell != cb+","+ca {
			t.Errorf("clicked the crosstable cell of %s: picked %q", cell, byCell)
		}
		if kept != "true" {
			t.Errorf("picking bots drew the crosstable and LOS matrix again (kept = %s)", kept)
		}
	})
	// A fault in the middle of a trick: the cards played before it have
	// their steps (from the play commands the referee sent, as no trick
	// event closed the trick), on the table and out of their hands, and
	// the fault has its own step, with the faulty answer among its lines.
	t.Run("unfinished-trick-planowanie", func(t *testing.T) {
		dir := "testdata/fault-planowanie"
		plays := unfinishedPlays(t, filepath.Join(dir, "matches", "r001-g01-s1", "events.jsonl"))
		if len(plays) == 0 {
			t.Fatalf("testdata %s: no card of an unfinished trick before the fault", dir)
		}
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=0")
		waitStep(t, ctx, 0)
		type view struct {
			Label, Center string
			Table, Hands  []string
			Lines         []string
		}
		steps := eval[[]view](t, ctx, `(() => {
  const out = [], n = +document.querySelector("#r-slider").max;
  document.querySelector("#r-first").click();
  for (let i = 0; i <= n; i++) {
    const boxes = [...document.querySelectorAll("#replay-view .hand-box")];
    out.push({ Label: document.querySelector("#r-label").textContent,
      Center: document.querySelector("#replay-view .center").textContent,
      Table: boxes.map((b) => [...b.querySelectorAll(".played .card")].map((c) => c.dataset.card).join(" ")),
      Hands: boxes.map((b) => [...b.querySelectorAll(".hand .card")].map((c) => c.dataset.card).join(" ")),
      Lines: [...document.querySelectorAll("#replay-lines .line")].map((l) => l.textContent) });
    document.querySelector("#r-next").click();
  }
  return out;
})()`)
		f := slices.IndexFunc(steps, func(v view) bool { return strings.HasPrefix(v.Label, "fault: seat 1 (qmark) protocol") })
		if f < len(plays) {
			t.Fatalf("no fault step after %d card steps: %q", len(plays), steps)
		}
		for i, p := range plays {
			v := steps[f-len(plays)+i]
			if want := fmt.Sprintf("deal 2, trick 1: seat %d plays %s", p.Seat, p.Card); v.Label != want {
				t.Errorf("step %d is %q; want %q", f-len(plays)+i, v.Label, want)
			}
		}
		v := steps[f]
		for _, p := range plays {
			if v.Table[p.Seat] != p.Card || strings.Contains(v.Hands[p.Seat], p.Card) {
				t.Errorf("at the fault, seat %d has %q on the table and %q in hand; want %s played", p.Seat, v.Table[p.Seat], v.Hands[p.Seat], p.Card)
			}
		}
		if v.Center != "deal 2, trick 1" {
			t.Errorf("at the fault the table says %q; want deal 2, trick 1", v.Center)
		}
		if !slices.Contains(v.Lines, "← 1 qmark: ? no card for you") {
			t.Errorf("the fault's step has lines %q; want the faulty answer among them", v.Lines)
		}
	})
	// A sweep has an infinite Elo, which the page's data holds as null:
	// the head-to-head says +∞ (−∞ from the other side), as rank -vs
	// says +Inf, never 0.0.
	t.Run("head-to-head-sweep", func(t *testing.T) {
		dir := "testdata/fault-planowanie"
		site, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(site.HeadToHead, func(h *stats.HeadToHead) bool { return math.IsInf(h.Estimate.Elo, 0) })
		if i < 0 {
			t.Fatalf("testdata %s: no head-to-head with an infinite Elo", dir)
		}
		h := site.HeadToHead[i]
		inf := map[bool]string{true: "+∞", false: "−∞"}
		ctx := openPage(t, browser, dir, "")
		for _, pair := range [][2]string{{h.A, h.B}, {h.B, h.A}} {
			got := eval[[]string](t, ctx, fmt.Sprintf(`(() => {
  const click = (bot) => document.querySelector("#standings-table tr[data-bot='" + bot + "']").click();
  document.querySelectorAll("#standings-table tr.picked").forEach((tr) => click(tr.dataset.bot));
  click(%q); click(%q);
  return [...document.querySelectorAll("#h2h-table tr")].filter((tr) => /^(Elo|nElo)/.test(tr.children[0].textContent)).map((tr) => tr.children[1].textContent);
})()`, pair[0], pair[1]))
			up := math.IsInf(h.Estimate.Elo, 1) == (pair[0] == h.A)
			want := []string{inf[up] + " ± –", inf[up] + " ± –"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s then %s: Elo and nElo (-want +page):\n%s", pair[0], pair[1], diff)
			}
		}
	})
	// The last-step button goes to the last step, not the first.
	t.Run("last-step", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/planowanie", "#match=r001-g01-s1&step=2")
		waitStep(t, ctx, 2)
		last := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
		if last < 10 {
			t.Fatalf("the match has %d steps; want a longer one", last+1)
		}
		eval[bool](t, ctx, `document.querySelector("#r-last").click(), true`)
		waitStep(t, ctx, last)
		if got := eval[string](t, ctx, `document.querySelector("#r-step").textContent`); got != fmt.Sprintf("step %d of %d", last, last) {
			t.Errorf("after ▶| the counter says %q", got)
		}
	})
	// Each card of a trick is a step with the lines sent and read since
	// the previous card: the gen_move that asked its seat for it and the
	// answer (with the broadcast that went with the gen_move), and the
	// clock its seat had used by the step's last line, charged as arbiter
	// charges it.
	t.Run("card-lines-planowanie", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/planowanie", "#match=r001-g01-s1&step=0")
		waitStep(t, ctx, 0)
		steps := eval[[]stepView](t, ctx, allSteps)
		moves, clocks := planowanieMoves(t, "testdata/planowanie/matches/r001-g01-s1/events.jsonl")
		card := regexp.MustCompile(`: seat (\d+) plays (\w+)`)
		cards, shown := 0, 0
		for i, st := range steps {
			shown += len(st.Lines)
			m := card.FindStringSubmatch(st.Label)
			if m == nil {
				continue
			}
			if cards >= len(moves) {
				t.Fatalf("step %d %q: more cards than the transcript's %d moves", i, st.Label, len(moves))
			}
			want := moves[cards]
			cards++
			if seat, _ := strconv.Atoi(m[1]); seat != want.Seat || m[2] != want.Card {
				t.Fatalf("step %d %q: the transcript's move %d is seat %d's %s", i, st.Label, cards, want.Seat, want.Card)
			}
			var asked []string
			answered := false
			for _, l := range st.Lines {
				if strings.HasPrefix(l, "→ ") && strings.HasSuffix(l, ": gen_move") {
					asked = append(asked, l)
				}
				answered = answered || strings.HasPrefix(l, "← "+m[1]+" ") && strings.HasSuffix(l, ": = "+m[2])
			}
			if len(asked) != 1 || !strings.HasPrefix(asked[0], "→ "+m[1]+" ") || !answered {
				t.Errorf("step %d %q: its lines ask %q for a move, and answered=%v; want seat %s asked once, answering %s", i, st.Label, asked, answered, m[1], m[2])
			}
			if shown == 0 || shown > len(clocks) {
				t.Fatalf("step %d %q: %d lines shown so far, of the transcript's %d", i, st.Label, shown, len(clocks))
			}
			if w := fmt.Sprintf("%.0f ms", clocks[shown-1][want.Seat]); st.Clock[want.Seat] != w {
				t.Errorf("step %d %q: seat %d's clock is %q, want %q (after the step's last line)", i, st.Label, want.Seat, st.Clock[want.Seat], w)
			}
		}
		if cards != len(moves) || shown != len(clocks) {
			t.Errorf("%d card steps, %d lines in all steps; want %d (the moves) and every line of the transcript once (%d)", cards, shown, len(moves), len(clocks))
		}
	})
	t.Run("card-lines-euchre", func(t *testing.T) {
		ctx := openPage(t, browser, "testdata/euchre4", "#match=r001-g01-s1&step=0")
		waitStep(t, ctx, 0)
		steps := eval[[]stepView](t, ctx, allSteps)
		card := regexp.MustCompile(`: position (\d) plays (\w+)`)
		cards := 0
		for i, st := range steps {
			m := card.FindStringSubmatch(st.Label)
			if m == nil {
				continue
			}
			cards++
			var turns []string
			for _, l := range st.Lines {
				if strings.Contains(l, ", turn] ") {
					turns = append(turns, l)
				}
			}
			if len(turns) != 1 || !strings.Contains(turns[0], "[position "+m[1]+", turn] ") {
				t.Errorf("step %d %q: its lines hold the turns %q; want position %s's alone", i, st.Label, turns, m[1])
			}
		}
		if cards == 0 {
			t.Error("no card steps")
		}
	})
	// A match without a result (being played, or cut off) is a link in
	// the match list, and opens its replay with what its transcript holds.
	t.Run("running-match", func(t *testing.T) {
		dir := runningCopy(t, 500)
		ctx := openPage(t, browser, dir, "#matches")
		if href := eval[string](t, ctx, `(document.querySelector("#running a") || {}).hash || ""`); href != "#match=r001-g01-s9&step=0" {
			t.Errorf("the match without a result links to %q", href)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+eval[string](t, ctx, `location.pathname`)+"#match=r001-g01-s9&step=3")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, 3)
		if label := eval[string](t, ctx, `document.querySelector("#r-label").textContent`); !strings.HasPrefix(label, "deal 1, trick 1: seat 1 plays ") {
			t.Errorf("step 3 of the match being played is %q", label)
		}
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); !strings.Contains(notes, "no result yet") {
			t.Errorf("the replay does not say the match has no result yet: %q", notes)
		}
	})
	// Under serve, the replay of a match being played follows its
	// transcript as it grows: it asks for the bytes after those it has
	// (a Range request), waits for a torn last line to be whole, and
	// loads the transcript again whole when it shrinks (the match begun
	// again).
	t.Run("running-match-live", func(t *testing.T) {
		dir := runningCopy(t, 500)
		url, served := serveCounting(t, dir, "/transcripts/r001-g01-s9.js", "/transcripts/r001-g01-s9.jsonl")
		ctx := browsertest.Tab(t, browser, time.Minute)
		if err := chromedp.Do(ctx, chromedp.Navigate(url+"#match=r001-g01-s9&step=3"), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, 3)
		before := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
		b, err := os.ReadFile("testdata/planowanie/matches/r001-g01-s1/events.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		upTo := func(n int) int { return len(strings.Join(lines[:n], "")) }
		events := filepath.Join(dir, "matches", "r001-g01-s9", "events.jsonl")
		maxAbove := func(n int, what string) {
			t.Helper()
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`+document.querySelector("#r-slider").max > %d`, n), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("%s: the replay stays at %d steps: %v", what, eval[int](t, ctx, `+document.querySelector("#r-slider").max`)+1, err)
			}
		}

		// Nothing new: each second costs a byte or so, not the transcript.
		start := served()
		waitFor(t, func() bool { return served().requests >= start.requests+2 }, 10*time.Second, "the page asks for the transcript again")
		idle := served()
		if got := idle.bytes - start.bytes; got > 16*int64(idle.requests-start.requests) {
			t.Errorf("following a transcript that does not grow (%d bytes) took %d bytes in %d requests; want a few bytes each",
				upTo(500), got, idle.requests-start.requests)
		}
		if idle.ranged == start.ranged {
			t.Errorf("the page asked for the transcript again %d times, never with a Range header", idle.requests-start.requests)
		}

		// Grown (appended to, as the run writes it), with a torn last
		// line: what is new is served, the torn line waits for the next
		// look and is never called bad.
		torn := strings.Join(lines[:900], "") + lines[900][:len(lines[900])/2]
		appendFile(t, events, torn[upTo(500):])
		maxAbove(before, "grown to 900 lines")
		grown := served()
		if limit := int64(upTo(901)-upTo(500)) + 16*int64(grown.requests-idle.requests); grown.bytes-idle.bytes > limit {
			t.Errorf("following the transcript from %d to %d bytes took %d bytes; want at most %d (what is new)", upTo(500), len(torn), grown.bytes-idle.bytes, limit)
		}
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); strings.Contains(notes, "not JSON") {
			t.Errorf("a torn last line, which the run has not finished writing, is called bad: %q", notes)
		}
		at900 := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
		appendFile(t, events, strings.Join(lines[:1000], "")[len(torn):])
		maxAbove(at900, "grown to 1000 lines")

		// Begun again, shorter than what the page has: loaded again whole.
		if err := os.WriteFile(events, []byte(strings.Join(lines[:300], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`+document.querySelector("#r-slider").max < %d`, before), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Errorf("the transcript begun again with 300 lines: the replay keeps %d steps: %v", eval[int](t, ctx, `+document.querySelector("#r-slider").max`)+1, err)
		}
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); strings.Contains(notes, "not JSON") {
			t.Errorf("after the transcript began again, the replay calls lines bad: %q", notes)
		}

		// Begun again with other bots and grown past what the page has
		// between two looks: the byte before the page's offset is no
		// longer a newline, and it is loaded again whole.
		again := strings.Replace(strings.Join(lines[:600], ""), `"random"`, `"random-x"`, 1)
		if err := os.WriteFile(events, []byte(again), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#replay-seats").textContent.includes("random-x")`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Errorf("the transcript begun again with other bots: the replay shows the seats %q: %v", eval[string](t, ctx, `document.querySelector("#replay-seats").textContent`), err)
		}
	})
	// When the match followed has its result, its transcript is read
	// whole once more, as a finished match's is.
	t.Run("running-match-live-ends", func(t *testing.T) {
		dir := copyResults(t, "planowanie")
		results, events := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "matches", "r001-g01-s1", "events.jsonl")
		result, err := os.ReadFile(results)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(events)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(results, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(events, []byte(strings.Join(strings.SplitAfter(string(b), "\n")[:500], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		want := eval[int](t, openPage(t, browser, "testdata/planowanie", "#match=r001-g01-s1&step=0"), `+document.querySelector("#r-slider").max`)
		url, served := serveCounting(t, dir, "/transcripts/r001-g01-s1.js")
		ctx := browsertest.Tab(t, browser, time.Minute)
		if err := chromedp.Do(ctx, chromedp.Navigate(url+"#match=r001-g01-s1&step=3"), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, 3)
		if got := eval[int](t, ctx, `+document.querySelector("#r-slider").max`); got >= want {
			t.Fatalf("the replay of the match being played has %d steps, as many as the whole match", got+1)
		}
		if served().requests != 0 {
			t.Errorf("the match being played was read whole (transcripts/ID.js) %d times", served().requests)
		}
		if err := os.WriteFile(events, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(results, result, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector("#replay-notes").textContent.includes("no result yet")`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("the match has its result, and its replay still says it has none: %v (%s)", err, eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`))
		}
		if got := eval[int](t, ctx, `+document.querySelector("#r-slider").max`); got != want {
			t.Errorf("the finished match's replay has %d steps; its transcript makes %d", got+1, want+1)
		}
		if served().requests != 1 {
			t.Errorf("the match that has its result was read whole (transcripts/ID.js) %d times, want once", served().requests)
		}
	})
	// A replay left while its transcript loads (the first time, or again
	// as the match is played) does not come back: the address stays
	// what the viewer went to, and so does the tab.
	for _, again := range []bool{false, true} {
		t.Run(fmt.Sprintf("replay-left-while-loading-again=%v", again), func(t *testing.T) {
			dir := runningCopy(t, 500)
			// Requests for the transcript wait for release: the first
			// load, or the looks again (for what is new: a Range) that
			// follow the match.
			arrived, gate := make(chan struct{}, 100), make(chan struct{})
			s := NewServer(dir)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/transcripts/r001-g01-s9.jsonl" && (r.Header.Get("Range") != "") == again {
					arrived <- struct{}{}
					select {
					case <-gate:
					case <-r.Context().Done():
						return
					}
				}
				s.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(gate) })
			ctx := browsertest.Tab(t, browser, time.Minute)
			start := "#match=r001-g01-s9&step=3"
			if !again {
				start = "#standings"
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+start), chromedp.WaitReady("body[data-ready]")); err != nil {
				t.Fatal(err)
			}
			if again {
				waitStep(t, ctx, 3)
			} else {
				eval[any](t, ctx, `location.hash = "#match=r001-g01-s9&step=3"`)
			}
			select {
			case <-arrived:
			case <-time.After(30 * time.Second):
				t.Fatal("the page does not load the transcript")
			}
			// The page counts the looks at the transcript it has done
			// with; it has done with this one by the next task.
			reads := eval[int](t, ctx, `(() => { location.hash = "#matches"; return +document.body.dataset.followReads || 0; })()`)
			gate <- struct{}{}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`+document.body.dataset.followReads > %d`, reads), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatal(err)
			}
			if hash := eval[string](t, ctx, `location.hash`); hash != "#matches" {
				t.Errorf("after the transcript arrived the address is %q, want #matches, where the viewer went", hash)
			}
			if shown := eval[string](t, ctx, `[...document.querySelectorAll("section.tab")].filter((s) => !s.hidden).map((s) => s.id).join()`); shown != "matches" {
				t.Errorf("after the transcript arrived the page shows %q, want matches", shown)
			}
		})
	}
	// Autoplay is of the match it was started on: another match's
	// replay opens stopped.
	t.Run("autoplay-other-match", func(t *testing.T) {
		dir := runningCopy(t, 500)
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=0")
		waitStep(t, ctx, 0)
		eval[any](t, ctx, `document.querySelector("#r-play").click()`)
		if got := eval[string](t, ctx, `document.querySelector("#r-play").textContent`); got != "pause" {
			t.Fatalf("playing, the button says %q", got)
		}
		eval[any](t, ctx, `location.hash = "#match=r001-g01-s9&step=0"`)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#replay-title").textContent === "Replay of r001-g01-s9" && document.querySelector("#replay-view").dataset.step !== undefined`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatal(err)
		}
		if got := eval[string](t, ctx, `document.querySelector("#r-play").textContent`); got != "play" {
			t.Errorf("the replay of another match opens with the button saying %q, want play (stopped)", got)
		}
	})
	// Under serve, results that become unreadable are said over the page,
	// with report's message, until they are readable again.
	t.Run("serve-problem", func(t *testing.T) {
		dir := copyResults(t, "planowanie")
		url := serveDir(t, dir)
		ctx := browsertest.Tab(t, browser, time.Minute)
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		results := filepath.Join(dir, "results.jsonl")
		good, err := os.ReadFile(results)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(results, append([]byte("{\"match\":\"torn\n"), good...), 0o644); err != nil {
			t.Fatal(err)
		}
		shown := `(() => { const p = document.querySelector("#problem"); return p && !p.hidden && p.offsetHeight > 0 ? p.textContent : ""; })()`
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](shown+`.includes("line 1 is not a result")`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Errorf("the live page does not say the results cannot be read (it says %q): %v", eval[string](t, ctx, shown), err)
		}
		if err := os.WriteFile(results, good, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](shown+` === ""`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Errorf("the live page still says %q with the results readable again: %v", eval[string](t, ctx, shown), err)
		}
	})
	// The head-to-head's link lists the pair's matches, and nobody
	// else's, even when the match list was drawn before.
	t.Run("head-to-head-matches", func(t *testing.T) {
		site, err := Load("testdata/placement")
		if err != nil {
			t.Fatal(err)
		}
		a, b := site.Stats.Standings[0].Bot, site.Stats.Standings[1].Bot
		var want []string
		for _, m := range site.Matches {
			var hasA, hasB bool
			for _, s := range m.Seats {
				hasA, hasB = hasA || s.Bot == a, hasB || s.Bot == b
			}
			if hasA && hasB {
				want = append(want, m.Match)
			}
		}
		if len(want) == 0 || len(want) == len(site.Matches) {
			t.Fatalf("%s and %s play %d of %d matches; want a pair that plays some", a, b, len(want), len(site.Matches))
		}
		ctx := openPage(t, browser, "testdata/placement", "#matches")
		got := eval[[]string](t, ctx, fmt.Sprintf(`(() => {
  location.hash = "#standings";
  const click = (bot) => document.querySelector("#standings-table tr[data-bot='" + bot + "']").click();
  click(%q); click(%q);
  [...document.querySelectorAll("#h2h a")].find((a) => a.textContent === "their matches").click();
  return [...document.querySelectorAll("#match-table tbody tr")].map((tr) => tr.dataset.match);
})()`, a, b))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the matches of %s and %s (-want +page):\n%s", a, b, diff)
		}
	})
	// A head-to-head and a filtered match list have addresses of their
	// own: picking two bots, or filtering the matches, puts them in the
	// address, and a page opened at it shows them again.
	t.Run("addresses", func(t *testing.T) {
		dir := "testdata/placement"
		site, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		a, b := site.Stats.Standings[0].Bot, site.Stats.Standings[1].Bot
		ctx := openPage(t, browser, dir, "")
		type picked struct{ Hash, Heading, Link string }
		got := eval[picked](t, ctx, fmt.Sprintf(`(() => {
  const click = (bot) => document.querySelector("#standings-table tr[data-bot='" + bot + "']").click();
  click(%q); click(%q);
  return { Hash: location.hash, Heading: document.querySelector("#h2h h3").textContent,
    Link: [...document.querySelectorAll("#h2h a")].find((a) => a.textContent === "their matches").getAttribute("href") };
})()`, a, b))
		want := picked{"#h2h=" + a + "," + b, "Head-to-head: " + a + " vs " + b, "#matches&bot=" + a + "&vs=" + b}
		if got != want {
			t.Errorf("after picking %s and %s: %+v; want %+v", a, b, got, want)
		}
		ctx = openPage(t, browser, dir, want.Hash)
		shown := eval[picked](t, ctx, `({ Hash: [...document.querySelectorAll("section.tab")].filter((s) => !s.hidden).map((s) => s.id).join(), Heading: (document.querySelector("#h2h h3") || {}).textContent || "" })`)
		if shown != (picked{Hash: "standings", Heading: want.Heading}) {
			t.Errorf("opened at %s the page shows %+v; want the standings and %q", want.Hash, shown, want.Heading)
		}
		type list struct {
			Filters []string
			Matches []string
		}
		const matches = `({ Filters: ["#f-bot", "#f-vs", "#f-round", "#f-fault"].map((id) => document.querySelector(id).value),
  Matches: [...document.querySelectorAll("#match-table tbody tr")].map((tr) => tr.dataset.match) })`
		var pairs []string
		for _, m := range site.Matches {
			if slices.ContainsFunc(m.Seats, func(s engine.SeatResult) bool { return s.Bot == a }) && slices.ContainsFunc(m.Seats, func(s engine.SeatResult) bool { return s.Bot == b }) {
				pairs = append(pairs, m.Match)
			}
		}
		ctx = openPage(t, browser, dir, want.Link)
		if diff := cmp.Diff(list{[]string{a, b, "", ""}, pairs}, eval[list](t, ctx, matches)); diff != "" {
			t.Errorf("opened at %s (-want +page):\n%s", want.Link, diff)
		}
		// A filter changed is in the address; fault-planowanie has a
		// fault to filter on.
		dir = "testdata/fault-planowanie"
		ctx = openPage(t, browser, dir, "#matches")
		hash := eval[string](t, ctx, `(() => {
  const f = document.querySelector("#f-fault");
  f.value = "protocol"; f.dispatchEvent(new Event("change"));
  return location.hash;
})()`)
		if hash != "#matches&fault=protocol" {
			t.Errorf("with the fault filter set to protocol the address is %q; want #matches&fault=protocol", hash)
		}
		ctx = openPage(t, browser, dir, hash)
		if diff := cmp.Diff(list{[]string{"", "", "", "protocol"}, []string{"r001-g01-s1"}}, eval[list](t, ctx, matches)); diff != "" {
			t.Errorf("opened at %s (-want +page):\n%s", hash, diff)
		}
		// A shared address may filter on a value no match has (yet): it
		// is kept, as an option of its own, not dropped.
		ctx = openPage(t, browser, dir, "#matches&fault=time")
		if diff := cmp.Diff(list{[]string{"", "", "", "time"}, []string{}}, eval[list](t, ctx, matches)); diff != "" {
			t.Errorf("opened at #matches&fault=time (-want +page):\n%s", diff)
		}
		if hash := eval[string](t, ctx, `location.hash`); hash != "#matches&fault=time" {
			t.Errorf("opened at #matches&fault=time the address is %q", hash)
		}
	})
	// A long unbroken answer echoed into a fault's detail, and into the
	// bot's stderr, wraps: the page stays as wide as the window.
	t.Run("long-fault-detail", func(t *testing.T) {
		dir := copyResults(t, "planowanie")
		long := strings.Repeat("x", 64<<10)
		results := filepath.Join(dir, "results.jsonl")
		b, err := os.ReadFile(results)
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.Replace(string(b), `"fault":""`, `"fault":"protocol","detail":"answered `+long+`"`, 1))
		if err := os.WriteFile(results, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "matches", "r001-g01-s1", "seat0-random.stderr"), []byte(long), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=1000")
		last := eval[int](t, ctx, `+document.querySelector("#r-slider").max`)
		waitStep(t, ctx, last)
		if !strings.Contains(eval[string](t, ctx, `document.querySelector("#replay-seats").textContent`), long) {
			t.Fatal("the fault's detail is not shown")
		}
		if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1]+20 {
			t.Errorf("the page is %d px wide in a window of %d", w[0], w[1])
		}
	})
	// The seats table of a game that runs a process per move, with its
	// faults and the clocks said to be the match's, fits its place in a
	// window of 1300 px: the faults were cut off at its right.
	for _, game := range []string{"auction", "euchre"} {
		t.Run("seats-fit-"+game, func(t *testing.T) {
			ctx := openPage(t, browser, filepath.Join("testdata", game), "#match=r001-g01-s1&step=1000")
			waitStep(t, ctx, eval[int](t, ctx, `+document.querySelector("#r-slider").max`))
			if w := eval[[]int](t, ctx, seatsWidth); w[0] > w[1] {
				t.Errorf("the replay's seats table is %d px wide in its %d px", w[0], w[1])
			}
		})
	}
	// A live page whose server stops (run -serve at the run's end) says
	// it is not live any more, instead of reconnecting for ever.
	t.Run("serve-stopped", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		sctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); NewServer(copyResults(t, "planowanie")).Serve(sctx, ln) }()
		t.Cleanup(func() { stop(); <-done })
		ctx := browsertest.Tab(t, browser, time.Minute)
		if err := chromedp.Do(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/"), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#live").textContent.startsWith("live")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatal(err)
		}
		stop()
		<-done
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.stopped === "1" && document.querySelector("#live").textContent.startsWith("not live")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Errorf("the server stopped, and the page says %q: %v", eval[string](t, ctx, `document.querySelector("#live").textContent`), err)
		}
	})
	// A seat's answers replaced for one reason again and again are one
	// line of its faults, with how many times: not a line each.
	t.Run("repeated-defaults", func(t *testing.T) {
		b, err := os.ReadFile("testdata/euchre/matches/r001-g01-s1/events.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		for _, line := range strings.Split(string(b), "\n") {
			var ev struct {
				Event string `json:"event"`
				Data  struct {
					Seat   int    `json:"seat"`
					Reason string `json:"reason"`
				} `json:"data"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Event == "default" && ev.Data.Seat == 1 {
				want["default: "+ev.Data.Reason]++
			}
		}
		ctx := openPage(t, browser, "testdata/euchre", "#match=r001-g01-s1&step=1000")
		waitStep(t, ctx, eval[int](t, ctx, `+document.querySelector("#r-slider").max`))
		got := eval[[]string](t, ctx, `[...document.querySelectorAll("#replay-seats tbody tr")[1].children[4].querySelectorAll(":scope > div")].map((d) => d.textContent)`)
		var lines []string
		for reason, n := range want {
			if n > 1 {
				reason += fmt.Sprintf(" (%d times)", n)
			}
			lines = append(lines, reason)
		}
		slices.Sort(lines)
		slices.Sort(got)
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasSuffix(l, "times)") }) {
			t.Fatalf("no reason of seat 1's default answers comes twice: %q", lines)
		}
		if diff := cmp.Diff(lines, got); diff != "" {
			t.Errorf("seat 1's faults at the last step (-want +got):\n%s", diff)
		}
	})
	// A bot's name may be 200 bytes without a break: every tab stays as
	// wide as the window, and the replay's seats table and card boxes as
	// wide as their place, so that the answers, clock and fault beside
	// the name are in sight.
	t.Run("long-bot-name", func(t *testing.T) {
		dir := longBotName(t, "fault-planowanie", "qmark", "q"+strings.Repeat("very_long_name_", 13))
		for _, hash := range []string{"", "#matches", "#match=r001-g01-s1&step=1000"} {
			ctx := openPage(t, browser, dir, hash)
			if hash != "" && hash != "#matches" {
				waitStep(t, ctx, eval[int](t, ctx, `+document.querySelector("#r-slider").max`))
				if w := eval[[]int](t, ctx, seatsWidth); w[0] > w[1] {
					t.Errorf("the replay's seats table is %d px wide in its %d px", w[0], w[1])
				}
				if n := eval[int](t, ctx, `[...document.querySelectorAll(".hand-box")].filter((b) => b.scrollWidth > b.clientWidth).length`); n > 0 {
					t.Errorf("%d seat box(es) are narrower than what they hold", n)
				}
			}
			if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1]+20 {
				t.Errorf("page%s: %d px wide in a window of %d", hash, w[0], w[1])
			}
			if hash == "#matches" {
				if n := eval[int](t, ctx, `[...document.querySelectorAll("#match-table tbody td:first-child a")].filter((a) => a.getClientRects().length > 1).length`); n > 0 {
					t.Errorf("%d match id(s) broken over lines", n)
				}
			}
		}
	})
	// Rounds are whole: the x axes of the rating, time and Auction
	// capital charts step by whole rounds (they once read 0.5, 1.5 or
	// 1.2 with few rounds), at any width the page gives them.
	t.Run("whole-rounds", func(t *testing.T) {
		for _, c := range []struct{ dir, hash, charts string }{
			{"testdata/fault-planowanie", "#charts", "#chart-rating, #chart-time"}, // one round
			{"testdata/placement", "#charts", "#chart-rating, #chart-time"},
			{"testdata/auction", "#match=r001-g01-s1&step=1000", "#auction-capital"},
		} {
			for _, w := range []int64{360, 1200} {
				ctx := openPage(t, browser, c.dir, c.hash)
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900), chromedp.Reload(), chromedp.WaitReady("body[data-ready]")); err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(c.hash, "#match") {
					waitStep(t, ctx, eval[int](t, ctx, `+document.querySelector("#r-slider").max`))
				}
				ticks := eval[map[string][]string](t, ctx, fmt.Sprintf(`Object.fromEntries([...document.querySelectorAll(%q)].map((c) => [c.id, JSON.parse(c.querySelector(".uplot").dataset.xTicks || "[]")]))`, c.charts))
				if len(ticks) != strings.Count(c.charts, "#") {
					t.Fatalf("%s%s: charts %v, want %s", c.dir, c.hash, ticks, c.charts)
				}
				for id, labels := range ticks {
					if len(labels) == 0 {
						t.Errorf("%s, %d px: %s has no x ticks", c.dir, w, id)
					}
					for _, l := range labels {
						if _, err := strconv.Atoi(l); err != nil {
							t.Errorf("%s, %d px: %s's x ticks are %q, not whole rounds", c.dir, w, id, labels)
							break
						}
					}
				}
			}
		}
	})
	// Long names under the faults chart's bars are cut to the width of
	// a bar's place, so they do not run into each other, measured in the
	// font uPlot draws the axis with (the page measured them in a copy of
	// it, written out again); the legend names the bot of the bar under
	// the pointer in full.
	t.Run("faults-chart-long-names", func(t *testing.T) {
		dir := copyResults(t, "fault-planowanie")
		for _, bot := range []string{"random", "qmark", "greedy", "slowquit"} {
			renameBot(t, dir, bot, bot+"_"+strings.Repeat("very_long_name_", 3))
		}
		ctx := openPage(t, browser, dir, "#charts")
		type fit struct {
			Labels []string  `json:"labels"`
			Widths []float64 `json:"widths"`
			Slot   float64   `json:"slot"`
			Hover  string    `json:"hover"`
			Font   string    `json:"font"`
			Fitted string    `json:"fitted"`
		}
		got := eval[fit](t, ctx, `(() => {
  const u = document.querySelector("#chart-faults .uplot"), over = u.querySelector(".u-over");
  const labels = JSON.parse(u.dataset.xTicks || "[]");
  const probe = new uPlot({ width: 200, height: 100, series: [{}], axes: [{}, {}] }, [[]], document.createElement("div"));
  const font = probe.axes[0].font[0];
  probe.destroy();
  const m = document.createElement("canvas").getContext("2d");
  m.font = font;
  const r = over.getBoundingClientRect();
  over.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + r.width / labels.length * 1.5, clientY: r.top + r.height / 2, bubbles: true }));
  return { labels, widths: labels.map((l) => m.measureText(l).width / uPlot.pxRatio), slot: r.width / labels.length,
    hover: u.querySelector(".u-legend .u-series:first-child .u-value").textContent, font, fitted: u.dataset.xFont || "" };
})()`)
		if got.Fitted != got.Font {
			t.Errorf("the faults chart fitted its labels in the font %q, not %q, which its axis draws them in", got.Fitted, got.Font)
		}
		site, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Labels) != len(site.Stats.Standings) {
			t.Fatalf("the faults chart's bots are %q, want %d", got.Labels, len(site.Stats.Standings))
		}
		for i, l := range got.Labels {
			if got.Widths[i] > got.Slot {
				t.Errorf("the label %q is %.0f px wide under a bar's %.0f px", l, got.Widths[i], got.Slot)
			}
			if strings.HasSuffix(l, "…") && got.Widths[i] < got.Slot/2 {
				t.Errorf("the label %q is cut to %.0f px of a bar's %.0f px", l, got.Widths[i], got.Slot)
			}
			if b := site.Stats.Standings[i].Bot; !strings.HasPrefix(b, strings.TrimSuffix(l, "…")) {
				t.Errorf("the label %q is not bot %s's name cut", l, b)
			}
		}
		if want := site.Stats.Standings[1].Bot; got.Hover != want {
			t.Errorf("the legend names %q for the second bar, want %q", got.Hover, want)
		}
	})
	// An address's head-to-head of a bot not in the tournament, or of a
	// bot with itself, says so, not that the two have not played.
	t.Run("head-to-head-address", func(t *testing.T) {
		for hash, want := range map[string]string{
			"#h2h=greedy1,nobody":  "There is no bot named nobody in this tournament. Pick two of its bots in the standings.",
			"#h2h=greedy1,greedy1": "greedy1 is named twice: pick two different bots in the standings.",
		} {
			ctx := openPage(t, browser, "testdata/placement", hash)
			if got := eval[string](t, ctx, `document.querySelector("#h2h").textContent`); got != want {
				t.Errorf("%s: %q, want %q", hash, got, want)
			}
		}
	})
	// A transcript whose seat's lines reached the cap has a
	// transcript_cut event before its result: the replay says what was
	// left out, not that it skipped an event.
	t.Run("transcript-cut", func(t *testing.T) {
		dir := copyResults(t, "planowanie")
		editFile(t, filepath.Join(dir, "matches", "r001-g01-s1", "events.jsonl"), func(s string) string {
			result := strings.LastIndex(s, `{"t":`) // the result, the last line
			return s[:result] + `{"t":1,"event":"transcript_cut","data":{"seat":2,"limit_bytes":16777216,"kept_lines":330,"left_out_lines":512,"left_out_bytes":26476897}}` + "\n" + s[result:]
		})
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=1000")
		waitStep(t, ctx, eval[int](t, ctx, `+document.querySelector("#r-slider").max`))
		notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`)
		if !strings.Contains(notes, "seat 2 (") || !strings.Contains(notes, "512 line(s) it printed after its first 330 are left out of the transcript") || strings.Contains(notes, "unknown kind") {
			t.Errorf("the replay's notes are %q, without seat 2's lines left out", notes)
		}
	})
	// A page whose name holds characters special in a URL (#, %, ?)
	// loads its transcripts from its folder of the same name.
	t.Run("folder-name", func(t *testing.T) {
		defer func(l int64) { inlineLimit = l }(inlineLimit)
		inlineLimit = 0
		page := filepath.Join(t.TempDir(), "itpw#2026 50%?.html")
		w, err := Write("testdata/planowanie", page)
		if err != nil {
			t.Fatal(err)
		}
		if w.Folder == "" {
			t.Fatal("the transcripts are in the page")
		}
		ctx := browsertest.Tab(t, browser, time.Minute)
		u := (&url.URL{Scheme: "file", Path: page, Fragment: "match=r001-g01-s1&step=3"}).String()
		if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		waitStep(t, ctx, 3)
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); notes != "" {
			t.Errorf("the replay says %q", notes)
		}
	})
	// rank's Normal column (wins in matches without a fault, the
	// tie-break of tournaments rated by wins) follows Wins, as in rank.
	t.Run("normal-wins", func(t *testing.T) {
		for _, name := range []string{"placement", "staged"} {
			site, err := Load(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			ctx := openPage(t, browser, filepath.Join("testdata", name), "")
			got := eval[standingsView](t, ctx, standingsTable)
			i := slices.Index(got.Heads, "wins")
			if i < 0 || i+1 >= len(got.Heads) || got.Heads[i+1] != "normal" {
				t.Errorf("%s: the standings' columns are %q, without normal after wins", name, got.Heads)
				continue
			}
			var want, normal []string
			for k, s := range site.Stats.Standings {
				want = append(want, strconv.Itoa(s.NormalWins))
				normal = append(normal, got.Rows[k]["normal"])
			}
			if diff := cmp.Diff(want, normal); diff != "" {
				t.Errorf("%s: normal wins (-rank +page):\n%s", name, diff)
			}
		}
	})
	// Every bot has a colour of its own, however many there are.
	t.Run("colours", func(t *testing.T) {
		site, err := Load("testdata/placement")
		if err != nil {
			t.Fatal(err)
		}
		const n = 40
		st := site.Stats
		first := st.Standings[0]
		st.Standings, st.Crosstable, st.LOS = nil, make([][]rating.WDL, n), make([][]float64, n)
		for i := range n {
			s := first
			s.Bot, s.Rank = fmt.Sprintf("bot%02d", i), i+1
			st.Standings = append(st.Standings, s)
			st.Crosstable[i], st.LOS[i] = make([]rating.WDL, n), make([]float64, n)
		}
		site.HeadToHead, site.History = nil, History{}
		page := filepath.Join(t.TempDir(), "report.html")
		f, err := os.Create(page)
		if err != nil {
			t.Fatal(err)
		}
		if err := render(f, site, transcriptsSource{}, false); err != nil {
			t.Fatal(err)
		}
		f.Close()
		ctx := browsertest.Tab(t, browser, time.Minute)
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady("body[data-ready]")); err != nil {
			t.Fatal(err)
		}
		colours := eval[[]string](t, ctx, `[...document.querySelectorAll("#standings-table tbody td[data-col=bot] .swatch")].map((s) => getComputedStyle(s).backgroundColor)`)
		seen := map[string]int{}
		for i, c := range colours {
			if j, ok := seen[c]; ok {
				t.Errorf("bots %d and %d have the same colour %s", j, i, c)
			}
			seen[c] = i
		}
		if len(colours) != n {
			t.Errorf("%d swatches for %d bots", len(colours), n)
		}
	})
	// A replay whose transcript is missing says so, and counts no steps.
	t.Run("missing-transcript", func(t *testing.T) {
		dir := copyResults(t, "auction")
		if err := os.Remove(filepath.Join(dir, "matches", "r001-g01-s1", "events.jsonl")); err != nil {
			t.Fatal(err)
		}
		ctx := openPage(t, browser, dir, "#match=r001-g01-s1&step=3")
		waitStep(t, ctx, 0)
		if got := eval[string](t, ctx, `document.querySelector("#r-step").textContent`); got != "no steps" {
			t.Errorf("the step counter says %q, want %q", got, "no steps")
		}
		if notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`); !strings.Contains(notes, "transcript of r001-g01-s1") {
			t.Errorf("the replay does not say its transcript is missing: %q", notes)
		}
	})
}

// waitStep waits for the replay to show step n.
func waitStep(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("#replay-view").dataset.step === "%d"`, n), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		notes := eval[string](t, ctx, `document.querySelector("#replay-notes").textContent`)
		t.Fatalf("the replay does not show step %d (%s): %v", n, notes, err)
	}
}

// stepView is one step of a replay as the page shows it.
type stepView struct {
	Label string   `json:"label"`
	Lines []string `json:"lines"`
	Clock []string `json:"clock"`
}

// allSteps steps the open replay from its first step to its last and
// reads each: its label, its lines and every seat's clock.
const allSteps = `(() => {
  const out = [], n = +document.querySelector("#r-slider").max;
  document.querySelector("#r-first").click();
  for (let i = 0; i <= n; i++) {
    out.push({ label: document.querySelector("#r-label").textContent,
      lines: [...document.querySelectorAll("#replay-lines .line")].map((l) => l.textContent),
      clock: [...document.querySelectorAll("#replay-seats tbody tr")].map((tr) => tr.children[3].textContent) });
    document.querySelector("#r-next").click();
  }
  return out;
})()`

// planowanieMoves reads a Planowanie transcript: every answer to a
// gen_move, in order (the cards in the order they were played), and
// after each protocol line every seat's clock, as arbiter charges it:
// each command from when it was sent, or when the response before it
// ended if that was later (commands sent together wait for the bot), to
// the empty line that ends its own response.
func planowanieMoves(t *testing.T, path string) (moves []move, clocks [][]float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var clock, done [8]float64 // done: when the seat's last response ended
	var waiting [8][]float64   // when each unanswered command was sent
	var asked [8]bool
	for _, line := range strings.Split(string(b), "\n") {
		var r struct {
			T    float64 `json:"t"`
			Seat int     `json:"seat"`
			Send *string `json:"send"`
			Recv *string `json:"recv"`
		}
		if json.Unmarshal([]byte(line), &r) != nil || r.Send == nil && r.Recv == nil {
			continue
		}
		switch {
		case r.Send != nil:
			waiting[r.Seat] = append(waiting[r.Seat], r.T)
			asked[r.Seat] = asked[r.Seat] || *r.Send == "gen_move"
		case *r.Recv != "":
			if c, ok := strings.CutPrefix(*r.Recv, "= "); ok && asked[r.Seat] {
				asked[r.Seat] = false
				moves = append(moves, move{r.Seat, c})
			}
		case len(waiting[r.Seat]) > 0:
			clock[r.Seat] += r.T - max(waiting[r.Seat][0], done[r.Seat])
			waiting[r.Seat], done[r.Seat] = waiting[r.Seat][1:], r.T
		}
		clocks = append(clocks, slices.Clone(clock[:]))
	}
	return moves, clocks
}

// editFile rewrites a file with edit, failing the test when edit
// changes nothing.
func editFile(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := edit(string(b))
	if s == string(b) {
		t.Fatalf("%s: the edit changed nothing", path)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gtpResponses counts each seat's responses in a transcript of a
// GTP-style game: the lines read that start with '=' or '?'.
func gtpResponses(t *testing.T, path string, seats int) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := make([]int, seats)
	for _, line := range strings.Split(string(b), "\n") {
		var r struct {
			Seat int     `json:"seat"`
			Recv *string `json:"recv"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Recv != nil && (strings.HasPrefix(*r.Recv, "=") || strings.HasPrefix(*r.Recv, "?")) {
			n[r.Seat]++
		}
	}
	return n
}

type move struct {
	Seat int
	Card string
}

// unfinishedPlays reads a Planowanie transcript's cards of the trick a
// fault left unfinished: the play commands sent (to seat 0, in order)
// after the last trick event, and before the fault.
func unfinishedPlays(t *testing.T, path string) []move {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var plays []move
	for _, line := range strings.Split(string(b), "\n") {
		var r struct {
			Seat  int     `json:"seat"`
			Send  *string `json:"send"`
			Event string  `json:"event"`
		}
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		var p move
		switch {
		case r.Event == "trick" || r.Event == "deal":
			plays = nil
		case r.Event == "fault":
			return plays
		case r.Send != nil && r.Seat == 0:
			if n, _ := fmt.Sscanf(*r.Send, "play %d %s", &p.Seat, &p.Card); n == 2 {
				plays = append(plays, p)
			}
		}
	}
	t.Fatalf("%s has no fault", path)
	return nil
}

// runningCopy copies testdata/planowanie and adds a match being played:
// match r001-g01-s9, the first n lines of r001-g01-s1's transcript and no
// result.
func runningCopy(t *testing.T, n int) string {
	t.Helper()
	dir := copyResults(t, "planowanie")
	b, err := os.ReadFile(filepath.Join(dir, "matches", "r001-g01-s1", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	match := filepath.Join(dir, "matches", "r001-g01-s9")
	if err := os.MkdirAll(match, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(match, "events.jsonl"), []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// serveDir serves dir as arbiter serve does, on a loopback port, until
// the test ends; it returns the page's URL.
func serveDir(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s := NewServer(dir)
	s.Poll = 50 * time.Millisecond
	go func() { defer close(done); s.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String() + "/"
}

// appendFile appends s to the file at path.
func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// transcriptTraffic is what a server has served of a transcript: the
// requests, those with a Range header, and the bytes of the bodies.
type transcriptTraffic struct {
	requests, ranged int
	bytes            int64
}

// serveCounting serves dir as serveDir does, counting what it serves of
// paths.
func serveCounting(t *testing.T, dir string, paths ...string) (string, func() transcriptTraffic) {
	t.Helper()
	var mu sync.Mutex
	var n transcriptTraffic
	s := NewServer(dir)
	s.Poll = 50 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(paths, r.URL.Path) {
			s.ServeHTTP(w, r)
			return
		}
		cw := &countingWriter{ResponseWriter: w}
		s.ServeHTTP(cw, r)
		mu.Lock()
		defer mu.Unlock()
		n.requests++
		if r.Header.Get("Range") != "" {
			n.ranged++
		}
		n.bytes += cw.n
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.watch(ctx) }()
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return srv.URL + "/", func() transcriptTraffic {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n += int64(n)
	return n, err
}

// waitFor waits for cond, failing the test with what after timeout.
func waitFor(t *testing.T, cond func() bool, timeout time.Duration, what string) {
	t.Helper()
	for end := time.Now().Add(timeout); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v", what, timeout)
		}
	}
}

// longBotName copies results directory name of testdata with bot from
// renamed long: in the plan, the results, the transcripts and the names
// of the stderr files.
func longBotName(t *testing.T, name, bot, long string) string {
	t.Helper()
	dir := copyResults(t, name)
	renameBot(t, dir, bot, long)
	return dir
}

// renameBot renames bot to long throughout results directory dir.
func renameBot(t *testing.T, dir, bot, long string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte(`"`+bot+`"`), []byte(`"`+long+`"`)), 0o644); err != nil {
			return err
		}
		if base := filepath.Base(path); strings.HasSuffix(base, "-"+bot+".stderr") {
			return os.Rename(path, filepath.Join(filepath.Dir(path), strings.TrimSuffix(base, bot+".stderr")+long+".stderr"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
