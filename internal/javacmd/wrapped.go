package javacmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// shells are the programs whose -c script Wrapped reads.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true}

// Wrapped is the java command that a shell command runs (sh, bash or
// dash -c SCRIPT, as `sh -c "java -cp . Bot"`), nil for any other
// command: the script must be one simple command, java's, after an
// optional exec, whose words need no expansion (quotes and backslashes
// only: no variable, substitution, glob, redirection, list or pipe),
// so that its words are for certain those the JVM gets. A wrapper
// script (./run.sh) is read by Script, when it is as plain.
func Wrapped(command []string) []string {
	if len(command) < 3 || !shells[filepath.Base(command[0])] || command[1] != "-c" {
		return nil
	}
	return javaLine(command[2])
}

// javaLine is the java command that a line of a script runs, when it is
// java's simple command after an optional exec (see Wrapped); nil
// otherwise.
func javaLine(line string) []string {
	words, ok := simpleWords(line)
	if ok && len(words) > 0 && words[0] == "exec" {
		words = words[1:]
	}
	if !ok || len(words) == 0 || !JVM(words[0]) {
		return nil
	}
	return words
}

// special are the characters outside quotes that make a script more than
// words that need no expansion.
const special = "$`;&|<>(){}[]*?~#!\n\\"

// simpleWords splits script into its words when they need no expansion
// (see Wrapped): blanks separate them, single and double quotes group,
// and a backslash outside quotes escapes the next character. ok is false
// for anything else.
func simpleWords(script string) (words []string, ok bool) {
	var w strings.Builder
	inWord := false
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
			continue
		case c == '\'' || c == '"':
			end := strings.IndexByte(script[i+1:], c)
			quoted := script[i+1 : i+1+max(end, 0)]
			if end < 0 || c == '"' && strings.ContainsAny(quoted, "$`\\") {
				return nil, false
			}
			w.WriteString(quoted)
			i += end + 1
		case c == '\\' && i+1 < len(script) && script[i+1] != '\n':
			w.WriteByte(script[i+1])
			i++
		case strings.IndexByte(special, c) >= 0, c == '=' && len(words) == 0:
			return nil, false // an expansion, an operator, or an assignment before the program
		default:
			w.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, true
}

// Launched is the java command that command (its program first) runs,
// its relative paths in the folder dir: command itself when its program
// is java; the java command of a shell's -c script (Wrapped) or of a
// wrapper script (Script), whose path script then is; nil for any other
// command.
func Launched(command []string, dir string) (java []string, script string) {
	switch {
	case len(command) == 0:
		return nil, ""
	case JVM(command[0]):
		return command, ""
	}
	if w := Wrapped(command); w != nil {
		return w, ""
	}
	return Script(command, dir)
}

// maxScript bounds the size of a wrapper script that Script reads.
const maxScript = 8 << 10

// Script is the java command that a wrapper script runs, and the
// script's path: command's program named by a path (./run.sh, relative
// to dir), or a shell's (sh, bash, dash) script that is its first
// argument (sh run.sh). Its text must be a "#!" line naming one of those
// shells (by path, or through env; a shell that runs the script needs
// none), then blank lines and comments but for one line: java's simple
// command after an optional exec, as Wrapped reads a -c script, which
// may end in "$@" (the script's arguments, which the JVM then gets after
// those words). Any other line (a variable set, a cd, a second command,
// a line continued) makes the script one that only a shell can tell the
// JVM's words of: nil, as for any other command.
func Script(command []string, dir string) (java []string, script string) {
	path, args := command[0], command[1:]
	viaShell := shells[filepath.Base(path)] && len(command) > 1 && !strings.HasPrefix(command[1], "-")
	switch {
	case viaShell:
		path, args = command[1], command[2:]
	case shells[filepath.Base(path)]:
		return nil, "" // sh -c, sh -e run.sh
	case !strings.ContainsRune(path, '/'):
		return nil, "" // looked up on PATH: a program, not the bot's script
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	text, ok := readScript(path, dir)
	if !ok {
		return nil, ""
	}
	line, ok := scriptCommand(text, !viaShell)
	if !ok {
		return nil, ""
	}
	line, passArgs := strings.CutSuffix(line, ` "$@"`)
	words := javaLine(line)
	if words == nil {
		return nil, ""
	}
	if passArgs {
		words = append(words, args...)
	}
	return words, path
}

// readScript is the text of the file at path, when it is a regular file
// reached through no symbolic link below the bot's folder dir (from "/"
// when path lies outside it: arbiter, maybe root, reads it for a bot's
// folder, see openNoLinks) of at most maxScript bytes without a "\r" (a
// Windows line ending, which a shell would take as part of the last
// word).
func readScript(path, dir string) (string, bool) {
	f, err := openNoLinks(path, dir)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScript+1))
	if err != nil || len(b) > maxScript || strings.ContainsRune(string(b), '\r') {
		return "", false
	}
	return string(b), true
}

// openNoLinks opens the file at path for reading, one component at a
// time from dir when path lies in it (dir itself may be reached through
// a link: the organiser's), else from "/" (relative to the working
// folder for a relative path outside any dir), following no symbolic
// link on the way nor at its end, and not blocking on a FIFO.
func openNoLinks(path, dir string) (*os.File, error) {
	base, rel := "/", filepath.Clean(path)
	if r, err := filepath.Rel(dir, rel); dir != "" && err == nil && r != ".." && !strings.HasPrefix(r, "../") {
		base, rel = dir, r
	} else if !filepath.IsAbs(rel) {
		base = "."
	}
	fd, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(strings.TrimPrefix(rel, "/"), "/")
	for i, c := range parts {
		flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i == len(parts)-1 {
			flags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
		}
		next, err := unix.Openat(fd, c, flags, 0)
		unix.Close(fd)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), path), nil
}

// scriptCommand is the one line of a script's text that is neither
// blank nor a comment, when its "#!" line (needed when the script is
// run itself, exec'd) names a shell Script reads, through env or not;
// ok is false for any other text.
func scriptCommand(text string, exec bool) (line string, ok bool) {
	lines := strings.Split(text, "\n")
	if first, isShebang := strings.CutPrefix(lines[0], "#!"); isShebang {
		f := strings.Fields(first)
		if len(f) > 0 && filepath.Base(f[0]) == "env" {
			f = f[1:]
		}
		if len(f) != 1 || !shells[filepath.Base(f[0])] {
			return "", false
		}
	} else if exec {
		return "", false
	}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case line != "":
			return "", false // a second command
		default:
			line = l
		}
	}
	return line, line != ""
}
