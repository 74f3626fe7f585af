package auction

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// FileLimits bound the files a bot keeps in its game folder.
type FileLimits struct {
	// Count and Bytes cap the bot's own files (those named with its
	// prefix), checked after every round.
	Count int   `json:"count"`
	Bytes int64 `json:"bytes"`
	// Prefixes gives bots (by name) the prefix of their file names, like
	// the contest's "tym42"; a bot not listed uses its name.
	Prefixes map[string]string `json:"prefixes,omitempty"`
	// Breach is Disqualify when a breach of these rules disqualifies the
	// bot from the tournament; otherwise (BreachDefault, or empty in a
	// plan of an earlier arbiter) the round's bid counts as 0.
	Breach string `json:"breach,omitempty"`
}

// seatFolder is one seat's private copy of the game folder.
//
// All players bid at the same time, so if they shared one folder nobody
// could tell which of them changed state or log, and a bot could change
// what another reads in the same round. Instead every seat gets
// <match dir>/seats/<letter>/ as its working directory with its own
// <game>/ inside, holding state, log and the bot's own files. The referee
// writes state and log there from its memory before every round, and
// after the round checks that they are unchanged, that the working
// directory holds nothing but the game folder, and that the game folder
// holds nothing but state, log and the bot's prefixed regular files,
// within its limits. Every violation is put right (files removed, state
// and log rewritten) and attributed to that seat alone.
type seatFolder struct {
	cwd    string // the bot's working directory
	name   string // the game folder's name, the bot's first argument
	game   string // cwd/name
	prefix string
	limits FileLimits
	// unprefixed are the files the last check found in the game folder
	// whose names do not start with prefix, in name order.
	unprefixed []string

	state    []byte // what state holds this round
	logLen   int    // bytes of the log in the file; -1: rewrite it whole
	logStamp stamp
}

// stamp identifies a version of a file. ctime cannot be set by a process:
// any write, rename into place, chmod or utimes changes it, so a log with
// the same stamp is the log the referee wrote (up to the file system's
// timestamp granularity: a same-size rewrite within one clock tick of the
// referee's write could pass on file systems with coarse timestamps).
type stamp struct {
	ino, size    int64
	mode         uint32
	mtime, ctime syscall.Timespec
}

func stampOf(path string) (stamp, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return stamp{}, false
	}
	return stamp{ino: int64(st.Ino), size: st.Size, mode: st.Mode, mtime: st.Mtim, ctime: st.Ctim}, true
}

func newSeatFolder(cwd, name, prefix string, limits FileLimits) (*seatFolder, error) {
	f := &seatFolder{cwd: cwd, name: name, game: filepath.Join(cwd, name), prefix: prefix, limits: limits, logLen: -1}
	if err := os.MkdirAll(f.game, 0o755); err != nil {
		return nil, err
	}
	return f, nil
}

