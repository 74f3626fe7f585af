package proc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// auctionLike makes a folder as an Auction seat's: game/ holding state,
// log and n files of size bytes of the bot's.
func auctionLike(t testing.TB, n, size int) (string, *FolderQuota) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game")
	os.Mkdir(game, 0o755)
	os.WriteFile(filepath.Join(game, "state"), []byte("state\n"), 0o644)
	os.WriteFile(filepath.Join(game, "log"), make([]byte, 5000), 0o644)
	for i := range n {
		os.WriteFile(filepath.Join(game, "p"+strings.Repeat("x", i)), make([]byte, size), 0o644)
	}
	return dir, &FolderQuota{Count: 3, Bytes: 1000, Rule: "3 files and 1000 bytes",
		Given: map[string]int64{"game": 0, "game/state": 6, "game/log": 5000}}
}

// TestFolderQuota: the referee's own entries do not count (only what a
// given file holds beyond its size); the bot's entries and bytes do.
func TestFolderQuota(t *testing.T) {
	for _, c := range []struct {
		name      string
		n, size   int
		grownLog  int
		wantFault string
	}{
		{"within", 3, 300, 0, ""},
		{"one entry too many", 4, 1, 0, "more than 3 files and folders"},
		{"too many bytes", 2, 501, 0, "more than 1000 bytes"},
		{"a grown log counts its growth", 1, 1, 1000, "more than 1000 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, q := auctionLike(t, c.n, c.size)
			if c.grownLog > 0 {
				os.WriteFile(filepath.Join(dir, "game", "log"), make([]byte, 5000+c.grownLog), 0o644)
			}
			f := q.over(dir)
			switch {
			case c.wantFault == "" && f != nil:
				t.Errorf("fault %v, want none", f)
			case c.wantFault != "" && (f == nil || f.Kind != drivers.FaultFiles || !strings.Contains(f.Detail, c.wantFault) || !strings.Contains(f.Detail, "its limit of 3 files and 1000 bytes")):
				t.Errorf("fault %v, want a files fault saying %q and naming the limit", f, c.wantFault)
			}
		})
	}
}

// TestFolderQuotaOverBothNamesTheCount: a folder over both the count and
// the bytes has its count named, wherever the file that passes the bytes
// comes in the directory's order (its name, its place among the files
// made); before, the look named whichever bound it passed first. A folder
// within its count that cannot be read is named before the bytes, the
// first of two by name.
func TestFolderQuotaOverBothNamesTheCount(t *testing.T) {
	for big := range 6 {
		for _, names := range []string{"abcdef", "fedcba", "pqrsuv"} {
			dir, q := auctionLike(t, 0, 0)
			for i, c := range names {
				size := 1
				if i == big {
					size = 2000
				}
				os.WriteFile(filepath.Join(dir, "game", "p"+string(c)), make([]byte, size), 0o644)
			}
			if f := q.over(dir); f == nil || !strings.Contains(f.Detail, "more than 3 files and folders") {
				t.Errorf("files %s, the %d. of 2000 bytes: fault %v, want one naming the count (more than 3 files and folders)", names, big+1, f)
			}
		}
	}
}

// TestFolderQuotaUnreadableFirstByName: of two folders that cannot be
// read, in a folder within its count but over its bytes, the look names
// the first by name, whichever the directory lists first, and not the
// bytes. Root reads every folder, so as root
// TestFolderQuotaUnreadableFirstByNameAsNobody runs it as uid 65534.
func TestFolderQuotaUnreadableFirstByName(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any folder: TestFolderQuotaUnreadableFirstByNameAsNobody runs this as uid 65534")
	}
	for _, pair := range [][2]string{{"ha", "hb"}, {"k1", "k2"}, {"m1", "m2"}, {"t1", "t2"}} {
		for _, big := range []string{"b", "n", "z"} {
			dir, q := auctionLike(t, 0, 0)
			q.Count = 10
			os.WriteFile(filepath.Join(dir, "game", big), make([]byte, 2000), 0o644)
			for _, name := range []string{pair[1], pair[0]} {
				p := filepath.Join(dir, "game", name)
				os.Mkdir(p, 0o300)
				defer os.Chmod(p, 0o700)
			}
			if f := q.over(dir); f == nil || !strings.Contains(f.Detail, "game/"+pair[0]+" (") {
				t.Errorf("folders %v and the file %s: fault %v, want one naming the folder game/%s, the first by name that cannot be read", pair, big, f, pair[0])
			}
		}
	}
}

