package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

func external(files ...plan.FileSum) *plan.Fingerprint {
	return &plan.Fingerprint{Hash: fingerprint.Sum(files), Files: files}
}

// Only the files recorded first are compared: a new file is noted, a
// changed or removed one is a change; a house bot changes with the build,
// which is reported once.
func TestCompareFingerprints(t *testing.T) {
	a := plan.FileSum{Path: "a.py", Mode: "-rw-r--r--", SHA256: "01"}
	b := plan.FileSum{Path: "b.py", Mode: "-rw-r--r--", SHA256: "02"}
	c := plan.FileSum{Path: "c.py", Mode: "-rw-r--r--", SHA256: "03"}
	build := &plan.Arbiter{Version: "v1", Revision: "abc"}
	recorded := &plan.Plan{Arbiter: build, Bots: []plan.Bot{
		{Name: "ext", Fingerprint: external(a, b)},
		{Name: "same", Fingerprint: external(a)},
		{Name: "house", House: "g/random", Fingerprint: fingerprint.House("g/random", build)},
	}}
	bExec := b
	bExec.Mode = "-rwxr-xr-x"
	now := &plan.Plan{Arbiter: build, Bots: []plan.Bot{
		{Name: "ext", Fingerprint: external(a, c)},
		{Name: "same", Fingerprint: external(a, bExec)},
		{Name: "house", House: "g/random", Fingerprint: fingerprint.House("g/random", build)},
	}}
	p, changes, added := CompareFingerprints(recorded, now)
	if len(changes) != 1 || changes[0].String() != `bot "ext": removed b.py` {
		t.Errorf("changes %v", changes)
	}
	if !slices.Equal(added["ext"], []string{"c.py"}) || !slices.Equal(added["same"], []string{"b.py"}) {
		t.Errorf("added %v", added)
	}
	if got := p.Bot("same").Fingerprint.Hash; got != recorded.Bot("same").Fingerprint.Hash {
		t.Errorf("a bot with a new file only is %s, was %s", got, recorded.Bot("same").Fingerprint.Hash)
	}
	if got := p.Bot("ext").Fingerprint; got.Hash != fingerprint.Sum([]plan.FileSum{a}) {
		t.Errorf("going on with %+v, want the recorded files as they are now", got)
	}

	// A mode change is a change; a new build is one change, not one per
	// house bot.
	recorded = p
	other := &plan.Arbiter{Version: "v1", Revision: "abd"}
	now = &plan.Plan{Arbiter: other, Bots: []plan.Bot{
		{Name: "ext", Fingerprint: external(a)},
		{Name: "same", Fingerprint: external(plan.FileSum{Path: "a.py", Mode: "-rwxr-xr-x", SHA256: "01"})},
		{Name: "house", House: "g/random", Fingerprint: fingerprint.House("g/random", other)},
	}}
	_, changes, _ = CompareFingerprints(recorded, now)
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	want := []string{"arbiter's build changed (it referees every match and plays the house bots): was v1 revision abc, is v1 revision abd",
		`bot "same": changed a.py`}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}

// ran is the fingerprint of a bot whose sandbox runs program, with its
// files and the program's, as fingerprint.Plan records it.
func ran(program string, files ...plan.FileSum) *plan.Fingerprint {
	fp := &plan.Fingerprint{Program: program, Files: files}
	fp.Hash = fingerprint.Hash(fp)
	return fp
}

