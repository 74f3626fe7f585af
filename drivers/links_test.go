package drivers

import (
	"os"
	"path/filepath"
	"testing"
)

// HiddenLinks warns of a link whose target, or whose way to it, the
// sandbox does not show, and of no other: a venv's python3, linked to an
// interpreter the sandbox binds, goes through folders above it that the
// sandbox's root holds on the way.
func TestHiddenLinks(t *testing.T) {
	root := t.TempDir()
	bob := filepath.Join(root, "players", "bob")
	alice := filepath.Join(root, "players", "alice")
	interp := filepath.Join(root, "tools", "py")
	for _, d := range []string{filepath.Join(bob, "venv", "bin"), alice, filepath.Join(interp, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(bob, "run.sh"), filepath.Join(alice, "bot.py"), filepath.Join(interp, "bin", "python3")} {
		if err := os.WriteFile(f, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"venv/bin/python3": filepath.Join(interp, "bin", "python3"), // bound: no warning
		"same.sh":          "run.sh",                                // inside: no warning
		"theirs.py":        "../alice/bot.py",                       // out of the folder
		"via.sh":           "../alice/../bob/run.sh",                // through alice's folder
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(bob, name)); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for _, l := range HiddenLinks(bob, Sandbox{Read: []string{interp}}) {
		rel, _ := filepath.Rel(bob, l.Path)
		got[rel] = l.Through
	}
	want := map[string]string{"theirs.py": "", "via.sh": alice}
	if len(got) != len(want) || got["theirs.py"] != "" || got["via.sh"] != alice {
		t.Errorf("hidden links %v, want %v", got, want)
	}
	if _, ok := got["theirs.py"]; !ok {
		t.Errorf("hidden links %v lack theirs.py", got)
	}
}