// TestFolderQuotaOwnFolderUnreadable: a bot that takes its own folder's
// permissions away (chmod 0 ., where arbiter is not root) is told so, not
// that it made a folder "." in its folder. As root
// TestFolderQuotaUnreadableFirstByNameAsNobody runs it as uid 65534.
func TestFolderQuotaOwnFolderUnreadable(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any folder: TestFolderQuotaUnreadableFirstByNameAsNobody runs this as uid 65534")
	}
	dir, q := auctionLike(t, 0, 0)
	os.Chmod(dir, 0)
	defer os.Chmod(dir, 0o755)
	for _, f := range []*Fault{q.over(dir), q.left(dir)} {
		if f == nil || f.Kind != drivers.FaultFiles || !strings.HasPrefix(f.Detail, "took its own folder's permissions away: arbiter cannot read it (permission denied), so what it holds cannot be counted") {
			t.Errorf("fault %v, want a files fault saying the bot took its own folder's permissions away", f)
		}
	}
}

func TestFolderQuotaUnreadableFirstByNameAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: TestFolderQuotaUnreadableFirstByName runs as this user")
	}
	cmd, _ := asNobody(t, "^TestFolderQuota(UnreadableFirstByName|OwnFolderUnreadable)$")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestFolderQuotaUnreadableFirstByName") ||
		!strings.Contains(string(out), "--- PASS: TestFolderQuotaOwnFolderUnreadable") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
}

// BenchmarkFolderQuota is one look of the watch at a folder within its
// quota, as an Auction bot's is most of the time.
func BenchmarkFolderQuota(b *testing.B) {
	dir, q := auctionLike(b, 3, 10)
	for b.Loop() {
		if q.over(dir) != nil {
			b.Fatal("over")
		}
	}
}

// TestRunOnceQuota: a per-move bot that writes past its folder's quota
// gets a files fault naming the quota, however it ended: killed by
// SIGXFSZ at RLIMIT_FSIZE (its one file cut at the quota's bytes + 1),
// exited with a failing status after a write failed, or stopped by the
// watch while it wrote many files each within the cap, confined or bare;
// a bot within its quota answers.
func TestRunOnceQuota(t *testing.T) {
	confined := drivers.Limits{Memory: 256 << 20}
	many := "i=0; while [ $i -lt 30 ]; do head -c 1500000 /dev/zero > f$i; i=$((i+1)); done; echo 1"
	for _, c := range []struct {
		name, script string
		limits       drivers.Limits
		want         string // in the fault's detail; "" for an answer
		bigSize      int64  // the size of the file "big" after the run, when set
	}{
		{"killed by SIGXFSZ", "exec head -c 5000000 /dev/zero > big", confined, "over its limit of 10 files and 2000000 bytes", 2_000_001},
		{"failing after EFBIG", "head -c 5000000 /dev/zero > big; exit 1", confined, "over its limit of 10 files and 2000000 bytes", 2_000_001},
		{"many files, confined", many, confined, "while it ran, over its limit of 10 files and 2000000 bytes: stopped", 0},
		{"many files, bare", many, drivers.Limits{}, "while it ran, over its limit of 10 files and 2000000 bytes: stopped", 0},
		{"within", "head -c 1000000 /dev/zero > big; echo 1", confined, "", 1_000_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeUnderQuota(t, dir, c.script, c.limits, 0, c.want)
			if c.bigSize > 0 {
				if fi, err := os.Stat(filepath.Join(dir, "big")); err != nil || fi.Size() != c.bigSize {
					t.Errorf("big: %v, %v; want %d bytes", fi, err, c.bigSize)
				}
			}
		})
	}
}

// TestRunOnceQuotaHoles: what a bot can do to its folder that the size
// of its files does not show, or that it does after its answer, is over
// its quota all the same. A reservation by fallocate that keeps the
// file's size (FALLOC_FL_KEEP_SIZE) counts by its blocks; in the sandbox
// it is refused, so nothing is reserved at all. Files written in the
// grace after the answer are measured: the run gets a files fault, its
// answer is not taken.
func TestRunOnceQuotaHoles(t *testing.T) {
	if _, err := os.Stat("/usr/bin/fallocate"); err != nil {
		t.Skip("no fallocate(1) here")
	}
	confined := drivers.Limits{Memory: 256 << 20}
	reserve := ": > blocks; fallocate -n -l 300M blocks; echo 1"
	after := "echo 1; i=0; while [ $i -lt 40 ]; do head -c 1000000 /dev/zero > g$i; i=$((i+1)); done"
	for _, c := range []struct {
		name, script string
		limits       drivers.Limits
		sandbox      bool
		want         string // in the fault's detail; "" for the answer 1
	}{
		{"fallocate keeping the size, bare", reserve, drivers.Limits{}, false, "over its limit of 10 files and 2000000 bytes"},
		{"fallocate keeping the size, confined", reserve, confined, false, "over its limit of 10 files and 2000000 bytes"},
		{"fallocate keeping the size, sandbox", reserve, defaultLimits(), true, ""},
		{"files written after the answer, bare", after, drivers.Limits{}, false, "over its limit of 10 files and 2000000 bytes"},
		{"files written after the answer, confined", after, confined, false, "over its limit of 10 files and 2000000 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.sandbox && !Machine().Sandbox {
				if os.Getenv("CI") == "true" {
					t.Fatalf("CI runs the tests with the sandbox, but here it is not: %s", Machine().Why["sandbox"])
				}
				t.Skipf("no sandbox here: %s", Machine().Why["sandbox"])
			}
			dir := t.TempDir()
			if c.sandbox {
				readable(t, dir)
				os.Chmod(dir, 0o777)
			}
			writeUnderQuota(t, dir, c.script, c.limits, 300*time.Millisecond, c.want)
			if c.want == "" {
				if fi, err := os.Stat(filepath.Join(dir, "blocks")); err == nil && DiskUsage(fi) > 2_000_000 {
					t.Errorf("blocks takes %d bytes on the disk, want the reservation refused", DiskUsage(fi))
				}
			}
		})
	}
}

