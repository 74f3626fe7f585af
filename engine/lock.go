package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// LockFile is the lock of a results directory. Whoever writes into the
// directory (run, replay) holds an exclusive flock(2) on it for the whole
// time; the file says who holds it. The kernel releases the lock when its
// holder exits, however it exits, so the file a killed run leaves behind
// does not block the next one: its content is only information.
const LockFile = ".lock"

// Holder says who holds a results directory's lock.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Since   time.Time `json:"since"`
	Command []string  `json:"command"`
}

func (h *Holder) String() string {
	return fmt.Sprintf("process %d on %s since %s (%s)", h.PID, h.Host,
		h.Since.Format("2006-01-02 15:04:05 MST"), strings.Join(h.Command, " "))
}

// LockedError is the refusal of a results directory that another process
// holds.
type LockedError struct {
	Dir string
	// Holder is nil when the holder has not said who it is yet (it has
	// just taken the lock) or its lock file cannot be read.
	Holder *Holder
}

func (e *LockedError) Error() string {
	who := "another process (which has not written its details yet)"
	if e.Holder != nil {
		who = e.Holder.String()
	}
	return fmt.Sprintf("%s is in use by %s; only one run writes into a results directory at a time. "+
		"Wait for it to end (or stop it), or use another -out directory", e.Dir, who)
}

// DirLock is a results directory's lock, held by this process.
type DirLock struct {
	f   *os.File
	key fileKey
}

// fileKey identifies a lock file whatever path reaches it.
type fileKey struct{ dev, ino uint64 }

// heldHere are the lock files this process holds: a Runner whose caller
// already holds its directory does not lock it again (a second flock from
// this process would be refused like any other).
var heldHere = struct {
	sync.Mutex
	keys map[fileKey]bool
}{keys: map[fileKey]bool{}}

// LockDir takes the lock of the results directory dir, creating dir if
// needed, before anything else is written into it. It returns a
// *LockedError, having written nothing, when another process (or another
// run in this one) holds it.
func LockDir(dir string) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	key, err := keyOf(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Dir: dir, Holder: holder}
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	host, _ := os.Hostname()
	b, _ := json.Marshal(&Holder{PID: os.Getpid(), Host: host, Since: time.Now().UTC().Truncate(time.Second), Command: os.Args})
	if err := writeHolder(f, append(b, '\n')); err != nil {
		f.Close() // releases the lock
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	heldHere.Lock()
	heldHere.keys[key] = true
	heldHere.Unlock()
	return &DirLock{f: f, key: key}, nil
}

// Unlock releases the lock. The file stays: removing it could let a
// process that opened it before the removal lock a file nobody else sees.
func (l *DirLock) Unlock() error {
	heldHere.Lock()
	delete(heldHere.keys, l.key)
	heldHere.Unlock()
	terr := l.f.Truncate(0)
	if err := l.f.Close(); err != nil { // closing releases the flock
		return err
	}
	return terr
}

// lockUnlessHeld takes dir's lock unless this process holds it already;
// release undoes only what it did.
func lockUnlessHeld(dir string) (release func(), err error) {
	if fi, err := os.Stat(filepath.Join(dir, LockFile)); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			heldHere.Lock()
			held := heldHere.keys[fileKey{uint64(st.Dev), st.Ino}]
			heldHere.Unlock()
			if held {
				return func() {}, nil
			}
		}
	}
	l, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

func keyOf(f *os.File) (fileKey, error) {
	fi, err := f.Stat()
	if err != nil {
		return fileKey{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, fmt.Errorf("%s: no device and inode", f.Name())
	}
	return fileKey{uint64(st.Dev), st.Ino}, nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func writeHolder(f *os.File, b []byte) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt(b, 0)
	return err
}

// readHolder reads who holds a lock file, or nil when it does not say.
func readHolder(f *os.File) *Holder {
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	if err != nil {
		return nil
	}
	var h Holder
	if json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}
