package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHoldDirOverlap: builds of overlapping dirs (one, or one inside the
// other) run one after the other, builds of other dirs at once.
func TestHoldDirOverlap(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	release := holdDir(dir)
	got := make(chan string, 3)
	for _, d := range []string{sub, other, dir} {
		go func() {
			r := holdDir(d)
			got <- d
			r()
		}()
	}
	if g := <-got; g != other {
		t.Fatalf("%s was held while %s is", g, dir)
	}
	select {
	case g := <-got:
		t.Fatalf("%s was held while %s is", g, dir)
	case <-time.After(50 * time.Millisecond):
	}
	release()
	for range 2 {
		if g := <-got; g != sub && g != dir {
			t.Fatalf("held %s", g)
		}
	}
}
