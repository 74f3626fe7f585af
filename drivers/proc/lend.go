package proc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

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
// given the same one).
var LentDir = "/var/lib/arbiter/lent"

// lentRecord is one lending, as LentDir keeps it. Dir is the folder's
// real path, UID and GID its owner before the build; Owners are the
// lent entries (by path relative to Dir) whose owner was another; Pid,
// Start (the process's start time in clock ticks after boot) and Boot
// (the kernel's boot id) name the lending arbiter, so that a folder is
// given back only once that process is gone.
type lentRecord struct {
	Dir    string      `json:"dir"`
	UID    int         `json:"uid"`
	GID    int         `json:"gid"`
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
// without its record, so an error records nothing and lends nothing.
func lendTree(dir string, uid, gid int) (*lending, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	sys := st.Sys().(*syscall.Stat_t)
	l := &lending{rec: lentRecord{Dir: dir, UID: int(sys.Uid), GID: int(sys.Gid), Pid: os.Getpid()}}
	if l.rec.Dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, err
	}
	if l.rec.Start, err = processStart(l.rec.Pid); err != nil {
		return nil, err
	}
	l.rec.Boot = bootID()
	var lend []string
	walkTree(dir, func(path string, d fs.DirEntry, st *syscall.Stat_t) {
		if (int(st.Uid) == uid && int(st.Gid) == gid) || (!d.IsDir() && st.Nlink != 1) {
			return
		}
		lend = append(lend, path)
		if int(st.Uid) != l.rec.UID || int(st.Gid) != l.rec.GID {
			rel, _ := filepath.Rel(dir, path)
			l.rec.Owners = append(l.rec.Owners, lentOwner{Path: rel, UID: int(st.Uid), GID: int(st.Gid)})
		}
	})
	if l.file, err = writeLentRecord(l.rec); err != nil {
		return nil, fmt.Errorf("recording the lending of %s to uid %d in %s: %w", dir, uid, LentDir, err)
	}
	for _, path := range lend {
		_ = os.Lchown(path, uid, gid)
	}
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
// still.
func (l *lending) giveBack() {
	if l == nil {
		return
	}
	giveBackTree(l.rec)
	_ = os.Remove(l.file)
}

// giveBackTree gives what the sandbox's uid owns under rec.Dir back: an
// entry that was lent to the owner it had, anything else (what the build
// made) to the folder's owner, which the bot itself only reads. Nothing
// is given to the sandbox's uid (an entry that was its own is given to
// the folder's owner, as what a build made is), and only entries found
// in the folder are given: a record names nothing outside it. The folder
// itself is given back last, so that a give-back cut short leaves it
// still lent, for GiveBackAbandoned to finish.
func giveBackTree(rec lentRecord) {
	was := map[string]lentOwner{}
	for _, o := range rec.Owners {
		if filepath.IsLocal(o.Path) && o.UID != SandboxUID && o.GID != SandboxUID {
			was[filepath.Clean(o.Path)] = o
		}
	}
	type chown struct {
		path     string
		uid, gid int
	}
	var todo []chown
	walkTree(rec.Dir, func(path string, d fs.DirEntry, st *syscall.Stat_t) {
		if int(st.Uid) != SandboxUID {
			return
		}
		uid, gid := rec.UID, rec.GID
		if rel, err := filepath.Rel(rec.Dir, path); err == nil {
			if o, ok := was[rel]; ok {
				uid, gid = o.UID, o.GID
			}
		}
		if uid != SandboxUID && (int(st.Uid) != uid || int(st.Gid) != gid) {
			todo = append(todo, chown{path, uid, gid})
		}
	})
	for _, c := range slices.Backward(todo) {
		_ = os.Lchown(c.path, c.uid, c.gid)
	}
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
	switch st, err := os.Lstat(rec.Dir); {
	case err != nil:
		a.Err = fmt.Errorf("not given back: %w", err)
	case !st.IsDir():
		a.Err = errors.New("not given back: no longer a folder")
	case int(st.Sys().(*syscall.Stat_t).Uid) != SandboxUID:
		a.Err = fmt.Errorf("not given back: the folder is no longer lent (owned by uid %d)", st.Sys().(*syscall.Stat_t).Uid)
	default:
		giveBackTree(rec)
	}
	_ = os.Remove(file)
	return a, true
}
