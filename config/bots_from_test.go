package config_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
)

func TestBotsFrom(t *testing.T) {
	cfg, diags := load("testdata/bots_from", config.Options{})
	for _, d := range diags {
		if d.Severity == hcl.DiagError { // warnings (programs not installed here) are fine
			t.Fatal(d)
		}
	}
	tr := cfg.Tournaments[0]
	var got []string
	for _, b := range tr.Bots {
		got = append(got, b.Name)
	}
	// Sorted by folder name, "2nd bot" before "alpha"; files and hidden
	// folders skipped; then the declared bot of concat().
	if want := []string{"p_2nd_bot", "alpha", "keeper"}; !cmp.Equal(got, want) {
		t.Fatalf("bots %v, want %v", got, want)
	}
	second, alpha := tr.Bots[0], tr.Bots[1]
	players, _ := filepath.Abs("testdata/bots_from/players")
	if diff := cmp.Diff([]string{"./run", "with space", `a "b"`, "c d"}, second.Command); diff != "" {
		t.Errorf("command split (-want +got):\n%s", diff)
	}
	if second.Nick != "SECOND ONE" || second.Dir != filepath.Join(players, "2nd bot") {
		t.Errorf("nick %q dir %q", second.Nick, second.Dir)
	}
	if alpha.Nick != "ALPHA PLAYER" || !cmp.Equal(alpha.Command, []string{"python3", "bot.py"}) || alpha.Dir != filepath.Join(players, "alpha") {
		t.Errorf("alpha = %+v", alpha)
	}
	p, d := compile.Compile(cfg, tr)
	if d.HasErrors() {
		t.Fatal(d)
	}
	if b := p.Bot("p_2nd_bot"); b == nil || b.Nick != "SECOND ONE" || b.Dir != "players/2nd bot" {
		t.Errorf("plan bot = %+v, want the nick and a directory relative to the configuration", b)
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"java -jar Player.jar", []string{"java", "-jar", "Player.jar"}, false},
		{"  python3\tbot.py  ", []string{"python3", "bot.py"}, false},
		{`./bot "two words" 'it''s' x\ y`, []string{"./bot", "two words", "its", "x y"}, false},
		{`echo ""`, []string{"echo", ""}, false},
		{`a 'open`, nil, true},
		{`a \`, nil, true},
		{"", nil, false},
	} {
		got, err := config.SplitCommand(tt.in)
		if (err != nil) != tt.err || !cmp.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}
