package proc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenFolderFollowsRootsLinksOnly opens folders by paths with
// symbolic links on the way, one row a link (and a relative path, which
// per-move games give): root's, in a folder of
// root's, is followed; another user's, or one in another user's folder,
// is refused.
func TestOpenFolderFollowsRootsLinksOnly(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: a link's owner is set by root")
	}
	base := t.TempDir()
	real := filepath.Join(base, "real")
	users := filepath.Join(base, "users") // a folder of uid 1000's
	for _, d := range []string{real, users} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(users, 1000, 1000); err != nil {
		t.Fatal(err)
	}
	link := func(at string, uid int) string {
		if err := os.Symlink(real, at); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(at, uid, uid); err != nil {
			t.Fatal(err)
		}
		return at
	}
	t.Chdir(base)
	for _, c := range []struct {
		name, path string
		ok         bool
	}{
		{"the real path", real, true},
		{"a path relative to the working folder", "real", true},
		{"root's link in root's folder", link(filepath.Join(base, "roots"), 0), true},
		{"a user's link", link(filepath.Join(base, "a-users"), 1000), false},
		{"root's link in a user's folder", link(filepath.Join(users, "roots"), 0), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd, got, err := openFolder(c.path)
			if err == nil {
				unix.Close(fd)
			}
			switch {
			case c.ok && (err != nil || got != real):
				t.Errorf("openFolder(%s) = %s, %v; want %s", c.path, got, err, real)
			case !c.ok && !errors.Is(err, errUntrustedLink):
				t.Errorf("openFolder(%s) = %s, %v; want it refused", c.path, got, err)
			}
		})
	}
}
