package euchre

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// hiddenAttr is the extended attribute the hiding bot keeps its state in.
const hiddenAttr = "user.hidden"

// The hiding bot keeps, beside its one small memory file, 3000 bytes in an
// extended attribute of its folder and of that file, and says on stderr
// what it read back of them at each decision ("read back N bytes from
// ."): state the memory rule's one file does not hold.
func init() {
	testbot.Register("hider", func([]string) int {
		in, _ := io.ReadAll(os.Stdin)
		for _, p := range []string{".", counterFile} {
			buf := make([]byte, 8192)
			if n, err := unix.Getxattr(p, hiddenAttr, buf); err == nil {
				fmt.Fprintf(os.Stderr, "read back %d bytes from %s\n", n, p)
			}
		}
		if err := os.WriteFile(counterFile, []byte("small\n"), 0o644); err != nil {
			return 1
		}
		for _, p := range []string{".", counterFile} {
			if err := unix.Setxattr(p, hiddenAttr, bytes.Repeat([]byte("h"), 3000), 0); err != nil {
				fmt.Fprintf(os.Stderr, "could not hide in %s: %v\n", p, err)
			}
		}
		return counterAnswer(string(in), 0)
	})
}

const xattrConfig = `
bot "hider" { command = %s }
bot "counter" { command = %s }
game "euchre" "g" {
  max_hands = 1
  memory    = "per-bot"
  clock { move = "20s" }
}
tournament "t" {
  game    = game.euchre.g
  bots    = [bot.hider, bot.counter]
  format  = "round-robin"
  players = 2
  seed    = 5
}
`

// A bot that keeps state in extended attributes of its memory folder or
// its file breaks the memory rule: its folder is emptied and the folder's
// attributes removed after every run, so that it reads back nothing at
// its next decision. A plan made before the rule (no memory_metadata)
// leaves them, as it was played: the bot reads them back, no fault.
func TestMemoryInExtendedAttributes(t *testing.T) {
	probe := t.TempDir()
	if err := unix.Setxattr(probe, hiddenAttr, []byte("x"), 0); err != nil {
		t.Skipf("no user extended attributes on %s: %v", probe, err)
	}
	testHiding(t, "hider", "extended attributes ("+hiddenAttr+")")
}

// testHiding runs a match of the hiding testbot bot, which says on
// stderr what it read back of what it hid ("read back ..."), under a new
// plan and one made before memory_metadata. The new plan's results say
// breach (if not "", of a bot whose hiding breaks the rule rather than
// is undone) and the bot reads nothing back; the old plan's say nothing
// of it and the bot reads back what it hid.
func testHiding(t *testing.T, bot, breach string) {
	if !proc.Machine().Sandbox {
		t.Skipf("no sandbox here: %s", proc.Machine().Why["sandbox"])
	}
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("old=%v", old), func(t *testing.T) {
			out := t.TempDir()
			r := configRunner(t, fmt.Sprintf(xattrConfig, botArgv(t, bot), botArgv(t, "counter")), out, 1)
			if old {
				s := string(r.Plan.Game.Settings)
				r.Plan.Game.Settings = []byte(strings.Replace(s, `,"memory_metadata":true`, "", 1))
				if string(r.Plan.Game.Settings) == s {
					t.Fatalf("the plan's settings %s have no memory_metadata", s)
				}
			}
			if _, err := r.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			stderr, results := hiderRun(t, out)
			if strings.Contains(stderr, "could not hide") {
				t.Fatalf("the bot could not hide its state: %s", stderr)
			}
			readBack := strings.Contains(stderr, "read back")
			broke := breach != "" && strings.Contains(results, breach)
			if readBack != old || broke == (old || breach == "") {
				t.Errorf("read back what it hid: %v, broke the memory rule: %v; want %v and %v\nstderr:\n%s\nresults:\n%s",
					readBack, broke, old, !old && breach != "", stderr, results)
			}
		})
	}
}

