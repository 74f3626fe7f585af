// Package javacmd reads a java command line: which main class it names,
// and whether it gives that class a class path. Both the configuration's
// checks (package config) and the verdicts on a bot that failed (package
// proc) need it.
package javacmd

import (
	"os"
	"path/filepath"
	"strings"
)

// valueOptions are the java launcher's options (java --help, java
// --help-extra, of Java 17) whose value is the next word; their =value
// forms are one word.
var valueOptions = map[string]bool{
	"-p": true, "--module-path": true, "--upgrade-module-path": true,
	"--add-modules": true, "--enable-native-access": true, "--limit-modules": true,
	"--add-reads": true, "--add-exports": true, "--add-opens": true, "--patch-module": true,
}

// AbsoluteClassPath says that a class path (CLASSPATH) names an absolute
// folder or file, which may hold the bot's class wherever the game runs
// it; a relative one (".") is relative to that folder, not to the bot's
// dir.
func AbsoluteClassPath(cp string) bool {
	for _, e := range filepath.SplitList(cp) {
		if filepath.IsAbs(e) {
			return true
		}
	}
	return false
}

// EnvClassPath is the CLASSPATH of env (NAME=value entries; the last
// one counts, as for exec), "" without one.
func EnvClassPath(env []string) string {
	cp := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "CLASSPATH="); ok {
			cp = v
		}
	}
	return cp
}

// MainClass is the main class a java command names when it names one
// without a class path (-cp, -classpath, --class-path, -jar, a module, a
// source file), "" otherwise, and "" when the command cannot be read
// (an @argfile, whose options are in a file). dir is the folder the
// command's files are relative to: a first argument naming a file there
// (Bot.java, bot.jar) is not a class.
func MainClass(command []string, dir string) string {
	if len(command) < 2 || filepath.Base(command[0]) != "java" {
		return ""
	}
	for i := 1; i < len(command); i++ {
		a := command[i]
		switch {
		case strings.HasPrefix(a, "@"):
			return "" // an argument file: what it holds is unknown
		case a == "-cp" || a == "-classpath" || a == "--class-path" || strings.HasPrefix(a, "--class-path=") ||
			a == "-jar" || a == "-m" || a == "--module" || strings.HasPrefix(a, "--module=") || strings.HasPrefix(a, "--source"):
			return ""
		case a == "-d" || a == "--describe-module":
			return "" // describes a module and exits: no class is run
		case valueOptions[a]:
			i++ // an option with a value
		case strings.HasPrefix(a, "-"):
		default:
			if strings.HasSuffix(a, ".java") || strings.ContainsRune(a, '/') {
				return ""
			}
			if _, err := os.Stat(filepath.Join(dir, a)); err == nil {
				return ""
			}
			return a
		}
	}
	return ""
}
