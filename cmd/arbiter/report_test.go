package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/stats"
	"github.com/arbiter-contests/arbiter/internal/report"
)

// Small tournaments of house bots, one per game: a few matches each, so
// that the browser tests stay within a minute on two cores.
var reportConfigs = map[string]string{
	"planowanie": `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
bot "random" { house = "planowanie/random" }
bot "greedy" { house = "planowanie/greedy" }
bot "other" { house = "planowanie/random" }
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 5) : { cards = i, leader = (i - 1) % 3 }]
  clock { total = "5m" }
}
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.random, bot.greedy, bot.other]
  players = 3
  rounds  = 2
  deal    = "per-round"
  seed    = 5
}`,
	"euchre": `
bot "random" { house = "euchre/random" }
bot "rules" { house = "euchre/rules" }
game "euchre" "g" {
  target = 2
  clock { move = "20s" }
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.random, bot.rules]
  format  = "round-robin"
  players = 2
  seats   = "fixed"
  seed    = 3
}`,
	"bricks": `
bot "keeper" { house = "bricks/keeper" }
bot "random" { house = "bricks/random" }
game "bricks" "g" {
  board {
    size   = 5
    filled = [[3, 1]]
  }
  clock { # generous: the test shares a busy machine
    startup = "20s"
    move    = "20s"
    silence = "30s"
  }
}
tournament "t" {
  game    = game.bricks.g
  bots    = [bot.keeper, bot.random]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  seed    = 7
}`,
	"blokus": `
bot "random" { house = "blokus/random" }
bot "greedy" { house = "blokus/greedy" }
game "blokus" "g" {
  board {
    rows = 8
    cols = 8
  }
  stones {
    stone "I1" { cells = [[0, 0]] }
    stone "I2" { cells = [[0, 0], [1, 0]] }
    stone "V3" { cells = [[0, 0], [1, 0], [0, 1]] }
    stone "L4" { cells = [[0, 0], [0, 1], [0, 2], [1, 2]] }
    stone "O4" { cells = [[0, 0], [1, 0], [0, 1], [1, 1]] }
  }
  clock { move = "20s" }
}
tournament "t" {
  game    = game.blokus.g
  bots    = [bot.random, bot.greedy]
  format  = "round-robin"
  seats   = "swap"
  players = 2
  seed    = 11
}`,
	"auction": `
bot "random" { house = "auction/random" }
bot "share" { house = "auction/share" }
bot "square" { house = "auction/square" }
# Leaves a file that is not its own in the game's folder ($0 here, the
# first argument after sh -c's script): disqualified in its first match,
# so the page shows a disqualified bot.
bot "vandal" { command = ["sh", "-c", "echo x > \"$0/junk\"; echo 0"] }
game "auction" "g" {
  board "small" {
    cols    = 4
    rows    = 3
    capital = 30
  }
  idle_rounds = 4
  clock { move = "20s" }
}
tournament "t" {
  game    = game.auction.g
  bots    = [bot.random, bot.share, bot.square, bot.vandal]
  players = 4
  seats   = "fixed"
  rating  = "placement"
  seed    = 13
}`,
}

