package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// OwnerHint adds to err, a refusal (EACCES, EPERM) of a file of a results
// directory, whose the file or the folder holding it is when that is
// another user than the one arbiter runs as: a results directory that two
// users ran (root resumed a user's run, or the reverse) holds files the
// other cannot replace, and a bare "permission denied" does not say so.
// Any other error is returned as it is, and so is one OwnerHint added to
// already.
func OwnerHint(err error) error {
	var pe *fs.PathError
	var hinted *ownerHinted
	if !errors.Is(err, fs.ErrPermission) || !errors.As(err, &pe) || errors.As(err, &hinted) {
		return err
	}
	me := os.Geteuid()
	// A file is removed or made by its folder's leave: look at the folder
	// when the file itself is this user's, but for one there that is
	// opened, which its own mode refuses (a file of its own of 0444).
	for i, p := range []string{pe.Path, filepath.Dir(pe.Path)} {
		fi, serr := os.Lstat(p)
		if serr != nil {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if ok && int(st.Uid) == me && i == 0 && pe.Op == "open" {
			return err
		}
		if !ok || int(st.Uid) == me {
			continue
		}
		return &ownerHinted{err: fmt.Errorf("%w (%s belongs to %s, and arbiter runs as %s: another user's run wrote it; run as that user, or give the results directory to this one, e.g. chown -R)",
			err, p, userName(int(st.Uid)), userName(me))}
	}
	return err
}

// ownerHinted is an error OwnerHint added whose the file is to, which it
// leaves as it is when given it again (a reader that names the owner,
// under a command that does too).
type ownerHinted struct{ err error }

func (e *ownerHinted) Error() string { return e.err.Error() }

func (e *ownerHinted) Unwrap() error { return e.err }

// mkdirResults makes the folder dir of a results directory (and those
// above it) as os.MkdirAll does; a refusal says whose the folder that
// holds it is when that is another user's (OwnerHint): builds/ or
// rounds/ in a results directory a run of root's made.
func mkdirResults(dir string) error { return OwnerHint(os.MkdirAll(dir, 0o755)) }

// unwritableNote says, of a build that failed in the bot's folder dir,
// which folder of it arbiter's user may not write in, and whose that
// folder is: dir, or the first in lexical order of its folders of
// another user's. A build writes as the user arbiter runs as, and a
// folder of another user's (root's, for a user's check) refuses the
// files it makes, which the build's own message does not say ("cannot
// open output file"). A folder in dir of the user's own kept read-only
// (its data, a Go module cache) is not named: the build failed for its
// own reasons as often as not, and the user made it so. Root's builds
// are lent the folder (proc's lendTree) and write anywhere in it. ""
// when no such folder is found.
func unwritableNote(dir string) string {
	me := os.Geteuid()
	var found string
	var fi fs.FileInfo
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return filepath.SkipDir // an unreadable folder is not walked
		}
		if !d.IsDir() || !errors.Is(unix.Access(path, unix.W_OK), fs.ErrPermission) {
			return nil
		}
		if st, serr := os.Stat(path); serr == nil && (path == dir || fileOwner(st) != me) {
			found, fi = path, st
			return filepath.SkipAll
		}
		return nil
	})
	if found == "" {
		return ""
	}
	which := "the bot's folder " + found
	if found != dir {
		which = "the folder " + found + " of the bot's"
	}
	if owner := fileOwner(fi); owner != me {
		return fmt.Sprintf(" (%s belongs to %s, mode %s, and arbiter runs as %s, as the build does, who may not write in it: run arbiter as the folder's owner, or give the folder to this user, e.g. chown -R)",
			which, userName(owner), fi.Mode(), userName(me))
	}
	return fmt.Sprintf(" (%s is not writable, mode %s, and arbiter runs as its owner %s, as the build does: make it writable, e.g. chmod -R u+w)",
		which, fi.Mode(), userName(me))
}

// fileOwner is the uid fi belongs to, -1 when it does not say.
func fileOwner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// userName is "uid N (name)", or "uid N" for a uid without a name here.
func userName(uid int) string {
	s := "uid " + strconv.Itoa(uid)
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		s += " (" + u.Username + ")"
	}
	return s
}

// OwnerWarning says, when the results directory dir belongs to another
// user than the one arbiter runs as (root resuming a user's run), that
// what this run writes will be this user's, which that user's own
// resume cannot replace; "" otherwise, and for a directory of root's
// (a user running where root let it write), whose resume as root
// replaces any file.
func OwnerWarning(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	me := os.Geteuid()
	if !ok || int(st.Uid) == me || st.Uid == 0 {
		return ""
	}
	return fmt.Sprintf("the results directory %s belongs to %s, and arbiter runs as %s: the matches this run begins are written as %s, and a resume as the directory's owner stops at any of them this run leaves unfinished (permission denied): run it as its owner, or give it to one user (chown -R)",
		dir, userName(int(st.Uid)), userName(me), userName(me))
}
