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

var interpreterVersion = regexp.MustCompile(`[0-9.]+$`)

// scriptArg is the file a known interpreter's command runs (python3
// bot.py, node bot.js, java -jar bot.jar): the first word after the
// program, options skipped, that has a slash or the interpreter's file
// ending (so an option's value such as python's -W ignore is not taken
// for it), or after java's -jar the next word. "" when the program is
// not a known interpreter, or runs code or a module it is given.
func scriptArg(command []string) string {
	name := interpreterVersion.ReplaceAllString(filepath.Base(command[0]), "")
	exts, ok := scriptExts[name]
	if !ok {
		return ""
	}
	for i := 1; i < len(command); i++ {
		w := command[i]
		switch {
		case slices.Contains(codeOptions[name], w) || strings.HasPrefix(w, "--module="):
			return ""
		case name == "java" && w == "-jar" && i+1 < len(command):
			return command[i+1]
		case name == "java" || strings.HasPrefix(w, "-"):
			continue
		}
		if strings.Contains(w, "/") {
			return w
		}
		for _, e := range exts {
			if strings.HasSuffix(strings.ToLower(w), e) {
				return w
			}
		}
	}
	return ""
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