// checkMemory finds the attributes a bot may write on its folder and on
// its file, empties the folder and removes the folder's own; it leaves
// them under a plan made before the rule, and leaves the host's (an ACL).
func TestCheckMemoryExtendedAttributes(t *testing.T) {
	old := DefaultSettings()
	old.MemoryMetadata = false
	for _, on := range []string{".", "m"} {
		t.Run(on, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "m"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := unix.Setxattr(filepath.Join(dir, on), hiddenAttr, []byte("hidden"), 0); err != nil {
				t.Skipf("no user extended attributes here: %v", err)
			}
			if problem, err := checkMemory(dir, old); err != nil || problem != "" {
				t.Errorf("without memory_metadata: problem %q, err %v; want none", problem, err)
			}
			problem, err := checkMemory(dir, DefaultSettings())
			if err != nil || !strings.Contains(problem, "extended attributes ("+hiddenAttr+")") {
				t.Fatalf("problem %q, err %v; want the rule broken by %s's attribute", problem, err, on)
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
				t.Errorf("after the check: %d entries, err %v; want the folder emptied", len(entries), err)
			}
			if attrs, err := botAttrs(dir); err != nil || len(attrs) != 0 {
				t.Errorf("after the check the folder has attributes %q (err %v)", attrs, err)
			}
		})
	}
	t.Run("acl", func(t *testing.T) {
		dir := t.TempDir()
		// A minimal access ACL (user::rwx, group::r-x, other::r-x), as
		// the host may give a folder: not the bot's state.
		acl := []byte{2, 0, 0, 0, 1, 0, 7, 0, 255, 255, 255, 255, 4, 0, 5, 0, 255, 255, 255, 255, 32, 0, 5, 0, 255, 255, 255, 255}
		if err := unix.Setxattr(dir, "system.posix_acl_access", acl, 0); err != nil {
			t.Skipf("no ACLs here: %v", err)
		}
		if problem, err := checkMemory(dir, DefaultSettings()); err != nil || problem != "" {
			t.Errorf("problem %q, err %v; want none", problem, err)
		}
	})
}

// hiderRun is what the hiding bot said on stderr in the one match of the
// run in out, and the run's results.
func hiderRun(t *testing.T, out string) (stderr, results string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, engine.MatchesDir, "*", "*hider*.stderr"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stderr of the hiding bot in %s: %v", out, err)
	}
	var all []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(b))
	}
	b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Join(all, ""), string(b)
}

// A bot may set more names than the kernel lists (64 KB of them, on
// tmpfs): that breaks the rule, the folder emptied and made again without
// them, and does not stop the run, which an error listing them did. The
// message names a few of a folder's many attributes, not all.
func TestCheckMemoryManyExtendedAttributes(t *testing.T) {
	t.Run("named", func(t *testing.T) {
		dir := t.TempDir()
		for i := range 10 {
			if err := unix.Setxattr(dir, fmt.Sprintf("user.a%d", i), nil, 0); err != nil {
				t.Skipf("no user extended attributes here: %v", err)
			}
		}
		problem, err := checkMemory(dir, DefaultSettings())
		if err != nil || !strings.Contains(problem, "extended attributes (user.a") || !strings.Contains(problem, " and 7 more)") {
			t.Errorf("problem %q, err %v; want three of the folder's attributes named and 7 more", problem, err)
		}
	})
	for _, on := range []string{".", "m"} {
		t.Run("unlisted "+on, func(t *testing.T) {
			// tmpfs (/dev/shm) holds them, where ext4 has room for 4 KB.
			dir, err := os.MkdirTemp("/dev/shm", "arbiter-xattr-")
			if err != nil {
				t.Skipf("no /dev/shm: %v", err)
			}
			defer os.RemoveAll(dir)
			if err := os.WriteFile(filepath.Join(dir, "m"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			for i := range 300 { // 300 names of 250 bytes
				if err := unix.Setxattr(filepath.Join(dir, on), fmt.Sprintf("user.%0245d", i), nil, 0); err != nil {
					t.Skipf("cannot set %d extended attributes in /dev/shm: %v", i+1, err)
				}
			}
			problem, err := checkMemory(dir, DefaultSettings())
			if err != nil || !strings.Contains(problem, "more extended attributes than can be listed") {
				t.Fatalf("problem %q, err %v; want the rule broken", problem, err)
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
				t.Errorf("after the check: %d entries, err %v; want the folder emptied", len(entries), err)
			}
			if attrs, err := botAttrs(dir); err != nil || len(attrs) != 0 {
				t.Errorf("after the check the folder has %d attributes (err %v)", len(attrs), err)
			}
		})
	}
}