// A bot that runs another interpreter (a shim chooses another version)
// has changed, even when the two files are alike: the change names both,
// and the fingerprint to go on with holds the one it runs now in place of
// the one it ran, not as a file new since. The same program, with the
// same files, is no change; a fingerprint recorded without a program (an
// earlier arbiter) is one.
func TestCompareProgram(t *testing.T) {
	bot := plan.FileSum{Path: "bot.py", Mode: "-rw-r--r--", SHA256: "01"}
	shim := plan.FileSum{Path: "/p/shims/python3", Mode: "-rwxr-xr-x", SHA256: "02"}
	v1 := plan.FileSum{Path: "/p/versions/1/bin/python3", Mode: "-rwxr-xr-x", SHA256: "03"}
	v2 := v1
	v2.Path = "/p/versions/2/bin/python3"
	build := &plan.Arbiter{Version: "v1"}
	recorded := &plan.Plan{Arbiter: build, Bots: []plan.Bot{
		{Name: "py", Fingerprint: ran(v1.Path, bot, shim, v1)},
		{Name: "same", Fingerprint: ran(v1.Path, bot, shim, v1)},
		{Name: "old", Fingerprint: external(bot, shim)},
	}}
	now := &plan.Plan{Arbiter: build, Bots: []plan.Bot{
		{Name: "py", Fingerprint: ran(v2.Path, bot, shim, v2)},
		{Name: "same", Fingerprint: ran(v1.Path, bot, shim, v1)},
		{Name: "old", Fingerprint: ran(v1.Path, bot, shim, v1)},
	}}
	if ran(v1.Path, bot, shim, v1).Hash == ran(v2.Path, bot, shim, v2).Hash || external(bot, shim, v1).Hash == ran(v1.Path, bot, shim, v1).Hash {
		t.Fatal("the hash does not cover which program runs")
	}
	p, changes, added := CompareFingerprints(recorded, now)
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	want := []string{
		`bot "py": runs /p/versions/2/bin/python3, was /p/versions/1/bin/python3`,
		`bot "old": runs /p/versions/1/bin/python3, which its recorded fingerprint did not name (recorded by an arbiter that hashed only the shim its command names)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	if len(added) != 0 {
		t.Errorf("new files %v: the program run is no file new since", added)
	}
	if got, want := p.Bot("py").Fingerprint, now.Bot("py").Fingerprint; got.Hash != want.Hash || !slices.Equal(got.Files, want.Files) {
		t.Errorf("going on with %+v, want %+v", got, want)
	}
	if got := p.Bot("old").Fingerprint.Hash; got != now.Bot("old").Fingerprint.Hash {
		t.Errorf("going on with %s, want %s", got, now.Bot("old").Fingerprint.Hash)
	}
	if changes[0].Runs == nil || changes[0].Runs.From != v1.Path || changes[0].Runs.To != v2.Path || len(changes[0].Changed)+len(changes[0].Removed) != 0 {
		t.Errorf("change %+v", changes[0])
	}
}

// A results directory recorded by an arbiter that hashed a file that is
// now left out by rule (the configuration's, when it ran a saved plan)
// goes on comparing it: its bots have not changed.
func TestCompareLeftOutFiles(t *testing.T) {
	dir := t.TempDir()
	hcl := filepath.Join(dir, "t.hcl")
	if err := os.WriteFile(hcl, []byte("tournament {}"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := plan.FileSum{Path: "a.py", Mode: "-rw-r--r--", SHA256: "01"}
	t1, ok := fingerprint.File(hcl, "t.hcl")
	if !ok {
		t.Fatal("t.hcl not read")
	}
	recorded := &plan.Plan{Bots: []plan.Bot{{Name: "ext", Fingerprint: external(a, t1)}}}
	fp := external(a)
	fp.LeftOut = map[string]string{"t.hcl": hcl}
	now := &plan.Plan{Bots: []plan.Bot{{Name: "ext", Fingerprint: fp}}}
	p, changes, _ := CompareFingerprints(recorded, now)
	if len(changes) != 0 || p.Bot("ext").Fingerprint.Hash != recorded.Bot("ext").Fingerprint.Hash {
		t.Errorf("changes %v, going on with %+v", changes, p.Bot("ext").Fingerprint)
	}
	if err := os.WriteFile(hcl, []byte("tournament {} # edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, changes, _ = CompareFingerprints(recorded, now); len(changes) != 1 || changes[0].String() != `bot "ext": changed t.hcl` {
		t.Errorf("changes %v", changes)
	}
}

// TestMissingFolderKeepsItsFiles: a bot whose folder is gone keeps its
// removed files in the record, and its String lists a changed file outside
// the folder beside the missing folder.
func TestMissingFolderKeepsItsFiles(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	old := &plan.Fingerprint{Dir: gone, Files: []plan.FileSum{
		{Path: "bot.py", Mode: "-rw-r--r--", SHA256: "aa"},
		{Path: "/usr/lib/x.py", Mode: "-rw-r--r--", SHA256: "bb"},
	}}
	now := &plan.Fingerprint{Dir: gone, Files: []plan.FileSum{{Path: "/usr/lib/x.py", Mode: "-rw-r--r--", SHA256: "cc"}}}
	_, c, _ := compareBot(old, now, "")
	c.Bot = "py"
	if c.Missing != gone || !slices.Equal(c.Removed, []string{"bot.py"}) || !slices.Equal(c.Changed, []string{"/usr/lib/x.py"}) {
		t.Errorf("change %+v", c)
	}
	if s := c.String(); !strings.Contains(s, "its folder "+gone+" is not there") || !strings.Contains(s, "changed /usr/lib/x.py") {
		t.Errorf("String %q", s)
	}
}

// The program a bot's command names resolves on PATH to another file
// than recorded (PATH's order changed): the change names both files, and
// the shim's interpreter on the side that had one, and says none of them
// was removed, for they are all still there.
func TestCompareResolution(t *testing.T) {
	dir := t.TempDir()
	file := func(path string) plan.FileSum {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		f, ok := fingerprint.File(path, path)
		if !ok {
			t.Fatalf("%s not read", path)
		}
		return f
	}
	bot := plan.FileSum{Path: "bot.py", Mode: "-rw-r--r--", SHA256: "01"}
	shim, interp, plain := file(dir+"/shims/python3"), file(dir+"/versions/1/bin/python3"), file(dir+"/usr/bin/python3")
	viaShim, direct := ran(interp.Path, bot, shim, interp), external(bot, plain)
	cases := []struct {
		name     string
		old, now *plan.Fingerprint
		want     string
	}{
		{"shim first, then the plain one", viaShim, direct,
			`bot "e": python3, the program its command names, now resolves on PATH to ` + plain.Path + `, was ` + shim.Path +
				` (a version manager's shim, which ran ` + interp.Path + `): PATH differs, or a file on it came or went`},
		{"the plain one first, then the shim", direct, viaShim,
			`bot "e": python3, the program its command names, now resolves on PATH to ` + shim.Path + ` (a version manager's shim, which runs ` + interp.Path + `), was ` + plain.Path +
				`: PATH differs, or a file on it came or went`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recorded := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3", "bot.py"}, Fingerprint: tc.old}}}
			now := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3", "bot.py"}, Fingerprint: tc.now}}}
			_, changes, _ := CompareFingerprints(recorded, now)
			if len(changes) != 1 || changes[0].String() != tc.want {
				t.Fatalf("changes %q, want %q", changes, tc.want)
			}
			if len(changes[0].Removed)+len(changes[0].Unused) != 0 {
				t.Errorf("removed %v, unused %v: each file is still there, and the change names it", changes[0].Removed, changes[0].Unused)
			}
		})
	}
	// A file gone is still removed.
	gone := plan.FileSum{Path: dir + "/gone/python3", Mode: "-rwxr-xr-x", SHA256: "09"}
	recorded := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3"}, Fingerprint: external(bot, gone)}}}
	now := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3"}, Fingerprint: direct}}}
	if _, changes, _ := CompareFingerprints(recorded, now); len(changes) != 1 || !slices.Equal(changes[0].Removed, []string{gone.Path}) {
		t.Errorf("changes %+v", changes)
	}
}