// arbiterCmd runs the arbiter (the test binary, which testscript put on
// PATH as "arbiter") and returns its stdout.
func arbiterCmd(tb testing.TB, args ...string) []byte {
	tb.Helper()
	path, err := exec.LookPath("arbiter")
	if err != nil {
		tb.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("arbiter %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}

// playTournament runs a configuration into a fresh results directory.
func playTournament(tb testing.TB, config string) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(config), 0o644); err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	arbiterCmd(tb, "run", dir, "-out", out, "-j", "2")
	return out
}

// pageView is what a replay shows at one step, as the test reads it from
// the page and as it computes it from the transcript on its own.
type pageView struct {
	Played map[string][]string `json:"played"` // cards on the table, by seat (or Euchre position)
	Hands  map[string][]string `json:"hands"`  // cards in hand, likewise
	Cells  [][3]int            `json:"cells"`  // occupied cells: column, row, owner seat
}

const readView = `(() => {
  const v = document.querySelector("#replay-view");
  const out = { played: {}, hands: {}, cells: [] };
  for (const b of v.querySelectorAll(".hand-box")) {
    const k = b.dataset.position ?? b.dataset.seat;
    out.played[k] = [...b.querySelectorAll(".played .card")].map((c) => c.dataset.card);
    out.hands[k] = [...b.querySelectorAll(".hand .card")].map((c) => c.dataset.card);
  }
  for (const c of v.querySelectorAll(".cell")) if (+c.dataset.owner >= 0) out.cells.push([+c.dataset.x, +c.dataset.y, +c.dataset.owner]);
  return out;
})()`

type transcriptLine struct {
	Send  *string         `json:"send"`
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// expectedViews replays a transcript the way the page's viewer for game
// steps through it, written again here from the drivers' event types, so
// that the page is checked against the transcript and not against itself.
func expectedViews(tb testing.TB, game, path string) []pageView {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var views []pageView
	cur := pageView{Played: map[string][]string{}, Hands: map[string][]string{}}
	cells := map[[2]int]int{}
	push := func() {
		v := pageView{Played: map[string][]string{}, Hands: map[string][]string{}}
		for k, c := range cur.Played {
			v.Played[k] = slices.Clone(c)
		}
		for k, h := range cur.Hands {
			v.Hands[k] = slices.Clone(h)
		}
		for c, o := range cells {
			v.Cells = append(v.Cells, [3]int{c[0], c[1], o})
		}
		slices.SortFunc(v.Cells, func(a, b [3]int) int { return slices.Compare(a[:], b[:]) })
		views = append(views, v)
	}
	play := func(key, card string) {
		cur.Played[key] = []string{card}
		h := cur.Hands[key]
		if i := slices.Index(h, card); i >= 0 {
			cur.Hands[key] = slices.Delete(slices.Clone(h), i, i+1)
		}
	}
	clearTable := func() {
		for k := range cur.Played {
			cur.Played[k] = nil
		}
	}
	bricksBoard := regexp.MustCompile(`^\d+(_-?\d+x-?\d+)*$`)
	bricksSize := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l transcriptLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatal(err)
		}
		if l.Send != nil && game == "bricks" && bricksSize == 0 && bricksBoard.MatchString(*l.Send) {
			fmt.Sscanf(*l.Send, "%d", &bricksSize)
		}
		var d map[string]any
		json.Unmarshal(l.Data, &d)
		num := func(k string) int { return int(d[k].(float64)) }
		strs := func(v any) []string {
			var out []string
			for _, x := range v.([]any) {
				out = append(out, x.(string))
			}
			return out
		}
		switch game + "/" + l.Event {
		case "planowanie/deal", "euchre/deal":
			for i, h := range d["hands"].([]any) {
				cur.Hands[fmt.Sprint(i)] = strs(h)
				cur.Played[fmt.Sprint(i)] = nil
			}
			push()
		case "planowanie/declare", "planowanie/deal_score", "euchre/bidding", "euchre/trump", "euchre/thrown_in",
			"euchre/hand_score", "euchre/end", "bricks/end", "blokus/board", "blokus/end", "auction/board", "auction/end":
			push()
		case "planowanie/end":
			clearTable()
			push()
		case "planowanie/trick":
			clearTable()
			cards := strs(d["cards"])
			for i := range cards {
				seat := (num("leader") + i) % len(cards)
				play(fmt.Sprint(seat), cards[seat])
				push()
			}
		case "euchre/discard":
			k := fmt.Sprint(num("dealer"))
			cur.Hands[k] = append(cur.Hands[k], d["upcard"].(string))
			play(k, d["discarded"].(string))
			cur.Played[k] = nil
			push()
		case "euchre/trick":
			clearTable()
			for i, c := range strs(d["cards"]) {
				if c != "p" {
					play(fmt.Sprint((num("leader")+i)%4), c)
					push()
				}
			}
		case "bricks/move":
			var x1, y1, x2, y2 int
			if n, _ := fmt.Sscanf(d["move"].(string), "%dx%d_%dx%d", &x1, &y1, &x2, &y2); n == 4 {
				for _, c := range [][2]int{{x1, y1}, {x2, y2}} {
					if c[0] >= 0 && c[1] >= 0 && c[0] < bricksSize && c[1] < bricksSize {
						cells[c] = num("seat")
					}
				}
			}
			push()
		case "blokus/move":
			if d["pass"] != true {
				for _, c := range d["cells"].([]any) {
					rc := c.([]any)
					cells[[2]int{int(rc[1].(float64)), int(rc[0].(float64))}] = num("player") - 1
				}
			}
			push()
		case "auction/round":
			var col, row int
			if w := num("winner"); w >= 0 {
				fmt.Sscanf(d["cell"].(string), "[%d,%d]", &col, &row)
				cells[[2]int{col - 1, row - 1}] = w
			}
			push()
		case game + "/fault":
			push()
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return views
}

// normal makes a page view comparable: empty lists as nil, cells sorted.
func normal(v pageView) pageView {
	for _, m := range []map[string][]string{v.Played, v.Hands} {
		for k, c := range m {
			if len(c) == 0 {
				m[k] = nil
			}
		}
	}
	slices.SortFunc(v.Cells, func(a, b [3]int) int { return slices.Compare(a[:], b[:]) })
	if len(v.Cells) == 0 {
		v.Cells = nil
	}
	return v
}

// TestReportInBrowser opens the report of a small tournament of every
// game in Chromium: the standings must be `arbiter rank -json`'s, and a
// replay stepped to move N (by deep link, and by the keyboard) must show
// the position of the transcript after N steps.
func TestReportInBrowser(t *testing.T) {
	t.Parallel()
	browser := newBrowser(t)
	for _, game := range []string{"planowanie", "euchre", "bricks", "blokus", "auction"} {
		t.Run(game, func(t *testing.T) {
			dir := playTournament(t, reportConfigs[game])
			page := filepath.Join(t.TempDir(), "report.html")
			arbiterCmd(t, "report", dir, "-o", page)
			ctx := tab(t, browser, 2*time.Minute)
			url := "file://" + page
			if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("body[data-ready]")); err != nil {
				t.Fatal(err)
			}
			checkStandings(t, ctx, dir)
			screenshot(t, ctx, game+"-standings")

			_, results, err := engine.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			id := results[len(results)-1].Match
			want := expectedViews(t, game, filepath.Join(dir, engine.MatchesDir, id, "events.jsonl"))
			if len(want) < 4 {
				t.Fatalf("match %s has only %d steps; make the tournament longer", id, len(want))
			}
			// A deep link to step n, opened in a page that was on another tab.
			n := len(want) * 2 / 3
			if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s#match=%s&step=%d", url, id, n))); err != nil {
				t.Fatal(err)
			}
			checkStep(t, ctx, n, want[n])
			screenshot(t, ctx, fmt.Sprintf("%s-replay-step-%d", game, n))
			// The keyboard: → twice, ← once.
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
				t.Fatal(err)
			}
			checkStep(t, ctx, n+1, want[n+1])
			hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
			if err != nil || hash != fmt.Sprintf("#match=%s&step=%d", id, n+1) {
				t.Errorf("after the keys the address ends in %q (%v), want the step's deep link", hash, err)
			}
			// The first steps, from a fresh load of the match list's link.
			if err := chromedp.Do(ctx, chromedp.Navigate(url+"#matches"), chromedp.WaitReady("body[data-ready]"),
				chromedp.Click(fmt.Sprintf(`#match-table tr[data-match=%q] a`, id))); err != nil {
				t.Fatal(err)
			}
			checkStep(t, ctx, 0, want[0])
		})
	}
}

