package engine

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Two shards' plans that differ only in where a bot's files were (root,
// dir) are the same plan; when they differ otherwise, the refusal tells
// where the files were from what they hold.
func TestSamePlanButWhere(t *testing.T) {
	mk := func(root string, files ...plan.FileSum) []byte {
		p := plan.Plan{Version: 1, Hash: strings.Repeat("ab", 32), Tournament: "t", Bots: []plan.Bot{{
			Name: "py", Command: []string{"/usr/bin/python3", "bots/simple.py"}, Dir: ".",
			Fingerprint: &plan.Fingerprint{Hash: fingerprint.Sum(files), Root: root, Dir: root, Files: files,
				Skipped: []string{"t.hcl: a file of the configuration"}, Config: []string{"t.hcl"}},
		}}}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	bot := plan.FileSum{Path: "bots/simple.py", Mode: "-rw-r--r--", SHA256: "aaaa"}
	edited := plan.FileSum{Path: "bots/simple.py", Mode: "-rw-r--r--", SHA256: "edited"}
	check := func(a, b []byte) error {
		var pa, pb plan.Plan
		if err := json.Unmarshal(a, &pa); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &pb); err != nil {
			t.Fatal(err)
		}
		return samePlan("s0", a, &pa, "s1", b, &pb, "a shard of")
	}

	if err := check(mk("/data/cfg2", bot), mk("/link/cfg2", bot)); err != nil {
		t.Errorf("the same files from another root: %v", err)
	}

	err := check(mk("/data/cfg2", bot), mk("/data/cfg2", edited))
	if err == nil || !strings.Contains(err.Error(), `bot "py" was run with other files (other content or mode of bots/simple.py)`) ||
		strings.Contains(err.Error(), "ran in") {
		t.Errorf("edited file: %v", err)
	}

	err = check(mk("/data/cfg2", bot), mk("/link/cfg2", edited))
	if err == nil || !strings.Contains(err.Error(), `bot "py" ran in /data/cfg2 in s0 but in /link/cfg2 in s1, was run with other files (other content or mode of bots/simple.py)`) {
		t.Errorf("edited file elsewhere: %v", err)
	}

	lib := plan.FileSum{Path: "/data/lib/x.py", Mode: "-rw-r--r--", SHA256: "cccc"}
	libThere := lib
	libThere.Path = "/link/lib/x.py"
	err = check(mk("/data/cfg2", bot, lib), mk("/link/cfg2", bot, libThere))
	if err == nil || !strings.Contains(err.Error(), `bot "py" ran in /data/cfg2 in s0 but in /link/cfg2 in s1, was run with the same files at other paths (/data/lib/x.py in s0, /link/lib/x.py in s1)`) {
		t.Errorf("the same files at other absolute paths: %v", err)
	}

	// A file renamed within the dir, in the same dir: no other path to
	// the same files, but files of one shard only.
	renamed := bot
	renamed.Path = "bots/renamed.py"
	err = check(mk("/data/cfg2", bot), mk("/data/cfg2", renamed))
	if err == nil || strings.Contains(err.Error(), "other paths") ||
		!strings.Contains(err.Error(), `bot "py" was run with other files (bots/simple.py in s0 only; bots/renamed.py in s1 only)`) {
		t.Errorf("a file renamed in the dir: %v", err)
	}
	// Renamed within the dir, the dir reached by another path: still not
	// the same files at other paths.
	err = check(mk("/data/cfg2", bot), mk("/link/cfg2", renamed))
	if err == nil || strings.Contains(err.Error(), "other paths") ||
		!strings.Contains(err.Error(), `bots/simple.py in s0 only; bots/renamed.py in s1 only`) {
		t.Errorf("a file renamed in a dir reached by another path: %v", err)
	}
}

// A merge that failed writing says how far it got and that the same
// merge run again completes it; one that failed otherwise (a game that
// cannot be loaded, a pairing that fails) is not told to run again.
func TestMergeStoppedAdvice(t *testing.T) {
	m := &Merge{Out: "out"}
	full := &fs.PathError{Op: "write", Path: "out/standings.txt.tmp", Err: syscall.ENOSPC}
	for _, c := range []struct {
		err     error
		written bool
		want    []string
		not     []string
	}{
		{full, false, []string{"results in out are as they were", "free space on its disk and run the same merge again"}, nil},
		{full, true, []string{"stopped after it replaced results.jsonl in out", "run the same merge again", "Do not start the next stage"}, []string{"as they were"}},
		{errors.New(`no driver "nope"`), false, []string{"results in out are as they were"}, []string{"run the same merge again"}},
	} {
		got := m.stopped(c.err, c.written).Error()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("stopped(%v, %v) = %q, want it to say %q", c.err, c.written, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("stopped(%v, %v) = %q, want it not to say %q", c.err, c.written, got, w)
			}
		}
	}
}

