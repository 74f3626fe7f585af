package proctest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Litter leaves in dir what a bot might between its runs, for fuzz
// targets of the checks of its folder: an entry for each line of names
// that is a new file name (not empty, "." or "..", without a slash or a
// NUL, not in dir already), of the kind its byte of kinds gives (litterOne).
// An error is the test's own.
func Litter(dir, names string, kinds []byte) error {
	for i, name := range strings.Split(names, "\n") {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") || len(name) > 255 {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			continue
		}
		var k byte
		if i < len(kinds) {
			k = kinds[i]
		}
		if err := litterOne(filepath.Join(dir, name), k); err != nil {
			return err
		}
	}
	return nil
}

// litterOne makes path as k says: k%8 picks a directory, a symbolic link
// out of the folder (to a file beside it) or to its own folder, a FIFO, a
// set-user-ID file, a read-only directory holding a file, or else a
// regular file of 10*(k/8) bytes.
func litterOne(path string, k byte) error {
	switch k % 8 {
	case 1:
		return os.Mkdir(path, 0o755)
	case 2:
		// Out of the folder, to a file of the test's own: never a file of
		// the machine's (the fuzz targets run as root, and a check that
		// followed the link would write there).
		out := filepath.Join(filepath.Dir(filepath.Dir(path)), "outside")
		if err := os.WriteFile(out, []byte("outside"), 0o644); err != nil {
			return err
		}
		return os.Symlink(out, path)
	case 3:
		return syscall.Mkfifo(path, 0o644)
	case 4:
		if err := os.WriteFile(path, []byte("x"), 0o755); err != nil {
			return err
		}
		return os.Chmod(path, 0o755|os.ModeSetuid)
	case 5:
		if err := os.Mkdir(path, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(path, "f"), []byte("x"), 0o644); err != nil {
			return err
		}
		return os.Chmod(path, 0o500)
	case 6:
		return os.Symlink(".", path)
	}
	return os.WriteFile(path, make([]byte, 10*int(k/8)), 0o644)
}
