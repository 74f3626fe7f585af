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
