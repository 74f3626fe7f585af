package proc

// A folder that arbiter, as root, changes owners in (a bot's folder lent
// for a build, a per-move bot's folder) is walked by descriptor, never by
// path: each entry is opened from its folder's descriptor without
// following a symbolic link, its owner is read and changed through that
// descriptor, and the folder itself is opened without following a link
// that anyone but root could have put on the way. So whoever owns a folder
// above (a bot's author owns the one holding their bot's folder) cannot
// swap a folder for a link to /etc during the walk and have /etc's files
// change owner.

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// treeEntry is one entry of a walked folder: fd an O_PATH descriptor of
// the entry itself (a symbolic link's own, not its target's), rel its
// path within the folder ("." the folder), st its status, read from fd.
type treeEntry struct {
	fd  int
	rel string
	st  unix.Stat_t
}

// isDir says whether the entry is a folder.
func (e *treeEntry) isDir() bool { return e.st.Mode&unix.S_IFMT == unix.S_IFDIR }

// chown gives the entry to uid and gid, through its descriptor.
func (e *treeEntry) chown(uid, gid int) error {
	return unix.Fchownat(e.fd, "", uid, gid, unix.AT_EMPTY_PATH)
}

// maxLinks bounds the symbolic links openFolder follows, as the kernel's
// own limit does.
const maxLinks = 40

// openFolder opens the folder at path (relative: to the working folder)
// as an O_PATH descriptor, one component at a time, and says its real path. It follows a symbolic
// link on the way only when root owns the link and the folder holding it
// (and no one else may remove it from there): a link that another user
// could have swapped in is refused.
func openFolder(path string) (fd int, real string, err error) {
	if !filepath.IsAbs(path) {
		if path, err = filepath.Abs(path); err != nil {
			return -1, "", err
		}
	}
	if fd, err = unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
		return -1, "", err
	}
	var parts []string // the real path so far
	todo, links := strings.Split(path, "/"), 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if c == "" || c == "." {
			continue
		}
		next, err := unix.Openat(fd, c, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			unix.Close(fd)
			return -1, "", &os.PathError{Op: "open", Path: path, Err: err}
		}
		var st unix.Stat_t
		err = unix.Fstat(next, &st)
		if err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			var target string
			if target, err = trustedLink(fd, next, &st, &links); err == nil {
				unix.Close(next)
				if filepath.IsAbs(target) {
					parts = nil
					unix.Close(fd)
					if fd, err = unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
						return -1, "", err
					}
				}
				todo = append(strings.Split(target, "/"), todo...)
				continue
			}
		} else if err == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			err = unix.ENOTDIR
		}
		unix.Close(fd)
		if err != nil {
			unix.Close(next)
			return -1, "", &os.PathError{Op: "open", Path: filepath.Join("/", filepath.Join(parts...), c), Err: err}
		}
		fd = next
		if c == ".." {
			parts = parts[:max(len(parts)-1, 0)]
		} else {
			parts = append(parts, c)
		}
	}
	return fd, filepath.Join("/", filepath.Join(parts...)), nil
}

// errUntrustedLink is a symbolic link on a folder's way that openFolder
// does not follow.
var errUntrustedLink = errors.New("a symbolic link that a user other than root owns or could replace (give the folder by its real path)")

// trustedLink is the target of the link open as fd in the folder dir
// (st its status), if root owns both and only root may replace the link.
func trustedLink(dir, fd int, st *unix.Stat_t, links *int) (string, error) {
	var dst unix.Stat_t
	if err := unix.Fstat(dir, &dst); err != nil {
		return "", err
	}
	shared := dst.Mode&0o022 != 0 && dst.Mode&unix.S_ISVTX == 0
	if st.Uid != 0 || dst.Uid != 0 || shared {
		return "", errUntrustedLink
	}
	if *links++; *links > maxLinks {
		return "", unix.ELOOP
	}
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(fd, "", buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// walkFolder calls f for every entry of the folder open as fd (an O_PATH
// descriptor; real is its real path), the folder's own last: the entries
// of a folder before the folder, by name. A concealed folder
// (concealedPaths) is left out with what it holds, as is what cannot be
// opened.
func walkFolder(fd int, real string, f func(e *treeEntry)) {
	walkEntry(fd, real, ".", concealedPaths(), f)
}

// walkEntry is walkFolder from the entry open as fd, at rel.
func walkEntry(fd int, real, rel string, hidden []string, f func(e *treeEntry)) {
	e := &treeEntry{fd: fd, rel: rel}
	if unix.Fstat(fd, &e.st) != nil {
		return
	}
	if e.isDir() {
		if slices.Contains(hidden, filepath.Join(real, rel)) {
			return
		}
		for _, name := range folderNames(fd) {
			child, err := unix.Openat(fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			walkEntry(child, real, filepath.Join(rel, name), hidden, f)
			unix.Close(child)
		}
	}
	f(e)
}

// folderNames are the names in the folder open as fd, sorted.
func folderNames(fd int) []string {
	d, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	dir := os.NewFile(uintptr(d), ".")
	defer dir.Close()
	names, _ := dir.Readdirnames(-1)
	slices.Sort(names)
	return names
}