// checkStandings compares the page's standings with `arbiter rank -json`.
func checkStandings(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	var st stats.Stats
	// A bot without games has Elo null, which leaves Standing.Elo 0.
	var elos struct {
		Standings []struct {
			Elo *float64 `json:"elo"`
		} `json:"standings"`
	}
	js := arbiterCmd(t, "rank", dir, "-json")
	if err := errors.Join(json.Unmarshal(js, &st), json.Unmarshal(js, &elos)); err != nil {
		t.Fatal(err)
	}
	type row struct{ Rank, Bot, Elo, Games, Matches, Wins, Normal, Faults string }
	var want []row
	for i, s := range st.Standings {
		elo := "–"
		if e := elos.Standings[i].Elo; e != nil {
			elo = fmt.Sprintf("%.0f", *e)
		}
		bot := s.Bot
		if s.Fill {
			bot += " (fill)"
		}
		if d := s.Disqualified; d != nil {
			bot += " (DQ, " + d.Reason
			if d.Match != "" {
				bot += " in " + d.Match
			}
			bot += ")"
		}
		want = append(want, row{fmt.Sprint(s.Rank), bot, elo, fmt.Sprint(s.Games), fmt.Sprint(s.Matches), fmt.Sprint(s.Wins), fmt.Sprint(s.NormalWins), fmt.Sprint(s.Faults)})
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](`[...document.querySelectorAll("#standings-table tbody tr")].map((tr) => {
		const c = (k) => tr.querySelector("td[data-col=" + k + "]").textContent;
		return { Rank: c("rank"), Bot: c("bot"), Elo: c("elo"), Games: c("games"), Matches: c("matches"), Wins: c("wins"), Normal: c("normal"), Faults: c("faults") };
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings on the page differ from arbiter rank -json (-rank +page):\n%s", diff)
	}
}

// checkStep waits for the replay to show step n and compares what it
// shows with want.
func checkStep(t *testing.T, ctx context.Context, n int, want pageView) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("#replay-view").dataset.step === "%d"`, n), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		label, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#replay-view").dataset.step + " " + document.querySelector("#replay-notes").textContent`))
		t.Fatalf("the replay did not show step %d (it shows %q): %v", n, label, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](readView))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normal(want), normal(got)); diff != "" {
		t.Errorf("step %d of the replay (-transcript +page):\n%s", n, diff)
	}
}

