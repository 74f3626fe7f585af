// Package userfile reads the files a configuration names (its own .hcl
// files, -var-file, file(), bots_from's info.txt, Blokus stones files)
// with one bound, Limit: a path such as /dev/zero, or a file far larger
// than any configuration needs, ends in an error naming it instead of
// being read until memory runs out.
package userfile

import (
	"fmt"
	"io"
	"os"
)

// Limit is the most arbiter reads of one file a configuration names:
// 16 MiB.
const Limit = 16 << 20

// TooLargeError is the refusal of a file larger than Limit.
type TooLargeError struct{ Path string }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than 16 MiB, the most arbiter reads of a file a configuration names; it stopped reading there", e.Path)
}

// ReadFile reads the file at path whole, or fails with a *TooLargeError
// once it has read Limit bytes and there is more.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Open opens the file at path for reading; a read past Limit bytes fails
// with a *TooLargeError.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &reader{f: f, left: Limit}, nil
}

type reader struct {
	f    *os.File
	left int64
}

func (r *reader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		// One byte more tells a file of exactly Limit bytes from a
		// larger one.
		var b [1]byte
		n, err := r.f.Read(b[:])
		if n > 0 {
			return 0, &TooLargeError{Path: r.f.Name()}
		}
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	return n, err
}

func (r *reader) Close() error { return r.f.Close() }
