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
		case a == "-p" || a == "--module-path" || a == "--add-modules" || a == "--add-opens" || a == "--add-exports":
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
