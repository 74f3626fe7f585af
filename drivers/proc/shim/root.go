package shim

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// MountOp is one step of building a sandbox's root, done by the shim in
// order. Path is inside the new root.
type MountOp struct {
	Kind string `json:"k"` // ro, rw, dev: bind Src; tmpfs, hide, mask, proc, link, dir
	Path string `json:"p"`
	Src  string `json:"s,omitempty"`
	Opts string `json:"o,omitempty"` // tmpfs options; a link's target
}

// Root is the sandbox part of the shim's configuration.
type Root struct {
	Ops []MountOp `json:"ops"`
	Cwd string    `json:"cwd"`
	// UID and GID are switched to after the root is built; -1 keeps
	// the current ones (a user namespace already mapped them).
	UID int `json:"uid"`
	GID int `json:"gid"`
}

// buildRoot runs in the shim, in the bot's new mount namespace: it makes
// the root cfg describes and enters it. The folders and files it makes
// get the modes written here whatever the organiser's umask, and the bot
// then runs under BotUmask of it.
func buildRoot(cfg *Root) error {
	old := unix.Umask(0)
	defer unix.Umask(BotUmask(old))
	if err := privateMounts(); err != nil {
		return err
	}
	// Every source is opened before the staging tmpfs covers anything.
	fds := make([]int, len(cfg.Ops))
	for i, op := range cfg.Ops {
		fds[i] = -1
		if op.Src == "" {
			continue
		}
		fd, err := unix.Open(op.Src, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("opening %s for the sandbox: %w", op.Src, err)
		}
		fds[i] = fd
	}
	defer func() {
		for _, fd := range fds {
			if fd >= 0 {
				unix.Close(fd)
			}
		}
	}()
	stage := "/tmp"
	if fi, err := os.Stat(stage); err != nil || !fi.IsDir() {
		stage = "/dev"
	}
	if err := unix.Mount("tmpfs", stage, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m,nr_inodes=4096"); err != nil {
		return fmt.Errorf("mounting the sandbox's root: %w", err)
	}
	var readOnly []string // tmpfs made read-only once the root is built
	for i, op := range cfg.Ops {
		ro, err := doMount(stage, op, fds[i])
		if err != nil {
			return err
		}
		if ro {
			readOnly = append(readOnly, op.Path)
		}
	}
	return enterRoot(stage, readOnly)
}

// doMount does one step of buildRoot under stage; ro says the step made a
// tmpfs to turn read-only at the end.
func doMount(stage string, op MountOp, fd int) (ro bool, err error) {
	t := stage + op.Path
	fail := func(what string, err error) (bool, error) {
		return false, fmt.Errorf("sandbox: %s %s: %w", what, op.Path, err)
	}
	switch op.Kind {
	case "ro", "rw", "dev":
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return fail("stat", err)
		}
		if err := mountpoint(t, st.Mode&unix.S_IFMT == unix.S_IFDIR); err != nil {
			return fail("making the mount point of", err)
		}
		if err := unix.Mount("/proc/self/fd/"+strconv.Itoa(fd), t, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fail("binding", err)
		}
		attr := uint64(unix.MOUNT_ATTR_NOSUID)
		switch op.Kind {
		case "ro":
			attr |= unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NODEV
		case "rw":
			attr |= unix.MOUNT_ATTR_NODEV
		case "dev":
			attr |= unix.MOUNT_ATTR_NOEXEC
		}
		if err := setAttr(t, attr, true); err != nil {
			return fail("restricting", err)
		}
	case "tmpfs", "hide":
		if err := mountpoint(t, true); err != nil {
			return fail("making", err)
		}
		opts := op.Opts
		if op.Kind == "hide" {
			opts = "mode=0755,size=16k"
		}
		if err := unix.Mount("tmpfs", t, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fail("mounting a tmpfs on", err)
		}
		return op.Kind == "hide" || op.Path == "/dev", nil
	case "mask":
		dir := op.Opts == "true"
		if dir {
			err = unix.Mount("tmpfs", t, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, "mode=0000,size=4k")
		} else {
			err = unix.Mount(stage+"/.mask", t, "", unix.MS_BIND, "")
			if errors.Is(err, unix.ENOENT) {
				if err = os.WriteFile(stage+"/.mask", nil, 0); err == nil {
					err = unix.Mount(stage+"/.mask", t, "", unix.MS_BIND, "")
				}
			}
		}
		if err == nil && !dir {
			err = setAttr(t, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOEXEC, false)
		}
		if err != nil {
			return fail("masking", err)
		}
	case "proc":
		if err := mountpoint(t, true); err != nil {
			return fail("making", err)
		}
		if err := unix.Mount("proc", t, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fail("mounting", err)
		}
	case "link":
		if err := os.MkdirAll(parent(t), 0o755); err != nil {
			return fail("making the folder of", err)
		}
		if err := os.Symlink(op.Opts, t); err != nil {
			return fail("linking", err)
		}
	}
	return false, nil
}

