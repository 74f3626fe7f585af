package proctest

import (
	"syscall"
	"testing"
)

// WithFileLimit runs write with RLIMIT_FSIZE at limit bytes, as a full
// disk or a quota would stop a file there, and returns write's error. It
// skips the test when the limit cannot be lowered. The limit is the
// process's: a test that calls it must not run in parallel with others
// that write files.
func WithFileLimit(t testing.TB, limit int, write func() error) error {
	t.Helper()
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	small := was
	small.Cur = uint64(limit)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skip("cannot lower RLIMIT_FSIZE:", err)
	}
	err := write()
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Fatal(err)
	}
	return err
}
