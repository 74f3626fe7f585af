package proc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGiveBackAbandoned gives back folders from records in LentDir, one
// row a record: only an ended arbiter's, never to the sandbox's uid, only
// what is in the folder, and not a folder no longer lent.
func TestGiveBackAbandoned(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: only root lends a folder (cmd/arbiter's TestKilledBuildFolderGivenBack is the one CI requires)")
	}
	self, err := processStart(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	nobody := fmt.Sprintf("%d:%d", SandboxUID, SandboxUID)
	for _, c := range []struct {
		name    string
		start   uint64 // the lender's start time: self's is a live arbiter
		owners  []lentOwner
		lentDir bool              // the folder is still lent
		want    map[string]string // owners after, by path within base
		kept    bool              // the record stays
		err     string
	}{
		{name: "an ended arbiter's folder is given back", start: self + 1,
			owners: []lentOwner{{Path: "other", UID: 1234, GID: 1235}}, lentDir: true,
			want: map[string]string{"f": "0:0", "f/a": "0:0", "f/other": "1234:1235", "f/made": "0:0", "outside": nobody}},
		{name: "a live arbiter's folder is its build's", start: self, lentDir: true,
			want: map[string]string{"f": nobody, "f/a": nobody, "f/other": nobody}, kept: true},
		{name: "a record gives nothing to the sandbox's uid nor outside the folder", start: self + 1,
			owners:  []lentOwner{{Path: "a", UID: SandboxUID, GID: SandboxUID}, {Path: "../outside", UID: 1234, GID: 1235}, {Path: "other", UID: 1234, GID: SandboxUID}},
			lentDir: true, want: map[string]string{"f/a": "0:0", "f/other": "0:0", "outside": nobody}},
		{name: "a folder given back by hand is left as it is", start: self + 1,
			want: map[string]string{"f": "0:0", "f/a": nobody}, err: "no longer lent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			LentDir = filepath.Join(base, "lent")
			t.Cleanup(func() { LentDir = "/var/lib/arbiter/lent" })
			dir := filepath.Join(base, "f")
			for _, p := range []string{dir + "/a", dir + "/other", dir + "/made", base + "/outside"} {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				_ = os.Lchown(p, SandboxUID, SandboxUID)
			}
			if c.lentDir {
				_ = os.Lchown(dir, SandboxUID, SandboxUID)
			}
			file, err := writeLentRecord(lentRecord{Dir: dir, Owners: c.owners, Pid: os.Getpid(), Start: c.start, Boot: bootID()})
			if err != nil {
				t.Fatal(err)
			}
			got := GiveBackAbandoned()
			for p, w := range c.want {
				st, err := os.Lstat(filepath.Join(base, p))
				if err != nil {
					t.Fatal(err)
				}
				sys := st.Sys().(*syscall.Stat_t)
				if o := fmt.Sprintf("%d:%d", sys.Uid, sys.Gid); o != w {
					t.Errorf("%s is owned by %s, want %s", p, o, w)
				}
			}
			if _, err := os.Stat(file); (err == nil) != c.kept {
				t.Errorf("the record is kept: %v, want %v", err == nil, c.kept)
			}
			if c.kept {
				if len(got) != 0 {
					t.Errorf("gave back %v, want nothing", got)
				}
				return
			}
			if len(got) != 1 || got[0].Dir != dir || got[0].Pid != os.Getpid() {
				t.Fatalf("gave back %+v, want %s of pid %d", got, dir, os.Getpid())
			}
			if e := fmt.Sprint(got[0].Err); c.err == "" && got[0].Err != nil || c.err != "" && !strings.Contains(e, c.err) {
				t.Errorf("error %v, want %q", got[0].Err, c.err)
			}
		})
	}
}

// TestLendTreeRecordsFirst lends a folder and checks its record: the
// folder's owner, the entries of another owner, this process; and that
// giving it back removes the record and restores each owner.
func TestLendTreeRecordsFirst(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: only root lends a folder")
	}
	base := t.TempDir()
	LentDir = filepath.Join(base, "lent")
	t.Cleanup(func() { LentDir = "/var/lib/arbiter/lent" })
	dir := filepath.Join(base, "f")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", "sub/b"} {
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Lchown(filepath.Join(dir, "sub/b"), 1234, 1235); err != nil {
		t.Fatal(err)
	}
	l, err := lendTree(dir, SandboxUID, SandboxUID)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(l.file)
	if err != nil {
		t.Fatal(err)
	}
	var rec lentRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Dir != dir || rec.UID != 0 || rec.Pid != os.Getpid() || len(rec.Owners) != 1 || rec.Owners[0] != (lentOwner{Path: "sub/b", UID: 1234, GID: 1235}) {
		t.Errorf("record %+v", rec)
	}
	for _, p := range []string{".", "a", "sub", "sub/b"} {
		if st, _ := os.Lstat(filepath.Join(dir, p)); st.Sys().(*syscall.Stat_t).Uid != SandboxUID {
			t.Errorf("%s is not lent", p)
		}
	}
	l.giveBack()
	want := map[string]uint32{".": 0, "a": 0, "sub": 0, "sub/b": 1234}
	for p, w := range want {
		if st, _ := os.Lstat(filepath.Join(dir, p)); st.Sys().(*syscall.Stat_t).Uid != w {
			t.Errorf("%s is owned by uid %d after, want %d", p, st.Sys().(*syscall.Stat_t).Uid, w)
		}
	}
	if _, err := os.Stat(l.file); err == nil {
		t.Errorf("the record %s is left after the give-back", l.file)
	}
}

