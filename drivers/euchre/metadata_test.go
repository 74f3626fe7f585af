package euchre

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/internal/proctest"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// hiddenTime is the first of the times the time-hiding bot gives its
// folder and file: 2001-09-09, plus its count of decisions in seconds,
// long before any file written now.
const hiddenTime = 1_000_000_000

// The ACL-hiding bot keeps, beside its one small memory file, 250 named
// users' ids (2 KB) in an access ACL of its folder and of that file; the
// time-hiding bot keeps its count of decisions in their modification and
// access times; the mode-hiding bot keeps it in the group's and others'
// bits of their modes, marked by the sticky bit. Each says on stderr what it read back at each decision
// ("read back ...").
func init() {
	hide := func(get func(string) (uint32, bool), set func(string, uint32) error) func([]string) int {
		return func([]string) int {
			in, _ := io.ReadAll(os.Stdin)
			var n uint32
			for _, p := range []string{".", counterFile} {
				if v, ok := get(p); ok {
					fmt.Fprintf(os.Stderr, "read back %d from %s\n", v, p)
					n = max(n, v)
				}
			}
			if err := os.WriteFile(counterFile, []byte("small\n"), 0o644); err != nil {
				return 1
			}
			for _, p := range []string{counterFile, "."} {
				if err := set(p, n+1); err != nil {
					fmt.Fprintf(os.Stderr, "could not hide in %s: %v\n", p, err)
				}
			}
			return counterAnswer(string(in), 0)
		}
	}
	testbot.Register("acl-hider", hide(func(p string) (uint32, bool) {
		acl, err := readACL(p, aclAccess)
		for _, e := range acl {
			if e.tag == aclUser && err == nil {
				return e.id / 1000, true
			}
		}
		return 0, false
	}, func(p string, n uint32) error {
		return unix.Setxattr(p, aclAccess, encodeACL(namedACL(n*1000, 250)), 0)
	}))
	testbot.Register("time-hider", hide(func(p string) (uint32, bool) {
		var st unix.Stat_t
		if unix.Lstat(p, &st) != nil || st.Mtim.Sec < hiddenTime || st.Mtim.Sec >= hiddenTime+1_000_000 {
			return 0, false
		}
		return uint32(st.Mtim.Sec - hiddenTime), true
	}, func(p string, n uint32) error {
		t := time.Unix(hiddenTime+int64(n), 0)
		return os.Chtimes(p, t, t)
	}))
	testbot.Register("mode-hider", hide(func(p string) (uint32, bool) {
		var st unix.Stat_t
		if unix.Lstat(p, &st) != nil || st.Mode&unix.S_ISVTX == 0 {
			return 0, false
		}
		return st.Mode & 0o77, true
	}, func(p string, n uint32) error {
		// Its own bits kept: it reads, writes and enters them.
		own := uint32(0o600)
		if p == "." {
			own = 0o700
		}
		return unix.Chmod(p, own|unix.S_ISVTX|n&0o77)
	}))
}

// namedACL is an ACL of count named users from first, read and write for
// them, with the owner's rwx, the group's and the others' r-x, and a mask
// of rwx.
func namedACL(first uint32, count int) []aclEntry {
	acl := []aclEntry{{aclUserObj, 7, ^uint32(0)}}
	for i := range count {
		acl = append(acl, aclEntry{aclUser, 6, first + uint32(i)})
	}
	return append(acl, aclEntry{aclGroupObj, 5, ^uint32(0)}, aclEntry{aclMask, 7, ^uint32(0)}, aclEntry{aclOther, 5, ^uint32(0)})
}

// encodeACL is acl as the value of its extended attribute.
func encodeACL(acl []aclEntry) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range acl {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}

// A bot that keeps state in ACLs of its memory folder and file breaks the
// memory rule under a plan that records memory_metadata: its folder is
// emptied and made again, and it reads nothing back.
func TestMemoryInACLs(t *testing.T) {
	if err := unix.Setxattr(t.TempDir(), aclAccess, encodeACL(namedACL(1000, 1)), 0); err != nil {
		t.Skipf("no ACLs here: %v", err)
	}
	testHiding(t, "acl-hider", "an ACL other than it inherits ("+aclAccess+")")
}

// A bot that keeps state in the times of its memory folder and file reads
// back the epoch at its next decision under a plan that records
// memory_metadata, arbiter having reset them; no fault.
func TestMemoryInTimes(t *testing.T) {
	testHiding(t, "time-hider", "")
}

// A bot that keeps state in the modes of its memory folder and file reads
// back nothing at its next decision under a plan that records
// memory_metadata, arbiter having reset them, and reads and rewrites its
// file (counterAnswer) all the same; no fault. A plan made before the
// rule leaves them: it reads back what it hid.
func TestMemoryInModes(t *testing.T) {
	testHiding(t, "mode-hider", "")
}

