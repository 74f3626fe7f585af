package engine

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLockProbeDoesNotRefuseATaker: lockedBy (the merge asking whether a
// shard still runs) takes a shared lock for an instant, before any holder
// details are in the file; a run taking the lock just then waits for the
// probe to let go rather than refusing its own directory as "in use by
// another process which has not written its details yet".
func TestLockProbeDoesNotRefuseATaker(t *testing.T) {
	dir := t.TempDir()
	var stop atomic.Bool
	var probes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			lockedBy(dir)
			probes.Add(1)
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()
	for i := 0; i < 2000; i++ {
		l, err := LockDir(dir)
		if err != nil {
			t.Fatalf("LockDir %d (after %d probes): %v", i, probes.Load(), err)
		}
		if err := l.Unlock(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLockedErrorQuotesDir: the refusal quotes the directory as it
// quotes the holder's command line, so a line break in its name does not
// read as the end of the message.
func TestLockedErrorQuotesDir(t *testing.T) {
	for _, e := range []*LockedError{{Dir: "res\nults/"}, {Dir: "res\nults", Orphaned: true}} {
		if got := e.Error(); !strings.HasPrefix(got, "'res\nults' is ") {
			t.Errorf("Error() = %q, want it to begin with the directory quoted, 'res\\nults'", got)
		}
	}
	if got := (&LockedError{Dir: "./out/"}).Error(); !strings.HasPrefix(got, "out is in use by ") {
		t.Errorf("Error() = %q, want a plain directory as it is", got)
	}
}
