package drivers

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A script that exists and may be executed can still fail to start with
// "no such file or directory" (or "exec format error", "permission
// denied"): the kernel says so of the interpreter its "#!" line names,
// not of the script. Most often the line ends in "\r" (a file saved with
// Windows line endings), so the kernel looks for "/bin/sh\r". These say
// which, for a bot's start fault and for validate's warning.

// Shebang is the "#!" line of a script as the kernel reads it: the
// interpreter is the first word after "#!" up to a space, a tab or the
// end of the line, so a "\r" before the newline is part of the last word.
type Shebang struct {
	Interp string // the interpreter's path, as written
	Arg    string // the rest of the line (one argument for the kernel)
	CRLF   bool   // the line ends in "\r\n"
}

// ReadShebang reads the "#!" line of the file at path; ok is false when
// the file cannot be read or does not start with "#!".
func ReadShebang(path string) (sb Shebang, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return sb, false
	}
	defer f.Close()
	buf := make([]byte, 256) // the kernel reads no more (BINPRM_BUF_SIZE)
	n, _ := f.Read(buf)
	if n < 2 || !bytes.HasPrefix(buf, []byte("#!")) {
		return sb, false
	}
	line, _, nl := bytes.Cut(buf[2:n], []byte("\n"))
	sb.CRLF = nl && bytes.HasSuffix(line, []byte("\r"))
	rest := strings.TrimLeft(string(line), " \t")
	sb.Interp = rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		sb.Interp, sb.Arg = rest[:i], strings.Trim(rest[i:], " \t")
	}
	return sb, true
}

// CRBreaks says whether the "\r" of a CRLF "#!" line certainly keeps the
// script from starting: it ends the interpreter's path (a line with no
// argument: "/bin/sh\r" does not exist), or the command env is to look
// up ("#!/usr/bin/env python3\r", env exits 127). Not with env's -S,
// which splits its argument at whitespace, a "\r" included, and runs
// what it names; nor for another interpreter given an argument ending in
// "\r" ("#!/bin/sh -e\r"), which it may or may not refuse (CRLFRisk).
func (sb Shebang) CRBreaks() bool {
	switch {
	case !sb.CRLF:
		return false
	case sb.Arg == "":
		return true
	}
	return filepath.Base(sb.Interp) == "env" && !envSplits(sb.Arg)
}

// envSplits says whether env's one argument from a "#!" line starts with
// its -S (--split-string, as getopt lets it be shortened, or after the
// flags -i, -v and -0 in one word).
func envSplits(arg string) bool {
	if strings.HasPrefix(arg, "--") {
		return strings.HasPrefix(arg, "--s")
	}
	return strings.HasPrefix(arg, "-") && strings.HasPrefix(strings.TrimLeft(arg[1:], "iv0"), "S")
}

// CRLFRisk says, of the script at path (named name) whose CRLF "#!" line
// gives an interpreter other than env an argument ending in "\r"
// ("#!/bin/sh -e\r"), that the interpreter is given it: most refuse it
// and the bot then exits at once, but it is no certain start fault
// (Shebang.CRBreaks). "" for any other file.
func CRLFRisk(path, name string) string {
	sb, ok := ReadShebang(path)
	if !ok || !sb.CRLF || sb.Arg == "" || filepath.Base(sb.Interp) == "env" {
		return ""
	}
	name = fileName(path, name)
	return fmt.Sprintf("its \"#!\" line (line 1 of %s) ends in a carriage return, so its interpreter %s is given %s, which most interpreters refuse (sh: \"Illegal option -\"): the file has Windows line endings (CRLF); convert it (dos2unix %s)",
		name, pathText(sb.Interp), strconv.Quote(sb.Arg), name)
}

// fileName is name, the program at path, or, when path is a symbolic
// link, the file it leads to, which is the one to mend: dos2unix and
// sed -i would replace the link, or skip it. The target is named as the
// link is, from the same folder (./dir/target), when it lies beside the
// link, and by its absolute path otherwise.
func fileName(path, name string) string {
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeSymlink == 0 {
		return name
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return name
	}
	abs, err1 := filepath.Abs(path)
	absTarget, err2 := filepath.Abs(target)
	if err1 == nil && err2 == nil && strings.ContainsRune(name, '/') && filepath.Dir(abs) == filepath.Dir(absTarget) {
		dir := name[:strings.LastIndexByte(name, '/')+1]
		return dir + filepath.Base(absTarget)
	}
	if err2 == nil {
		return absTarget
	}
	return target
}

// InterpreterProblem says why the program at path (absolute, or relative
// to the working folder), named name in messages, cannot start because
// of its "#!" line: "its interpreter /x (line 1 of ./bot) does not
// exist", with the Windows line endings that put a "\r" at its end. It
// is "" when path is no script or its interpreter can be run. shows,
// when not nil, tells whether the bot's sandbox holds a path: an
// interpreter that exists here but is not there is said to be so.
//
// An executable file that is neither a program (ELF) nor has a "#!"
// line cannot start either ("exec format error"): that is said with
// how to mend it (noShebang).
//
// A program that is a symbolic link is named by the file it leads to, the
// one to mend.
func InterpreterProblem(path, name string, shows func(string) bool) string {
	name = fileName(path, name)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 && !runnable(path) {
		if why := bomShebang(path, name); why != "" {
			return why
		}
		return noShebang(name)
	}
	return interpreterProblem(path, name, shows, 0)
}

