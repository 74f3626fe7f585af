package fingerprint

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// javaOnPath is what a fingerprint records for the program "java": its
// file when PATH finds one.
func javaOnPath(t *testing.T) []string {
	t.Helper()
	p, err := exec.LookPath("java")
	if err != nil {
		return nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return []string{abs}
}

// classPathFiles lays out a bot with class path entries outside its
// directory: a jar, a folder of classes, and a folder of jars for a
// wildcard, and returns the bot's directory.
func classPathFiles(t *testing.T, root string) string {
	dir := filepath.Join(root, "bot")
	write(t, filepath.Join(dir, "Bot.class"), "bot", 0o644)
	write(t, filepath.Join(root, "lib", "x.jar"), "x", 0o644)
	write(t, filepath.Join(root, "classes", "pkg", "A.class"), "a", 0o644)
	write(t, filepath.Join(root, "jars", "a.jar"), "a", 0o644)
	write(t, filepath.Join(root, "jars", "b.JAR"), "b", 0o644)
	write(t, filepath.Join(root, "jars", "notes.txt"), "not a jar", 0o644)
	write(t, filepath.Join(root, "jars", "sub", "d.jar"), "a wildcard does not reach into subfolders", 0o644)
	return dir
}

// The entries of a class path outside the bot's directory are hashed,
// however the command gives the class path: a jar by its content, a
// folder recursively, a wildcard as its folder's jars. One that names
// nothing is left out, as an argument naming no file is; one in the
// bot's directory is hashed with it.
func TestClassPathIsHashed(t *testing.T) {
	root := t.TempDir()
	dir := classPathFiles(t, root)
	list := filepath.Join(root, "lib", "x.jar") + ":../classes:../jars/*:" + filepath.Join(root, "missing.jar") + ":../nolib/*:missing/*:."
	want := append(append([]string{"Bot.class"}, javaOnPath(t)...),
		filepath.Join(root, "lib", "x.jar"), filepath.Join(root, "classes", "pkg", "A.class"),
		filepath.Join(root, "jars", "a.jar"), filepath.Join(root, "jars", "b.JAR"))
	var hash string
	for _, command := range [][]string{
		{"java", "-cp", list, "Bot"},
		{"java", "-classpath", list, "Bot"},
		{"java", "--class-path", list, "Bot"},
		{"java", "--class-path=" + list, "Bot"},
	} {
		fp := Bot(dir, command, nil)
		if got := paths(fp); !slices.Equal(got, want) {
			t.Errorf("%q: files %q, want %q", command, got, want)
		}
		for _, s := range fp.Skipped {
			if !strings.HasPrefix(s, "java: the program is not found") {
				t.Errorf("%q: skipped %q", command, s)
			}
		}
		if hash != "" && fp.Hash != hash {
			t.Errorf("%q: hash %s, want %s as for -cp", command, fp.Hash, hash)
		}
		hash = fp.Hash
	}

	command := []string{"java", "-cp", list, "Bot"}
	for _, c := range []struct {
		file    string
		changed bool
	}{
		{"lib/x.jar", true},
		{"classes/pkg/A.class", true},
		{"classes/pkg/B.class", false}, // new: not a change of what was recorded, but of the hash
		{"jars/a.jar", true},
		{"jars/notes.txt", false},
		{"jars/sub/d.jar", false},
		{"nolib/m.jar", false},
	} {
		before := Bot(dir, command, nil)
		write(t, filepath.Join(root, c.file), "edited "+c.file, 0o644)
		after := Bot(dir, command, nil)
		if changed := compareHashes(before, after); changed != c.changed {
			t.Errorf("editing %s changed the recorded files: %v, want %v", c.file, changed, c.changed)
		}
	}
}

// compareHashes says whether the files recorded in before are not the
// same in after, as a resume compares them.
func compareHashes(before, after *plan.Fingerprint) bool {
	now := map[string]plan.FileSum{}
	for _, f := range after.Files {
		now[f.Path] = f
	}
	for _, f := range before.Files {
		if now[f.Path] != f {
			return true
		}
	}
	return false
}

// A class path folder is walked as the bot's directory is: arbiter's
// folders and the configuration's files in it are left out (the plan
// records the latter relative to the bot's directory, so that its saved
// plan leaves out the same), the bot's directory in it is hashed once,
// as the bot's, and the caps count its files with the bot's.
func TestClassPathFolderIsWalkedAsTheBotsDirectory(t *testing.T) {
	root := t.TempDir()
	classPathFiles(t, root)
	write(t, filepath.Join(root, "t.hcl"), "tournament {}", 0o644)
	write(t, filepath.Join(root, ".git", "HEAD"), "ref", 0o644)
	write(t, filepath.Join(root, "out", "x"), "", 0o644)
	bots := func() []plan.Bot {
		return []plan.Bot{{Name: "b", Command: []string{"java", "-cp", "..:.", "Bot"}, Dir: "bot"}}
	}
	compiled := &plan.Plan{Bots: bots()}
	o := Options{Root: root, Config: []string{filepath.Join(root, "t.hcl")}, Results: []string{filepath.Join(root, "out")}}
	if err := Plan(compiled, o); err != nil {
		t.Fatal(err)
	}
	fp := compiled.Bots[0].Fingerprint
	want := append(append([]string{"Bot.class"}, javaOnPath(t)...),
		filepath.Join(root, "classes", "pkg", "A.class"), filepath.Join(root, "jars", "a.jar"), filepath.Join(root, "jars", "b.JAR"),
		filepath.Join(root, "jars", "notes.txt"), filepath.Join(root, "jars", "sub", "d.jar"), filepath.Join(root, "lib", "x.jar"))
	if got := paths(fp); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if !slices.Equal(fp.Config, []string{"../t.hcl"}) {
		t.Errorf("config %q, want ../t.hcl", fp.Config)
	}
	for _, s := range []string{root + "/.git/: " + whyVCS, root + "/out/: " + whyResults, root + "/t.hcl: " + whyConfig} {
		if !slices.Contains(fp.Skipped, s) {
			t.Errorf("skipped %q, want %q among them", fp.Skipped, s)
		}
	}
	saved := &plan.Plan{Bots: bots()}
	saved.Bots[0].Fingerprint = fp
	if err := Plan(saved, Options{Root: root, Results: o.Results}); err != nil {
		t.Fatal(err)
	}
	if got := saved.Bots[0].Fingerprint; got.Hash != fp.Hash || !slices.Equal(got.Config, fp.Config) {
		t.Errorf("the saved plan's fingerprint %s (config %q), want %s as the configuration's", got.Hash, got.Config, fp.Hash)
	}

	defer func(f int) { MaxFiles = f }(MaxFiles)
	MaxFiles = 3
	// The walks of folders and wildcards stop at the cap; a jar that the
	// class path names itself is hashed as a file the command names is.
	fp = Bot(filepath.Join(root, "bot"), []string{"java", "-cp", "../jars/*:../classes:../lib/x.jar", "Bot"}, nil)
	want = []string{"Bot.class", filepath.Join(root, "jars", "a.jar"), filepath.Join(root, "jars", "b.JAR")}
	if javaOnPath(t) != nil {
		want = append(append([]string{"Bot.class"}, javaOnPath(t)...), filepath.Join(root, "jars", "a.jar"))
	}
	last := want[len(want)-1]
	want = append(want, filepath.Join(root, "lib", "x.jar"))
	if got := paths(fp); !slices.Equal(got, want) {
		t.Errorf("capped files %q, want %q", got, want)
	}
	if !slices.Contains(fp.Skipped, "everything after "+last+": the directory holds more than 3 files, only the first 3 in path order are hashed") {
		t.Errorf("capped skipped %q", fp.Skipped)
	}
}

// A submitted command's class path keeps the entries in its folder only:
// the sandbox shows it no other player's files.
func TestOwnWordsOfAClassPath(t *testing.T) {
	dir := "/contest/players/a"
	got := ownWords(dir, []string{"java", "-cp", "lib/x.jar:../b/y.jar:/contest/players/a/z.jar:/contest/players/b/*", "--class-path=../b:.", "Bot"})
	want := []string{"java", "-cp", "lib/x.jar:/contest/players/a/z.jar", "--class-path=.", "Bot"}
	if !slices.Equal(got, want) {
		t.Errorf("ownWords = %q, want %q", got, want)
	}
}

// The CLASSPATH of a bot's env is a class path as -cp gives one; a
// submitted bot's keeps its own entries only.
func TestEnvClassPathIsHashed(t *testing.T) {
	root := t.TempDir()
	classPathFiles(t, root)
	list := filepath.Join(root, "lib", "x.jar") + ":../jars/*:."
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "organisers", Command: []string{"./run.sh"}, Dir: "bot", Env: map[string]string{"CLASSPATH": list}},
		{Name: "submitted", Command: []string{"./run.sh"}, Dir: "bot", Env: map[string]string{"CLASSPATH": list},
			Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{Submitted: true}}},
	}}
	if err := Plan(p, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	want := []string{"Bot.class", filepath.Join(root, "lib", "x.jar"), filepath.Join(root, "jars", "a.jar"), filepath.Join(root, "jars", "b.JAR")}
	if got := paths(p.Bots[0].Fingerprint); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if got := paths(p.Bots[1].Fingerprint); !slices.Equal(got, want[:1]) {
		t.Errorf("submitted files %q, want %q", got, want[:1])
	}
}

