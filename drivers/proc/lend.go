package proc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"golang.org/x/sys/unix"
)

// LentDir is where arbiter, as root, records each bot folder it lends to
// the sandbox's uid for a build (lendTree), before it changes the first
// owner: one file per lending, removed once the folder is given back. An
// arbiter killed during a build (SIGKILL, a crash, the machine's power)
// cannot give it back itself; the record lets the next arbiter that runs
// or builds, whatever its results directory, give it back
// (GiveBackAbandoned). It is not in the bot's folder (that would change
// its fingerprint) nor in a results directory (another run may not be
// given the same one). The locks of HoldFolder are kept there too.
var LentDir = "/var/lib/arbiter/lent"

// lentRecord is one lending, as LentDir keeps it. Dir is the folder's
// real path, UID and GID its owner before the build, Dev and Ino which
// folder it is (a folder put at its path since is not given back); Owners are the
// lent entries (by path relative to Dir) whose owner was another; Pid,
// Start (the process's start time in clock ticks after boot) and Boot
// (the kernel's boot id) name the lending arbiter, so that a folder is
// given back only once that process is gone.
type lentRecord struct {
	Dir    string      `json:"dir"`
	UID    int         `json:"uid"`
	GID    int         `json:"gid"`
	Dev    uint64      `json:"dev,omitempty"`
	Ino    uint64      `json:"ino,omitempty"`
	Owners []lentOwner `json:"owners,omitempty"`
	Pid    int         `json:"pid"`
	Start  uint64      `json:"start"`
	Boot   string      `json:"boot"`
}

// lentOwner is the owner an entry of a lent folder had before.
type lentOwner struct {
	Path string `json:"path"`
	UID  int    `json:"uid"`
	GID  int    `json:"gid"`
}

// lending is a folder lent for a build: its record and the file that
// keeps it.
type lending struct {
	rec  lentRecord
	file string
}

var lendings atomic.Int64 // numbers this process's records

