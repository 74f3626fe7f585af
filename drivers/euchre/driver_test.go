package euchre

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// memory says whose the memory file is ("per-bot", the challenge's, by
// default); a number there is the size limit, as before memory_bytes.
func TestDecodeMemory(t *testing.T) {
	for _, tc := range []struct {
		body  string
		scope string
		bytes int64
		diag  string // the summary of the one diagnostic expected
	}{
		{"", PerBot, 1024, ""},
		{`memory = "per-position"`, "", 1024, ""}, // as plans recorded it before the choice
		{`memory = "per-bot"`, PerBot, 1024, ""},
		{`memory = 512`, PerBot, 512, ""},
		{"memory = \"per-position\"\nmemory_bytes = 300", "", 300, ""},
		{"memory = 512\nmemory_bytes = 300", "", 0, "Memory size given twice"},
		{`memory = "shared"`, "", 0, "Unknown memory scope"},
		{`memory_bytes = -1`, "", 0, "Value out of range"},
	} {
		f, diags := hclparse.NewParser().ParseHCL([]byte(tc.body+"\n"), "t.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		d, diags := Driver{}.DecodeGame(f.Body, nil)
		if tc.diag != "" {
			if len(diags) != 1 || diags[0].Summary != tc.diag {
				t.Errorf("%q: diagnostics %v, want one %q", tc.body, diags, tc.diag)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%q: %v", tc.body, diags)
			continue
		}
		g := d.(*Game)
		if g.settings.MemoryScope != tc.scope || g.settings.Memory != tc.bytes {
			t.Errorf("%q: memory %q of %d bytes, want %q of %d", tc.body, g.settings.MemoryScope, g.settings.Memory, tc.scope, tc.bytes)
		}
		if g.CarriesState() != (tc.scope == PerBot) || g.KeepsDealsApart() != (tc.scope == PerBot) || g.settings.Validate() != nil {
			t.Errorf("%q: CarriesState %v, KeepsDealsApart %v", tc.body, g.CarriesState(), g.KeepsDealsApart())
		}
	}
}

// A plan written before the scope could be chosen gave each position its
// own memory, and resumes so.
func TestLoadOldPlanIsPerPosition(t *testing.T) {
	g, err := Driver{}.LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.(*Game).CarriesState() {
		t.Error("an old plan's game carries memory across matches")
	}
	if _, err := (Driver{}).LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024,"memory_scope":"shared"}`)); err == nil {
		t.Error("an unknown memory_scope loads")
	}
}

// A plan written before per-bot memory kept duplicate deals apart runs as
// it was compiled: its hash says memory passes from every match to the
// next. The rule is only for memory that passes between matches.
func TestLoadPlanDealsApart(t *testing.T) {
	for _, tc := range []struct {
		settings string
		apart    bool
	}{
		{`"memory_scope":"per-bot"`, false},
		{`"memory_scope":"per-bot","memory_deals_apart":true`, true},
		{`"memory_deals_apart":true`, false}, // per-position: nothing passes
	} {
		g, err := Driver{}.LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024,` + tc.settings + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).KeepsDealsApart(); got != tc.apart {
			t.Errorf("%s: KeepsDealsApart %v, want %v", tc.settings, got, tc.apart)
		}
	}
}

// A plan written before a failing exit after the answer was a crash
// (no crash_after_answer) takes the answer, as it was played; a new game
// block has the rule.
func TestLoadPlanCrashAfterAnswer(t *testing.T) {
	for _, tc := range []struct {
		settings string
		crash    bool
	}{
		{`"memory_scope":"per-bot","memory_deals_apart":true`, false},
		{`"memory_scope":"per-bot","memory_deals_apart":true,"crash_after_answer":true`, true},
	} {
		g, err := Driver{}.LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024,` + tc.settings + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).settings.CrashAfterAnswer; got != tc.crash {
			t.Errorf("%s: CrashAfterAnswer %v, want %v", tc.settings, got, tc.crash)
		}
		// arbiter plan says the old rule of an old plan only.
		if said := strings.Contains(strings.Join(g.(*Game).EarlierRules(), "\n"), "crash_after_answer"); said == tc.crash {
			t.Errorf("%s: EarlierRules %q", tc.settings, g.(*Game).EarlierRules())
		}
	}
	if !DefaultSettings().CrashAfterAnswer {
		t.Error("a new game block does not have the crash-after-answer rule")
	}
}

// A plan written before a memory file arbiter cannot read broke the
// memory rule (no memory_readable) keeps such a file, as it was played,
// and arbiter plan says so; a new game block has the rule.
func TestLoadPlanMemoryReadable(t *testing.T) {
	for _, tc := range []struct {
		settings string
		readable bool
	}{
		{`"memory_scope":"per-bot","memory_deals_apart":true,"crash_after_answer":true`, false},
		{`"memory_scope":"per-bot","memory_deals_apart":true,"crash_after_answer":true,"memory_readable":true`, true},
	} {
		g, err := Driver{}.LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024,` + tc.settings + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).settings.MemoryReadable; got != tc.readable {
			t.Errorf("%s: MemoryReadable %v, want %v", tc.settings, got, tc.readable)
		}
		if said := strings.Contains(strings.Join(g.(*Game).EarlierRules(), "\n"), "memory_readable"); said == tc.readable {
			t.Errorf("%s: EarlierRules %q", tc.settings, g.(*Game).EarlierRules())
		}
	}
	if !DefaultSettings().MemoryReadable {
		t.Error("a new game block does not have the rule of a memory file arbiter cannot read")
	}
}

