package euchre

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// checkMemory enforces the rule that a bot keeps at most one file of at
// most limit bytes in its folder between runs. A bot that breaks it loses
// its whole memory: the folder is emptied, which is simpler to reason
// about than any choice of which file to keep. problem says what was
// wrong, or is empty. A missing folder is made again, so that the next run
// has its working directory. mustRead (Settings.MemoryReadable) makes a
// file arbiter cannot open break the rule.
func checkMemory(dir string, limit int64, mustRead bool) (problem string, err error) {
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
		info, err := os.Lstat(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", err
		}
		switch {
		case !info.Mode().IsRegular():
			why = append(why, e.Name()+" is not a regular file")
		case proc.DiskUsage(info) > limit:
			// Its blocks when they are more: a file may hold a
			// reservation with its size left at 0 (fallocate).
			why = append(why, fmt.Sprintf("%s has %d bytes", e.Name(), proc.DiskUsage(info)))
		case info.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0:
			// Left on the host, a set-user-ID program of the sandbox's
			// uid would let anyone run as every sandboxed bot.
			why = append(why, e.Name()+" is set-user-ID or set-group-ID")
		case mustRead && !readable(filepath.Join(dir, e.Name())):
			// Where arbiter is not root, the bot runs as arbiter's uid
			// and may take its file's permissions away (chmod 0 m):
			// the next match could not start from a copy of it.
			why = append(why, e.Name()+" cannot be read (its permissions were taken away)")
		}
	}
	if len(why) == 0 {
		return "", nil
	}
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
			return "", err
		}
	}
	return fmt.Sprintf("broke the memory rule (one file of at most %d bytes): %s; its folder was emptied",
		limit, strings.Join(why, ", ")), nil
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
