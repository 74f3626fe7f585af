package drivers

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The files and folders a bot's arguments name are bound in its sandbox,
// by absolute path or by a relative one that leads out of its dir; not
// what lies in its dir (the sandbox shows it) nor a folder holding it
// (that would show the bot's neighbours).
func TestResolveSandboxBindsArguments(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	for _, d := range []string{dir, filepath.Join(root, "common")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(dir, "x.py"), filepath.Join(root, "common", "lib.py"), filepath.Join(root, "abs.py")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		arg  string
		want []string
	}{
		{"a relative path out of its dir", "../common/lib.py", []string{filepath.Join(root, "common", "lib.py")}},
		{"a relative folder out of its dir", "../common", []string{filepath.Join(root, "common")}},
		{"an absolute path", filepath.Join(root, "abs.py"), []string{filepath.Join(root, "abs.py")}},
		{"a file in its dir", "x.py", nil},
		{"its dir", ".", nil},
		{"the folder that holds its dir", "..", nil},
		{"a path that does not exist", "../nothing.py", nil},
		{"a flag", "-u", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ResolveSandbox([]string{"/usr/bin/python3", tc.arg}, dir, nil).Read
			if !slices.Equal(got, tc.want) {
				t.Errorf("ResolveSandbox(python3 %s).Read = %q, want %q", tc.arg, got, tc.want)
			}
		})
	}
}