// A plan written before a bot's metadata broke the memory rule (no
// memory_metadata) leaves them, as it was played, and arbiter plan says so;
// a new game block has the rule.
func TestLoadPlanMemoryMetadata(t *testing.T) {
	for _, tc := range []struct {
		settings string
		metadata bool
	}{
		{`"memory_scope":"per-bot","memory_deals_apart":true,"crash_after_answer":true,"memory_readable":true`, false},
		{`"memory_scope":"per-bot","memory_deals_apart":true,"crash_after_answer":true,"memory_readable":true,"memory_metadata":true`, true},
	} {
		g, err := Driver{}.LoadGame(json.RawMessage(`{"target":10,"first_dealer":0,"max_hands":200,"memory":1024,` + tc.settings + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.(*Game).settings.MemoryMetadata; got != tc.metadata {
			t.Errorf("%s: MemoryMetadata %v, want %v", tc.settings, got, tc.metadata)
		}
		if said := len(g.(*Game).EarlierRules()) > 0; said == tc.metadata {
			t.Errorf("%s: EarlierRules %q", tc.settings, g.(*Game).EarlierRules())
		}
	}
	if !DefaultSettings().MemoryMetadata {
		t.Error("a new game block does not have the rule of a bot's metadata")
	}
}

// The house bots play a match the same whether the two positions of a
// team share one memory file (per-bot) or have one each.
func TestHouseBotsShareMemory(t *testing.T) {
	var answers [2][]string
	for i, scope := range []string{PerBot, PerPosition} {
		g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
		g.settings.MaxHands, g.settings.MemoryScope = 3, scope
		m, marker := processMatch(t, 17, house(t, "rules"), house(t, "random"))
		rec := &events{}
		m.Record = rec
		if _, err := g.Play(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		proctest.AssertNoEnv(t, marker)
		if ds := rec.of("default"); len(ds) != 0 {
			t.Errorf("%s: defaults %+v", scope, ds)
		}
		for _, e := range rec.of("decision") {
			d := e.(DecisionEvent)
			answers[i] = append(answers[i], fmt.Sprintf("%d %s %s", d.Position, d.Phase, d.Answer))
		}
		if scope == PerBot {
			file, err := os.ReadFile(filepath.Join(memoryDir(t, m, g, 0), MemoryFile))
			if err != nil || !strings.Contains(string(file), "p0:") || !strings.Contains(string(file), "p2:") {
				t.Errorf("seat 0's shared memory file %q (%v) has no line of position 0 or 2", file, err)
			}
		}
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Errorf("per-bot answers\n%v\nper-position answers\n%v", answers[0], answers[1])
	}
}

// A whole-number setting that is not one is told in the game's terms,
// with its range, not in HCL's (a whole number between
// -9223372036854775808 and 9223372036854775807).
func TestDecodeWholeNumbers(t *testing.T) {
	for _, tc := range []struct{ body, summary, detail string }{
		{`target = 1.5`, "Not a whole number", "target (the game points that win a game) must be a whole number from 1 to 1000, not 1.5."},
		{`target = "ten"`, "Not a whole number", `target (the game points that win a game) must be a whole number from 1 to 1000, not "ten".`},
		{`target = 1001`, "Value out of range", "target (the game points that win a game) must be a whole number from 1 to 1000, not 1001."},
		{`max_hands = 1e30`, "Value out of range", "from 1 to 100000, not 1000000000000000000000000000000."},
		{`first_dealer = 0.5`, "Not a whole number", "from 0 to 3, not 0.5."},
		{`memory_bytes = 10.5`, "Not a whole number", "from 0 to 1073741824, not 10.5."},
		{`memory = 10.5`, "Not a whole number", "from 0 to 1073741824, not 10.5."},
	} {
		f, diags := hclparse.NewParser().ParseHCL([]byte(tc.body+"\n"), "t.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, diags = Driver{}.DecodeGame(f.Body, nil)
		if len(diags) != 1 || diags[0].Summary != tc.summary || !strings.HasSuffix(diags[0].Detail, tc.detail) {
			t.Errorf("%s: %v, want one %q ending %q", tc.body, diags, tc.summary, tc.detail)
		}
	}
}

// A clock's total, which Euchre has no use for, is reported on its own
// line, not at the clock block's.
func TestNoTotalClockPointsAtTotal(t *testing.T) {
	f, diags := hclparse.NewParser().ParseHCL([]byte("clock {\n  move  = \"1s\"\n  total = \"5m\"\n}\n"), "t.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = Driver{}.DecodeGame(f.Body, nil)
	if len(diags) != 1 || diags[0].Summary != "No total clock in Euchre" || diags[0].Subject.Start.Line != 3 {
		t.Errorf("%v, want one No total clock in Euchre on line 3", diags)
	}
}