// TestRunOnceQuotaUnreadable: a folder the bot made that arbiter cannot
// read (mode 0300: arbiter is not root) hides nothing: the run is
// stopped with a files fault naming it. Root reads every folder, so as
// root TestRunOnceQuotaUnreadableAsNobody runs it as uid 65534.
func TestRunOnceQuotaUnreadable(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads any folder: TestRunOnceQuotaUnreadableAsNobody runs this as uid 65534")
	}
	dir := t.TempDir()
	script := "mkdir h; chmod 300 h; i=0; while [ $i -lt 40 ]; do head -c 1000000 /dev/zero > h/f$i; i=$((i+1)); done; echo 1"
	reply, err := RunOnce(context.Background(), OnceSpec{Bot: "hider", Argv: []string{"/bin/sh", "-c", script},
		Dir: dir, Timeout: 10 * time.Second,
		Quota: &FolderQuota{Count: 10, Bytes: 2_000_000, Rule: "10 files and 2000000 bytes"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := reply.Fault; f == nil || f.Kind != drivers.FaultFiles || !strings.Contains(f.Detail, "h (") || !strings.Contains(f.Detail, "its limit of 10 files and 2000000 bytes") {
		t.Errorf("reply %+v (fault %v), want a files fault naming the folder h", reply, f)
	}
	os.Chmod(filepath.Join(dir, "h"), 0o700)
}

func TestRunOnceQuotaUnreadableAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: TestRunOnceQuotaUnreadable runs as this user")
	}
	cmd, _ := asNobody(t, "^TestRunOnceQuotaUnreadable$")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestRunOnceQuotaUnreadable") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
}

// writeUnderQuota runs script in dir under limits (grace as OnceSpec's),
// its folder's quota 10 files and 2,000,000 bytes, and checks that it
// answers 1 (want "") or gets a files fault whose detail says want.
func writeUnderQuota(t *testing.T, dir, script string, limits drivers.Limits, grace time.Duration, want string) {
	t.Helper()
	reply, err := RunOnce(context.Background(), OnceSpec{Bot: "writer", Argv: []string{"/bin/sh", "-c", script},
		Dir: dir, Timeout: 10 * time.Second, Limits: limits, Grace: grace,
		Quota: &FolderQuota{Count: 10, Bytes: 2_000_000, Rule: "10 files and 2000000 bytes"}})
	if err != nil {
		t.Fatal(err)
	}
	switch f := reply.Fault; {
	case want == "" && (f != nil || reply.Line != "1"):
		t.Errorf("reply %+v (fault %v), want the answer 1", reply, f)
	case want != "" && (f == nil || f.Kind != drivers.FaultFiles || !strings.Contains(f.Detail, want)):
		t.Errorf("reply %+v (fault %v), want a files fault saying %q", reply, f, want)
	}
}

// TestRunOnceQuotaLineBeforeWatch: a per-move bot that printed its line
// and then wrote past its quota, whose reader had not yet taken the line
// when the watch stopped the run (held back, as on a starved machine),
// has the line read from the pipe (a JVM's "#" report line before its
// error file is so judged by its memory) and is still judged by the
// files fault: the answer is not taken.
func TestRunOnceQuotaLineBeforeWatch(t *testing.T) {
	var line string
	testHookRead = func(r *onceRun) {
		for end := time.Now().Add(20 * time.Second); r.over.Load() == nil && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
		reply := r.readAnswer()
		line = reply.Line
		// What read returns now is the pipe's next line: none, so the
		// watch's fault; verdict judges by it either way.
	}
	defer func() { testHookRead = nil }()
	dir := t.TempDir()
	writeUnderQuota(t, dir, "echo 1; i=0; while [ $i -lt 40 ]; do head -c 1000000 /dev/zero > g$i; i=$((i+1)); done; sleep 10", drivers.Limits{}, 0,
		"while it ran, over its limit of 10 files and 2000000 bytes: stopped")
	if line != "1" {
		t.Errorf("the reader held back until the watch stopped the run read %q, want the line 1 the bot had printed", line)
	}
}