// BenchmarkReportFirstView measures how long the report of the
// 1,200-match ITPW-style tournament (testdata/itpw1200.hcl: 12 house
// bots, 100 rounds of 13 deals) takes to open and draw its first view in
// headless Chromium: from navigation to the standings drawn. Playing the
// tournament takes minutes; set ARBITER_BENCH_RESULTS to a results
// directory of that configuration to reuse one.
//
//	go test ./cmd/arbiter -run '^$' -bench ReportFirstView -benchtime 5x
func BenchmarkReportFirstView(b *testing.B) {
	browser := newBrowser(b)
	dir := os.Getenv("ARBITER_BENCH_RESULTS")
	if dir == "" {
		cfg, err := os.ReadFile("testdata/itpw1200.hcl")
		if err != nil {
			b.Fatal(err)
		}
		dir = playTournament(b, string(cfg))
	}
	page := filepath.Join(b.TempDir(), "report.html")
	arbiterCmd(b, "report", dir, "-o", page)
	fi, err := os.Stat(page)
	if err != nil {
		b.Fatal(err)
	}
	ctx := tab(b, browser, 10*time.Minute)
	// The page's own measure: from navigation start to the first view
	// drawn (the standings, the summary), as performance.now() gives it.
	var drawn float64
	b.ResetTimer()
	for range b.N {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate("file://"+page), chromedp.WaitReady("body[data-ready]")); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`+document.body.dataset.ready`))
		if err != nil {
			b.Fatal(err)
		}
		drawn += ms
	}
	b.ReportMetric(drawn/float64(b.N), "drawn-ms")
	b.ReportMetric(float64(fi.Size())/(1<<20), "page-MiB")
	b.ReportMetric(float64(dirSize(b, strings.TrimSuffix(page, ".html")+"-matches"))/(1<<20), "transcripts-MiB")
}

