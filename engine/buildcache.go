package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
)

// BuildState is the folder where arbiter, as root, keeps a folder of its
// own for each bot that arbiter check or console builds (buildState): the
// build's cache, and the verdict of its last build. Another user's are in
// their cache folder (os.UserCacheDir), under arbiter/builds. StateDirEnv
// names another folder for both.
var BuildState = "/var/lib/arbiter/builds"

// StateDirEnv is the environment variable that, when set, names the
// folder of the bots' folders of arbiter's state instead of BuildState or
// the user's cache folder.
const StateDirEnv = "ARBITER_STATE_DIR"

// BuildCacheCap is how much a bot's build cache may hold: a build that
// finds it holding more starts from an empty one, which its own build
// then fills again with only what it uses.
var BuildCacheCap int64 = 1 << 30

// StateMaxAge is how long a bot's folder of arbiter's state stays unused
// (no check or console has built the bot) before the next one that makes
// a state removes it (pruneStates).
var StateMaxAge = 30 * 24 * time.Hour

// stateDirFile, in a bot's folder of arbiter's state, names the bot's
// folder; it is written anew at each use, so its time is the state's
// last use. stateLockFile is the file a command that uses the state
// holds a lock on (heldState). useSuffix ends the name of a file in the
// states' root (useFile), one for each bots' folder, whose lock a command
// that runs a bot's files as its build left them holds, shared, for as
// long as it runs them (check's cases, console's session), and a build of
// a bot of that folder exclusively, so that no build rewrites the files
// under another's cases, whichever of the folder's bots it builds: either
// is taken only under the lock of the bot's state (heldState.use).
const (
	stateDirFile  = "dir"
	stateLockFile = "lock"
	useSuffix     = ".use"
)

// useFile is the use file (useSuffix) in root of the bots' folder real
// (realDir): named by a hash of it, as no state is (stateName).
func useFile(root, real string) string {
	sum := sha256.Sum256([]byte(real))
	return filepath.Join(root, hex.EncodeToString(sum[:8])+useSuffix)
}

// useName matches the names of the use files (useFile).
var useName = regexp.MustCompile(`^[0-9a-f]{16}\.use$`)

// buildStateRoot is the folder of the bots' folders of arbiter's state.
func buildStateRoot() (string, error) {
	if d := os.Getenv(StateDirEnv); d != "" {
		return d, nil
	}
	if os.Geteuid() == 0 {
		return BuildState, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "arbiter", "builds"), nil
}

// buildState is the folder of arbiter's state for bot name, whose folder
// is dir: named by the bot and keyed by its name and its folder's real
// path, so that no two bots, nor two folders, share one (one author's
// build cannot leave in it what another's build would take).
func buildState(name, dir string) (string, error) {
	root, err := buildStateRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(name + "\x00" + realDir(dir)))
	return filepath.Join(root, fileName(name)+"-"+hex.EncodeToString(sum[:8])), nil
}

// heldState is a bot's folder of arbiter's state, locked by this process
// until release: no other arbiter uses it, builds the bot for check or
// console, empties its cache or removes it meanwhile.
type heldState struct {
	dir  string
	lock *os.File
	// useFile is the use file of the bot's folder (useFile).
	useFile string
}

func (h *heldState) release() { h.lock.Close() }

// use takes the lock of the use file of the bot's folder (useFile), how
// (syscall.LOCK_SH or LOCK_EX), for as long as the file returned is open,
// and marks its use (its time: pruneStates); told is told once, before it
// waits, the pid of the arbiter it waits for (proc.WaitLock). h is held:
// so no other arbiter of this bot takes that lock, either way, until h's
// release; an exclusive lock waits only for the arbiters that run the
// files of the folder's bots, and one held converts to shared at once.
func (h *heldState) use(ctx context.Context, how int, told func(pid int)) (*os.File, error) {
	f, err := proc.WaitLock(ctx, h.useFile, how, &proc.LockWaiter{Waiting: told})
	if err == nil {
		now := time.Now()
		_ = os.Chtimes(h.useFile, now, now)
	}
	return f, err
}

// holdState is buildState(name, dir), made if need be, locked (waiting
// for another arbiter that holds it, whose pid told is told once first)
// and tied to dir (stateDirFile); the states unused for StateMaxAge are
// removed first.
func holdState(ctx context.Context, name, dir string, told func(pid int)) (*heldState, error) {
	state, err := buildState(name, dir)
	if err != nil {
		return nil, err
	}
	root := filepath.Dir(state)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	// Its root stays arbiter's own: only the bot's build is shown its
	// cache, and no other user reaches it. A folder the user named
	// (StateDirEnv) keeps its mode: it may be theirs for more than this.
	if os.Getenv(StateDirEnv) == "" {
		if err := os.Chmod(root, 0o700); err != nil {
			return nil, err
		}
	}
	pruneStates(root)
	lock, err := lockState(ctx, state, &proc.LockWaiter{Waiting: told})
	if err != nil {
		return nil, err
	}
	real := realDir(dir)
	h := &heldState{dir: state, lock: lock, useFile: useFile(root, real)}
	if err := atomicfile.Write(filepath.Join(state, stateDirFile), []byte(real+"\n"), 0o600); err != nil {
		h.release()
		return nil, err
	}
	return h, nil
}

