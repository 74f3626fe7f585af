// Package filetail reads the end of a file, such as a bot's stderr, to
// quote it (in a fault's detail, on the report's page): cut from a longer
// file, the end begins at a character (UTF-8), not with the rest of one.
package filetail

import (
	"os"
	"strings"
	"unicode/utf8"
)

// Read is the last n bytes of the file at path, less the start of a
// character cut in two, and whether it was cut from a longer file; ""
// when the file is empty or cannot be read.
func Read(path string, n int64) (tail string, cut bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", false
	}
	off := max(st.Size()-max(n, 0), 0)
	b := make([]byte, st.Size()-off)
	k, _ := f.ReadAt(b, off)
	b = b[:k]
	if off == 0 {
		return string(b), false
	}
	for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return string(b), true
}

// lastLineFrom is how much of a file's end LastLine reads to find its
// last line: a line longer is cut, at a character, from its start.
const lastLineFrom = 4096

// LastLine is the last line of the file at path that holds more than
// spaces (a traceback's last line says what went wrong), without its
// surrounding spaces, cut to at most most bytes at a character with
// "..." after; "" when there is none or the file cannot be read.
func LastLine(path string, most int) string {
	tail, _ := Read(path, lastLineFrom)
	lines := strings.Split(tail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "" {
			continue
		}
		if len(line) <= most {
			return line
		}
		cut := most
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		return line[:cut] + "..."
	}
	return ""
}