// noShebang says how to start the script named name that has no "#!"
// line: add one naming the interpreter its name's extension suggests, or
// run it through that interpreter.
func noShebang(name string) string {
	interp := map[string]string{".py": "python3", ".sh": "sh", ".bash": "bash", ".rb": "ruby", ".pl": "perl", ".js": "node", ".lua": "lua", ".php": "php"}[strings.ToLower(filepath.Ext(name))]
	line := "add one (#!/usr/bin/env " + interp + ")"
	if interp == "" {
		interp, line = "python3", "add one naming its interpreter (#!/usr/bin/env python3, say)"
	}
	// Said both ways: a bots_from player's command is a line of its
	// info.txt, not HCL.
	file := strings.TrimPrefix(name, "./")
	return fmt.Sprintf("the file has no #! line: %s, or run it through its interpreter (%s %s; in a bot block, command = [%s, %s])",
		line, interp, file, strconv.Quote(interp), strconv.Quote(file))
}

// utf8BOM is the byte order mark some Windows editors (Notepad) put
// before a UTF-8 file's first line.
const utf8BOM = "\xEF\xBB\xBF"

// bomShebang says how to mend the file at path (named name) whose "#!"
// line comes after a UTF-8 byte order mark: the kernel reads the mark,
// not "#!", so it sees no "#!" line. "" when the file has no such mark.
func bomShebang(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	rest, ok := bytes.CutPrefix(buf[:n], []byte(utf8BOM))
	if !ok || !bytes.HasPrefix(rest, []byte("#!")) {
		return ""
	}
	file := strings.TrimPrefix(name, "./")
	why := fmt.Sprintf("the file starts with a UTF-8 byte order mark (EF BB BF) before its #! line, so its #! line is not seen: save it without one (sed -i '1s/^\\xEF\\xBB\\xBF//' %s)", file)
	if line, _, nl := bytes.Cut(rest, []byte("\n")); nl && bytes.HasSuffix(line, []byte("\r")) {
		why += ", and with Unix line endings (dos2unix " + file + ")"
	}
	return why
}

func interpreterProblem(path, name string, shows func(string) bool, depth int) string {
	sb, ok := ReadShebang(path)
	if !ok || depth > 4 {
		return ""
	}
	crlf := ""
	if sb.CRLF {
		crlf = ": the file has Windows line endings (CRLF); convert it (dos2unix " + name + ")"
	}
	if sb.Interp == "" {
		return fmt.Sprintf("its \"#!\" line (line 1 of %s) names no interpreter%s", name, crlf)
	}
	its := fmt.Sprintf("its interpreter %s (line 1 of %s)", pathText(sb.Interp), name)
	st, err := os.Stat(sb.Interp)
	switch {
	case err != nil && sb.CRLF:
		return its + " does not exist" + crlf
	case err != nil && os.IsNotExist(err):
		return its + " does not exist"
	case err != nil:
		return fmt.Sprintf("%s cannot be read (%v)", its, err)
	case shows != nil && !shows(sb.Interp):
		return its + " exists on this machine but is not in the bot's sandbox, which shows only the system's folders, the bot's folder and what its command needs (docs/sandbox-default.md): use an interpreter of the system's folders, or \"#!/usr/bin/env NAME\" for one the PATH finds"
	case st.IsDir():
		return its + " is a folder, not a program"
	case st.Mode()&0o111 == 0:
		return its + " is not executable"
	}
	if inner := interpreterProblem(sb.Interp, sb.Interp, shows, depth+1); inner != "" {
		return its + " cannot start: " + inner
	}
	if !runnable(sb.Interp) {
		return its + " is neither a program nor a script with a \"#!\" line"
	}
	if sb.CRBreaks() {
		return fmt.Sprintf("its \"#!\" line (line 1 of %s) ends in a carriage return, so its interpreter is given %s%s", name, strconv.Quote(sb.Arg), crlf)
	}
	return ""
}

// runnable reports whether the file at path is one the kernel can run:
// an ELF program or a script.
func runnable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true // not for us to say
	}
	defer f.Close()
	buf := make([]byte, 4)
	n, _ := f.Read(buf)
	return bytes.HasPrefix(buf[:n], []byte("\x7fELF")) || bytes.HasPrefix(buf[:n], []byte("#!"))
}

// pathText is p as written, quoted when it holds a character that would
// not show (the "\r" of a CRLF line) or a space.
func pathText(p string) string {
	if q := strconv.Quote(p); q[1:len(q)-1] != p || strings.ContainsAny(p, " ") {
		return q
	}
	return p
}

// ProgramPath is the file a command's program names: a path with a slash
// taken from dir, a bare name looked up on PATH; "" when none is found.
func ProgramPath(prog, dir string) string {
	return lookPath(prog, dir, os.Getenv("PATH"))
}
