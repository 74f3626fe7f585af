package fingerprint

import (
	"path/filepath"
	"slices"
	"testing"
)

// Concealed finds the earlier results directories in a bot's folder
// whatever their paths hold (": " after a slash, which a skipped line
// also holds) and wherever they sort, past the cap on the files a
// fingerprint hashes too; of one that holds a file of the bot's own,
// arbiter's entries only.
func TestConcealedFindsEarlierResults(t *testing.T) {
	defer func(f int) { MaxFiles = f }(MaxFiles)
	MaxFiles = 3
	dir := filepath.Join(t.TempDir(), "bot")
	for _, f := range []string{"a.py", "b.py", "c.py", "d.py"} {
		write(t, filepath.Join(dir, f), "x\n", 0o644)
	}
	odd := filepath.Join(dir, "a", ": x", "old")
	write(t, filepath.Join(odd, LockFile), "", 0o644)
	write(t, filepath.Join(odd, "results.jsonl"), "", 0o644)
	late := filepath.Join(dir, "z-old")
	write(t, filepath.Join(late, LockFile), "", 0o644)
	write(t, filepath.Join(late, "results.jsonl"), "", 0o644)
	mixed := filepath.Join(dir, "mixed")
	write(t, filepath.Join(mixed, LockFile), "", 0o644)
	write(t, filepath.Join(mixed, "results.jsonl"), "", 0o644)
	write(t, filepath.Join(mixed, "notes.txt"), "mine\n", 0o644)

	fp := Bot(dir, []string{"/bin/sh", "a.py"}, nil)
	got := Concealed(fp)
	real := realPath(dir)
	want := []string{filepath.Join(real, "a", ": x", "old"), filepath.Join(real, "mixed", LockFile), filepath.Join(real, "mixed", "results.jsonl"), filepath.Join(real, "z-old")}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("Concealed = %q, want %q", got, want)
	}
}
