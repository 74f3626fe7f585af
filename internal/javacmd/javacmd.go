// Package javacmd reads a java command line: which main class it names,
// whether it gives that class a class path, and what that class path
// holds. The configuration's checks (package config), the verdicts on a
// bot that failed (package proc), the sandbox, which shows the class
// path's folders and files (package drivers), and the bots' fingerprints,
// which hash them (package fingerprint), need it.
package javacmd

import (
	"iter"
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
		case classPathOption(a) || strings.HasPrefix(a, "--class-path=") ||
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

// classPathOption says whether a is an option whose value, the next
// word, is a class path.
func classPathOption(a string) bool {
	return a == "-cp" || a == "-classpath" || a == "--class-path"
}

// ClassPaths yields the class path lists that a command (its program,
// then its arguments) gives, each with the index of the argument that
// gives it: the argument after -cp, -classpath or --class-path, or the
// value of --class-path=LIST. Their entries are joined by ':'
// (filepath.SplitList); one that ends in "*" names the jars of its folder
// (Java's wildcard, see Wildcard).
//
// Any command's class path is read so, not java's only: a launcher of
// another name (kotlin, scala) or a bot's script may pass one on, and the
// sandbox must show, and the fingerprint hash, what it names.
func ClassPaths(command []string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i := 1; i < len(command); i++ {
			if list, ok := classPath(command[i-1], command[i]); ok && !yield(i, list) {
				return
			}
		}
	}
}

// classPath is the class path list that the argument a gives after the
// word prev, and whether it gives one.
func classPath(prev, a string) (list string, ok bool) {
	if v, ok := strings.CutPrefix(a, "--class-path="); ok {
		return v, true
	}
	if classPathOption(prev) {
		return a, true
	}
	return "", false
}

// Wildcard is the folder that a class path entry names all the jars of
// ("lib/*" or "*", Java's wildcard; "" for the entry "*", the current
// folder), and whether the entry is one.
func Wildcard(entry string) (dir string, ok bool) {
	if entry == "*" {
		return "", true
	}
	dir, ok = strings.CutSuffix(entry, "/*")
	switch {
	case !ok:
		return "", false
	case dir == "":
		return "/", true
	}
	return dir, true
}

// ClassPathJar says whether a file named name is one that a wildcard
// class path entry takes: Java takes the files of the folder whose names
// end in .jar or .JAR, not those of its subfolders.
func ClassPathJar(name string) bool {
	return strings.HasSuffix(name, ".jar") || strings.HasSuffix(name, ".JAR")
}

// ThreadFlags are the JVM options that keep one JVM within a small
// process limit (Auction's 16 processes and threads): one garbage
// collector thread, one compiler thread of the first tier only. A
// default JVM starts a dozen or more threads of its own before the bot's
// main, more on a machine of many cores.
var ThreadFlags = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"}

// SmallProcesses is the process limit under which a default JVM, with
// its garbage collector's and compilers' threads, may fail to start or
// go over the limit: ThreadFlags are needed below it.
const SmallProcesses = 32

// JVM says whether the program at path (as run, or as the sandbox
// resolved it) is the java launcher.
func JVM(path string) bool {
	return filepath.Base(path) == "java"
}

// MissingThreadFlags are the ThreadFlags that a java command does not
// give, in ThreadFlags' order: neither among its words nor in the JVM's
// option variables of env (JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS; NAME=value
// entries). None for a command that is not java's or that reads options
// from an @argfile (what it holds is unknown).
func MissingThreadFlags(command, env []string) []string {
	if len(command) == 0 || !JVM(command[0]) {
		return nil
	}
	given := map[string]bool{}
	for _, a := range command[1:] {
		if strings.HasPrefix(a, "@") {
			return nil
		}
		given[a] = true
	}
	for _, e := range env {
		for _, name := range []string{"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS="} {
			if v, ok := strings.CutPrefix(e, name); ok {
				for _, w := range strings.Fields(v) {
					given[w] = true
				}
			}
		}
	}
	var missing []string
	for _, f := range ThreadFlags {
		if !given[f] {
			missing = append(missing, f)
		}
	}
	return missing
}

// MaxHeap is the maximum heap option a java command line (its program
// first) or the JVM's option variables of env give: the last
// -Xmx, -XX:MaxHeapSize= or -XX:MaxRAM= word; "" without one.
func MaxHeap(args, env []string) string {
	heap := ""
	take := func(words []string) {
		for _, w := range words {
			if strings.HasPrefix(w, "-Xmx") || strings.HasPrefix(w, "-XX:MaxHeapSize=") || strings.HasPrefix(w, "-XX:MaxRAM=") {
				heap = w
			}
		}
	}
	for _, e := range env {
		for _, name := range []string{"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS="} {
			if v, ok := strings.CutPrefix(e, name); ok {
				take(strings.Fields(v))
			}
		}
	}
	if len(args) > 1 {
		take(args[1:])
	}
	return heap
}
