package proc

import (
	"os"
	"path/filepath"
	"slices"
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

// What is concealed inside a folder concealed whole (an earlier run's
// entries, found in the run's own results directory) takes no step of
// its own, whose file the covering folder no longer shows; nor does a
// file gone since it was concealed.
func TestConcealedInsideConcealedTakesNoStep(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	results := filepath.Join(dir, "res")
	for _, f := range []string{filepath.Join(results, ".lock"), filepath.Join(dir, "old", "results.jsonl")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, _ = filepath.EvalSymlinks(dir)
	n := len(concealedPaths())
	for _, p := range []string{filepath.Join(dir, "res"), filepath.Join(dir, "res", ".lock"), filepath.Join(dir, "old", "results.jsonl"), filepath.Join(dir, "old", "gone.tmp")} {
		Conceal(p)
	}
	defer func() {
		concealed.Lock()
		defer concealed.Unlock()
		concealed.paths = concealed.paths[:n]
	}()
	sp, err := planSandbox(&drivers.Sandbox{}, "/bin/sh", dir, "", nil, []string{"/bin/sh"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, op := range sp.root.Ops {
		if drivers.Within(op.Path, dir) && op.Path != dir {
			got = append(got, op.Kind+" "+op.Path)
		}
	}
	want := []string{"mask " + filepath.Join(dir, "old", "results.jsonl"), "hide " + filepath.Join(dir, "res")}
	if !slices.Equal(got, want) {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// A concealed path in a folder that is shown, itself inside a concealed
// folder that is not (a bot's dir in an earlier run's results), is
// concealed still.
func TestConcealedInShownFolderOfConcealed(t *testing.T) {
	r := t.TempDir()
	secret := filepath.Join(r, "bots", "secret")
	if err := os.MkdirAll(secret, 0o755); err != nil {
		t.Fatal(err)
	}
	ops := concealOps([]string{r, secret}, []mountOp{{Kind: "ro", Path: filepath.Join(r, "bots")}})
	if len(ops) != 1 || ops[0].Path != secret || ops[0].Kind != "hide" {
		t.Errorf("steps %+v, want the hiding of %s", ops, secret)
	}
}
