package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFailedWriteLeavesNothing: a write that fails (here at RLIMIT_FSIZE,
// as on a full disk) and a rename that fails leave the file as it was and
// no temporary file beside it.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "standings.txt")
	if err := Write(path, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	small := was
	small.Cur = 100
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skip("cannot lower RLIMIT_FSIZE:", err)
	}
	err := Write(path, []byte(strings.Repeat("x", 1000)), 0o644)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	if err == nil {
		t.Fatal("a write over RLIMIT_FSIZE succeeded")
	}
	assertOnly(t, dir, "standings.txt")
	if b, _ := os.ReadFile(path); string(b) != "before\n" {
		t.Errorf("the file holds %q after a failed write", b)
	}

	// A rename that fails: a directory is where the file would go.
	busy := filepath.Join(dir, "busy")
	if err := os.MkdirAll(filepath.Join(busy, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Copy(path, busy, 0o644); err == nil {
		t.Fatal("a copy over a directory succeeded")
	}
	assertOnly(t, dir, "busy", "standings.txt")
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// TestFullDiskNamesTheFile: a write that runs out of space (its temporary
// file is /dev/full) names the file it was to replace, not the temporary
// file it removed, and says that nothing was replaced; the cause is still
// there for errors.Is.
func TestFullDiskNamesTheFile(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.json")
	if err := os.Symlink("/dev/full", path+".tmp"); err != nil {
		t.Fatal(err)
	}
	err := Write(path, []byte("{}\n"), 0o644)
	if want := "write " + path + ": no space left on device (nothing was replaced)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("%v is not ENOSPC", err)
	}
	assertOnly(t, dir)
}