// dirSize sums the sizes of the files in dir.
func dirSize(tb testing.TB, dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var n int64
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// TestReportBadInput opens the report of a results directory with a torn
// last line, a transcript with an unknown event kind and a line that is
// not JSON, and a bot whose name is markup: the page renders, shows the
// name as text, runs none of it, and says what it skipped.
func TestReportBadInput(t *testing.T) {
	t.Parallel()
	browser := newBrowser(t)
	dir := playTournament(t, reportConfigs["planowanie"])
	const hostile = `<script>window.pwned=1</script><img src=x onerror="window.pwned=2">`
	// Rename a bot everywhere, as a hand-edited directory could.
	quoted, _ := json.Marshal(hostile)
	raw := []byte(`"` + strings.ReplaceAll(string(quoted[1:len(quoted)-1]), `\u003c`, "<") + `"`)
	raw = bytes.ReplaceAll(bytes.ReplaceAll(raw, []byte(`\u003e`), []byte(">")), []byte(`\u0026`), []byte("&"))
	files, _ := filepath.Glob(filepath.Join(dir, engine.MatchesDir, "*", "events.jsonl"))
	files = append(files, filepath.Join(dir, engine.PlanFile), filepath.Join(dir, engine.ResultsFile))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, bytes.ReplaceAll(b, []byte(`"other"`), raw), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, results, err := engine.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := results[0].Match
	events := filepath.Join(dir, engine.MatchesDir, id, "events.jsonl")
	b, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	var edited []byte
	for i, l := range lines {
		edited = append(edited, l...)
		if i == 3 {
			edited = append(edited, "{\"t\":1,\"event\":\"mystery\",\"data\":{\"x\":\"</script>\"}}\nnot json at all\n"...)
		}
	}
	if err := os.WriteFile(events, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, engine.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"match":"r002-g01-s9","round":2,"seats":[{"bot":"ran`)
	f.Close()

	page := filepath.Join(t.TempDir(), "report.html")
	path, _ := exec.LookPath("arbiter")
	out, err := exec.Command(path, "report", dir, "-o", page).CombinedOutput()
	if err != nil {
		t.Fatalf("arbiter report: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "skipped: ") || !strings.Contains(string(out), "not a complete result") {
		t.Errorf("arbiter report does not say it skipped the torn line:\n%s", out)
	}
	ctx := tab(t, browser, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady("body[data-ready]")); err != nil {
		t.Fatal(err)
	}
	check := func(what, expr string) {
		t.Helper()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err != nil || !ok {
			t.Errorf("%s: %s is not true (%v)", what, expr, err)
		}
	}
	name, _ := json.Marshal(hostile)
	check("the markup ran", `window.pwned === undefined`)
	check("the name is not shown as text", fmt.Sprintf(`[...document.querySelectorAll("#standings-table td[data-col=bot]")].some((td) => td.textContent === %s)`, name))
	check("the torn line is not said", `document.querySelector("#skipped").textContent.includes("not a complete result")`)
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("file://%s#match=%s&step=3", page, id))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#replay-view").dataset.step === "3"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the replay of the edited transcript did not open: %v", err)
	}
	check("the unknown event kind is not said", `document.querySelector("#replay-notes").textContent.includes('1 event(s) of unknown kind "mystery" skipped')`)
	check("the line that is not JSON is not said", `document.querySelector("#replay-notes").textContent.includes("not JSON")`)
	check("the markup ran in the replay", `window.pwned === undefined`)
	screenshot(t, ctx, "bad-input-replay")
}

// TestServeLive opens `arbiter serve` on a directory before a run starts
// writing it, and watches the page follow the run to its end.
func TestServeLive(t *testing.T) {
	t.Parallel()
	browser := newBrowser(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(reportConfigs["planowanie"]), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	path, _ := exec.LookPath("arbiter")
	serve := exec.Command(path, "serve", results, "-addr", "127.0.0.1:0")
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := regexp.MustCompile(`http://\S+/`).FindString(line)
	if url == "" {
		t.Fatalf("arbiter serve says %q, with no address", line)
	}
	// Until a run has written its plan, the server answers with a page
	// that reloads itself.
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !bytes.Contains(body, []byte(`http-equiv="refresh"`)) {
		t.Errorf("before the run, GET %s: %s\n%s", url, resp.Status, body)
	}
	run := exec.Command(path, "run", dir, "-out", results, "-j", "1")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(results, engine.PlanFile)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run wrote no plan.json within 30s")
		}
	}
	ctx := tab(t, browser, 3*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("body[data-ready]")); err != nil {
		t.Fatal(err)
	}
	early, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#summary").textContent`))
	if err := run.Wait(); err != nil {
		t.Fatalf("arbiter run: %v", err)
	}
	_, final, err := engine.ReadDir(results)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d of %d matches finished", len(final), len(final))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector("#summary").textContent.includes(%q)`, want),
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		summary, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#summary").textContent`))
		t.Fatalf("the live page did not follow the run to %q; it says %q", want, summary)
	}
	t.Logf("the page opened saying %q, and followed the run to %q", early, want)
	checkStandings(t, ctx, results)
	// A replay loads its transcript from the server.
	id := final[len(final)-1].Match
	if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s#match=%s&step=2", url, id))); err != nil {
		t.Fatal(err)
	}
	checkStep(t, ctx, 2, expectedViews(t, "planowanie", filepath.Join(results, engine.MatchesDir, id, "events.jsonl"))[2])
	screenshot(t, ctx, "live-replay")
}

// TestRunServe checks that `arbiter run -serve` serves the page while the
// run plays.
func TestRunServe(t *testing.T) {
	t.Parallel()
	run, _, stderr, url := startRunServe(t, 20)
	defer run.Wait()
	// The server may answer before the run has written its plan (503, a
	// page that reloads itself); then the page.
	var body []byte
	status := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("GET %s while the run plays: %v", url, err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if status = resp.Status; resp.StatusCode == http.StatusOK {
			break
		}
	}
	if !bytes.Contains(body, []byte(`data-live="1"`)) {
		t.Errorf("GET %s: %s\n%.300s", url, status, body)
	}
	if err := run.Wait(); err != nil {
		t.Fatalf("arbiter run -serve: %v\n%s", err, stderr.Bytes())
	}
	if _, err := http.Get(url); err == nil {
		t.Errorf("the page is still served after the run ended")
	}
}

