// Package atomicfile replaces files so that a reader never sees half of
// one: the new content is written beside it and renamed over it. It must
// not leave its temporary file behind when that fails (a full disk). A
// file of lines that grows (AppendLine) never keeps half of one either.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Write replaces the file path with data: written to path+".tmp", then
// renamed over path. On any failure the temporary file is removed, and
// path is left as it was. A failure to create the temporary file names
// it (it may be what is in the way: a folder of that name); a failure
// after it is an *Error, which names path, as the temporary file is gone.
func Write(path string, data []byte, perm os.FileMode) error {
	return write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Copy replaces the file dst with a copy of the file src, as Write does.
func Copy(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return write(dst, perm, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

func write(path string, perm os.FileMode, fill func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	op := "write"
	err = fill(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		op = "replace"
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return &Error{Op: op, Path: path, Err: err}
	}
	return nil
}

// Error is a replacement of Path that failed after its temporary file
// was made (Op "write": writing it, "replace": renaming it over Path).
// That file is removed, so the error names Path, and says that nothing
// was replaced. Err is the failure as the os package gave it (naming the
// temporary file), for errors.Is and errors.As.
type Error struct {
	Op, Path string
	Err      error
}

func (e *Error) Error() string {
	cause := e.Err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(cause, &pe):
		cause = pe.Err
	case errors.As(cause, &le):
		cause = le.Err
	}
	return fmt.Sprintf("%s %s: %v (nothing was replaced)", e.Op, e.Path, cause)
}

func (e *Error) Unwrap() error { return e.Err }

// AppendLine writes line at the end of f, a file of lines that only this
// process writes. A write that fails part way (a full disk, a quota,
// RLIMIT_FSIZE) is cut off again: the file ends with its last whole line.
// When that cut fails too, the error is also a *TornError: a line
// appended after it would be glued to the torn one.
func AppendLine(f *os.File, line []byte) error {
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	n, err := f.Write(line)
	if err == nil || n == 0 {
		return err
	}
	if terr := f.Truncate(end); terr != nil {
		return errors.Join(err, &TornError{Name: f.Name(), Err: terr})
	}
	if _, serr := f.Seek(end, io.SeekStart); serr != nil {
		return errors.Join(err, serr)
	}
	return err
}

// TornError is a file that keeps the torn line of a failed AppendLine,
// as Err, the cut's error, left it.
type TornError struct {
	Name string
	Err  error
}

func (e *TornError) Error() string {
	return fmt.Sprintf("%s keeps a torn last line: %v", e.Name, e.Err)
}

func (e *TornError) Unwrap() error { return e.Err }
