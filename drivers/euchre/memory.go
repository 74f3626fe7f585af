package euchre

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"golang.org/x/sys/unix"
)

// checkMemory enforces the rule that a bot keeps at most one file of at
// most limit bytes in its folder between runs. A bot that breaks it loses
// its whole memory: the folder is emptied, which is simpler to reason
// about than any choice of which file to keep. problem says what was
// wrong, or is empty. A missing folder is made again, so that the next run
// has its working directory. s.MemoryReadable makes a file arbiter cannot
// open break the rule, s.MemoryMetadata extended attributes and ACLs of
// the folder or its file (metadataProblem), whose modes and times it
// resets (resetMemoryFolder, resetMetadata).
func checkMemory(dir string, s Settings) (problem string, err error) {
	limit := s.Memory
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return "removed its own memory folder", os.MkdirAll(dir, 0o755)
	}
	var why []string
	if errors.Is(err, fs.ErrPermission) || err == nil && !searchable(dir, entries) {
		// Where arbiter is not root, the bot runs as arbiter's uid and
		// may take its folder's permissions away (chmod 0 ., or 0400
		// ., its names listed but its files out of reach): the folder
		// is given back and emptied, as for any breach, rather than
		// stop the run (at its every resume again).
		why = append(why, "its folder could not be read (its permissions were taken away)")
		if err := os.Chmod(dir, 0o755); err != nil {
			return "", err
		}
		entries, err = os.ReadDir(dir)
	}
	if err != nil {
		return "", err
	}
	if len(entries) > 1 {
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		why = append(why, fmt.Sprintf("%d entries (%s)", len(entries), strings.Join(names, ", ")))
	}
	for _, e := range entries {
		problem, err := entryProblem(filepath.Join(dir, e.Name()), s)
		if err != nil {
			return "", err
		}
		if problem != "" {
			why = append(why, problem)
		}
	}
	if s.MemoryMetadata {
		// The folder's own, which emptying it does not remove.
		p, err := metadataProblem(dir, true)
		if err != nil {
			return "", err
		}
		if p != "" {
			why = append(why, "its folder has "+p)
		}
	}
	if len(why) == 0 {
		return "", resetMemoryFolder(dir, s)
	}
	if err := emptyFolder(dir, entries, s.MemoryMetadata); err != nil {
		return "", err
	}
	if err := resetMemoryFolder(dir, s); err != nil {
		return "", err
	}
	return fmt.Sprintf("broke the memory rule (one file of at most %d bytes): %s; its folder was emptied",
		limit, strings.Join(why, ", ")), nil
}

// entryProblem says how the entry at path of a memory folder breaks the
// rule s, or returns "".
func entryProblem(path string, s Settings) (string, error) {
	name := filepath.Base(path)
	info, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	switch {
	case !info.Mode().IsRegular():
		return name + " is not a regular file", nil
	case proc.DiskUsage(info) > s.Memory:
		// Its blocks when they are more: a file may hold a
		// reservation with its size left at 0 (fallocate).
		return fmt.Sprintf("%s has %d bytes", name, proc.DiskUsage(info)), nil
	case info.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0:
		// Left on the host, a set-user-ID program of the sandbox's
		// uid would let anyone run as every sandboxed bot.
		return name + " is set-user-ID or set-group-ID", nil
	case s.MemoryReadable && !readable(path):
		// Where arbiter is not root, the bot runs as arbiter's uid
		// and may take its file's permissions away (chmod 0 m):
		// the next match could not start from a copy of it.
		return name + " cannot be read (its permissions were taken away)", nil
	}
	if !s.MemoryMetadata {
		return "", nil
	}
	p, err := metadataProblem(path, false)
	switch {
	case err != nil:
		return "", err
	case p != "":
		return name + " has " + p, nil
	}
	err = resetMetadata(path, memoryFileMode)
	if errors.Is(err, fs.ErrPermission) {
		// Not arbiter's, where arbiter is not root: a bot running
		// bare as its uid linked another user's writable file into
		// its folder. Left, it would stop the run here at every
		// decision.
		return name + "'s mode and times cannot be set back (it is not arbiter's)", nil
	}
	return "", err
}

// metadataProblem says what of the metadata of path, the memory folder
// (folder) or its file, is the bot's own, or returns "": extended
// attributes (botAttrs) or ACLs other than it inherits (aclProblem).
func metadataProblem(path string, folder bool) (string, error) {
	attrs, err := botAttrs(path)
	if err != nil && !errors.Is(err, errManyAttrs) {
		return "", err
	}
	var why []string
	if len(attrs) > 0 || err != nil {
		why = append(why, attrWords(attrs, err))
	}
	dir := path
	if !folder {
		dir = filepath.Dir(path)
	}
	inherited, err := inheritedACL(dir)
	if err != nil {
		return "", err
	}
	p, err := aclProblem(path, folder, inherited)
	if p != "" {
		why = append(why, p)
	}
	return strings.Join(why, " and "), err
}

// memoryFileMode is the mode arbiter gives the memory file after every
// run (MemoryMetadata): what a file the bot makes gets under the usual
// umask, read and write for its owner, the bot (the sandbox's uid, or
// arbiter's own running bare or in a user namespace), which reads and
// rewrites it at its next decision, and readable for arbiter whatever
// its uid. The engine carries it to the bot's next match.
const memoryFileMode = 0o644

