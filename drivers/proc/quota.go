package proc

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// FolderQuota bounds what a per-move bot writes in its working directory
// (OnceSpec.Dir) during one run: the files a game lets it keep there (an
// Auction bot's prefixed files, a Euchre bot's memory file). The game
// still checks its own rules after the run; the quota keeps a bot from
// filling the organiser's disk before that check, since the folder is on
// the organiser's own file system.
//
// Two bounds work together. Where the run is confined (a Box: the games'
// default limits, the sandbox), no file the bot writes, anywhere, may grow
// past FileSize (RLIMIT_FSIZE: a write beyond it fails with EFBIG, or
// SIGXFSZ kills a bot that does not ignore it). And while the bot runs,
// its folder is measured every quotaEvery (every entry, every regular
// file's DiskUsage: its size, or its blocks when a reservation made them
// more; a folder that cannot be read is over): over Count entries or
// Bytes bytes, the run is stopped with a files fault. The watch goes on
// through the grace after an answer, until the bot's group is killed, and
// the folder is measured once more when the run has ended, answered or
// not: over, the run has a files fault (an answer is not taken). So a bot
// overshoots the quota by at most what it writes in one quotaEvery (and
// the scheduling delay of the watch) on top of one file of FileSize. In
// the sandbox, fallocate in any mode but 0 is refused (shim.go), so a
// reservation cannot take the disk at once between two looks.
type FolderQuota struct {
	// Count is how many entries (files, folders, links) the bot may have
	// in the folder, Bytes how many bytes its regular files may hold
	// together.
	Count int
	Bytes int64
	// Given are the entries the game put in the folder for the bot, by
	// path relative to Dir, with their size: they do not count against
	// Count, and only what a given file holds beyond its size counts
	// against Bytes (Auction's game folder, its state and its log).
	Given map[string]int64
	// Rule names the quota in the game's words, as the fault says it:
	// "10 files and 10000000 bytes (files { count, bytes })".
	Rule string
}

// quotaEvery is how often a per-move bot's folder is measured while it
// runs. A look is a directory read and an lstat per entry, some 10-30 µs
// for a folder within its quota; a look every 5 ms costs a bot that
// thinks for a whole second a few milliseconds of the arbiter's CPU, and
// lets a bot writing at the page cache's speed (1-4 GB/s) go some 5-20 MB
// past its quota before it is stopped.
const quotaEvery = 5 * time.Millisecond

// quotaFileSizeFloor is the least RLIMIT_FSIZE a quota sets: runtimes
// write small files of their own as they start (the JVM's 32 KiB
// performance data in /tmp, Python's .pyc files), which a cap at a
// Euchre bot's 1 KiB memory would make fail. The watch bounds the rest.
const quotaFileSizeFloor = 1 << 20

// fileSize is the RLIMIT_FSIZE of a run under q: one byte over its Bytes,
// so that a file that reached it is over the quota and seen as such, and
// no less than quotaFileSizeFloor.
func (q *FolderQuota) fileSize() int64 {
	return max(q.Bytes+1, quotaFileSizeFloor)
}

// quotaChunk is how many entries a look reads from a directory at once:
// a bot that made a million files in one folder costs a look of at most
// Count+1 entries and one chunk, not a read (and a sort, as
// filepath.WalkDir does) of the million before the first is counted.
const quotaChunk = 256

// quotaLook is one measure of a folder under a quota.
type quotaLook struct {
	q       *FolderQuota
	entries int
	bytes   int64
	// unread is the first by name of the folders that could not be read,
	// with why ("" when all could).
	unread, unreadRel string
}

// measure looks at dir under q and says what is over it, "" when nothing
// is: "more than 10 files and folders", else the folder that could not
// be read with why, else "more than 10000000 bytes". What it says does
// not depend on the order a directory lists its entries in: a folder
// over its count has its count named whatever it holds, and of two
// folders that cannot be read the first by name is. The look stops once
// it passed the count, so a bot that made a million files costs a look
// of Count+1 entries (and one chunk), not of the million. An entry that
// vanished while it was looked at is not counted (the bot removed it); a
// folder that cannot be read (a bot of arbiter's own uid made it 0300)
// is over the quota, since what it holds cannot be counted.
func (q *FolderQuota) measure(dir string) (what string, unreadable bool) {
	l := &quotaLook{q: q}
	l.dir(dir, "")
	switch {
	case l.entries > q.Count && q.Count == 1:
		return "more than one file or folder", false
	case l.entries > q.Count:
		return fmt.Sprintf("more than %d files and folders", q.Count), false
	case l.unread != "":
		return l.unread, true
	case l.bytes > q.Bytes:
		return fmt.Sprintf("more than %d bytes", q.Bytes), false
	}
	return "", false
}