// swapFolder swaps home/bot for a symbolic link to to and back, until
// the file stop exists: what a bot's author who owns the folder holding
// their bot's may do while arbiter lends it or gives it back.
func swapFolder(home, to, stop string) {
	bot, real := filepath.Join(home, "bot"), filepath.Join(home, "bot.real")
	for {
		if _, err := os.Stat(stop); err == nil {
			return
		}
		if os.Rename(bot, real) == nil {
			_ = os.Symlink(to, bot)
			time.Sleep(500 * time.Microsecond)
			_ = os.Remove(bot)
			_ = os.Rename(real, bot)
		}
		time.Sleep(500 * time.Microsecond)
	}
}

// TestLendingFollowsNoSwappedFolder lends a bot's folder and gives it
// back again and again while its author (uid 1000, who owns the folder
// above it) swaps it for a link to a folder of root's files named as the
// bot's: none of root's files may change owner. Before, the folder was
// walked by path and chowned by path, so the swap led both into the
// other folder.
func TestLendingFollowsNoSwappedFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs the tests as root, but here uid is", os.Geteuid())
		}
		t.Skip("not root: only root lends a folder")
	}
	const author, files = 1000, 500
	base := t.TempDir()
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	LentDir = filepath.Join(base, "lent")
	t.Cleanup(func() { LentDir = "/var/lib/arbiter/lent" })
	home, victim := filepath.Join(base, "home"), filepath.Join(base, "victim")
	bot := filepath.Join(home, "bot")
	for _, d := range []string{bot, victim} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range files {
		name := fmt.Sprintf("f%04d", i)
		if err := os.WriteFile(filepath.Join(victim, name), nil, 0o600); err != nil { // root's, as /etc's
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bot, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		return os.Lchown(p, author, author)
	})
	// The test binary's folder is root's alone: the author's copy.
	swapper := filepath.Join(base, "swapper")
	if data, err := os.ReadFile(botBinary(t)); err != nil || os.WriteFile(swapper, data, 0o755) != nil {
		t.Fatal("copying the test binary:", err)
	}
	stop := filepath.Join(base, "stop")
	sw := exec.Command(swapper)
	sw.Env = append(os.Environ(), "PROC_TEST_BOT=swap", "SWAP_HOME="+home, "SWAP_TO="+victim, "SWAP_STOP="+stop)
	sw.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: author, Gid: author}}
	if err := sw.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.WriteFile(stop, nil, 0o644); _ = sw.Wait() }()
	for try := range 30 {
		var l *lending
		for l == nil {
			l, _ = lendTree(bot, SandboxUID, SandboxUID) // refused while bot is a link
		}
		if n := notRoots(victim, files); n > 0 {
			t.Fatalf("try %d: lending %s, %d of root's files outside it (%s) changed owner", try, bot, n, victim)
		}
		for l.giveBack() != nil { // refused while bot is a link
		}
		if n := notRoots(victim, files); n > 0 {
			t.Fatalf("try %d: giving back %s, %d of root's files outside it (%s) changed owner", try, bot, n, victim)
		}
	}
}

// notRoots counts the files f0000… in dir that root no longer owns.
func notRoots(dir string, files int) int {
	n := 0
	for i := range files {
		if st, err := os.Lstat(filepath.Join(dir, fmt.Sprintf("f%04d", i))); err == nil && st.Sys().(*syscall.Stat_t).Uid != 0 {
			n++
		}
	}
	return n
}

// TestLendingNotRecordedIsNoFault: a lending whose record cannot be
// written (LentDir not writable) lends nothing, and its error is no
// *Fault of the bot's, but arbiter's own.
func TestLendingNotRecordedIsNoFault(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: only root lends a folder")
	}
	base := t.TempDir()
	notDir := filepath.Join(base, "lent-file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	LentDir = filepath.Join(notDir, "lent")
	t.Cleanup(func() { LentDir = "/var/lib/arbiter/lent" })
	dir := filepath.Join(base, "f")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := lendTree(dir, SandboxUID, SandboxUID)
	var f *Fault
	if err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), "recording the lending") {
		t.Fatalf("lendTree: %v, want arbiter's error recording the lending", err)
	}
	if st, _ := os.Lstat(dir); st.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("%s was lent without its record", dir)
	}
}

// A file of the lent folder that has another name outside it (a hard
// link its author made) is not given to the folder's owner, though the
// sandbox's uid owns it: its other name is not the folder's to give.
func TestGiveBackLeavesHardLinksAlone(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("lending needs root")
	}
	root := t.TempDir()
	dir, other := filepath.Join(root, "bot"), filepath.Join(root, "other")
	for _, d := range []string{dir, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	x := filepath.Join(other, "x")
	if err := os.WriteFile(x, []byte("not the bot's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(x, filepath.Join(dir, "x")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{x, dir} {
		if err := os.Lchown(p, SandboxUID, SandboxUID); err != nil {
			t.Fatal(err)
		}
	}
	if err := giveBackTree(lentRecord{Dir: dir, UID: 1000, GID: 1000}); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(x, &st); err != nil {
		t.Fatal(err)
	}
	if st.Uid != SandboxUID {
		t.Errorf("%s, outside the lent folder, was given to uid %d", x, st.Uid)
	}
	if err := unix.Stat(dir, &st); err != nil || st.Uid != 1000 {
		t.Errorf("the folder itself is owned by uid %d (%v), want 1000", st.Uid, err)
	}
}
