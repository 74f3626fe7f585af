package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// editedBase is a four-player tournament of house bots, and a gauntlet
// with an SPRT between two of them.
const editedBase = `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [for i in range(1, 3) : { cards = i, leader = 0 }]
  clock { total = "10s" }
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
bot "c" { house = "planowanie/random" }
bot "e" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b, bot.c, bot.e]
  players = 4
}
tournament "sprt" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  seats   = "swap"
  rounds  = 10
  stop {
    sprt {
      elo0 = 0
      elo1 = 10
    }
  }
}
`

// A saved plan edited by hand and given a new hash (as plan.ComputeHash
// makes it) is held to the rules its configuration was compiled by:
// validate and run refuse it with a message that names what is wrong,
// and run writes nothing. Before, validate passed these, and run panicked
// in the referee or the journal, or refused its own directory on resume,
// after making -out.
func TestEditedPlanIsRefusedBeforeAnythingIsWritten(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"t.hcl": editedBase})
	compiled := func(tournament string) *plan.Plan {
		var out, errs bytes.Buffer
		if code := run([]string{"plan", "-json", "-tournament", tournament, dir}, &out, &errs); code != 0 {
			t.Fatalf("plan: %s", errs.String())
		}
		p, err := plan.Parse(out.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	settings := func(p *plan.Plan, edit func(s map[string]any)) {
		var s map[string]any
		if err := json.Unmarshal(p.Game.Settings, &s); err != nil {
			t.Fatal(err)
		}
		edit(s)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Game.Settings = b
	}
	deal := func(s map[string]any) map[string]any { return s["deals"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		name, tournament string
		edit             func(p *plan.Plan)
		want             string
	}{
		{"cards over the deck", "t", func(p *plan.Plan) { settings(p, func(s map[string]any) { deal(s)["cards"] = 99 }) },
			`game.settings of game "g" cannot be played with players = 4: deal 1 gives 99 cards to each of 4 players`},
		{"no deals", "t", func(p *plan.Plan) { settings(p, func(s map[string]any) { s["deals"] = []any{} }) },
			"the game has no deals"},
		{"leader off the table", "t", func(p *plan.Plan) { settings(p, func(s map[string]any) { deal(s)["leader"] = 9 }) },
			"deal 1 is led by player 9, but with 4 players the leader must be between 0 and 3"},
		{"a setting the game has not", "t", func(p *plan.Plan) { settings(p, func(s map[string]any) { deal(s)["leadr"] = 1 }) },
			`unknown field "leadr"`},
		{"an id twice", "t", func(p *plan.Plan) { p.Matches[1].ID = p.Matches[0].ID },
			`match "r001-g01-s1" (the 2nd of the list): its id is listed twice`},
		{"two seats of four", "t", func(p *plan.Plan) { p.Matches[0].Seats = p.Matches[0].Seats[:2] },
			"it has 2 seats, but its matches seat players = 4"},
		{"players 0", "t", func(p *plan.Plan) { p.Players = 0 },
			"players is 0, but it is a whole number from 1 to 1000"},
		{"alpha of 5", "sprt", func(p *plan.Plan) { p.Stop.SPRT.Alpha = 5 },
			"stop.sprt.alpha: alpha must be a number between 0 and 0.5 (exclusive), not 5."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := compiled(tc.tournament)
			tc.edit(p)
			p.Hash = p.ComputeHash()
			var b bytes.Buffer
			if err := p.Encode(&b, true); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "p.json")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			for _, args := range [][]string{{"validate", path}, {"validate", "-json", path}, {"run", path, "-out", out, "-j", "2"}} {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				if got := stdout.String() + stderr.String(); code == 0 || !strings.Contains(got, tc.want) && !strings.Contains(got, jsonQuoted(tc.want)) {
					t.Errorf("arbiter %s: exit %d\n%s\nwant a refusal saying %q", strings.Join(args, " "), code, got, tc.want)
				}
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("run made %s (%v): a refused plan writes nothing", out, err)
			}
		})
	}
}