// The ACLs a memory folder and its file inherit from the host's default
// ACL of the folder's parent are the host's, not the bot's, whatever the
// modes: no breach. An ACL of the bot's own, an access ACL on the folder
// or file or a default ACL on the folder, breaks the rule, the folder
// made again with what it inherits; a plan made before the rule leaves
// it.
func TestCheckMemoryACLs(t *testing.T) {
	old := DefaultSettings()
	old.MemoryMetadata = false
	for _, tc := range []struct{ on, attr string }{{"", aclAccess}, {"m", aclAccess}, {"", aclDefault}} {
		t.Run(filepath.Join("bot", tc.on)+" "+tc.attr, func(t *testing.T) {
			parent := t.TempDir()
			host := namedACL(4242, 2)
			if err := unix.Setxattr(parent, aclDefault, encodeACL(host), 0); err != nil {
				t.Skipf("no ACLs here: %v", err)
			}
			dir := filepath.Join(parent, "bot")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "m"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			if acl, err := readACL(filepath.Join(dir, "m"), aclAccess); err != nil || len(acl) == 0 {
				t.Fatalf("the file inherited no ACL (%v)", err)
			}
			if problem, err := checkMemory(dir, DefaultSettings()); err != nil || problem != "" {
				t.Fatalf("with the host's ACLs: problem %q, err %v; want none", problem, err)
			}
			if err := unix.Setxattr(filepath.Join(dir, tc.on), tc.attr, encodeACL(namedACL(7000, 3)), 0); err != nil {
				t.Fatal(err)
			}
			if problem, err := checkMemory(dir, old); err != nil || problem != "" {
				t.Errorf("without memory_metadata: problem %q, err %v; want none", problem, err)
			}
			problem, err := checkMemory(dir, DefaultSettings())
			if err != nil || !strings.Contains(problem, "an ACL other than it inherits ("+tc.attr+")") {
				t.Fatalf("problem %q, err %v; want the rule broken by the %s of %q", problem, err, tc.attr, tc.on)
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
				t.Errorf("after the check: %d entries, err %v; want the folder emptied", len(entries), err)
			}
			if def, err := readACL(dir, aclDefault); err != nil || fmt.Sprint(def) != fmt.Sprint(host) {
				t.Errorf("after the check the folder's default ACL is %v (err %v), want the host's %v", def, err, host)
			}
			if problem, err := checkMemory(dir, DefaultSettings()); err != nil || problem != "" {
				t.Errorf("after the check: problem %q, err %v; want none", problem, err)
			}
		})
	}
}

// After every run, the memory folder and its file have the epoch as
// their access and modification times, whatever the bot set, breach or
// not; a plan made before the rule leaves the times.
func TestCheckMemoryTimes(t *testing.T) {
	old := DefaultSettings()
	old.MemoryMetadata = false
	for _, files := range []int{1, 2} {
		t.Run(fmt.Sprint(files), func(t *testing.T) {
			dir := t.TempDir()
			set := time.Unix(hiddenTime, 0)
			for i := range files {
				p := filepath.Join(dir, fmt.Sprint("m", i))
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, set, set); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chtimes(dir, set, set); err != nil {
				t.Fatal(err)
			}
			if _, err := checkMemory(dir, old); err != nil {
				t.Fatal(err)
			}
			// Two files break the rule, the folder emptied then.
			if times := memoryTimes(t, dir); files == 1 && times[0] != set.Unix() {
				t.Errorf("without memory_metadata the times are %v, want %d left", times, set.Unix())
			}
			if _, err := checkMemory(dir, DefaultSettings()); err != nil {
				t.Fatal(err)
			}
			for _, sec := range memoryTimes(t, dir) {
				if sec != 0 {
					t.Errorf("after the check the times are %v, want the epoch", memoryTimes(t, dir))
					break
				}
			}
		})
	}
}

// After every run, the memory folder has the mode arbiter makes it with,
// 0755 and its parent's set-group-ID bit, and its file 0644, whatever the
// bot set, breach or not; a plan made before the rule leaves the modes.
func TestCheckMemoryModes(t *testing.T) {
	old := DefaultSettings()
	old.MemoryMetadata = false
	for _, setgid := range []uint32{0, unix.S_ISGID} {
		for _, files := range []int{1, 2} {
			t.Run(fmt.Sprint(setgid, files), func(t *testing.T) {
				parent := t.TempDir()
				if err := unix.Chmod(parent, 0o755|setgid); err != nil {
					t.Fatal(err)
				}
				dir := filepath.Join(parent, "bot")
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for i := range files {
					p := filepath.Join(dir, fmt.Sprint("m", i))
					if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := unix.Chmod(p, 0o1652); err != nil {
						t.Fatal(err)
					}
				}
				if err := unix.Chmod(dir, 0o1731); err != nil {
					t.Fatal(err)
				}
				if _, err := checkMemory(dir, old); err != nil {
					t.Fatal(err)
				}
				if modes := memoryModes(t, dir); files == 1 && !slices.Equal(modes, []uint32{0o1731, 0o1652}) {
					t.Errorf("without memory_metadata the modes are %04o, want %04o left", modes, []uint32{0o1731, 0o1652})
				}
				if _, err := checkMemory(dir, DefaultSettings()); err != nil {
					t.Fatal(err)
				}
				want := []uint32{0o755 | setgid, 0o644}[:files%2+1]
				if modes := memoryModes(t, dir); !slices.Equal(modes, want) {
					t.Errorf("after the check the modes are %04o, want %04o", modes, want)
				}
			})
		}
	}
}

