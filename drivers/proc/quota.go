package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
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
// file's size): over Count entries or Bytes bytes, the run is stopped
// with a files fault. So a bot overshoots the quota by at most what it
// writes in one quotaEvery (and the scheduling delay of the watch) on top
// of one file of FileSize, and a run that ends between two looks is
// measured once more when it ended without an answer.
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

// over measures dir and returns the files fault of a folder over q, nil
// when it is within it (or cannot be read: the game's own check after
// the run says what is wrong). The walk stops at the first bound passed,
// so a bot that made a million files costs one look of Count+1 entries.
func (q *FolderQuota) over(dir string) *Fault {
	var entries int
	var bytes int64
	var what string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		given, isGiven := q.Given[rel]
		if !isGiven {
			entries++
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				bytes += max(info.Size()-given, 0)
			}
		}
		switch {
		case entries > q.Count:
			what = fmt.Sprintf("more than %d files and folders", q.Count)
			if q.Count == 1 {
				what = "more than one file or folder"
			}
		case bytes > q.Bytes:
			what = fmt.Sprintf("more than %d bytes", q.Bytes)
		default:
			return nil
		}
		return fs.SkipAll
	})
	if what == "" || err != nil && !errors.Is(err, fs.SkipAll) {
		return nil
	}
	return faultf(drivers.FaultFiles, "wrote %s in its folder while it ran, over its limit of %s: stopped", what, q.Rule)
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
	if dir == "" {
		dir = "."
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