// BotUmask is the umask a sandboxed process (a bot, a build) runs under:
// the organiser's, less what would hide a file from another uid. Its root
// is built without one: under umask 077 a folder made on the way to a
// bound program (/root/.pyenv/versions above an interpreter) would be
// 0700, and the sandbox's uid could not reach the program. A build's
// files, given back to the owner of the bot's dir, must stay readable by
// the sandbox's uid that then plays; a bot's files are read by arbiter,
// or by the bot itself. The organiser's wish that others not write is
// kept.
func BotUmask(organiser int) int { return organiser &^ 0o055 }

// mountpoint makes the folder or empty file a bind or tmpfs goes on; in a
// bound folder it exists already.
func mountpoint(t string, dir bool) error {
	if _, err := os.Lstat(t); err == nil {
		return nil
	}
	if dir {
		return os.MkdirAll(t, 0o755)
	}
	if err := os.MkdirAll(parent(t), 0o755); err != nil {
		return err
	}
	return os.WriteFile(t, nil, 0o444)
}

// setAttr sets mount attributes on the mount at t and, if recursive,
// every mount below it (mount_setattr); on an older kernel, on the top
// one only.
func setAttr(t string, attr uint64, recursive bool) error {
	var at uint
	if recursive {
		at = unix.AT_RECURSIVE
	}
	err := unix.MountSetattr(unix.AT_FDCWD, t, at, &unix.MountAttr{Attr_set: attr})
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	var flags uintptr = unix.MS_REMOUNT | unix.MS_BIND
	for a, f := range map[uint64]uintptr{unix.MOUNT_ATTR_RDONLY: unix.MS_RDONLY, unix.MOUNT_ATTR_NOSUID: unix.MS_NOSUID,
		unix.MOUNT_ATTR_NODEV: unix.MS_NODEV, unix.MOUNT_ATTR_NOEXEC: unix.MS_NOEXEC} {
		if attr&a != 0 {
			flags |= f
		}
	}
	var st unix.Statfs_t
	if unix.Statfs(t, &st) == nil {
		flags |= uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_RDONLY | unix.MS_NOATIME | unix.MS_RELATIME)
	}
	return unix.Mount("", t, "", flags, "")
}

// enterRoot makes stage the root (pivot_root, the old root detached) and
// read-only.
func enterRoot(stage string, readOnly []string) error {
	if err := unix.Chdir(stage); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("sandbox: pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("sandbox: detaching the old root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	for _, p := range append([]string{"/"}, readOnly...) {
		if err := setAttr(p, unix.MOUNT_ATTR_RDONLY, false); err != nil && p == "/" {
			return fmt.Errorf("sandbox: making the root read-only: %w", err)
		}
	}
	return nil
}

// becomeUser switches to uid and gid (arbiter is root, the bot is not),
// dropping every supplementary group; the bounding set is emptied first,
// while that is still allowed.
//
// Only the calling thread switches, by the raw system calls: it is the
// one that execs the bot, and the exec ends the shim's other threads,
// which run nothing but the Go runtime until then. The syscall package's
// Setresuid would switch every thread of the shim, signalling each and
// waiting for it to run, a millisecond or more of a start on a busy
// machine. (SYS_SETRESUID is the 32-bit uid call on amd64 and arm64, the
// only architectures with a sandbox: it needs seccomp.)
func becomeUser(uid, gid int) error {
	dropBounding()
	if _, _, errno := unix.RawSyscall(unix.SYS_SETGROUPS, 0, 0, 0); errno != 0 {
		return fmt.Errorf("dropping groups: %w", errno)
	}
	if _, _, errno := unix.RawSyscall(unix.SYS_SETRESGID, uintptr(gid), uintptr(gid), uintptr(gid)); errno != 0 {
		return fmt.Errorf("switching to gid %d: %w", gid, errno)
	}
	if _, _, errno := unix.RawSyscall(unix.SYS_SETRESUID, uintptr(uid), uintptr(uid), uintptr(uid)); errno != 0 {
		return fmt.Errorf("switching to uid %d: %w", uid, errno)
	}
	return nil
}

// parent is the folder of the absolute path p (path/filepath would be
// initialized only after the heavier packages, see the package's doc).
func parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