// lendTree gives the folders and files under dir to the sandbox's uid
// and gid for a build, but a file with other names than this one (a hard
// link to a file elsewhere is not the tree's to lend). What it lends is
// recorded in LentDir first, synced to disk: a lending is never left
// without its record, so an error records nothing and lends nothing. A
// folder that cannot be opened is the bot's fault (its folder, or a link
// on its way that a user could swap); any other error is arbiter's own
// (LentDir not writable, say). The folder is walked and lent by descriptor (openFolder, walkFolder), so
// nothing outside it is lent, whatever changes on its way meanwhile.
func lendTree(dir string, uid, gid int) (*lending, error) {
	fd, real, err := openFolder(dir)
	if err != nil {
		return nil, faultf(drivers.FaultStart, "cannot lend the bot's folder to its build: %v", err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	l := &lending{rec: lentRecord{Dir: real, UID: int(st.Uid), GID: int(st.Gid), Dev: uint64(st.Dev), Ino: st.Ino, Pid: os.Getpid()}}
	if l.rec.Start, err = processStart(l.rec.Pid); err != nil {
		return nil, err
	}
	l.rec.Boot = bootID()
	lendable := func(e *treeEntry) bool {
		return (int(e.st.Uid) != uid || int(e.st.Gid) != gid) && (e.isDir() || e.st.Nlink == 1)
	}
	was := map[string]lentOwner{}
	walkFolder(fd, real, func(e *treeEntry) {
		if lendable(e) && (int(e.st.Uid) != l.rec.UID || int(e.st.Gid) != l.rec.GID) {
			o := lentOwner{Path: e.rel, UID: int(e.st.Uid), GID: int(e.st.Gid)}
			l.rec.Owners = append(l.rec.Owners, o)
			was[o.Path] = o
		}
	})
	if l.file, err = writeLentRecord(l.rec); err != nil {
		return nil, fmt.Errorf("recording the lending of %s to uid %d in %s: %w", dir, uid, LentDir, err)
	}
	// Lent: only what the record gives back to the owner it has now (an
	// entry made or changed since the first walk may not be).
	walkFolder(fd, real, func(e *treeEntry) {
		o, ok := was[e.rel]
		owner := ok && int(e.st.Uid) == o.UID && int(e.st.Gid) == o.GID ||
			!ok && int(e.st.Uid) == l.rec.UID && int(e.st.Gid) == l.rec.GID
		if lendable(e) && owner {
			_ = e.chown(uid, gid)
		}
	})
	return l, nil
}

// writeLentRecord writes rec into LentDir and syncs it there (the file,
// then the folder), returning the file's path.
func writeLentRecord(rec lentRecord) (string, error) {
	if err := os.MkdirAll(LentDir, 0o700); err != nil {
		return "", err
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	name := fmt.Sprintf("%d-%d-%d.json", rec.Pid, rec.Start, lendings.Add(1))
	tmp, err := os.CreateTemp(LentDir, ".new-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	file := filepath.Join(LentDir, name)
	if err := os.Rename(tmp.Name(), file); err != nil {
		return "", err
	}
	return file, syncDir(LentDir)
}

// syncDir syncs a folder, so that what was renamed into it stays.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// giveBack gives the lent folder back, then removes its record. Every
// process of the build must be gone: the walk trusts the tree to hold
// still. A folder that cannot be given back (a link swapped in on its
// way) keeps its record, for the next arbiter once this one has ended
// (GiveBackAbandoned).
func (l *lending) giveBack() error {
	if l == nil {
		return nil
	}
	if err := giveBackTree(l.rec); err != nil {
		return fmt.Errorf("giving back %s: %w (its record %s is kept)", l.rec.Dir, err, l.file)
	}
	return os.Remove(l.file)
}

// giveBackTree gives what the sandbox's uid owns under rec.Dir back: an
// entry that was lent to the owner it had, anything else (what the build
// made) to the folder's owner, which the bot itself only reads. Nothing
// is given to the sandbox's uid (an entry that was its own is given to
// the folder's owner, as what a build made is). The folder is walked and
// given back by descriptor (openFolder, walkFolder), and only when it is
// the lent one (the recorded device and inode; a record without them,
// from an older arbiter: still owned by the sandbox's uid), so a record
// names nothing outside it, whatever changed on its way meanwhile. The
// folder itself is given back last, so that a give-back cut short leaves
// it still lent, for GiveBackAbandoned to finish.
func giveBackTree(rec lentRecord) error {
	fd, _, err := openFolder(rec.Dir)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	switch err := unix.Fstat(fd, &st); {
	case err != nil:
		return err
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return errors.New("no longer a folder")
	case rec.Ino != 0 && (uint64(st.Dev) != rec.Dev || st.Ino != rec.Ino):
		return errors.New("no longer the lent folder (another folder is at its path)")
	case int(st.Uid) != SandboxUID:
		return fmt.Errorf("the folder is no longer lent (owned by uid %d)", st.Uid)
	}
	was := map[string]lentOwner{}
	for _, o := range rec.Owners {
		if filepath.IsLocal(o.Path) && o.UID != SandboxUID && o.GID != SandboxUID {
			was[filepath.Clean(o.Path)] = o
		}
	}
	names := namesInside(fd, rec.Dir)
	walkFolder(fd, rec.Dir, func(e *treeEntry) {
		// A file of more names than the folder holds has one outside
		// it (a hard link its author made), which it is not this walk's
		// to give to anyone; one whose names are all in it (a link a
		// build made) is the folder's.
		if int(e.st.Uid) != SandboxUID || !e.isDir() && e.st.Nlink != 1 && names[fileID{uint64(e.st.Dev), e.st.Ino}] != uint64(e.st.Nlink) {
			return
		}
		uid, gid := rec.UID, rec.GID
		if o, ok := was[e.rel]; ok {
			uid, gid = o.UID, o.GID
		}
		if uid != SandboxUID && (int(e.st.Uid) != uid || int(e.st.Gid) != gid) {
			_ = e.chown(uid, gid)
		}
	})
	return nil
}

// fileID names a file on the machine: its device and inode.
type fileID struct{ dev, ino uint64 }

// namesInside counts, of each file of more than one name under the
// folder open as fd, the names the folder holds.
func namesInside(fd int, real string) map[fileID]uint64 {
	names := map[fileID]uint64{}
	walkFolder(fd, real, func(e *treeEntry) {
		if !e.isDir() && e.st.Nlink > 1 {
			names[fileID{uint64(e.st.Dev), e.st.Ino}]++
		}
	})
	return names
}

// processStart is process pid's start time, in clock ticks after boot
// (/proc/PID/stat's 22nd field): with the pid, it names one process.
func processStart(pid int) (uint64, error) {
	start, _, err := processStat(pid)
	return start, err
}

// processStat is process pid's start time and whether it has ended (a
// zombie, not yet waited for, has).
func processStat(pid int) (start uint64, ended bool, err error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false, err
	}
	// The command's name, in parentheses, may hold spaces and ")".
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0, false, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 {
		return 0, false, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	start, err = strconv.ParseUint(fields[19], 10, 64)
	return start, fields[0] == "Z" || fields[0] == "X", err
}

// bootID is the kernel's boot id: a pid and a start time name a process
// of this boot only.
func bootID() string {
	data, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(data))
}

// lenderGone says whether the arbiter that made rec has ended.
func lenderGone(rec lentRecord) bool {
	if rec.Boot != bootID() {
		return true
	}
	start, ended, err := processStat(rec.Pid)
	return errors.Is(err, fs.ErrNotExist) || err == nil && (ended || start != rec.Start)
}

// Abandoned is a folder an arbiter lent for a build and did not give
// back, because it ended during the build: GiveBackAbandoned gave it
// back (Err nil), or could not (Err says why; the record is removed all
// the same when the folder is gone or no longer lent).
type Abandoned struct {
	Dir string
	Pid int // the arbiter that lent it
	Err error
}

// GiveBackAbandoned gives back the folders of LentDir's records whose
// arbiter has ended, and removes their records; a record of a live
// arbiter is its own, building now. Every command that builds calls it
// before it lends a folder. Only root lends, so only root gives back.
// Records are read in the order of their names; one arbiter at a time
// gives back (a lock in LentDir).
func GiveBackAbandoned() []Abandoned {
	if os.Geteuid() != 0 {
		return nil
	}
	names, err := filepath.Glob(filepath.Join(LentDir, "*.json"))
	if err != nil || len(names) == 0 {
		return nil
	}
	lock, err := os.OpenFile(filepath.Join(LentDir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return []Abandoned{{Dir: LentDir, Err: err}}
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return []Abandoned{{Dir: LentDir, Err: err}}
	}
	var out []Abandoned
	for _, name := range names {
		if a, ok := giveBackRecord(name); ok {
			out = append(out, a)
		}
	}
	return out
}

// giveBackRecord gives back the folder of the record in file if its
// arbiter has ended; ok says it was such a record.
func giveBackRecord(file string) (a Abandoned, ok bool) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false // given back by another arbiter meanwhile
	}
	var rec lentRecord
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err == nil && (!filepath.IsAbs(rec.Dir) || filepath.Clean(rec.Dir) != rec.Dir || rec.Pid <= 0) {
		err = errors.New("it names no folder by its absolute path, or no arbiter")
	}
	if err != nil {
		// Not a record arbiter wrote: left for the administrator to read.
		return Abandoned{Dir: file, Err: fmt.Errorf("unreadable record %s: %w", file, err)}, true
	}
	if !lenderGone(rec) {
		return a, false
	}
	a = Abandoned{Dir: rec.Dir, Pid: rec.Pid}
	if err := giveBackTree(rec); err != nil {
		a.Err = fmt.Errorf("not given back: %w", err)
	}
	_ = os.Remove(file)
	return a, true
}

// HoldFolder waits until no other arbiter builds in dir, in a folder
// that holds it or in one inside it, and marks it as this one's until
// release: two arbiters on one machine (two shards of a plan, two
// tournaments sharing a bot, bots in /a and /a/b) would otherwise build
// in it at once, and the first to end would give the folder back under
// the other's build. The marks are flocks on files in LentDir named for
// a folder's device and inode: a shared one for each folder that holds
// dir, from / down, and an exclusive one for dir, so that builds of two
// folders side by side in one go on together, and a build of a folder
// and one of a folder inside it do not. The kernel releases them when
// their arbiter ends, however it ends. A lock file is removed by the last
// that releases it (holding it exclusively), before it unlocks, and one
// taken is held only while it is still at its path: whoever took the
// removed file takes the path's anew. So lock files do not pile up: one
// is left only by an arbiter killed while it held it, and the next to
// release it removes it (of two letting go of a shared one at once, the
// kernel grants the second's exclusive lock), or, for a folder no build
// takes again, sweepLocks. A build of a folder waits while builds inside it hold
// their shared locks, one after another without a gap included: nothing
// queues it ahead of them. waiting is told, once, before it waits, the pid that holds
// what it waits for, as the kernel lists its locks (/proc/locks; 0 when
// the kernel shows none within a second: the holder in another pid
// namespace). Only root lends a folder, so only root marks one (release
// does nothing otherwise). An error is arbiter's own (LentDir cannot be
// written), or ctx's.
func HoldFolder(ctx context.Context, dir string, waiting func(pid int)) (release func(), err error) {
	if os.Geteuid() != 0 {
		return func() {}, nil
	}
	real, err := filepath.Abs(dir)
	if err == nil {
		real, err = filepath.EvalSymlinks(real)
	}
	if err != nil {
		return func() {}, nil // the build says what is wrong with its folder
	}
	if err := os.MkdirAll(LentDir, 0o700); err != nil {
		return nil, err
	}
	sweepLocks(LentDir, time.Now())
	var held []*folderLock
	release = func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].release()
		}
	}
	t := &LockWaiter{Waiting: waiting}
	for _, l := range folderLocks(real) {
		f, err := lockFolder(ctx, l.name, l.how, t)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, f)
	}
	return release, nil
}