// startRunServe starts arbiter run -serve of reportConfigs' Planowanie
// tournament, played for rounds rounds, and waits for the address of its
// page (servedURL); the run writes results, and its stderr.
func startRunServe(t *testing.T, rounds int) (run *exec.Cmd, results string, stderr *bytes.Buffer, url string) {
	t.Helper()
	dir := t.TempDir()
	cfg := strings.Replace(reportConfigs["planowanie"], "rounds  = 2", fmt.Sprintf("rounds  = %d", rounds), 1)
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	results = filepath.Join(dir, "results")
	path, _ := exec.LookPath("arbiter")
	stderr = &bytes.Buffer{}
	run = exec.Command(path, "run", dir, "-out", results, "-j", "1", "-serve", "127.0.0.1:0")
	run.Stderr = stderr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	return run, results, stderr, servedURL(t, run, results, stderr)
}

// servedURL is the address of the page that run, an arbiter run -serve
// into results, logs that it serves; the test fails (killing run) when
// it logs none within 20 s.
func servedURL(t *testing.T, run *exec.Cmd, results string, stderr *bytes.Buffer) string {
	t.Helper()
	addr := regexp.MustCompile(`url=(http://\S+/)`)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(results, engine.LogFile))
		if m := addr.FindSubmatch(b); m != nil {
			return string(m[1])
		}
	}
	run.Process.Kill()
	t.Fatalf("arbiter run -serve logged no address:\n%s", stderr.Bytes())
	return ""
}

