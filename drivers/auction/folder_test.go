package auction

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A bot over its file quota is told what it kept and what it may keep,
// in words that count: "1 file", "2 files".
func TestQuotaMessage(t *testing.T) {
	for _, tt := range []struct {
		name   string
		files  []int // sizes of the bot's files
		limits FileLimits
		want   string
	}{
		{"one file over the bytes", []int{2}, FileLimits{Count: 1, Bytes: 1},
			"kept 1 file of 2 bytes, over its limit of 1 file and 1 byte (its files were deleted)"},
		{"two files over the count", []int{1, 0}, FileLimits{Count: 1, Bytes: 100},
			"kept 2 files of 1 byte, over its limit of 1 file and 100 bytes (its files were deleted)"},
		{"bytes beyond an int of 32 bits", []int{2}, FileLimits{Count: 0, Bytes: 3_000_000_000},
			"kept 1 file of 2 bytes, over its limit of 0 files and 3000000000 bytes (its files were deleted)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := newSeatFolder(t.TempDir(), "game", "p", tt.limits)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.prepare([]byte("state\n"), nil); err != nil {
				t.Fatal(err)
			}
			for i, n := range tt.files {
				if err := os.WriteFile(filepath.Join(f.game, "p"+string(rune('a'+i))), make([]byte, n), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			problems, err := f.check()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(problems, []string{tt.want}) {
				t.Errorf("problems %q, want %q", problems, tt.want)
			}
			// The rule the sandbox's quota names says the same limit.
			if rule := f.quota().Rule; !strings.Contains(tt.want, "limit of "+strings.TrimSuffix(rule, " (files { count, bytes })")+" (") {
				t.Errorf("quota rule %q, not the limit of %q", rule, tt.want)
			}
		})
	}
}

// The game's files in a seat's folder are readable by all whatever the
// organiser's umask: a sandboxed bot, of another uid than arbiter, reads
// state and log. Before, under umask 077 they were 0600 and every
// sandboxed bot's start failed reading state (the tests of this package
// run one at a time, so the umask may be changed here).
func TestGameFilesReadableUnderUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	f, err := newSeatFolder(t.TempDir(), "game", "p", FileLimits{Count: 1, Bytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.prepare([]byte("state\n"), []byte("log\n")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"state", "log"} {
		fi, err := os.Stat(filepath.Join(f.game, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s is mode %04o under umask 077, want 0644", name, fi.Mode().Perm())
		}
	}
	for _, d := range []string{f.cwd, f.game} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v, want a folder of mode 0755", d, err)
		}
	}
}
