package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-contests/arbiter/engine/plan"
)

// BuildState is the folder where arbiter, as root, keeps a folder of its
// own for each bot it builds in the sandbox (buildState): the build's
// cache, and the verdict of the builds that arbiter check makes. Another
// user's are in their cache folder (os.UserCacheDir), under
// arbiter/builds.
var BuildState = "/var/lib/arbiter/builds"

// BuildCacheCap is how much a bot's build cache may hold: a build that
// finds it holding more starts from an empty one, which its own build
// then fills again with only what it uses.
var BuildCacheCap int64 = 1 << 30

// stateDirFile, in a bot's folder of arbiter's state, names the bot's
// folder: once that is gone, so is the state (pruneStates).
const stateDirFile = "dir"

// buildStateRoot is the folder of the bots' folders of arbiter's state.
func buildStateRoot() (string, error) {
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

// ownState is buildState(name, dir), made if need be, and tied to dir
// (stateDirFile); the states of bots whose folder is gone are removed
// first.
func ownState(name, dir string) (string, error) {
	state, err := buildState(name, dir)
	if err != nil {
		return "", err
	}
	pruneStates(filepath.Dir(state))
	if err := os.MkdirAll(state, 0o700); err != nil {
		return "", err
	}
	// Its root stays arbiter's own: only the bot's build is shown its
	// cache, and no other user reaches it.
	if err := os.Chmod(filepath.Dir(state), 0o700); err != nil {
		return "", err
	}
	return state, os.WriteFile(filepath.Join(state, stateDirFile), []byte(realDir(dir)+"\n"), 0o600)
}

// buildCache is the cache folder of bot b's build in dir, made if need
// be, "" when the build has none: one outside the sandbox keeps its
// caches where its user's programs do. A cache over BuildCacheCap is
// emptied first. A cache that cannot be made is not the bot's failure:
// warn is told, and the build runs without one.
func buildCache(b *plan.Bot, dir string, warn func(msg string, args ...any)) string {
	if b.Limits == nil || b.Limits.Sandbox == nil {
		return ""
	}
	state, err := ownState(b.Name, dir)
	if err != nil {
		warn("the bot's build runs without a cache kept between builds", "bot", b.Name, "error", err)
		return ""
	}
	cache := filepath.Join(state, "cache")
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

// pruneStates removes the bots' folders of arbiter's state in root whose
// bot folder is gone (the folders of a contest removed, a test's), so that
// their caches do not stay for ever.
func pruneStates(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		state := filepath.Join(root, e.Name())
		data, err := os.ReadFile(filepath.Join(state, stateDirFile))
		if err != nil {
			continue
		}
		if _, err := os.Lstat(strings.TrimSuffix(string(data), "\n")); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		_ = os.RemoveAll(state) // what stays is tried again at the next build
	}
}
