package bricks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers"
)

// javaStartError is the message of the IOException with which the
// original's ProcessBuilder (Java on Linux) fails to start the seat's
// program, as its duels.txt shows it after "Player <nick> -> ":
//
//	Cannot run program "---" (in directory "players/noProgram"): error=2, No such file or directory
//
// The directory is the player's folder as the plan names it (relative to
// the configuration's folder), as the original names it relative to
// where it runs. The error is the one execve gives for the program: it is
// looked up in path (the referee's PATH, as Java's child does) unless it
// has a slash, in which case it is relative to the folder. "" when the
// program is there and executable, so that something else kept it from
// starting: the original has no message for that.
func javaStartError(seat drivers.Seat, path string) string {
	if len(seat.Command) == 0 {
		return ""
	}
	prog := seat.Command[0]
	errno := execErrno(prog, seat.Dir, path)
	text, ok := strerror[errno]
	if !ok {
		return ""
	}
	dir := seat.PlanDir
	if dir == "" {
		dir = seat.Dir
	}
	// Java writes both names between quotes as they are, unescaped.
	return fmt.Sprintf(`Cannot run program "%s" (in directory "%s"): error=%d, %s`, prog, filepath.FromSlash(dir), int(errno), text)
}

// strerror are glibc's texts of the errors a missing program gives.
var strerror = map[syscall.Errno]string{
	syscall.ENOENT:  "No such file or directory",
	syscall.EACCES:  "Permission denied",
	syscall.ENOTDIR: "Not a directory",
}

// execErrno is the errno of exec'ing prog the way Java's child process
// does (JDK_execvpe): a name with a slash directly, relative to dir;
// otherwise each directory of path in turn (an empty one is dir), where
// a permission error is remembered and a missing file skipped. 0 when an
// executable file is found.
func execErrno(prog, dir, path string) syscall.Errno {
	if strings.Contains(prog, "/") {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(dir, prog)
		}
		return fileErrno(prog)
	}
	var sticky, last syscall.Errno = 0, syscall.ENOENT
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = dir
		} else if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		switch e := fileErrno(filepath.Join(d, prog)); e {
		case 0:
			return 0
		case syscall.EACCES:
			sticky = e
		default:
			last = e
		}
	}
	if sticky != 0 {
		return sticky
	}
	return last
}

// fileErrno is what execve says of a file: 0 for a file this process
// may execute, EACCES for a folder or a file it may not, the error of
// looking it up otherwise.
func fileErrno(name string) syscall.Errno {
	st, err := os.Stat(name)
	if err != nil {
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno
		}
		if errors.Is(err, fs.ErrNotExist) {
			return syscall.ENOENT
		}
		return syscall.EIO
	}
	if st.IsDir() {
		return syscall.EACCES
	}
	if err := syscall.Access(name, 1); err != nil { // X_OK
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno
		}
		return syscall.EACCES
	}
	return 0
}