// After a change of the file the program resolves to, the fingerprint to
// go on with holds the one it resolves to now: compared again, it is no
// change and no new file, and an edit of it is a change. A file that the
// command names beside the one it resolved to is still compared. One of
// the bot's folder that the program resolves to is a resolution too, and
// a fingerprint recorded without saying where the program resolved (an
// earlier arbiter's) goes on with it as no change.
func TestCompareResolutionKept(t *testing.T) {
	dir := t.TempDir()
	file := func(path, content string) plan.FileSum {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		f, ok := fingerprint.File(path, path)
		if !ok {
			t.Fatalf("%s not read", path)
		}
		return f
	}
	compare := func(command []string, old, now *plan.Fingerprint) (*plan.Fingerprint, []BotChange, []string) {
		recorded := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: command, Fingerprint: old}}}
		p := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: command, Fingerprint: now}}}
		out, changes, added := CompareFingerprints(recorded, p)
		return out.Bots[0].Fingerprint, changes, added["e"]
	}
	a, b := file(dir+"/a/play", "#!/bin/sh\n"), file(dir+"/b/play", "#!/bin/sh\n")
	kept, changes, added := compare([]string{"play"}, external(a), external(b))
	if len(changes) != 1 || changes[0].Resolves == nil || len(added) > 0 {
		t.Fatalf("changes %v, added %v", changes, added)
	}
	if !slices.Contains(kept.Files, b) {
		t.Fatalf("the fingerprint to go on with %+v does not hold %s", kept.Files, b.Path)
	}
	if _, changes, added := compare([]string{"play"}, kept, external(b)); len(changes)+len(added) > 0 {
		t.Errorf("compared again: changes %v, added %v", changes, added)
	}
	edited := file(dir+"/b/play", "#!/bin/sh\necho edited\n")
	if _, changes, _ := compare([]string{"play"}, kept, external(edited)); len(changes) != 1 || !slices.Equal(changes[0].Changed, []string{b.Path}) {
		t.Errorf("b/play edited: changes %v", changes)
	}

	// The command names b/play too, which it resolved to and no longer
	// does: still the bot's, and compared.
	both := []string{"play", b.Path}
	if _, changes, _ := compare(both, external(b), external(a, edited)); len(changes) != 1 || !slices.Equal(changes[0].Changed, []string{b.Path}) {
		t.Errorf("b/play named by the command, edited: changes %v", changes)
	}

	own := plan.FileSum{Path: "play", Mode: "-rwxr-xr-x", SHA256: "07"}
	inFolder := &plan.Fingerprint{Files: []plan.FileSum{own}, Resolved: "play"}
	inFolder.Hash = fingerprint.Hash(inFolder)
	if inFolder.Hash == fingerprint.Sum(inFolder.Files) {
		t.Errorf("the hash does not cover which file the program resolves to")
	}
	_, changes, _ = compare([]string{"play"}, inFolder, external(own, a))
	want := `bot "e": play, the program its command names, now resolves on PATH to ` + a.Path + `, was the bot's own play (in its folder): PATH differs, or a file on it came or went`
	if len(changes) != 1 || changes[0].String() != want {
		t.Errorf("changes %q, want %q", changes, want)
	}
	_, changes, _ = compare([]string{"play"}, external(own, a), inFolder)
	want = `bot "e": play, the program its command names, now resolves on PATH to the bot's own play (in its folder), was ` + a.Path + `: PATH differs, or a file on it came or went`
	if len(changes) != 1 || changes[0].String() != want {
		t.Errorf("changes %q, want %q", changes, want)
	}
	if kept, changes, _ := compare([]string{"play"}, external(own), inFolder); len(changes) > 0 || kept.Hash != fingerprint.Sum([]plan.FileSum{own}) {
		t.Errorf("recorded without Resolved: changes %v, hash %s", changes, kept.Hash)
	}
}

// A recorded file that became a directory is removed, not still there:
// in the bot's folder and outside it alike.
func TestCompareFileNowDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"bot/x.py", "lib/util.py"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	x := plan.FileSum{Path: "x.py", Mode: "-rw-r--r--", SHA256: "01"}
	util := plan.FileSum{Path: filepath.Join(dir, "lib/util.py"), Mode: "-rw-r--r--", SHA256: "02"}
	old := external(x, util)
	now := &plan.Fingerprint{Dir: filepath.Join(dir, "bot")}
	now.Hash = fingerprint.Hash(now)
	recorded := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3", "x.py"}, Fingerprint: old}}}
	p := &plan.Plan{Bots: []plan.Bot{{Name: "e", Command: []string{"python3", "x.py"}, Fingerprint: now}}}
	_, changes, _ := CompareFingerprints(recorded, p)
	if len(changes) != 1 || !slices.Equal(changes[0].Removed, []string{"x.py", util.Path}) || len(changes[0].Unused) > 0 {
		t.Fatalf("changes %+v", changes)
	}
}
