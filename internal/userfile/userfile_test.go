package userfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/userfile"
)

func TestReadFileStopsAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, size int64) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if b, err := userfile.ReadFile(sized("limit", userfile.Limit)); err != nil || len(b) != userfile.Limit {
		t.Errorf("a file of exactly the limit: %d bytes, %v; want all of it", len(b), err)
	}
	for _, path := range []string{sized("over", userfile.Limit+1), "/dev/zero"} {
		b, err := userfile.ReadFile(path)
		var tl *userfile.TooLargeError
		if !errors.As(err, &tl) || tl.Path != path || !strings.Contains(err.Error(), path+" is larger than 16 MiB") {
			t.Errorf("ReadFile(%s): %d bytes, %v; want a TooLargeError naming it", path, len(b), err)
		}
	}
	if _, err := userfile.ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// A leading UTF-8 byte order mark (Notepad's default) is no character of
// the file: it is dropped, and only there.
func TestOpenDropsALeadingByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"empty", "", ""},
		{"short", "ab", "ab"},
		{"bom only", "\ufeff", ""},
		{"bom and text", "\ufeffpython3 bot.py\r\nX\r\n", "python3 bot.py\r\nX\r\n"},
		{"no bom", "python3 bot.py\n", "python3 bot.py\n"},
		{"bom inside", "a\ufeffb", "a\ufeffb"},
		{"two boms", "\ufeff\ufeffa", "\ufeffa"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := userfile.ReadFile(path)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: ReadFile = %q, %v; want %q", tc.name, b, err, tc.want)
		}
	}
	if _, err := userfile.Open(dir); err == nil {
		t.Errorf("Open of a directory: no error")
	}
}
