package proc

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// TestOwnExecutableRunsItsImage: a bot whose command names a path
// recorded as this process's own executable (as arbiter records the path
// it runs its house bots by) runs this process's image, whatever is at
// the path now: here a script that fails, as another build installed over
// arbiter would be. Without limits, under limits (spawned, or through the
// shim: TestHostileThroughShim runs it there too), in the default
// sandbox, and once a move.
func TestOwnExecutableRunsItsImage(t *testing.T) {
	if raceBuild {
		t.Skip("the bots are not this binary under -race (botBinary)")
	}
	path := filepath.Join(t.TempDir(), "arbiter")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho another build >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	OwnExecutable(path)
	cases := []struct {
		name string
		lim  drivers.Limits
	}{
		{"plain", drivers.Limits{}},
		{"limited", drivers.Limits{Memory: 400 << 20, CPU: "match", Processes: 16, Network: no(false), Files: 10e6, FileCount: 10}},
		{"sandbox", defaultLimits()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.lim.Sandbox != nil && !Machine().Sandbox {
				t.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
			}
			spec := botSpec(t, "echo", drivers.Clock{Move: 5 * sec})
			spec.Argv, spec.Limits = []string{path}, c.lim
			readable(t, spec.Dir)
			s := start(t, spec)
			if a, err := ask(s, "play 1 AS"); err != nil {
				b, _ := os.ReadFile(spec.Stderr)
				t.Fatalf("the bot did not answer (%q, %v): it did not run this executable's image; its stderr: %s", a, err, b)
			}
			s.Close("quit")
			assertGone(t, s)

			once, mark := onceSpec(t, "line")
			once.Argv, once.Limits = []string{path}, c.lim
			readable(t, once.Dir)
			r, err := RunOnce(context.Background(), once)
			if err != nil || r.Line != "42" || r.Fault != nil {
				t.Errorf("once a move: line %q exit %d fault %v error %v, want 42: it did not run this executable's image", r.Line, r.Exit, r.Fault, err)
			}
			assertNoLeftovers(t, mark)
		})
	}
}
