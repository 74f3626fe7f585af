package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// scriptExts are, by interpreter (its program's base name, a version
// such as python3.12 or pypy3 aside), the endings of the files it runs.
var scriptExts = map[string][]string{
	"python": {".py", ".pyc", ".pyz"}, "pypy": {".py", ".pyc"},
	"node": {".js", ".mjs", ".cjs"}, "ruby": {".rb"}, "perl": {".pl", ".pm"},
	"bash": {".sh", ".bash"}, "sh": {".sh"}, "dash": {".sh"}, "zsh": {".sh", ".zsh"},
	"lua": {".lua"}, "php": {".php"}, "java": {".jar"},
}

// codeOptions are, by interpreter, the options after which it runs code
// or a module it is given, not a file.
var codeOptions = map[string][]string{
	"python": {"-c", "-m"}, "pypy": {"-c", "-m"}, "node": {"-e", "--eval", "-p", "--print"},
	"ruby": {"-e"}, "perl": {"-e", "-E"}, "bash": {"-c"}, "sh": {"-c"}, "dash": {"-c"}, "zsh": {"-c"},
	"lua": {"-e"}, "php": {"-r"}, "java": {"-m", "--module"},
}

// valueOptions are, by interpreter, the options whose value is the next
// word (python3 -X pycache_prefix=/tmp/pyc bot.py), which is no script.
var valueOptions = map[string][]string{
	"python": {"-W", "-X", "--check-hash-based-pycs"}, "pypy": {"-W", "-X", "--check-hash-based-pycs"},
	"node": {"-r", "--require", "--import", "--loader", "--experimental-loader"},
	"ruby": {"-I", "-r"}, "perl": {"-I"}, "bash": {"-o", "+o", "-O", "+O"}, "sh": {"-o", "+o"},
	"dash": {"-o", "+o"}, "zsh": {"-o", "+o"}, "lua": {"-l"}, "php": {"-c", "-d"},
}

var interpreterVersion = regexp.MustCompile(`[0-9.]+$`)

// scriptArg is the file a known interpreter's command runs (python3
// bot.py, node bot.js, java -jar bot.jar): the first word after the
// program that is no option nor an option's value, if it has a slash or
// the interpreter's file ending; for java, the word after -jar. "" when
// the program is not a known interpreter, runs code or a module it is
// given (python3 -c, or -Bc: run-together short options ending in the
// code option), or the word holds a space or '=', as code or an option's
// value does and a script's name seldom does.
func scriptArg(command []string) string {
	name := interpreterVersion.ReplaceAllString(filepath.Base(command[0]), "")
	exts, ok := scriptExts[name]
	if !ok {
		return ""
	}
	for i := 1; i < len(command); i++ {
		w := command[i]
		if name == "java" {
			if w == "-jar" && i+1 < len(command) {
				return plainWord(command[i+1])
			}
			if slices.Contains(codeOptions[name], w) || strings.HasPrefix(w, "--module=") {
				return ""
			}
			continue
		}
		if w == "--" {
			if i+1 < len(command) {
				return scriptWord(command[i+1], exts)
			}
			return ""
		}
		if w == "-" || (!strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "+")) {
			return scriptWord(w, exts)
		}
		if isCodeOption(name, w) {
			return ""
		}
		if takesValue(name, w) {
			i++
		}
	}
	return ""
}

// isCodeOption tells whether the option w makes the interpreter name run
// code or a module: one of its codeOptions, such an option with its
// value after '=' (--module=m), or a cluster of short options (-Bc) one
// of whose letters, before any that takes a value, is a code option.
func isCodeOption(name, w string) bool {
	codes := codeOptions[name]
	if before, _, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "--") {
		return slices.Contains(codes, before)
	}
	if slices.Contains(codes, w) {
		return true
	}
	if !isCluster(w) {
		return false
	}
	for _, c := range w[1:] {
		switch {
		case slices.Contains(codes, "-"+string(c)):
			return true
		case slices.Contains(valueOptions[name], "-"+string(c)):
			return false // the rest of the word is its value
		}
	}
	return false
}

// takesValue tells whether the option w, code options aside, is followed
// by its value: one of the interpreter's valueOptions, or a cluster of
// short options (-uX) ending in one and without one before it.
func takesValue(name, w string) bool {
	values := valueOptions[name]
	if slices.Contains(values, w) {
		return true
	}
	if !isCluster(w) {
		return false
	}
	for j, c := range w[1:] {
		if slices.Contains(values, "-"+string(c)) {
			return j == len(w)-2
		}
	}
	return false
}

// isCluster tells whether w is short options run together, as -Bc.
func isCluster(w string) bool {
	return len(w) > 2 && w[0] == '-' && w[1] != '-'
}

// scriptWord is w when it names a script: it has a slash or one of exts
// (a module or command name such as python3 mybot is not checked), and
// holds no space or '=' (plainWord). "" otherwise, and for "-", standard
// input.
func scriptWord(w string, exts []string) string {
	if plainWord(w) == "" || w == "-" {
		return ""
	}
	if strings.Contains(w, "/") {
		return w
	}
	for _, e := range exts {
		if strings.HasSuffix(strings.ToLower(w), e) {
			return w
		}
	}
	return ""
}

// plainWord is w unless it holds a space or '=': code (sh -c "./run.sh
// --fast") or an option's value (pycache_prefix=/tmp/pyc) rather than a
// file's name.
func plainWord(w string) string {
	if strings.ContainsAny(w, " \t\n=") {
		return ""
	}
	return w
}

// checkScript warns when the file an interpreter command runs
// (scriptArg) is not there: relative to the bot's dir, as the
// interpreter, started in it, looks for it. Every match of the bot would
// end in a crash (python3: can't open file). A bot with a build may make
// it; none is warned of then.
func checkScript(bot *Bot, rng hcl.Range) *hcl.Diagnostic {
	script := scriptArg(bot.Command)
	if script == "" || len(bot.Build) > 0 {
		return nil
	}
	path := script
	if !filepath.IsAbs(path) {
		path = filepath.Join(bot.Dir, script)
	}
	if _, err := os.Stat(path); err == nil || !os.IsNotExist(err) {
		return nil
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Script not found",
		Detail: fmt.Sprintf("Bot %q runs %s %s, but there is no %s here (relative names are taken in the bot's dir, %s); its matches will end in a crash, the interpreter finding no file. Fix the command or dir, or put the file there.%s",
			bot.Name, filepath.Base(bot.Command[0]), script, path, bot.Dir, linkHint(bot.DeclRange.Filename, path)),
		Subject: &rng}
}

// linkHint explains a path missing at path, taken relative to the
// folder of the configuration file named file, when that file is a
// symbolic link into another folder that has the path: relative paths
// are taken from the link's folder (docs/configuration.md), which the
// author may have meant the other way. "" otherwise.
func linkHint(file, path string) string {
	fi, err := os.Lstat(file)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	abs, err1 := filepath.Abs(file)
	target, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil || err2 != nil {
		return ""
	}
	linkDir, targetDir := filepath.Dir(abs), filepath.Dir(target)
	rel, err := filepath.Rel(linkDir, path)
	if err != nil || linkDir == targetDir || !filepath.IsLocal(rel) {
		return ""
	}
	there := filepath.Join(targetDir, rel)
	if _, err := os.Stat(there); err != nil {
		return ""
	}
	return fmt.Sprintf(" %s is a symbolic link to %s: relative paths are taken from the link's folder, %s, not from the folder of the file it links to, where %s is. Write the path relative to the link's folder, give an absolute one, or load the file the link leads to.",
		file, target, linkDir, there)
}
