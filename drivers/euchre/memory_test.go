package euchre

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/internal/proctest"
)

func TestCheckMemory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]int // name -> size; size < 0: a directory
		keep  []string
		bad   bool
	}{
		{"empty folder", nil, nil, false},
		{"one small file", map[string]int{"m": 100}, []string{"m"}, false},
		{"one file at the limit", map[string]int{"m": 1024}, []string{"m"}, false},
		{"one file over the limit", map[string]int{"m": 1025}, nil, true},
		{"two files: both go", map[string]int{"b": 1, "a": 2}, nil, true},
		{"a directory", map[string]int{"d": -1}, nil, true},
		{"a directory and a file", map[string]int{"d": -1, "m": 5}, nil, true},
		{"a big and a small file", map[string]int{"a": 5000, "b": 10}, nil, true},
		{"a set-user-ID file", map[string]int{"setuid": 10}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, size := range tc.files {
				p := filepath.Join(dir, name)
				if size < 0 {
					if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
						t.Fatal(err)
					}
					os.WriteFile(filepath.Join(p, "sub", "x"), []byte("x"), 0o644)
					os.Chmod(filepath.Join(p, "sub"), 0o500)
					continue
				}
				if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
					t.Fatal(err)
				}
				if name == "setuid" {
					if err := syscall.Chmod(p, 0o4755); err != nil {
						t.Fatal(err)
					}
				}
			}
			problem, err := checkMemory(dir, DefaultSettings())
			if err != nil {
				t.Fatal(err)
			}
			if (problem != "") != tc.bad {
				t.Errorf("problem %q, want a problem: %v", problem, tc.bad)
			}
			entries, _ := os.ReadDir(dir)
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if !slices.Equal(left, tc.keep) {
				t.Errorf("left %v, want %v", left, tc.keep)
			}
		})
	}
	t.Run("an empty file holding a reservation of 10 MiB", func(t *testing.T) {
		dir := t.TempDir()
		f, err := os.Create(filepath.Join(dir, "m"))
		if err != nil {
			t.Fatal(err)
		}
		err = unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, 10<<20)
		f.Close()
		if err != nil {
			t.Skipf("fallocate: %v", err)
		}
		problem, err := checkMemory(dir, DefaultSettings())
		if err != nil || !strings.Contains(problem, "m has ") {
			t.Errorf("problem %q, err %v; want the file's blocks over the rule", problem, err)
		}
	})
	t.Run("a removed folder is made again", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pos0")
		problem, err := checkMemory(dir, DefaultSettings())
		if err != nil || problem == "" {
			t.Fatalf("problem %q, err %v", problem, err)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Error(err)
		}
	})
}

// TestCheckMemoryFolderWithoutPermissions: where arbiter is not root, a
// bot runs as arbiter's own uid and may take its memory folder's
// permissions away (chmod 0 ., chmod 0500 .), also after setting its
// folder an extended attribute, which arbiter then cannot remove. That
// breaks the rule (the folder is given back and emptied) and does not
// stop the run, which an error reading or emptying the folder would, at
// every resume again. Root reads and writes any folder, so as root
// TestCheckMemoryFolderWithoutPermissionsAsNobody runs it as uid 65534.
func TestCheckMemoryFolderWithoutPermissions(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any folder: TestCheckMemoryFolderWithoutPermissionsAsNobody runs this as uid 65534")
	}
	for _, tc := range []struct {
		mode  os.FileMode
		files []string
		attr  bool // the folder has an extended attribute of the bot's
	}{
		{0, []string{"m"}, false},
		{0o300, []string{"m"}, false},
		{0o500, []string{"a", "b"}, false},
		{0o400, []string{"m"}, false}, // its names read, but not its files
		{0o600, []string{"m"}, false},
		{0o500, nil, true}, // nothing to remove but the attribute
	} {
		t.Run(fmt.Sprintf("%v,attr=%v", tc.mode, tc.attr), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bot")
			os.Mkdir(dir, 0o755)
			for _, name := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.attr {
				if err := unix.Setxattr(dir, hiddenAttr, []byte("hidden"), 0); err != nil {
					t.Skipf("no user extended attributes here: %v", err)
				}
			}
			os.Chmod(dir, tc.mode)
			defer os.Chmod(dir, 0o755)
			problem, err := checkMemory(dir, DefaultSettings())
			if err != nil || problem == "" {
				t.Fatalf("problem %q, err %v; want the rule broken, not an error", problem, err)
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
				t.Errorf("after the check: %d entries, err %v; want the folder emptied and readable", len(entries), err)
			}
			if attrs, err := botAttrs(dir); err != nil || len(attrs) != 0 {
				t.Errorf("after the check the folder has attributes %q (err %v)", attrs, err)
			}
		})
	}
}

// TestCheckMemoryFileWithoutPermissions: a memory file the bot took its
// permissions away from (chmod 0 m), where arbiter is not root, could not
// be copied into the bot's next match, which stopped the run there, at
// every resume again. It breaks the rule: the folder is emptied.
func TestCheckMemoryFileWithoutPermissions(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any file: TestCheckMemoryFolderWithoutPermissionsAsNobody runs this as uid 65534")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "m")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0)
	problem, err := checkMemory(dir, DefaultSettings())
	if err != nil || !strings.Contains(problem, "m cannot be read") {
		t.Fatalf("problem %q, err %v; want the rule broken by m", problem, err)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("after the check: %d entries, err %v; want the folder emptied", len(entries), err)
	}
	// A plan made before the rule (no memory_readable) keeps the file,
	// as it was played: where the memory is per position, nothing copies
	// it.
	os.WriteFile(p, []byte("x"), 0o200)
	old := DefaultSettings()
	old.MemoryReadable = false
	if problem, err := checkMemory(dir, old); err != nil || problem != "" {
		t.Errorf("without memory_readable: problem %q, err %v; want none", problem, err)
	}
	if _, err := os.Lstat(p); err != nil {
		t.Errorf("without memory_readable: %v; want the file kept", err)
	}
}

func TestCheckMemoryFolderWithoutPermissionsAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: TestCheckMemoryFolderWithoutPermissions runs as this user")
	}
	cmd, _ := proctest.AsNobody(t, "^TestCheckMemory(Folder|File)WithoutPermissions$")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCheckMemoryFolderWithoutPermissions") ||
		!strings.Contains(string(out), "--- PASS: TestCheckMemoryFileWithoutPermissions") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
}
