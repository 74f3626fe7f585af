package proc

import (
	"errors"
	"io/fs"
	"os"
	"os/user"
	"sync"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A JVM (HotSpot) keeps its perf data, what jstat and jcmd read, in a file
// named by its pid in /tmp/hsperfdata_<user>, user being the name of its
// uid. At start it deletes the files there of pids that are not alive
// (kill(pid, 0)) or are its own, then takes its file and locks it; one
// that finds its file locked writes a warning on its output ("Cannot use
// file /tmp/hsperfdata_root/1 because it is locked by another process").
// Outside the sandbox, a bot in a PID namespace of its own is its PID 1
// and shares the machine's /tmp: two JVMs of a match, or of two matches at
// -j 2, both want /tmp/hsperfdata_<user>/1, and the second's warning was
// read as its first answer (or, in JVMs that do not lock, it deleted and
// replaced the first's file). Such a bot gets a folder of its own there
// instead: a small tmpfs over it in a mount namespace of its own
// (shim.Config.PerfData), which ends with the bot's processes. Nothing
// else of the machine's /tmp changes for it, and a bot without a PID
// namespace is started as before. In the sandbox the whole /tmp is the
// bot's own.

// perfDataDir is the folder a JVM that is a bot in a PID namespace of its
// own keeps its perf data in: its uid there is 0, as root or as 0 of a
// user namespace mapped to arbiter's uid (Probe.cloneFlags), so it is
// /tmp/hsperfdata_ and the name of uid 0 (HotSpot's temporary folder is
// /tmp, whatever TMPDIR says); "" when uid 0 has no name.
var perfDataDir = sync.OnceValue(func() string {
	u, err := user.LookupId("0")
	if err != nil || u.Username == "" {
		return ""
	}
	return "/tmp/hsperfdata_" + u.Username
})

// ownPerfData gives a bot outside the sandbox that gets PID and mount
// namespaces its own JVM perf data folder, unless one of its folders
// (dirs: its own, the one it writes in, its private one) lies in that
// folder. The folder is made on the machine when missing, to mount on,
// as the bot's first JVM would have made it: mode 0755, owned by
// arbiter's uid, which is the bot's outside its user namespace. A folder
// that is not a folder (a symbolic link) is left alone, and so is one of
// another owner than arbiter's uid or root: in the sticky /tmp its owner
// may swap it for a link, which the bot's mount would follow, between
// this look and that mount (safeOwner).
func (b *Box) ownPerfData(cfg *shimConfig, dirs ...string) {
	p, dir := b.probe, perfDataDir()
	if !p.PIDNS || !p.MountNS || dir == "" {
		return
	}
	for _, d := range dirs {
		if abs, err := absFolder(d); err != nil || drivers.Within(abs, dir) {
			return
		}
	}
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) && os.Mkdir(dir, 0o755) == nil {
		_ = os.Chmod(dir, 0o755) // whatever arbiter's umask
		fi, err = os.Lstat(dir)
	}
	if err != nil || !fi.IsDir() || !safeOwner(fi) {
		return
	}
	b.perfData, cfg.PerfData = dir, dir
}

// safeOwner says whether fi, a folder in /tmp, is owned by arbiter's uid
// or root, the only ones who may rename it there.
func safeOwner(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && (st.Uid == 0 || int(st.Uid) == os.Geteuid())
}