// prepare writes the round's state and brings the log up to date: appended
// to when the file is the one written last round, rewritten otherwise.
// Files are replaced, never written through, so a bot that turned state
// into a symbolic link cannot make the referee write elsewhere. An error is
// the arbiter's own I/O failure.
func (f *seatFolder) prepare(state, log []byte) error {
	if err := f.ensureDirs(); err != nil {
		return err
	}
	f.state = state
	if err := replaceFile(filepath.Join(f.game, "state"), state); err != nil {
		return err
	}
	logPath := filepath.Join(f.game, "log")
	if s, ok := stampOf(logPath); f.logLen >= 0 && ok && s == f.logStamp {
		if len(log) > f.logLen {
			lf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
			if err != nil {
				return err
			}
			_, err = lf.Write(log[f.logLen:])
			if cerr := lf.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	} else if err := replaceFile(logPath, log); err != nil {
		return err
	}
	f.logLen = len(log)
	s, ok := stampOf(logPath)
	if !ok {
		return fmt.Errorf("%s vanished", logPath)
	}
	f.logStamp = s
	return nil
}

// ensureDirs makes sure the working directory and the game folder are
// directories the referee can write, whatever the bot did to them.
func (f *seatFolder) ensureDirs() error {
	for _, d := range []string{f.cwd, f.game} {
		if fi, err := os.Lstat(d); err == nil && !fi.IsDir() {
			if err := removeAll(d); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// replaceFile puts a fresh file with data at path, removing whatever was
// there (a file, a link, a directory). The file is readable by all
// whatever the organiser's umask: a sandboxed bot, of another uid, reads
// it.
func replaceFile(path string, data []byte) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if err := removeAll(path); err != nil {
			return err
		}
	}
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	if err = w.Chmod(0o644); err == nil {
		_, err = w.Write(data)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeAll removes path, first giving the referee back the permissions a
// bot may have taken away from its directories.
func removeAll(path string) error {
	err := os.RemoveAll(path)
	// Each pass opens one more level of directories the bot locked.
	for range 32 {
		if err == nil {
			return nil
		}
		_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				_ = os.Chmod(p, 0o700)
			}
			return nil
		})
		err = os.RemoveAll(path)
	}
	return err
}

// check looks at the folder after a round and puts right what the bot did
// wrong; problems says what that was, one sentence fragment each. An error
// is the arbiter's own I/O failure.
func (f *seatFolder) check() (problems []string, err error) {
	if err := f.ensureDirs(); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(f.cwd)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if e.Name() == f.name {
			continue
		}
		problems = append(problems, fmt.Sprintf("created %s beside the game folder %s/", e.Name(), f.name))
		if err := removeAll(filepath.Join(f.cwd, e.Name())); err != nil {
			return nil, err
		}
	}
	if !sameFile(filepath.Join(f.game, "state"), f.state) {
		problems = append(problems, "changed or removed state")
	}
	if s, ok := stampOf(filepath.Join(f.game, "log")); !ok || s != f.logStamp {
		problems = append(problems, "changed or removed log")
		f.logLen = -1
	}
	ents, err = os.ReadDir(f.game)
	if err != nil {
		return nil, err
	}
	f.unprefixed = nil
	var own []string
	var size int64
	for _, e := range ents {
		name := e.Name()
		path := filepath.Join(f.game, name)
		switch {
		case name == "state" || name == "log":
			continue
		case !strings.HasPrefix(name, f.prefix):
			f.unprefixed = append(f.unprefixed, name)
			problems = append(problems, fmt.Sprintf("created %s, which does not start with its prefix %q", name, f.prefix))
		case !e.Type().IsRegular():
			problems = append(problems, fmt.Sprintf("made %s, which is not a regular file", name))
		case setID(e):
			// Left on the host, a set-user-ID program of the sandbox's
			// uid would let anyone run as every sandboxed bot.
			problems = append(problems, fmt.Sprintf("made %s set-user-ID or set-group-ID", name))
		default:
			if fi, err := e.Info(); err == nil {
				own = append(own, path)
				// Its blocks when they are more: a file may hold a
				// reservation with its size left at 0 (fallocate).
				size += proc.DiskUsage(fi)
			}
			continue
		}
		if err := removeAll(path); err != nil {
			return nil, err
		}
	}
	if len(own) > f.limits.Count || size > f.limits.Bytes {
		problems = append(problems, fmt.Sprintf("kept %s of %s, over its limit of %s and %s (its files were deleted)",
			count(len(own), "file"), count(size, "byte"), count(f.limits.Count, "file"), count(f.limits.Bytes, "byte")))
		for _, p := range own {
			if err := removeAll(p); err != nil {
				return nil, err
			}
		}
	}
	return problems, nil
}

// quota bounds what the bot writes in its working directory during its
// move, so that it cannot fill the organiser's disk before check sees
// its files: its quota's count and bytes, the game folder, state and log
// as the referee wrote them not counted. Everything else counts, even
// what check then removes (a file without the prefix, one beside the
// game folder): on the disk, it takes room all the same.
func (f *seatFolder) quota() *proc.FolderQuota {
	return &proc.FolderQuota{Count: f.limits.Count, Bytes: f.limits.Bytes,
		Given: map[string]int64{f.name: 0, filepath.Join(f.name, "state"): int64(len(f.state)), filepath.Join(f.name, "log"): int64(max(f.logLen, 0))},
		Rule:  fmt.Sprintf("%s and %s (files { count, bytes })", count(f.limits.Count, "file"), count(f.limits.Bytes, "byte"))}
}

// count is n things, "1 file" or "2 files"; bytes are an int64, which
// an int of 32 bits would wrap.
func count[N int | int64](n N, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// setID says e has its set-user-ID or set-group-ID bit (or cannot be
// looked at).
func setID(e os.DirEntry) bool {
	fi, err := e.Info()
	return err != nil || fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0
}

// sameFile reports whether path is a regular file holding exactly want.
// The open does not wait: a bot may have left a FIFO there, which would
// block an open for reading until someone wrote to it.
func sameFile(path string, want []byte) bool {
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer r.Close()
	fi, err := r.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(want)) {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))+1))
	return err == nil && bytes.Equal(got, want)
}
