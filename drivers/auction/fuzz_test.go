package auction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// FuzzParseBid: any line a bot answers with is a bid from 0 to its
// capital, or a problem (the bid counts as 0), never a crash.
func FuzzParseBid(f *testing.F) {
	for _, s := range []string{"0", "17", " 42 \t", "-3", "-0", "100", "1e3", "debug 5", "", "99999999999999999999", "+5", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		bid, problem := ParseBid(line, 100)
		if problem == "" && (bid < 0 || bid > 100) {
			t.Errorf("ParseBid(%q) = %d, outside 0..100", line, bid)
		}
		if problem != "" && bid != 0 {
			t.Errorf("ParseBid(%q) = %d with problem %q; a fault's bid is 0", line, bid, problem)
		}
	})
}

// FuzzFolderCheck: whatever a bot leaves in its working directory and
// game folder (names, kinds, sizes), check puts it right: afterwards the
// folder holds state and log as the referee wrote them and the bot's own
// prefixed regular files within its limits, nothing else, never a crash.
func FuzzFolderCheck(f *testing.F) {
	f.Add("pa\npb\nx", "", []byte{8, 16, 0}, []byte{})
	f.Add("state\nlog", "y", []byte{2, 3}, []byte{1})
	f.Add("pdir\npl\npf", "game2", []byte{5, 6, 4}, []byte{2})
	f.Fuzz(func(t *testing.T, inGame, beside string, kinds, besideKinds []byte) {
		limits := FileLimits{Count: 2, Bytes: 100}
		cwd := t.TempDir()
		sf, err := newSeatFolder(cwd, "game", "p", limits)
		if err != nil {
			t.Fatal(err)
		}
		if err := sf.prepare([]byte("state\n"), []byte("log\n")); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"state", "log"} {
			if strings.Contains("\n"+inGame+"\n", "\n"+name+"\n") {
				if err := os.Remove(filepath.Join(sf.game, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := proctest.Litter(sf.game, inGame, kinds); err != nil {
			t.Fatal(err)
		}
		if err := proctest.Litter(cwd, beside, besideKinds); err != nil {
			t.Fatal(err)
		}
		if _, err := sf.check(); err != nil {
			t.Fatal(err)
		}
		if err := sf.prepare([]byte("state\n"), []byte("log\nmore\n")); err != nil {
			t.Fatal(err)
		}
		checkFolderClean(t, sf)
	})
}

// checkFolderClean fails unless sf's folder holds nothing its rules
// forbid: the game folder alone in the working directory, and in it state,
// log and the bot's prefixed regular files within its limits.
func checkFolderClean(t *testing.T, sf *seatFolder) {
	t.Helper()
	ents, err := os.ReadDir(sf.cwd)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != sf.name || !ents[0].IsDir() {
		t.Errorf("the working directory holds %v after check", ents)
	}
	ents, err = os.ReadDir(sf.game)
	if err != nil {
		t.Fatal(err)
	}
	own, size := 0, int64(0)
	for _, e := range ents {
		fi, err := os.Lstat(filepath.Join(sf.game, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !fi.Mode().IsRegular() || fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0:
			t.Errorf("%s (%v) is left in the game folder", e.Name(), fi.Mode())
		case e.Name() == "state" || e.Name() == "log":
		case !strings.HasPrefix(e.Name(), sf.prefix):
			t.Errorf("%s, without the prefix, is left in the game folder", e.Name())
		default:
			own++
			size += fi.Size()
		}
	}
	if own > sf.limits.Count || size > sf.limits.Bytes {
		t.Errorf("%d files of %d bytes are left, over the limits", own, size)
	}
	if !sameFile(filepath.Join(sf.game, "state"), []byte("state\n")) || !sameFile(filepath.Join(sf.game, "log"), []byte("log\nmore\n")) {
		t.Error("state or log is not as the referee wrote it")
	}
}