// memoryModes is the permissions and set-ID and sticky bits of the
// folder dir and of what is in it.
func memoryModes(t *testing.T, dir string) []uint32 {
	var modes []uint32
	for _, st := range memoryStats(t, dir) {
		modes = append(modes, st.Mode&0o7777)
	}
	return modes
}

// memoryTimes is the access and modification times, in seconds, of the
// folder dir and of what is in it.
func memoryTimes(t *testing.T, dir string) []int64 {
	var times []int64
	for _, st := range memoryStats(t, dir) {
		m, _ := st.Mtim.Unix() // Sec is int32 on 32-bit architectures
		a, _ := st.Atim.Unix()
		times = append(times, m, a)
	}
	return times
}

// memoryStats is the status of the folder dir and of what is in it, not
// following links.
func memoryStats(t *testing.T, dir string) []unix.Stat_t {
	t.Helper()
	var stats []unix.Stat_t
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		var st unix.Stat_t
		if err == nil {
			err = unix.Lstat(p, &st)
		}
		stats = append(stats, st)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

// A memory file that is not arbiter's, whose times arbiter cannot set
// back (a bot running bare as arbiter's uid, not root, linked another
// user's writable file into its folder), breaks the memory rule rather
// than stop the run with an error at the reset of its times.
// TestCheckMemoryForeignFileAsNobody runs it as uid 65534 with such a
// file of root's (ARBITER_TEST_FOREIGN).
func TestCheckMemoryForeignFile(t *testing.T) {
	foreign := os.Getenv("ARBITER_TEST_FOREIGN")
	if os.Getuid() == 0 || foreign == "" {
		t.Skip("needs a user other than root and another user's file: TestCheckMemoryForeignFileAsNobody runs it")
	}
	dir := filepath.Join(t.TempDir(), "bot")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(foreign, filepath.Join(dir, "m")); err != nil {
		t.Skipf("cannot link another user's file here: %v", err)
	}
	problem, err := checkMemory(dir, DefaultSettings())
	if err != nil || !strings.Contains(problem, "m's mode and times cannot be set back") {
		t.Fatalf("problem %q, err %v; want the rule broken by m, not an error", problem, err)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("after the check: %d entries, err %v; want the folder emptied", len(entries), err)
	}
}

func TestCheckMemoryForeignFileAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: TestCheckMemoryForeignFile runs as this user")
	}
	// Beside the copy's folder, on its file system: a hard link is made
	// within one.
	dir := t.TempDir()
	foreign := filepath.Join(dir, "foreign")
	if err := os.WriteFile(foreign, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(foreign, 0o666); err != nil {
		t.Fatal(err)
	}
	passAsNobody(t, "TestCheckMemoryForeignFile", "ARBITER_TEST_FOREIGN="+foreign)
}

// TestCheckMemoryForeignFolder: a memory folder of another user (a run of
// theirs resumed by this user in a folder their group shares) cannot have
// its mode and times set back, nor could a bot of this user's uid have set
// them: the check passes over them; the run does not stop.
func TestCheckMemoryForeignFolder(t *testing.T) {
	dir := os.Getenv("ARBITER_TEST_FOREIGN_DIR")
	if os.Getuid() == 0 || dir == "" {
		t.Skip("needs a user other than root and another user's folder: TestCheckMemoryForeignFolderAsNobody runs it")
	}
	if err := os.WriteFile(filepath.Join(dir, "m"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	problem, err := checkMemory(dir, DefaultSettings())
	if err != nil || problem != "" {
		t.Fatalf("problem %q, err %v; want the folder within the rule", problem, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "m")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("m: %v, %v; want it kept, 0644", fi, err)
	}
}

func TestCheckMemoryForeignFolderAsNobody(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("not root: TestCheckMemoryForeignFolder runs as this user")
	}
	dir := filepath.Join(t.TempDir(), "bot")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	passAsNobody(t, "TestCheckMemoryForeignFolder", "ARBITER_TEST_FOREIGN_DIR="+dir)
}

// passAsNobody runs the test named test as uid 65534 with env, and fails
// unless it passed (not skipped).
func passAsNobody(t *testing.T, test string, env ...string) {
	t.Helper()
	cmd, _ := proctest.AsNobody(t, "^"+test+"$", env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("%s as uid 65534: %v\n%s", test, err, out)
	}
}
