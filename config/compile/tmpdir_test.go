package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

// A bot whose dir is /tmp itself can never start in the sandbox, whose
// private /tmp is mounted over it: the plan refuses it at its dir, saying
// why and what to do. Outside the sandbox it may run there.
func TestBotDirTmpRefusedInSandbox(t *testing.T) {
	for _, c := range []struct {
		name, limits string
		refused      bool
	}{
		{"sandboxed", "", true},
		{"required", "limits {\n    sandbox = \"required\"\n  }", true},
		{"outside the sandbox", "limits {\n    sandbox = false\n  }", false},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			src := base + `bot "tmp" {
  dir     = "/tmp"
  command = ["/usr/bin/python3", "bot.py"]
  ` + c.limits + `
}
bot "a" { house = "planowanie/random" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.tmp, bot.a]
  players = 2
}
`
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.hcl"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names(), Environ: []string{}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			_, diags = Compile(cfg, cfg.Tournaments[0])
			var got *hcl.Diagnostic
			for _, d := range diags {
				if d.Summary == "Bot directory is /tmp" {
					got = d
				}
			}
			switch {
			case !c.refused && got != nil:
				t.Errorf("a bot outside the sandbox in /tmp got %v", got)
			case !c.refused:
			case got == nil || got.Severity != hcl.DiagError:
				t.Fatalf("diagnostics %v, want an error \"Bot directory is /tmp\"", diags)
			case got.Subject == nil || got.Subject.Start.Line != 12 || !strings.HasSuffix(got.Subject.Filename, "t.hcl"):
				t.Errorf("the error points at %v, want t.hcl:12 (the dir attribute)", got.Subject)
			case !strings.Contains(got.Detail, "/tmp/tmp") || !strings.Contains(got.Detail, "sandbox = false"):
				t.Errorf("detail %q, want it to say what to do", got.Detail)
			}
		})
	}
}
