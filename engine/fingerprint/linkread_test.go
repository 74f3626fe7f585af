package fingerprint

import (
	"os"
	"path/filepath"
	"testing"
)

// A link in a bot's folder is followed to a file in the folder, or to one
// everyone may read; a link to a file only arbiter's rights can read (an
// author's link to /etc/shadow) is recorded as a link, its content never
// read, so that its hash is not published in the plan.
func TestLinkToUnreadableFileNotFollowed(t *testing.T) {
	base := t.TempDir()
	// t.TempDir's folders are 0700: open them to everyone, as a system
	// folder is.
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(base, "bot")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte("secret "+p), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "own.txt"), 0o600)
	write(filepath.Join(outside, "public.txt"), 0o644)
	write(filepath.Join(outside, "shadow"), 0o600)
	for link, target := range map[string]string{
		"in":     "own.txt",
		"public": filepath.Join(outside, "public.txt"),
		"shadow": filepath.Join(outside, "shadow"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	fp := Bot(dir, nil, nil)
	hashed := map[string]bool{}
	for _, f := range fp.Files {
		hashed[f.Path] = f.SHA256 != ""
	}
	for name, want := range map[string]bool{"own.txt": true, "in": true, "public": true, "shadow": false} {
		if got, ok := hashed[name]; !ok || got != want {
			t.Errorf("%s: recorded %v, hashed %v; want recorded, hashed %v (files %+v)", name, ok, got, want, fp.Files)
		}
	}
}
