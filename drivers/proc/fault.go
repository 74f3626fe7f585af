package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Fault is a bot's misbehaviour: it ends the bot's match, not the arbiter.
type Fault struct {
	Kind   string // one of the drivers.Fault* kinds
	Detail string // a sentence for results and transcripts
	// Silent says of a time fault that not a byte was read from the bot
	// after the clock of the command it did not answer started (its
	// write, or the read of the answer before it in the same write,
	// Queued): none was there at the look after the deadline (late.go).
	// A game says so in its detail (drivers.NothingArrivedNote).
	Silent bool
	// Queued says of a Silent time fault that its command went in one
	// write behind others, whose answers were read: the bot's output
	// did arrive, only nothing of this command's answer, counted from
	// the read of the answer before it. A game says so in its detail
	// (drivers.QueuedNote).
	Queued bool
	// Busy says of a Silent time fault that the bot's processes used
	// the CPU for at least a quarter of the wait, the command's own, not
	// counting what they used before its clock started, for the commands
	// before it in its write, say (busy.go; a start-up that runs on after
	// the first write counts toward that write's first command): it was
	// computing, not waiting for input or holding an answer it did not
	// flush. A game says so in its detail (drivers.ComputedNote).
	Busy bool
	// Slow says of a Silent time fault what the bot had done with its
	// input, and the CPU it used in its wait (input.go), for arbiter
	// check to tell a bot that lost the lines of a write from a slow one.
	Slow drivers.Slowness
	// Partial is, of a time fault, what arrived of the answer without
	// its line's end, as it arrived (WithoutLineEnd clips what it
	// shows); "" when nothing did.
	// A game that words the fault its own way says it
	// (drivers.WithoutLineEnd).
	Partial string
}

func (f *Fault) Error() string { return f.Kind + ": " + f.Detail }

// FaultKind lets drivers classify an error without importing this package.
func (f *Fault) FaultKind() string { return f.Kind }

// NothingArrived is Silent, for drivers.NothingArrived.
func (f *Fault) NothingArrived() bool { return f.Silent }

// QueuedSilent is Queued, for drivers.QueuedSilent.
func (f *Fault) QueuedSilent() bool { return f.Queued }

// Computed is Busy, for drivers.Computed.
func (f *Fault) Computed() bool { return f.Busy }

// Slowness is Slow, for drivers.SlownessOf.
func (f *Fault) Slowness() drivers.Slowness { return f.Slow }

// PartialLine is Partial, for drivers.Partial.
func (f *Fault) PartialLine() string { return f.Partial }

// partialf is a time fault: no full answer (what) within limit, only
// partial, which arrived without its line's end.
func partialf(what, limit, partial string) *Fault {
	f := faultf(drivers.FaultTime, "no full %s within %s: %s", what, limit, drivers.WithoutLineEnd(partial))
	f.Partial = partial
	return f
}

// FaultDetail is the sentence without the kind.
func (f *Fault) FaultDetail() string { return f.Detail }

