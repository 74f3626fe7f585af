// Package userfile reads the files a configuration names (its own .hcl
// files, -var-file, file(), bots_from's info.txt, Blokus stones files)
// with one bound, Limit: a path such as /dev/zero, or a file far larger
// than any configuration needs, ends in an error naming it instead of
// being read until memory runs out. A leading UTF-8 byte order mark
// (Notepad writes one by default) is dropped: it is no character of the
// file, and kept it would stick to the file's first word (a player's
// command "\ufeffpython3", which is not found).
package userfile

import (
	"bytes"
	"errors"
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

// BOM is the UTF-8 byte order mark, which Open drops from a file's start.
var BOM = []byte{0xef, 0xbb, 0xbf}

// Open opens the file at path for reading, without the UTF-8 byte order
// mark it may start with; a read past Limit bytes fails with a
// *TooLargeError.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, len(BOM))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		f.Close()
		return nil, err
	}
	head = head[:n]
	if bytes.Equal(head, BOM) {
		head = nil
	}
	return &reader{f: f, head: head, left: Limit - int64(n)}, nil
}

type reader struct {
	f *os.File
	// head is what Open read of the file's start to look for a byte
	// order mark, given before the rest.
	head []byte
	left int64
}

func (r *reader) Read(p []byte) (int, error) {
	if len(r.head) > 0 {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
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
