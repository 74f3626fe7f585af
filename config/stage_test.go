package config_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
)

// threeBots are the bots and game of a tournament of these tests.
const threeBots = `
bot "a" { house = "auction/random" }
bot "b" { house = "auction/share" }
bot "c" { house = "auction/square" }
game "auction" "g" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
`

// A stage without players takes the tournament's, when it sets one, and
// seats whole groups (0) otherwise; a gate without either plays duels
// (docs/stages.md, docs/configuration.md).
func TestStagePlayersDefault(t *testing.T) {
	for _, tt := range []struct {
		players string
		want    []int
	}{
		{"players = 2", []int{2, 2}},
		{"", []int{0, 2}},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"t.hcl": threeBots + `
tournament "t" {
  game = game.auction.g
  bots = [bot.a, bot.b, bot.c]
  ` + tt.players + `
  stage "q" {}
  stage "gate" {
    bots = [bot.a, bot.b]
    gate { against = [bot.c] }
  }
}
`})
		cfg, diags := load(dir, config.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		var got []int
		for _, s := range cfg.Tournaments[0].Stages {
			got = append(got, s.Players)
		}
		if len(got) != 2 || got[0] != tt.want[0] || got[1] != tt.want[1] {
			t.Errorf("%q: stages' players %v, want %v", tt.players, got, tt.want)
		}
	}
}

// A stage of one group whose players, the tournament's, exceed the bots
// it can have says where players comes from and offers no fewer groups.
func TestStagePlaysNoMatchNamesTournamentPlayers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"t.hcl": `
bot "a" { house = "auction/random" }
bot "b" { house = "auction/share" }
bot "c" { house = "auction/square" }
bot "d" { house = "auction/neighbour" }
bot "e" { house = "auction/random" }
bot "f" { house = "auction/share" }
game "auction" "g" {
  board "small" {
    cols    = 5
    rows    = 5
    capital = 40
  }
}
tournament "t" {
  game    = game.auction.g
  bots    = [bot.a, bot.b, bot.c, bot.d, bot.e, bot.f]
  players = 3
  stage "groups" {
    groups = 2
  }
  stage "final" {
    bots = [top(stage.groups, 1)]
  }
}
`})
	_, diags := load(dir, config.Options{})
	var detail string
	for _, d := range diags {
		if d.Summary == "Stage plays no match" {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, "seat 3 players (the tournament's players)") || !strings.Contains(detail, "at most 2.") || strings.Contains(detail, "fewer groups") {
		t.Errorf("detail %q: want it to say players is the tournament's and offer only fewer players", detail)
	}
}

// What a tournament in stages has once for every stage, or not at all
// (docs/stages.md, "Not (yet) in stages"), is refused in a stage saying
// so at its line, not as a block or argument HCL does not know: a stop
// rule, fill bots, another format, a deal or seed of its own.
func TestStageRefusesTournamentOnly(t *testing.T) {
	for _, tt := range []struct{ line, says string }{
		{"stop { max_matches = 3 }", "A stage takes no stop block: a tournament in stages has no stopping rule"},
		{"fill = [bot.c]", "A stage takes no fill: a tournament in stages has no fill bots"},
		{"swiss {}", "A stage takes no swiss block: every stage is a round robin within its groups"},
		{"groups {}", "A stage takes no groups block: every stage is a round robin within its groups"},
		{"order = \"by-seat\"", `A stage takes no order: a stage plays its matches group by group (order "by-group"), the only order stages have`},
		// With a label, which none of them takes: refused as one a stage
		// does not take, not as HCL's "Extraneous label for stop".
		{`stop "x" { max_matches = 3 }`, "A stage takes no stop block: a tournament in stages has no stopping rule"},
		{`swiss "a" "b" {}`, "A stage takes no swiss block: every stage is a round robin within its groups"},
		{"deal = \"per-match\"", "A stage takes no deal: the tournament's deal is every stage's; set it on the tournament"},
		{"seed = 3", "A stage takes no seed: the tournament's seed is every stage's; set it on the tournament"},
	} {
		diags, line := loadStageLine(t, tt.line)
		if len(diags) != 1 || diags[0].Summary != "Not in a stage" || !strings.Contains(diags[0].Detail, tt.says) ||
			diags[0].Subject == nil || diags[0].Subject.Start.Line != line {
			t.Errorf("%s: %v, want one error at line %d saying %q", tt.line, diags, line, tt.says)
		}
	}
}

// A tournament in stages takes no format, fill or order, each refused
// at its line saying why. order said "every stage is a round robin within
// its groups", which is no reason for an order, and fill said it too,
// untrue of fill bots, which are not (yet) in stages.
func TestStagedTournamentRefusesTournamentOnly(t *testing.T) {
	for _, tt := range []struct{ line, says string }{
		{`format = "round-robin"`, "A tournament played in stages takes no format: every stage is a round robin within its groups"},
		{"fill = [bot.c]", "A tournament played in stages takes no fill: fill bots are not (yet) in stages"},
		{`order = "by-seat"`, `A tournament played in stages takes no order: a stage plays its matches group by group (order "by-group"), the only order stages have`},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"t.hcl": threeBots + `
tournament "t" {
  game  = game.auction.g
  bots  = [bot.a, bot.b]
  ` + tt.line + `
  stage "q" {}
}
`})
		_, diags := load(dir, config.Options{})
		if len(diags) != 1 || diags[0].Summary != "Not with stages" || !strings.HasPrefix(diags[0].Detail, tt.says+" (see docs/stages.md)") ||
			diags[0].Subject == nil || diags[0].Subject.Start.Line != strings.Count(threeBots, "\n")+5 {
			t.Errorf("%s: %v, want one error at its line saying %q", tt.line, diags, tt.says)
		}
	}
}

// A misspelt argument or block in a stage is offered only a name that a
// stage takes, never one it refuses: "dea" was offered "Did you mean
// "deal"?", whose stage then said it takes no deal.
func TestStageMisspeltOffersOnlyItsOwn(t *testing.T) {
	for _, tt := range []struct{ line, offer string }{
		{"dea = 1", ""},
		{"fil = [bot.c]", ""},
		{"sed = 3", ""},
		{"stp {}", ""},
		{"swis {}", ""},
		{"round = 2", `Did you mean "rounds"?`},
	} {
		diags, line := loadStageLine(t, tt.line)
		if len(diags) != 1 || !strings.HasPrefix(diags[0].Summary, "Unsupported") ||
			diags[0].Subject == nil || diags[0].Subject.Start.Line != line {
			t.Errorf("%s: %v, want one error at line %d", tt.line, diags, line)
			continue
		}
		if got := diags[0].Detail; tt.offer == "" && strings.Contains(got, "Did you mean") {
			t.Errorf("%s: %q, want no name offered: the one offered is refused in a stage", tt.line, got)
		} else if !strings.Contains(got, tt.offer) {
			t.Errorf("%s: %q, want it to offer %q", tt.line, got, tt.offer)
		}
	}
}

// loadStageLine loads a tournament of two bots in one stage whose body is
// line, and returns its diagnostics and the line's number.
func loadStageLine(t *testing.T, line string) (hcl.Diagnostics, int) {
	t.Helper()
	dir := t.TempDir()
	src := threeBots + `
tournament "t" {
  game = game.auction.g
  bots = [bot.a, bot.b]
  stage "q" {
    ` + line + `
  }
}
`
	writeFiles(t, dir, map[string]string{"t.hcl": src})
	_, diags := load(dir, config.Options{})
	return diags, strings.Count(src[:strings.Index(src, line)], "\n") + 1
}