func faultf(kind, format string, args ...any) *Fault {
	return &Fault{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// SetupError is a bot's start that failed in arbiter's own part of it:
// setting up the bot's limits and sandbox (its cgroup, a mount, its
// rlimits, the switch to the sandbox's uid), not anything the bot, its
// command or its folder did. It is never the bot's fault: a game ends
// the match with it as its own error, the match is not counted, and the
// run stops naming the bot (the engine adds the match), as it does for
// arbiter's other failures around a bot (its pipes, its stderr file).
type SetupError struct {
	Bot string // the bot's name, when known
	Err error
}

func (e *SetupError) Error() string {
	return fmt.Sprintf("bot %s: arbiter could not set up the bot's limits to start it: %v", e.Bot, e.Err)
}

func (e *SetupError) Unwrap() error { return e.Err }

// setupOf is err as the SetupError of bot, when it is one.
func setupOf(err error, bot string) (*SetupError, bool) {
	var se *SetupError
	if !errors.As(err, &se) {
		return nil, false
	}
	if se.Bot == "" {
		se.Bot = bot
	}
	return se, true
}

// startFault is the start fault of the program of args, run in dir, that
// could not start for err. A program named without a slash is looked up
// on PATH, never in the working folder: when the folder holds it (a
// build made it there, say), the fault says how to name it.
func startFault(args []string, dir string, err error) *Fault {
	f := faultf(drivers.FaultStart, "cannot start %s: %v", strings.Join(args, " "), err)
	prog := args[0]
	if why := interpreterFault(drivers.ProgramPath(prog, dir), prog, err, nil); why != "" {
		return faultf(drivers.FaultStart, "cannot start %s: %s", strings.Join(args, " "), why)
	}
	if !errors.Is(err, exec.ErrNotFound) || strings.ContainsRune(prog, '/') {
		return f
	}
	if st, serr := os.Stat(filepath.Join(dir, prog)); serr == nil && !st.IsDir() {
		f.Detail += fmt.Sprintf(" (%s is in the bot's folder, but a program named without a slash is looked up on PATH: write \"./%s\" in its command)", prog, prog)
	}
	return f
}

// crlfFault is the start fault of the program of args, run in dir, whose
// "#!" line ends in "\r" (a file saved with Windows line endings) that
// certainly keeps it from starting (drivers.Shebang.CRBreaks), told
// before it is run: the kernel gives the "\r" to the interpreter, which
// fails as its own (/usr/bin/env: "python3\r" not found, exit status 127)
// and would be taken for the bot crashing. nil for another program,
// and for one whose "\r" may do no harm (env -S splits it off; another
// interpreter may take "-e\r"): it runs, and fails, if it does, as
// itself. The kernel's own failure ("/bin/sh\r" does not exist) is told
// the same.
func crlfFault(args []string, dir string) *Fault {
	path := drivers.ProgramPath(args[0], dir)
	if path == "" {
		return nil
	}
	if sb, ok := drivers.ReadShebang(path); !ok || !sb.CRBreaks() {
		return nil
	}
	why := drivers.InterpreterProblem(path, args[0], nil)
	if why == "" {
		return nil
	}
	return faultf(drivers.FaultStart, "cannot start %s: %s", strings.Join(args, " "), why)
}

// hiddenLinkFault is why the program at path, in the bot's folder dir,
// could not be exec'd for err (its file not found) in the sandbox, whose
// shows says what it holds: path, or a folder on its way below dir
// (./lib/bot, lib a link), is a symbolic link that leads out of dir to
// a file the sandbox does not show, so that the bot sees the link and
// nothing at its end. "" otherwise, and out of the sandbox (shows nil).
func hiddenLinkFault(path, dir string, err error, shows func(string) bool) string {
	if shows == nil || dir == "" || !errors.Is(err, syscall.ENOENT) || !drivers.Within(path, dir) {
		return ""
	}
	link := firstLink(path, dir)
	if link == "" {
		return ""
	}
	target, terr := filepath.EvalSymlinks(link)
	if terr != nil || shows(target) {
		return ""
	}
	text, _ := os.Readlink(link)
	return fmt.Sprintf("%s is a symbolic link to %s, which leads to %s, outside the bot's folder %s: the sandbox shows a bot its own folder, the system's folders and what its command needs, not where a link of its folder leads, so the link leads nowhere there; copy the file into the bot's folder, or name it by its own path in the bot block's command",
		link, text, target, dir)
}

// firstLink is the first symbolic link on the way from the folder dir to
// path in it (path itself at the end), as the kernel walks it; "" when
// there is none.
func firstLink(path, dir string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == "." {
		return ""
	}
	p := dir
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, c)
		if fi, err := os.Lstat(p); err != nil {
			return ""
		} else if fi.Mode()&os.ModeSymlink != 0 {
			return p
		}
	}
	return ""
}

// interpreterFault is why the program at path (named name) could not be
// exec'd for err, when its "#!" line is to blame: the kernel says "no
// such file or directory" (or "exec format error", "permission denied")
// of a missing interpreter as of a missing program, and the program is
// there. shows, when not nil, says what the bot's sandbox holds. It is
// "" when the program is no script, or its interpreter is not at fault.
func interpreterFault(path, name string, err error, shows func(string) bool) string {
	if path == "" || !(errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOEXEC) || errors.Is(err, syscall.EACCES)) {
		return ""
	}
	if st, serr := os.Stat(path); serr != nil || st.IsDir() {
		return ""
	}
	return drivers.InterpreterProblem(path, name, shows)
}