// What the sandbox shows of a wildcard's folder is what the fingerprint
// hashes of it: its jars, not its other files nor its subfolders', which
// the bot could otherwise read, changed, with the same fingerprint.
func TestWildcardShowsWhatItHashes(t *testing.T) {
	root := t.TempDir()
	dir := classPathFiles(t, root)
	write(t, filepath.Join(root, "jars", "sub", "Evil.class"), "e", 0o644)
	jars := filepath.Join(root, "jars")
	for _, b := range []plan.Bot{
		{Name: "-cp", Command: []string{"/bin/sh", "-cp", jars + "/*:.", "Bot"}, Dir: "bot"},
		{Name: "--class-path=", Command: []string{"/bin/sh", "--class-path=../jars/*", "Bot"}, Dir: "bot"},
		{Name: "CLASSPATH", Command: []string{"/bin/sh", "Bot"}, Dir: "bot", Env: map[string]string{"CLASSPATH": jars + "/*"}},
	} {
		p := &plan.Plan{Bots: []plan.Bot{b}}
		if err := Plan(p, Options{Root: root}); err != nil {
			t.Fatal(err)
		}
		hashed := paths(p.Bots[0].Fingerprint)
		var env []string
		if cp, ok := b.Env["CLASSPATH"]; ok {
			env = []string{"CLASSPATH=" + cp}
		}
		sb := drivers.ResolveSandbox(b.Command, dir, env)
		var shown []string
		err := filepath.WalkDir(jars, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && sb.Shows(p, dir) {
				shown = append(shown, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{filepath.Join(jars, "a.jar"), filepath.Join(jars, "b.JAR")}
		if !slices.Equal(shown, want) {
			t.Errorf("%s: the sandbox shows %q of %s, want %q", b.Name, shown, jars, want)
		}
		for _, p := range shown {
			if !slices.Contains(hashed, p) {
				t.Errorf("%s: the sandbox shows %s, which the fingerprint does not hash (%q)", b.Name, p, hashed)
			}
		}
	}
}
