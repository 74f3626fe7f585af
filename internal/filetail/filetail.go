// Package filetail reads the end of a file, such as a bot's stderr, to
// quote it (in a fault's detail, on the report's page): cut from a longer
// file, the end begins at a character (UTF-8), not with the rest of one.
package filetail

import (
	"os"
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