// TestRunServeInterrupted: a run -serve that SIGINT ends tells an open
// page that the server stops, after sending it the results the run left
// on disk, those a server opened on the directory afterwards sends. The
// run exited without waiting for the event streams (srv.Serve returns
// as Shutdown begins): the page got no "stopped" event, its last
// results those of an earlier look.
func TestRunServeInterrupted(t *testing.T) {
	t.Parallel()
	run, results, stderr, url := startRunServe(t, 1000)
	defer run.Wait()
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Get(url + "events")
	if err != nil {
		run.Process.Kill()
		t.Fatalf("GET %sevents while the run plays: %v", url, err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	// Once the page has a match's result, stop the run as Ctrl-C does.
	var last, site string
	for !strings.HasPrefix(site, "event: site\n") || !strings.Contains(site, `"elapsed_ms":`) {
		if site, err = nextEvent(events); err != nil {
			run.Process.Kill()
			t.Fatal(err)
		}
	}
	if err := run.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := nextEvent(events)
		if err != nil {
			break
		}
		if last = ev; strings.HasPrefix(ev, "event: site\n") {
			site = ev
		}
	}
	if err := run.Wait(); err == nil || !strings.Contains(stderr.String(), "Interrupted by SIGINT") {
		t.Fatalf("arbiter run -serve, interrupted: %v\n%s", err, stderr.Bytes())
	}
	if last != "event: stopped\ndata: \n" {
		t.Errorf("the event stream ended with %.100q, not the stopped event", last)
	}
	if want := firstSite(t, results); site != want {
		t.Errorf("the page's last results are not those the run left:\n%.300s\nwant\n%.300s", site, want)
	}
}

// TestStartServeAfterItsContext: run -serve's server, whose context a
// signal cancels at once, looks at the results a last time when the run
// has ended (its returned stop), not at the signal: what the run writes
// while it ends is on the page. It looked at the signal and stopped.
func TestStartServeAfterItsContext(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "res")
	if err := os.CopyFS(dir, os.DirFS("../../internal/report/testdata/planowanie")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, signal := context.WithCancel(context.Background())
	stop := startServe(ctx, dir, ln, hclog.NewNullLogger())
	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	if ev, err := nextEvent(events); err != nil || !strings.HasPrefix(ev, "event: site\n") {
		t.Fatalf("the first event is %.100q (%v)", ev, err)
	}
	signal()
	// The run goes on ending: the page follows what it writes, and gets
	// its last results when it has ended.
	elapsed := func(ms string) {
		t.Helper()
		path := filepath.Join(dir, engine.ResultsFile)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b = regexp.MustCompile(`"elapsed_ms":\d+`).ReplaceAll(b, []byte(`"elapsed_ms":`+ms))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	elapsed("111111")
	if ev, err := nextEvent(events); err != nil || !strings.HasPrefix(ev, "event: site\n") || !strings.Contains(ev, `"elapsed_ms":111111`) {
		stop()
		t.Fatalf("the event after the signal is %.100q (%v), want the results written since", ev, err)
	}
	elapsed("987654")
	stop()
	ev, err := nextEvent(events)
	if err != nil || !strings.HasPrefix(ev, "event: site\n") || !strings.Contains(ev, `"elapsed_ms":987654`) {
		t.Errorf("the event after the run's end is %.100q (%v), want its last results", ev, err)
	}
	if ev, err := nextEvent(events); err != nil || ev != "event: stopped\ndata: \n" {
		t.Errorf("then %.100q (%v), want the stopped event", ev, err)
	}
}

// nextEvent reads the next event of an event stream: its lines, up to
// the empty line that ends it.
func nextEvent(r *bufio.Reader) (string, error) {
	var ev []byte
	for {
		line, err := r.ReadBytes('\n')
		switch {
		case err != nil:
			return string(ev), fmt.Errorf("reading the events: %w (after %q)", err, ev)
		case len(line) > 1 || len(ev) == 0:
			ev = append(ev, line...)
		default:
			return string(ev), nil
		}
	}
}

// firstSite is the first results event that a server of dir sends.
func firstSite(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- report.NewServer(dir).Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ev, err := nextEvent(bufio.NewReader(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestRunServeOnABusyAddress: run -serve on an address in use fails
// before the run makes or touches its results directory.
func TestRunServeOnABusyAddress(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(reportConfigs["planowanie"]), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	path, _ := exec.LookPath("arbiter")
	out, err := exec.Command(path, "run", dir, "-out", results, "-j", "1", "-serve", busy.Addr().String()).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-serve "+busy.Addr().String()+": ") || !strings.Contains(string(out), "address already in use") {
		t.Errorf("run -serve on a busy address: %v\n%s", err, out)
	}
	if _, err := os.Stat(results); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the failed run made %s (%v)", results, err)
	}
}

// TestReportOutInsideResults: report -o refuses a folder, and a page
// written over or among the results directory's own files (-o
// DIR/plan.json made the plan a page, and the directory unreadable),
// leaving them as they were; an .html file there, or a file elsewhere,
// is written.
func TestReportOutInsideResults(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "res")
	if err := os.CopyFS(dir, os.DirFS("../../internal/report/testdata/planowanie")); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, f := range []string{engine.PlanFile, engine.ResultsFile, filepath.Join(engine.MatchesDir, "r001-g01-s1", "events.jsonl")} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = b
	}
	for _, out := range []string{"plan.json", "results.jsonl", "stopped.json", "", "matches/r001-g01-s1/events.jsonl", "matches/x.html", "rounds/x.html"} {
		var stdout, stderr bytes.Buffer
		page := filepath.Join(dir, out)
		if code := run([]string{"report", dir, "-o", page}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "-o "+page+" is") {
			t.Errorf("report -o %s: exit %d, %s%s; want it refused, naming it", page, code, stdout.String(), stderr.String())
		}
	}
	// Through a link to DIR, into a folder not made yet: the page made a
	// match folder, which the results then showed as a match cut off.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"matches/zz/x.html", "rounds/zz/x.html"} {
		var stdout, stderr bytes.Buffer
		page := filepath.Join(link, out)
		if code := run([]string{"report", dir, "-o", page}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "-o "+page+" is") {
			t.Errorf("report -o %s: exit %d, %s%s; want it refused, naming it", page, code, stdout.String(), stderr.String())
		}
	}
	for _, f := range []string{filepath.Join(engine.MatchesDir, "zz"), filepath.Join(engine.RoundsDir, "zz")} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("report made %s: %v", f, err)
		}
	}
	for f, b := range before {
		if got, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s changed (%v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, engine.StopFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("report wrote %s: %v", engine.StopFile, err)
	}
	for _, page := range []string{filepath.Join(dir, "site", "index.html"), filepath.Join(t.TempDir(), "page")} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"report", dir, "-o", page}, &stdout, &stderr); code != 0 {
			t.Errorf("report -o %s: exit %d: %s", page, code, stderr.String())
		}
	}
}