// wantedLock names a lock file of HoldFolder and how it is taken.
type wantedLock struct {
	name string
	how  int
}

// folderLocks are the locks HoldFolder takes for real (absolute, without
// links), in the order it takes them: a shared one for each folder that
// holds it, from / down, and an exclusive one for real. A folder seen
// twice on the way (a bind mount of a folder inside itself) is locked
// once, exclusively if real is that folder: two flocks of one process on
// one file through two descriptors would wait for each other.
func folderLocks(real string) []wantedLock {
	var out []wantedLock
	at := map[string]int{}
	for _, d := range foldersDownTo(real) {
		var st unix.Stat_t
		if err := unix.Stat(d, &st); err != nil {
			continue // gone meanwhile: the build says so, of its own
		}
		how := unix.LOCK_SH
		if d == real {
			how = unix.LOCK_EX
		}
		name := filepath.Join(LentDir, fmt.Sprintf("%d-%d.lock", st.Dev, st.Ino))
		if i, seen := at[name]; seen {
			if how == unix.LOCK_EX {
				out[i].how = how
			}
			continue
		}
		at[name] = len(out)
		out = append(out, wantedLock{name: name, how: how})
	}
	return out
}

// LockWaiter tells Waiting, once, whom a wait for a lock (WaitLock)
// waits for: HoldFolder's one for all the folders it locks, arbiter's
// build state one for each of its locks (engine.holdState). A nil
// Waiting is told nothing.
type LockWaiter struct {
	Waiting func(pid int)
	told    bool
}

