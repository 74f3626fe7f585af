package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/internal/shell"
)

// LockFile is the lock of a results directory. Whoever writes into the
// directory (run, replay) holds an exclusive flock(2) on it for the whole
// time; the file says who holds it. The kernel releases the lock when its
// holder exits, however it exits, so the file a killed run leaves behind
// does not block the next one: its content is only information. A run's
// worker processes share its lock (they inherit the open file), so a run
// killed while its workers still abandon their matches holds the
// directory until they have; the next run waits for them (lockOrWait).
// It is the first file written into a results directory, so a directory
// that holds it is arbiter's, never a bot's (fingerprint.LockFile).
const LockFile = fingerprint.LockFile

// Holder says who holds a results directory's lock.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Since   time.Time `json:"since"`
	Command []string  `json:"command"`
}

// String names the holder with its command line quoted for the shell
// (shell.Line), so that each argument reads as the one it was: an -out
// with a space or a quote in it is not taken for several.
func (h *Holder) String() string {
	return fmt.Sprintf("process %d on %s since %s (%s)", h.PID, h.Host,
		h.Since.Format("2006-01-02 15:04:05 MST"), shell.Line(h.Command...))
}

// LockedError is the refusal of a results directory that another process
// holds.
type LockedError struct {
	Dir string
	// Holder is nil when the holder has not said who it is yet (it has
	// just taken the lock) or its lock file cannot be read.
	Holder *Holder
	// Orphaned says that the holder is gone but the worker processes it
	// started (which share its lock) have not ended yet.
	Orphaned bool
	// Workers are the processes found holding the lock file open when
	// Orphaned (lockHolders); empty when /proc did not tell.
	Workers []int
}

// Error names the directory cleaned (as -out gave it, without a "./" or
// a trailing slash to read past), quoted as the holder's command line is
// (shell.Word): a space, a quote or a line break in it does not blur where
// it ends.
func (e *LockedError) Error() string {
	dir := shell.Word(filepath.Clean(e.Dir))
	if e.Orphaned {
		return fmt.Sprintf("%s is still in use by the worker processes of a run that ended (%s): "+
			"they end once their matches are abandoned, and did not within %s. %s, then run again",
			dir, e.Holder, orphanWait, stopWorkers(e.Holder, e.Workers))
	}
	who := "another process (which has not written its details yet)"
	if e.Holder != nil {
		who = e.Holder.String()
	}
	return fmt.Sprintf("%s is in use by %s; only one run writes into a results directory at a time. "+
		"Wait for it to end (or stop it), or use another -out directory", dir, who)
}

// stopWorkers says how to stop the worker processes of the run h that
// ended, which still hold its lock: the processes found (workers, from
// lockHolders), or, when /proc did not tell, how to find them by the
// name they run under: h's own executable's, which need not be
// "arbiter".
func stopWorkers(h *Holder, workers []int) string {
	if len(workers) == 0 {
		name := "arbiter"
		if h != nil && len(h.Command) > 0 {
			name = filepath.Base(h.Command[0])
		}
		return "Find them with \"pgrep -f '" + name + " worker'\" and stop them"
	}
	pids := make([]string, len(workers))
	for i, pid := range workers {
		pids[i] = strconv.Itoa(pid)
	}
	return fmt.Sprintf("They are process(es) %s: stop them (kill %s)", strings.Join(pids, ", "), strings.Join(pids, " "))
}

// lockHolders lists the processes, but this one, that have the file key
// open: the workers that share the lock of a run that died. It reads
// /proc, so it finds the processes this user may look into; it is only
// read when a directory is refused.
func lockHolders(key fileKey) []int {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			fi, err := os.Stat(filepath.Join("/proc", p.Name(), "fd", fd.Name()))
			if st, ok := statOf(fi, err); ok && uint64(st.Dev) == key.dev && st.Ino == key.ino {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

func statOf(fi os.FileInfo, err error) (*syscall.Stat_t, bool) {
	if err != nil {
		return nil, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return st, ok
}

// orphanWait is how long LockDir waits for the worker processes of a run
// that died to end and give its lock up.
var orphanWait = 10 * time.Second

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
	keys map[fileKey]*os.File
}{keys: map[fileKey]*os.File{}}

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
		return nil, OwnerHint(err)
	}
	key, err := keyOf(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := lockOrWait(f); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			le := &LockedError{Dir: dir, Holder: holder, Orphaned: holder != nil && !holder.alive()}
			if le.Orphaned {
				le.Workers = lockHolders(key)
			}
			return nil, le
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
	heldHere.keys[key] = f
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
	if heldLockOf(dir) != nil {
		return func() {}, nil
	}
	l, err := LockDir(dir)
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

// heldLockOf is the lock file of results directory dir when this process
// holds it, or nil.
func heldLockOf(dir string) *os.File {
	fi, err := os.Stat(filepath.Join(dir, LockFile))
	if err != nil {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	heldHere.Lock()
	defer heldHere.Unlock()
	return heldHere.keys[fileKey{uint64(st.Dev), st.Ino}]
}

// lockOrWait takes f's lock, or fails with EWOULDBLOCK when another
// process holds it; unless that holder is a run that died on this
// machine, whose worker processes share its lock until they have
// abandoned their matches: then it waits for them, up to orphanWait. A
// holder that has not written its details is waited for briefly first
// (waitNamed).
func lockOrWait(f *os.File) error {
	err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return err
	}
	h, err := waitNamed(f)
	if h == nil || h.alive() {
		return err
	}

	for deadline := time.Now().Add(orphanWait); time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
	}
	return err
}

// unnamedWait is how long lockOrWait retries a lock whose holder has
// not written its details.
var unnamedWait = time.Second

// waitNamed is the holder of f's lock, which f could not take, once it
// has written its details. A holder without them is either a run that
// has just taken the lock and is writing them, or another process's
// probe (lockedBy: the merge asking whether a shard still runs), which
// holds a shared lock for an instant: so it retries the lock, backing off
// from 1ms, up to unnamedWait, until it takes it (nil holder, nil error)
// or the holder names itself; then the holder and EWOULDBLOCK.
func waitNamed(f *os.File) (*Holder, error) {
	h, err := readHolder(f), error(syscall.EWOULDBLOCK)
	for wait, waited := time.Millisecond, time.Duration(0); h == nil && waited < unnamedWait; wait = min(2*wait, 100*time.Millisecond) {
		time.Sleep(wait)
		waited += wait
		if err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, err
		}
		h = readHolder(f)
	}
	return h, err
}

// alive says whether the holder may still run: it is on another machine
// (a shared file system), or its process exists.
func (h *Holder) alive() bool {
	if host, _ := os.Hostname(); h.Host != host {
		return true
	}
	err := syscall.Kill(h.PID, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
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
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err != nil {
		return nil
	}
	var h Holder
	if json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// lockedBy says whether a process holds the lock of results directory
// dir now (a run writing into it, such as a shard still playing), and
// who, as far as its lock file tells (nil when it does not); with a
// holder that has ended on this machine, the processes it left that
// hold the lock (its workers, lockHolders). It asks with a shared lock
// that it gives up at once, and holds none.
func lockedBy(dir string) (locked bool, h *Holder, left []int) {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return false, nil, nil
	}
	defer f.Close() // gives the shared lock up, when taken
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil, nil
	}
	if h = readHolder(f); h != nil && !h.alive() {
		if key, err := keyOf(f); err == nil {
			left = lockHolders(key)
		}
	}
	return true, h, left
}