// Shards whose plans differ in a bot with a build, each recording the
// files as its own build left them: the refusal says the build may write
// other files each time, which no sharding can merge.
func TestMergeShardsBuiltApart(t *testing.T) {
	mk := func(hash string) *shardDir {
		dir := t.TempDir()
		files := []plan.FileSum{{Path: "BUILD_INFO", Mode: "-rw-r--r--", SHA256: hash}}
		fp := &plan.Fingerprint{Hash: fingerprint.Sum(files), Dir: "/data/cc", Files: files}
		p := plan.Plan{Version: 1, Hash: strings.Repeat("ab", 32), Tournament: "t", Bots: []plan.Bot{{
			Name: "cc1", Command: []string{"./bot.sh"}, Dir: "cc", Build: []string{"sh", "build.sh"}, Fingerprint: fp}}}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := json.Marshal(BuildRecord{Bot: "cc1", Command: p.Bots[0].Build, Fingerprint: fp.Hash, OK: true})
		if err := os.MkdirAll(filepath.Join(dir, BuildsDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, BuildsDir, "cc1.json"), rec, 0o644); err != nil {
			t.Fatal(err)
		}
		return &shardDir{dir: dir, planJSON: raw, plan: p}
	}
	err := sameShardPlan(mk("aaaa"), mk("bbbb"))
	if err == nil || !strings.Contains(err.Error(), `Bot "cc1" has a build, and each shard records the files as its own build left them: `+
		`if the build writes other files each time (a stamp of the time or of the machine), no two shards agree and the bot cannot be sharded`) {
		t.Fatalf("shards built apart: %v", err)
	}
}

// A merge into a new -out carries the changes since the saved plan that
// any shard recorded, not only the lowest shard's: shard 0 may have
// found none (a file new since the plan that its build wrote) or have
// been killed before it recorded one.
func TestCarryChangesUnion(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	write := func(dir string, c BotChange) {
		if err := appendChanges(dir, changeRecord{Time: "t", Changes: []BotChange{c}, Plan: "p.json"}); err != nil {
			t.Fatal(err)
		}
	}
	write(dirs[1], BotChange{Bot: "alice", From: "a", To: "a", Added: []string{"x.py"}})
	write(dirs[2], BotChange{Bot: "alice", From: "a", To: "a", Added: []string{"y.py", "x.py"}})
	write(dirs[2], BotChange{Bot: "bob", From: "b", To: "c", Changed: []string{"bot.py"}})
	in := &mergeInput{shards: []*shardDir{{dir: dirs[2], shard: Shard{K: 2}}, {dir: dirs[0], shard: Shard{K: 0}}, {dir: dirs[1], shard: Shard{K: 1}}}}
	in.carryChanges()
	if in.compiledFrom != "p.json" || len(in.changes) != 2 {
		t.Fatalf("carried %+v from %q, want alice's and bob's from p.json", in.changes, in.compiledFrom)
	}
	if a := in.changes[0]; a.Bot != "alice" || !slices.Equal(a.Added, []string{"x.py", "y.py"}) {
		t.Errorf("alice's change %+v, want the files both shards list", a)
	}
	if b := in.changes[1]; b.Bot != "bob" || b.To != "c" {
		t.Errorf("bob's change %+v, want shard 2's", b)
	}
}

// Shards that two builds of arbiter ran (their house bots changing with
// it) are refused for the build, which the refusal says is what to run
// them again with, not for files the others ran; shards apart in both
// say both.
func TestMergeShardsRunByTwoBuilds(t *testing.T) {
	mk := func(exe, py string) *shardDir {
		a := &plan.Arbiter{Version: "(devel)", Executable: exe}
		files := []plan.FileSum{{Path: "bot.py", Mode: "-rw-r--r--", SHA256: py}}
		p := plan.Plan{Version: 1, Hash: strings.Repeat("ab", 32), Tournament: "t", Arbiter: a, Bots: []plan.Bot{
			{Name: "greedy", House: "planowanie/greedy", Fingerprint: fingerprint.House("planowanie/greedy", a)},
			{Name: "py", Command: []string{"python3", "bot.py"}, Dir: "py", Fingerprint: &plan.Fingerprint{Hash: fingerprint.Sum(files), Files: files}},
		}}
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return &shardDir{dir: t.TempDir(), planJSON: raw, plan: p}
	}
	for _, tc := range []struct {
		name, py, want string
	}{
		{"the build alone", "aaaa", "The shards of one merge must have been run by the same build of arbiter: run the shards another build ran again, " +
			"each into a new -out directory, with the build the others ran (or every shard with arbiter as it is now, and merge into a new -out)"},
		{"the build and files", "bbbb", "The shards of one merge must have run the same files, by the same build of arbiter: " +
			"run the shards that ran other files or another build again, each into a new -out directory, " +
			"with the files and the build the others ran (or every shard with the files and arbiter as they are now, and merge into a new -out)"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			err := sameShardPlan(mk("sha256:0ld", "aaaa"), mk("sha256:n3w", tc.py))
			if err == nil || !strings.Contains(err.Error(), "arbiter's build differs") || !strings.HasSuffix(err.Error(), tc.want) {
				t.Fatalf("shards of two builds: %v\nwant it to end %q", err, tc.want)
			}
		})
	}
}
