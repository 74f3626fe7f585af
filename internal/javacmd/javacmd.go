// Package javacmd reads a java command line: which main class it names,
// whether it gives that class a class path, what that class path holds,
// and which JVM options it gives (the words before its class; those
// after are the bot's arguments). The configuration's checks (package
// config), the verdicts on a bot that failed (package proc), the
// sandbox, which shows the class path's folders and files (package
// drivers), and the bots' fingerprints, which hash them (package
// fingerprint), need it.
package javacmd

import (
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"

	_ "github.com/arbiter-contests/arbiter/internal/linuxonly" // a build for another system stops there
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
	if len(command) < 2 || !JVM(command[0]) {
		return ""
	}
	w := walk(command)
	if w.argfile || w.noClass || w.end == len(command) {
		return ""
	}
	a := command[w.end]
	if strings.HasPrefix(a, "-") || strings.HasSuffix(a, ".java") || strings.ContainsRune(a, '/') {
		return "" // -jar, -m, --module=: no class of its own
	}
	if _, err := os.Stat(filepath.Join(dir, a)); err == nil {
		return ""
	}
	return a
}

// launch is what walk reads of a java command.
type launch struct {
	// end is the index of the word that ends the JVM's options: the main
	// class, a source file, -jar, -m, --module or --module=MODULE (the
	// words after it are the jar's, module's or class's, then the
	// bot's arguments); len(command) when no word does.
	end int
	// argfile says that end is an @argfile's index: it holds options and
	// maybe the class, and what it holds is unknown.
	argfile bool
	// noClass says that an option before end gives the class path,
	// names a source file's version (--source) or describes a module
	// and exits (-d): the word at end is no class looked up without a
	// class path.
	noClass bool
}

// walk reads the JVM options of a java command (its program first).
func walk(command []string) launch {
	var w launch
	for i := 1; i < len(command); i++ {
		a := command[i]
		switch {
		case strings.HasPrefix(a, "@"):
			w.end, w.argfile = i, true
			return w
		case a == "-jar" || a == "-m" || a == "--module" || strings.HasPrefix(a, "--module="):
			w.end = i
			return w
		case classPathOption(a) || a == "--source" || a == "-d" || a == "--describe-module":
			w.noClass = true
			i++ // its value is the next word
		case strings.HasPrefix(a, "--class-path=") || strings.HasPrefix(a, "--source=") || strings.HasPrefix(a, "--describe-module="):
			w.noClass = true
		case valueOptions[a]:
			i++ // an option with a value
		case strings.HasPrefix(a, "-"):
		default:
			w.end = i
			return w
		}
	}
	w.end = len(command)
	return w
}

// Options are the JVM options of a java command (its program first) and
// of the JVM's option variables of env (NAME=value entries; of each name
// the last one counts, as for exec), in the order the JVM reads them,
// where the last of an option counts: JAVA_TOOL_OPTIONS's words,
// JDK_JAVA_OPTIONS's, then the command's words before its main class,
// source file, -jar or -m (the words after those are the program's and
// the bot's arguments, not the JVM's). ok is false for a command that is
// not java's, or whose options cannot be read: an @argfile among them
// or in JDK_JAVA_OPTIONS holds options in a file.
func Options(command, env []string) (opts []string, ok bool) {
	if len(command) == 0 || !JVM(command[0]) {
		return nil, false
	}
	for _, name := range []string{"JAVA_TOOL_OPTIONS=", "JDK_JAVA_OPTIONS="} {
		v := ""
		for _, e := range env {
			if s, ok := strings.CutPrefix(e, name); ok {
				v = s
			}
		}
		for _, word := range strings.Fields(v) {
			if name == "JDK_JAVA_OPTIONS=" && strings.HasPrefix(word, "@") {
				return nil, false
			}
			opts = append(opts, word)
		}
	}
	w := walk(command)
	if w.argfile {
		return nil, false
	}
	return append(opts, command[1:w.end]...), true
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
// give, in ThreadFlags' order: neither among its JVM options nor in the
// JVM's option variables of env (see Options). None for a command that
// is not java's or whose options cannot be read.
func MissingThreadFlags(command, env []string) []string {
	opts, ok := Options(command, env)
	if !ok {
		return nil
	}
	var missing []string
	for _, f := range ThreadFlags {
		if !slices.Contains(opts, f) {
			missing = append(missing, f)
		}
	}
	return missing
}

// MaxHeap is the JVM option that sizes the heap of a java command (its
// program first) and of the JVM's option variables of env (see
// Options): the last -Xmx or -XX:MaxHeapSize= among them; without one,
// the last -XX:MaxRAM=, the memory the JVM takes itself to have (see
// MaxRAM); "" without either, or for a command whose options cannot be
// read.
func MaxHeap(command, env []string) string {
	opts, _ := Options(command, env)
	heap, ram := "", ""
	for _, w := range opts {
		switch {
		case strings.HasPrefix(w, "-Xmx") || strings.HasPrefix(w, "-XX:MaxHeapSize="):
			heap = w
		case MaxRAM(w):
			ram = w
		}
	}
	if heap == "" {
		return ram
	}
	return heap
}

// MaxRAM says whether the JVM option w gives the memory the JVM takes
// itself to have (-XX:MaxRAM=), not its heap: the heap it sizes by
// default is a quarter of it.
func MaxRAM(w string) bool {
	return strings.HasPrefix(w, "-XX:MaxRAM=")
}