// resetMemoryFolder gives the memory folder dir, under s.MemoryMetadata,
// the mode arbiter gives it when it makes it (memoryFolderMode) and
// memoryTime as its access and modification times, as entryProblem gives
// its file memoryFileMode and them: a bot may set its folder's and file's
// modes (12 bits each, sticky included) and times (utimensat) to numbers
// of its own, read back at its next decision.
func resetMemoryFolder(dir string, s Settings) error {
	if !s.MemoryMetadata {
		return nil
	}
	mode, err := memoryFolderMode(dir)
	if err != nil {
		return err
	}
	err = resetMetadata(dir, mode)
	if errors.Is(err, unix.EPERM) && !ownFolder(dir) {
		// Another user's folder (a run of theirs resumed by this user, in
		// a folder their group shares): a bot of arbiter's uid could set
		// neither its mode nor its times to numbers of its own either.
		return nil
	}
	return err
}

// ownFolder says whether dir belongs to arbiter's user, who can set its
// mode and times.
func ownFolder(dir string) bool {
	var st unix.Stat_t
	return unix.Lstat(dir, &st) == nil && int(st.Uid) == os.Geteuid()
}

// memoryFolderMode is the mode of a memory folder dir that arbiter makes
// (os.MkdirAll(dir, 0o755)): 0755, with the set-group-ID bit where the
// folder's parent, the host's, has it, as a folder made in it inherits it
// with its group (a chmod by arbiter, not root and not of that group,
// drops it, silently: the folder is 0755 then at every run).
func memoryFolderMode(dir string) (uint32, error) {
	var parent unix.Stat_t
	if err := unix.Stat(filepath.Dir(filepath.Clean(dir)), &parent); err != nil {
		return 0, fmt.Errorf("reading the mode of the folder of %s: %w", dir, err)
	}
	return 0o755 | parent.Mode&unix.S_ISGID, nil
}

// resetMetadata sets the mode of path, a memory folder or its file, to
// mode and its times to memoryTime.
func resetMetadata(path string, mode uint32) error {
	// The bot has ended, and path is no link (entryProblem): its
	// folder or its file.
	if err := unix.Chmod(path, mode); err != nil {
		return fmt.Errorf("resetting the mode of %s: %w", path, err)
	}
	return resetTimes(path)
}

// attrWords names the extended attributes attrs that botAttrs found, or
// says that they were too many to list (errManyAttrs): the first few, as
// a bot may set hundreds, each name up to 255 bytes.
func attrWords(attrs []string, err error) string {
	const most = 3
	switch {
	case err != nil:
		return "more extended attributes than can be listed (over 64 KB of names)"
	case len(attrs) > most:
		return fmt.Sprintf("extended attributes (%s and %d more)", strings.Join(attrs[:most], ", "), len(attrs)-most)
	}
	return "extended attributes (" + strings.Join(attrs, ", ") + ")"
}

// emptyFolder removes the entries of dir, and with metadata makes dir
// again, without the extended attributes and ACLs a bot may have given
// it (metadataProblem).
func emptyFolder(dir string, entries []os.DirEntry, metadata bool) error {
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		// A bot may leave read-only directories: make them writable so
		// that nothing stays behind.
		_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		err := os.RemoveAll(path)
		if errors.Is(err, fs.ErrPermission) {
			// A folder the bot left without write permission (chmod
			// 0500 ., where arbiter is not root).
			if err = os.Chmod(dir, 0o755); err == nil {
				err = os.RemoveAll(path)
			}
		}
		if err != nil {
			return err
		}
	}
	if !metadata {
		return nil
	}
	// Its attributes and ACLs, which may be too many to list, and so to
	// remove one by one: the folder, empty now, is made again, with what
	// a folder arbiter makes there has.
	if err := os.Remove(dir); err != nil {
		return err
	}
	return os.Mkdir(dir, 0o755)
}

// errManyAttrs is botAttrs' error for a file whose extended attributes'
// names are more than the kernel lists (XATTR_LIST_MAX, 64 KB: a bot may
// set that many on tmpfs).
var errManyAttrs = errors.New("more extended attributes than can be listed")

// botAttrs lists the extended attributes of path that a bot may fill with
// data of its own (user.*, up to a block of the file system's a file on
// ext4, about 4 KB): every name but the system's (ACLs) and the security
// modules' (labels), which the host gives a file the bot makes, so that
// the memory rule's one file is all a bot keeps. A file system without
// extended attributes has none; names over what the kernel lists are
// errManyAttrs.
func botAttrs(path string) ([]string, error) {
	var buf []byte
	for {
		n, err := unix.Llistxattr(path, buf)
		switch {
		case errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.ENOENT):
			return nil, nil
		case errors.Is(err, unix.E2BIG) || buf == nil && n > 64<<10:
			return nil, errManyAttrs
		case errors.Is(err, unix.ERANGE):
			buf = nil // grown since it was sized: size it again
			continue
		case err != nil:
			return nil, fmt.Errorf("listing the extended attributes of %s: %w", path, err)
		case buf == nil && n > 0:
			buf = make([]byte, n)
			continue
		}
		var names []string
		for _, name := range strings.Split(string(buf[:n]), "\x00") {
			if name != "" && !strings.HasPrefix(name, "system.") && !strings.HasPrefix(name, "security.") {
				names = append(names, name)
			}
		}
		return names, nil
	}
}

// searchable says whether arbiter may look at the entries of dir, listed
// in entries: a folder whose names it may read but not search (mode 0400)
// fails at its files.
func searchable(dir string, entries []os.DirEntry) bool {
	if len(entries) == 0 {
		return true
	}
	_, err := os.Lstat(filepath.Join(dir, entries[0].Name()))
	return !errors.Is(err, fs.ErrPermission)
}

// readable says whether arbiter can open the regular file at path.
func readable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
