package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// holdSetup skips where HoldFolder marks nothing (not root), points
// LentDir at a folder of the test's own, and makes the folders a and
// a/b under base.
func holdSetup(t *testing.T) (base string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: only root lends a folder, so only root marks one (cmd/arbiter's TestTwoArbitersBuildOneFolder is the one CI requires)")
	}
	base = t.TempDir()
	was := LentDir
	LentDir = filepath.Join(base, "lent")
	t.Cleanup(func() { LentDir = was })
	if err := os.MkdirAll(filepath.Join(base, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}

// lockName is the lock file HoldFolder takes for the folder dir.
func lockName(t *testing.T, dir string) string {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(LentDir, fmt.Sprintf("%d-%d.lock", st.Dev, st.Ino))
}

// lockHeldBy starts a process that holds an exclusive flock on the file
// at path until the test ends, and returns its pid once it holds it.
func lockHeldBy(t *testing.T, path string) int {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "-c", `import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)`, path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("the holder of %s: %q, %v", path, line, err)
	}
	return cmd.Process.Pid
}

// waitedFor is the pid HoldFolder of dir says it waits for, failing the
// test when it gets the folder within a second.
func waitedFor(t *testing.T, dir string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	pid := -1
	release, err := HoldFolder(ctx, dir, func(p int) { pid = p })
	if err == nil {
		release()
		t.Fatalf("HoldFolder of %s did not wait for the holder", dir)
	}
	return pid
}

// TestHoldFolderNamesTheHolder: the pid HoldFolder says it waits for is
// the process that holds the folder's lock, read from the kernel's
// locks, not a pid a previous holder left in the lock file.
func TestHoldFolderNamesTheHolder(t *testing.T) {
	base := holdSetup(t)
	dir := filepath.Join(base, "a")
	if err := os.MkdirAll(LentDir, 0o700); err != nil {
		t.Fatal(err)
	}
	name := lockName(t, dir)
	if err := os.WriteFile(name, []byte("4242\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	holder := lockHeldBy(t, name)
	if got := waitedFor(t, dir); got != holder {
		t.Errorf("HoldFolder waited for pid %d, want the holder's %d (4242 is a previous holder's, left in the file)", got, holder)
	}
}

// TestHoldFolderNested: an arbiter's build of a folder and another's of a
// folder inside it (a and a/b) do not run at once, in either order, and
// the one that waits names the other; builds of two folders side by side
// in one (a/b and a/c) do. Once released, no lock file is left in
// LentDir.
func TestHoldFolderNested(t *testing.T) {
	base := holdSetup(t)
	a, ab, ac := filepath.Join(base, "a"), filepath.Join(base, "a", "b"), filepath.Join(base, "a", "c")
	if err := os.Mkdir(ac, 0o755); err != nil {
		t.Fatal(err)
	}
	hold := func(dir string) func() {
		t.Helper()
		release, err := HoldFolder(context.Background(), dir, func(int) { t.Errorf("HoldFolder of %s waited", dir) })
		if err != nil {
			t.Fatal(err)
		}
		return release
	}
	for _, c := range []struct{ first, second string }{{a, ab}, {ab, a}} {
		release := hold(c.first)
		if got := waitedFor(t, c.second); got != os.Getpid() {
			t.Errorf("HoldFolder of %s while %s is held waited for pid %d, want this process, %d", c.second, c.first, got, os.Getpid())
		}
		release()
		hold(c.second)()
	}
	r1, r2 := hold(ab), hold(ac)
	r1()
	r2()
	left, _ := filepath.Glob(filepath.Join(LentDir, "*"))
	if len(left) > 0 {
		t.Errorf("left in LentDir after every hold was released: %v", left)
	}
}

// TestHoldFolderInsideItself: a folder that is also on its own path (a
// bind mount of a inside a itself, dir a/b) is locked once, exclusively,
// and HoldFolder does not wait for itself. The mount is made in a mount
// namespace of a child: the test binary again, under unshare(1).
func TestHoldFolderInsideItself(t *testing.T) {
	if dir := os.Getenv("ARBITER_TEST_HOLD_LOOP"); dir != "" {
		LentDir = filepath.Join(filepath.Dir(dir), "..", "lent")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		release, err := HoldFolder(ctx, dir, func(pid int) {
			t.Errorf("HoldFolder of %s waited for pid %d (this process: %d)", dir, pid, os.Getpid())
		})
		if err != nil {
			t.Fatalf("HoldFolder of %s: %v", dir, err)
		}
		release()
		return
	}
	base := holdSetup(t)
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1) to make a mount namespace with")
	}
	a := filepath.Join(base, "a")
	script := `mount --bind "$1" "$1/b" && exec "$2" -test.run '^TestHoldFolderInsideItself$' -test.v`
	cmd := exec.Command(unshare, "-m", "--propagation", "private", "sh", "-c", script, "sh", a, os.Args[0])
	cmd.Env = append(os.Environ(), "ARBITER_TEST_HOLD_LOOP="+filepath.Join(a, "b"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("HoldFolder in a folder bound inside itself: %v\n%s", err, out)
	}
}

// TestHoldFolderSweepsStaleLocks: a lock file left by an arbiter killed
// while it held it, for a folder no build takes again (removed since),
// is removed by a later arbiter's first build once it is older than
// staleLockAge and no one holds it; a held one, a young one and files
// that are not HoldFolder's stay.
func TestHoldFolderSweepsStaleLocks(t *testing.T) {
	base := holdSetup(t)
	if err := os.MkdirAll(LentDir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * staleLockAge)
	file := func(name string, mtime time.Time) string {
		p := filepath.Join(LentDir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := file("64768-99999991.lock", old)
	young := file("64768-99999992.lock", time.Now())
	held := file("64768-99999993.lock", old)
	other := file("record.json", old)
	lockHeldBy(t, held)
	if err := os.Chtimes(held, old, old); err != nil { // the holder's open kept the times; be sure
		t.Fatal(err)
	}
	release, err := HoldFolder(context.Background(), filepath.Join(base, "a"), func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	release()
	for p, want := range map[string]bool{stale: false, young: true, held: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: there after the sweep = %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
