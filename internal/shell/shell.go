// Package shell writes the command lines arbiter prints for a user to
// paste (a refusal's "carry on with" command, merge's next stage) and
// the ones it writes into scripts (the Slurm jobs), as words a POSIX
// shell reads back unchanged: a directory with a space or a quote in its
// name must not split or open a quote when pasted.
package shell

import "strings"

// safe is every byte a word may hold and still need no quoting.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-"

// Word is s as one word for a POSIX shell: as it is when it needs no
// quoting, else in single quotes (a quote in s closed, escaped and
// reopened).
func Word(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Line is args as a command line, each a Word.
func Line(args ...string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = Word(a)
	}
	return strings.Join(words, " ")
}

// Fields are the words of a line as a POSIX shell splits it, each as it
// is written (its quotes kept, so that a Word comes back as Word wrote
// it): blanks inside single or double quotes, or after a backslash, are
// a word's own, which strings.Fields would split it at.
func Fields(line string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0) // in a word; the quote it is inside of
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n'):
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
			continue
		case c == '\\' && quote != '\'' && i+1 < len(line):
			w.WriteByte(c)
			i++
			c = line[i]
		case c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		}
		w.WriteByte(c)
		in = true
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