// jsonQuoted is s as it stands inside a JSON string.
func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// A saved plan whose bot runs in the sandbox with /tmp itself as its
// folder (edited to dir "/tmp", to a link to it, or given a -root that
// makes its dir /tmp) is refused before anything runs, as its
// configuration would have been (config's "Bot directory is /tmp"),
// naming the plan file, the bot and its dir, by validate, run and check
// -bot; outside the sandbox it is not. Before, validate passed it, and
// run watched all of the machine's shared /tmp as the bot's files, to end
// every match in a start fault (check -bot, until it too checked, gave
// the start fault).
func TestSavedPlanBotDirTmpRefusedInSandbox(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"t.hcl": `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "10s" }
}
bot "x" {
  dir     = "x"
  command = ["/bin/true"]
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.x, bot.a]
  players = 2
}
`})
	if err := os.Mkdir(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"plan", "-json", dir}, &out, &errs); code != 0 {
		t.Fatalf("plan: %s", errs.String())
	}
	link := filepath.Join(t.TempDir(), "tmplink")
	if err := os.Symlink("/tmp", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, root string
		sandbox         bool
	}{
		{"dir /tmp", "/tmp", "", true},
		{"a link to /tmp", link, "", true},
		{"root /tmp", ".", "/tmp", true},
		{"outside the sandbox", "/tmp", "", false},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			p, err := plan.Parse(out.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			p.Bots[0].Dir = tc.dir
			if !tc.sandbox {
				p.Bots[0].Limits.Sandbox = nil
			}
			p.Hash = p.ComputeHash()
			var b bytes.Buffer
			if err := p.Encode(&b, true); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "p.json")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			want := `bot "x" runs in the sandbox with /tmp itself as its folder (dir "` + tc.dir + `"`
			res := filepath.Join(t.TempDir(), "out")
			runs := [][]string{{"validate", path}, {"validate", "-json", path}, {"run", path, "-out", res}, {"check", "-bot", "x", path}}
			if !tc.sandbox {
				runs = runs[:1]
			}
			for _, args := range runs {
				if tc.root != "" {
					args = append(args, "-root", tc.root)
				}
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				got := stdout.String() + stderr.String()
				refused := strings.Contains(got, path+" cannot run here: "+want) || args[1] == "-json" && strings.Contains(got, jsonQuoted(want))
				switch {
				case tc.sandbox && (code == 0 || !refused || !strings.Contains(got, "sandbox = false")):
					t.Errorf("arbiter %s: exit %d\n%s\nwant a refusal saying %q and what to do", strings.Join(args, " "), code, got, want)
				case !tc.sandbox && strings.Contains(got, "/tmp itself"):
					t.Errorf("arbiter %s refused a bot outside the sandbox in /tmp:\n%s", strings.Join(args, " "), got)
				}
			}
			if _, err := os.Stat(res); !os.IsNotExist(err) {
				t.Errorf("run made %s (%v): a refused plan writes nothing", res, err)
			}
		})
	}
}

// A replay whose -root makes a bot's folder /tmp itself, the bot in the
// sandbox, is refused before anything runs or is fingerprinted, with the
// message run gives a saved plan (sandboxTmpProblem), naming the results
// directory's plan: before, the replay watched all of the machine's /tmp
// as the bot's files and replayed the match into a start fault.
func TestReplayBotDirTmpRefusedInSandbox(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"t.hcl": `
deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "10s" }
}
bot "x" {
  command = ["arbiter", "bot", "planowanie/random"]
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.x, bot.a]
  players = 2
}
`})
	res := filepath.Join(t.TempDir(), "res")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", filepath.Join(dir, "t.hcl"), "-out", res, "-j", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	matches, err := os.ReadDir(filepath.Join(res, "matches"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("run recorded no match (%v)", err)
	}
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"replay", "-root", "/tmp", res, matches[0].Name()}, &stdout, &stderr)
	got := stdout.String() + stderr.String()
	want := filepath.Join(res, "plan.json") + ` cannot run here: bot "x" runs in the sandbox with /tmp itself as its folder (dir ".", /tmp)`
	if code == 0 || !strings.Contains(got, want) || !strings.Contains(got, "sandbox = false") {
		t.Errorf("replay -root /tmp: exit %d\n%s\nwant a refusal saying %q and what to do", code, got, want)
	}
}
