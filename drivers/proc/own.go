package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
)

// OwnImage is what a process arbiter starts executes to be arbiter again
// (a house bot, a worker process, the shim): the file this process runs,
// even when another file was put at its path since it started (an install
// over it, a build renamed onto it). Until it execs, a child is a copy of
// arbiter, whose /proc/self/exe is arbiter's own image, and so is every
// process started that way in turn. Running arbiter by its path instead
// would run whatever is there now: another build than the one the run
// started with, which refereed the run and which its results record.
//
// The child's comm (what ps shows without -f) is then "exe", the name
// under which it was executed; a house bot and a worker take the name of
// their argv[0] back (drivers/house/start, cmd/arbiter's worker).
const OwnImage = "/proc/self/exe"

var own struct {
	sync.Mutex
	paths []string
}

// OwnExecutable records path (absolute) as a name of this process's own
// executable: a command of it that Command makes runs OwnImage, with path
// still its argv[0]. cmd/arbiter records the path it runs house bots and
// workers by (the engine's Runner.Self); the engine and the drivers only
// pass that path on in commands.
func OwnExecutable(path string) {
	path = filepath.Clean(path)
	own.Lock()
	defer own.Unlock()
	if !slices.Contains(own.paths, path) {
		own.paths = append(own.paths, path)
	}
}

// ownPath says whether OwnExecutable recorded path.
func ownPath(path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	path = filepath.Clean(path)
	own.Lock()
	defer own.Unlock()
	return slices.Contains(own.paths, path)
}

// Command is exec.Command, but a command of this process's own executable
// (OwnExecutable) executes OwnImage: the very build that is running, not
// the file now at the path. Its argv[0] is name all the same.
func Command(name string, arg ...string) *exec.Cmd {
	cmd := exec.Command(name, arg...)
	if ownPath(name) {
		cmd.Path = OwnImage
	}
	return cmd
}

// ownCommand is a command of this process's own image whose argv[0] is
// the path of its executable (as os.Executable finds it), for a start
// that checks what the machine allows.
func ownCommand() (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Path = OwnImage
	return cmd, nil
}

// shownPath is where a bot that runs OwnImage sees arbiter's executable
// in its sandbox: its argv[0], made absolute, else the path of this
// process's executable.
func shownPath(cmd *exec.Cmd) string {
	if len(cmd.Args) > 0 && filepath.IsAbs(cmd.Args[0]) {
		return filepath.Clean(cmd.Args[0])
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return ""
}
