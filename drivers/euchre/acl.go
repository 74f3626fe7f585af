package euchre

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// The POSIX ACLs of a file, as the kernel gives them in extended
// attributes: the access ACL of a file or folder, and the default ACL of
// a folder, which what is made in it inherits.
const (
	aclAccess  = "system.posix_acl_access"
	aclDefault = "system.posix_acl_default"
)

// The tags of an ACL's entries (linux/posix_acl.h).
const (
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclGroup    = 0x08
	aclMask     = 0x10
	aclOther    = 0x20
)

// aclEntry is one entry of an ACL: a tag, its permissions, and the user
// or group id of a named entry.
type aclEntry struct {
	tag, perm uint16
	id        uint32
}

// readACL is the ACL name of path, or nil when it has none (or its file
// system has no ACLs).
func readACL(path, name string) ([]aclEntry, error) {
	n, err := unix.Lgetxattr(path, name, nil)
	var buf []byte
	if err == nil {
		// Its size, then it: the bot, which may change it, has ended.
		buf = make([]byte, n)
		n, err = unix.Lgetxattr(path, name, buf)
	}
	switch {
	case errors.Is(err, unix.ENODATA) || errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.ENOENT):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the ACL of %s: %w", path, err)
	}
	const header, size = 4, 8
	if n < header || (n-header)%size != 0 {
		return nil, fmt.Errorf("the ACL of %s has %d bytes, not a whole number of entries", path, n)
	}
	var acl []aclEntry
	for b := buf[header:n]; len(b) > 0; b = b[size:] {
		le := binary.LittleEndian
		acl = append(acl, aclEntry{le.Uint16(b), le.Uint16(b[2:]), le.Uint32(b[4:])})
	}
	return acl, nil
}

// aclFixed is what of acl a chmod leaves (its named entries and, with a
// mask, its owning group's), or nil for an ACL that a file made under it
// as a default does not get as its own access ACL: one no more than its
// mode, without a mask, which the kernel does not keep. The owner's, the
// mask's and the others' permissions are the mode's, which the bot may
// set anyway.
func aclFixed(acl []aclEntry) []aclEntry {
	if !slices.ContainsFunc(acl, func(e aclEntry) bool { return e.tag == aclMask }) {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(acl), func(e aclEntry) bool {
		return e.tag == aclUserObj || e.tag == aclMask || e.tag == aclOther
	})
}

// aclProblem says how the ACLs of path, in a memory folder (or the folder
// itself, dir) differ from what a file or folder arbiter makes there
// inherits: the default ACL inherited, of the memory folder's own parent
// (the host's, maybe on the results directory), with the mode's
// permissions. A bot owns its folder and its file, and may give either
// an ACL of its own: a thousand named users' ids, about 2 KB, read back
// at its next decision beside the one file the rule allows. Returns ""
// when they are what it inherits.
func aclProblem(path string, dir bool, inherited []aclEntry) (string, error) {
	access, err := readACL(path, aclAccess)
	if err != nil {
		return "", err
	}
	var names []string
	if !slices.Equal(aclFixed(access), aclFixed(inherited)) {
		names = append(names, aclAccess)
	}
	if dir {
		def, err := readACL(path, aclDefault)
		if err != nil {
			return "", err
		}
		if !slices.Equal(def, inherited) {
			names = append(names, aclDefault)
		}
	}
	if names == nil {
		return "", nil
	}
	return fmt.Sprintf("an ACL other than it inherits (%s)", joinNames(names)), nil
}

// joinNames joins one or two names with "and".
func joinNames(names []string) string {
	if len(names) == 2 {
		return names[0] + " and " + names[1]
	}
	return names[0]
}

// inheritedACL is the default ACL that the memory folder dir and what is
// made in it inherit: its parent's, which the bot cannot change.
func inheritedACL(dir string) ([]aclEntry, error) {
	return readACL(filepath.Dir(filepath.Clean(dir)), aclDefault)
}

// memoryTime is the access and modification time arbiter gives the
// memory folder and its file after every run (MemoryMetadata): the Unix
// epoch, whatever the bot set, so that it reads back no number of its own
// in them (two of 64 bits an inode) at its next decision.
var memoryTime = time.Unix(0, 0)

// resetTimes sets the access and modification times of path to
// memoryTime, not following a link.
func resetTimes(path string) error {
	ts := unix.NsecToTimespec(memoryTime.UnixNano())
	err := unix.UtimesNanoAt(unix.AT_FDCWD, path, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return fmt.Errorf("resetting the times of %s: %w", path, err)
	}
	return nil
}