// dir counts the entries of the directory at path (rel under the root,
// "" for the root itself) and what they hold; false once over the count.
func (l *quotaLook) dir(path, rel string) bool {
	f, err := os.Open(path)
	if err != nil {
		l.cannotRead(rel, err)
		return true
	}
	defer f.Close()
	for {
		ents, err := f.ReadDir(quotaChunk)
		for _, e := range ents {
			if !l.entry(path, rel, e) {
				return false
			}
		}
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			l.cannotRead(rel, err)
			return true
		}
	}
}

func (l *quotaLook) entry(dir, rel string, e fs.DirEntry) bool {
	name := filepath.Join(rel, e.Name())
	given, isGiven := l.q.Given[name]
	if !isGiven {
		l.entries++
	}
	if l.entries > l.q.Count {
		return false
	}
	if e.Type().IsRegular() && l.bytes <= l.q.Bytes {
		if info, err := e.Info(); err == nil {
			l.bytes += max(DiskUsage(info)-given, 0)
		}
	}
	if e.IsDir() {
		return l.dir(filepath.Join(dir, e.Name()), name)
	}
	return true
}

// cannotRead notes a folder the look cannot read, rel under the root,
// when it comes first by name of those; one that vanished meanwhile is
// not counted.
func (l *quotaLook) cannotRead(rel string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	rel = cmp.Or(rel, ".")
	if l.unread != "" && l.unreadRel <= rel {
		return
	}
	why := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		why = pe.Err.Error()
	}
	l.unread, l.unreadRel = fmt.Sprintf("%s (%s)", rel, why), rel
}

// over is the files fault of dir found over q by the watch while the bot
// ran, nil when it is within q.
func (q *FolderQuota) over(dir string) *Fault {
	what, unreadable := q.measure(dir)
	switch {
	case what == "":
		return nil
	case unreadable:
		return faultf(drivers.FaultFiles, "%s, so what it holds cannot be counted against its limit of %s: stopped", unreadFolder("made", what), q.Rule)
	}
	return faultf(drivers.FaultFiles, "wrote %s in its folder while it ran, over its limit of %s: stopped", what, q.Rule)
}

// left is the files fault of dir found over q once the run has ended
// (all its processes gone), nil when it is within q.
func (q *FolderQuota) left(dir string) *Fault {
	what, unreadable := q.measure(dir)
	switch {
	case what == "":
		return nil
	case unreadable:
		return faultf(drivers.FaultFiles, "%s, so what it holds cannot be counted against its limit of %s", unreadFolder("left", what), q.Rule)
	}
	return faultf(drivers.FaultFiles, "left %s in its folder when its run ended, over its limit of %s", what, q.Rule)
}

// unreadFolder says what the bot did (made or left) to have a folder
// arbiter cannot read, what (measure's "rel (why)"): a folder in its
// folder, or its folder itself (rel "."), whose permissions it took away
// where arbiter is not root.
func unreadFolder(did, what string) string {
	if why, ok := strings.CutPrefix(what, ". ("); ok {
		return "took its own folder's permissions away: arbiter cannot read it (" + why
	}
	return fmt.Sprintf("%s a folder in its folder that arbiter cannot read, %s", did, what)
}

// quotaWatch measures a run's folder every quotaEvery and hands the first
// fault to report, once, until it is stopped.
type quotaWatch struct {
	q       *FolderQuota
	dir     string
	report  func(*Fault)
	timer   *time.Timer
	mu      sync.Mutex
	stopped bool
}

// watchQuota starts watching dir under q (nil: no quota, no watch).
// report runs on the watch's goroutine.
func watchQuota(q *FolderQuota, dir string, report func(*Fault)) *quotaWatch {
	if q == nil {
		return nil
	}
	w := &quotaWatch{q: q, dir: dir, report: report}
	// Under the lock: on a busy machine the first look may come before
	// AfterFunc has returned, and it must find the timer set.
	w.mu.Lock()
	w.timer = time.AfterFunc(quotaEvery, w.look)
	w.mu.Unlock()
	return w
}

func (w *quotaWatch) look() {
	f := w.q.over(w.dir)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stopped:
	case f == nil:
		w.timer.Reset(quotaEvery)
	default:
		w.stopped = true
		w.report(f)
	}
}

// stop ends the watch: once it returns, report is not called.
func (w *quotaWatch) stop() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.stopped = true
	w.timer.Stop()
	w.mu.Unlock()
}

// quotaAllocSlack is how far the blocks allocated to a file may go past
// its size before DiskUsage counts them: a file's last block is allocated
// whole, and a large one has blocks of the file system's own (ext4's
// extent tree, ext2's indirect blocks) counted in it too.
const quotaAllocSlack = 64 << 10

// DiskUsage is what a regular file takes on the disk as a folder quota
// counts it: its size, or the blocks allocated to it when they are more
// than quotaAllocSlack past that. A reservation by fallocate(2) with
// FALLOC_FL_KEEP_SIZE leaves the size at 0 whatever it reserves (and
// RLIMIT_FSIZE does not apply to it); a sparse file counts by its size.
func DiskUsage(info fs.FileInfo) int64 {
	size := info.Size()
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return max(size, st.Blocks*512-quotaAllocSlack)
	}
	return size
}