// lockState makes folder state and takes the lock of its lock file,
// waiting for another holder (telling t). A pruner may have removed the
// folder meanwhile: the lock is then taken again on the folder made anew
// (proc.WaitLock takes only the file at its path).
func lockState(ctx context.Context, state string, t *proc.LockWaiter) (*os.File, error) {
	for {
		if err := os.MkdirAll(state, 0o700); err != nil {
			return nil, err
		}
		f, err := proc.WaitLock(ctx, filepath.Join(state, stateLockFile), syscall.LOCK_EX, t)
		if !errors.Is(err, fs.ErrNotExist) {
			return f, err
		}
	}
}

// buildCache is the cache folder of bot b's build in the state held,
// made if need be, "" when the build has none: one outside the sandbox
// keeps its caches where its user's programs do. A cache over
// BuildCacheCap is emptied first. A cache that cannot be made is not the
// bot's failure: warn is told, and the build runs without one.
func buildCache(b *plan.Bot, held *heldState, warn func(msg string, args ...any)) string {
	if held == nil || b.Limits == nil || b.Limits.Sandbox == nil {
		return ""
	}
	cache := filepath.Join(held.dir, "cache")
	if n := folderSize(cache); n > BuildCacheCap {
		warn("the bot's build cache holds more than its cap: emptied", "bot", b.Name, "cache", cache, "bytes", n, "cap", BuildCacheCap)
		if err := os.RemoveAll(cache); err != nil {
			warn("the bot's build cache could not be emptied", "bot", b.Name, "cache", cache, "error", err)
		}
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		warn("the bot's build runs without a cache kept between builds", "bot", b.Name, "error", err)
		return ""
	}
	return cache
}

// folderSize is how many bytes the files under dir hold (links not
// followed); 0 for none.
func folderSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// pruneStates removes the bots' folders of arbiter's state in root that
// no arbiter holds (heldState), nor runs the bot of, and that have not
// been used for StateMaxAge, so that their caches do not stay for ever,
// and the use files (useFile) unheld and unused as long. Whether the
// bot's folder is still there decides nothing: another mount namespace
// (a job's private /tmp, a container) may not see a folder in use.
func pruneStates(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		switch {
		case e.IsDir() && stateName.MatchString(e.Name()):
			pruneState(root, e.Name())
		case e.Type().IsRegular() && useName.MatchString(e.Name()):
			pruneUse(filepath.Join(root, e.Name()))
		}
	}
}

// pruneUse removes use file name (useFile) if it is unused for
// StateMaxAge and unheld: under its lock, so that an arbiter that opened
// it meanwhile finds it no longer at its path and takes the path's anew
// (proc.WaitLock). Its age is looked at first, so that the files in use
// are not locked, not even for an instant.
func pruneUse(name string) {
	if st, err := os.Stat(name); err != nil || time.Since(st.ModTime()) < StateMaxAge {
		return
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if flock(f, syscall.LOCK_EX|syscall.LOCK_NB) == nil && proc.AtPath(f, name) {
		_ = os.Remove(name)
	}
}

// stateName matches the names buildState gives the bots' folders of
// arbiter's state: nothing else in their root is ever removed (a root
// named by StateDirEnv may hold the user's own folders).
var stateName = regexp.MustCompile(`^.+-[0-9a-f]{16}$`)

// pruneState removes state name of root if it is unheld, unused for
// StateMaxAge and no arbiter runs its bot's files (stateRun): renamed
// out of the way under its lock first, so that an arbiter that waits for
// that lock finds it gone and makes it anew (lockState). Its age is
// looked at before the lock is tried, so that the states in use are not
// locked, not even for an instant (an arbiter taking one would say it
// waits), and again under the lock, under which holdState marks a use. A
// state without a lock file (of an arbiter before those files) is given
// one: holdState's lock is of that same file, so the two never hold the
// state at once.
func pruneState(root, name string) {
	state := filepath.Join(root, name)
	if !unusedState(state) {
		return
	}
	lock, err := os.OpenFile(filepath.Join(state, stateLockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer lock.Close()
	if flock(lock, syscall.LOCK_EX|syscall.LOCK_NB) != nil || !proc.AtPath(lock, filepath.Join(state, stateLockFile)) ||
		!unusedState(state) || stateRun(state) {
		return
	}
	gone := filepath.Join(root, ".gone-"+name+"-"+strconv.Itoa(os.Getpid()))
	if os.Rename(state, gone) == nil {
		_ = os.RemoveAll(gone) // what stays is tried again at the next build
	}
}

// unusedState says whether state is a folder arbiter made and used (it
// names its bot's folder: stateDirFile) and unused for StateMaxAge.
func unusedState(state string) bool {
	used, err := os.Stat(filepath.Join(state, stateDirFile))
	return err == nil && time.Since(used.ModTime()) >= StateMaxAge
}

// stateRun says whether an arbiter runs the files of state's bot, or of
// another bot of its folder (heldState.use), now.
func stateRun(state string) bool {
	real, err := os.ReadFile(filepath.Join(state, stateDirFile))
	if err != nil {
		return false
	}
	f, err := os.Open(useFile(filepath.Dir(state), strings.TrimSuffix(string(real), "\n")))
	if err != nil {
		return false
	}
	defer f.Close()
	return flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