func (t *LockWaiter) tell(pid int) {
	if !t.told {
		t.told = true
		if t.Waiting != nil {
			t.Waiting(pid)
		}
	}
}

// foldersDownTo are the folders that hold dir (absolute, clean), from /
// down, and dir last.
func foldersDownTo(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// folderLock is a flock HoldFolder holds on the file name.
type folderLock struct {
	f    *os.File
	name string
}

// holdTellAfter is how many looks of lockFolder go by, finding the lock
// held but not its holder among the kernel's locks, before it says it
// waits without naming one.
const holdTellAfter = 20

// lockFolder takes the flock how (shared or exclusive) on the lock file
// name (WaitLock).
func lockFolder(ctx context.Context, name string, how int, t *LockWaiter) (*folderLock, error) {
	f, err := WaitLock(ctx, name, how, t)
	if err != nil {
		return nil, err
	}
	return &folderLock{f: f, name: name}, nil
}

// WaitLock takes the flock how (unix.LOCK_SH or LOCK_EX) on the lock
// file name, made if it is not there, waiting until it is free: telling t
// (which may be nil) the holder's pid, or 0 once holdTellAfter looks did
// not find it, and looking again every 50 ms (the kernel's locks are read
// only until t has told). The file it returns, which holds the lock until
// closed, is the one at name: one removed (or moved) by its holder
// meanwhile is left for the one at its path. An error is the file's (not
// there, when its folder is gone), the lock's, or ctx's.
func WaitLock(ctx context.Context, name string, how int, t *LockWaiter) (*os.File, error) {
	if t == nil {
		t = &LockWaiter{}
	}
	for looks := 1; ; looks++ {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		err = unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		switch {
		case err == nil && AtPath(f, name):
			return f, nil
		case err == nil:
			f.Close() // removed by its last holder meanwhile: take the path's
			continue
		case !errors.Is(err, unix.EWOULDBLOCK):
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		if !t.told {
			if pid := lockHolder(f); pid > 0 || looks >= holdTellAfter {
				t.tell(pid)
			}
		}
		f.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// staleLockAge is how old a lock file of HoldFolder must be for
// sweepLocks to remove it when no one holds it.
const staleLockAge = time.Hour

// swept are the lock folders sweepLocks has swept in this process.
var swept struct {
	sync.Mutex
	dirs map[string]bool
}

// lockFileName matches the names of HoldFolder's lock files.
var lockFileName = regexp.MustCompile(`^[0-9]+-[0-9]+\.lock$`)

// sweepLocks removes, once a process for each lock folder, the lock files
// of HoldFolder that no one holds and that are older than staleLockAge.
// Release removes a lock file left by an arbiter killed while it held it
// only when a build takes that folder's lock again; the lock of a folder
// removed since (a test's, a bot's old checkout) would stay for good.
// Removing one is safe as release's own removal is: it is held
// exclusively while it is removed, and whoever opened it meanwhile finds
// it no longer at its path (AtPath) and takes the path's anew. The age
// keeps the sweep off the locks of builds going on, which would otherwise
// find the sweep holding one and say they wait for it.
func sweepLocks(dir string, now time.Time) {
	swept.Lock()
	if swept.dirs[dir] {
		swept.Unlock()
		return
	}
	if swept.dirs == nil {
		swept.dirs = map[string]bool{}
	}
	swept.dirs[dir] = true
	swept.Unlock()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if !lockFileName.MatchString(e.Name()) || err != nil || !info.Mode().IsRegular() || now.Sub(info.ModTime()) < staleLockAge {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil && AtPath(f, name) {
			_ = os.Remove(name)
		}
		f.Close()
	}
}

// AtPath reports whether f is still the file at name.
func AtPath(f *os.File, name string) bool {
	var held, now unix.Stat_t
	return unix.Fstat(int(f.Fd()), &held) == nil && unix.Stat(name, &now) == nil && held.Dev == now.Dev && held.Ino == now.Ino
}

// lockHolder is the least pid of the processes /proc/locks lists as
// holding a flock on the file f, 0 when it lists none (the holder let go
// meanwhile, or is in a pid namespace this one does not see).
func lockHolder(f *os.File) int {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return 0
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	file := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	least := 0
	for _, line := range strings.Split(string(data), "\n") {
		// "1: FLOCK  ADVISORY  WRITE 1234 fe:00:9773059 0 EOF"; a
		// request that waits has "->" after its number.
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != file {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 && (least == 0 || pid < least) {
			least = pid
		}
	}
	return least
}

// release removes the lock file when no other holds it (it is taken
// exclusively: a shared lock another holds too is left to the last), then
// lets it go. Whoever waits for it takes the removed file next, finds it
// no longer at its path, and takes the path's anew.
func (l *folderLock) release() {
	if unix.Flock(int(l.f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		_ = os.Remove(l.name)
	}
	l.f.Close()
}
