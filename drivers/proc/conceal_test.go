package proc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A path a bot's command names inside a concealed folder (the results
// directory: --log ../out) is not bound for it: concealed stays
// concealed, whoever names it.
func TestNamedConcealedPathIsNotBound(t *testing.T) {
	root := t.TempDir()
	dir, results := filepath.Join(root, "bot"), filepath.Join(root, "out")
	for _, d := range []string{dir, filepath.Join(results, "matches")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	Conceal(results)
	defer func() { // other tests' bots must not inherit it
		concealed.Lock()
		defer concealed.Unlock()
		concealed.paths = concealed.paths[:len(concealed.paths)-1]
	}()
	results, _ = filepath.EvalSymlinks(results)
	sb := &drivers.Sandbox{Read: []string{results, filepath.Join(results, "matches")}}
	sp, err := planSandbox(sb, "/bin/sh", dir, "", nil, []string{"/bin/sh"})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range sp.root.Ops {
		if (op.Kind == "ro" || op.Kind == "rw") && drivers.Within(op.Src, results) {
			t.Errorf("the concealed %s is bound (%+v)", results, op)
		}
	}
}
