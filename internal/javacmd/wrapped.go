package javacmd

import (
	"path/filepath"
	"strings"
)

// shells are the programs whose -c script Wrapped reads.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true}

// Wrapped is the java command that a shell command runs (sh, bash or
// dash -c SCRIPT, as `sh -c "java -cp . Bot"`), nil for any other
// command: the script must be one simple command, java's, after an
// optional exec, whose words need no expansion (quotes and backslashes
// only: no variable, substitution, glob, redirection, list or pipe),
// so that its words are for certain those the JVM gets. A wrapper
// script (./run.sh) is not read: what it runs depends on what its lines
// before the java command set, which only a shell can tell.
func Wrapped(command []string) []string {
	if len(command) < 3 || !shells[filepath.Base(command[0])] || command[1] != "-c" {
		return nil
	}
	words, ok := simpleWords(command[2])
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
