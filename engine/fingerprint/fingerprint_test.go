package fingerprint

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// savedPlan is a saved plan's JSON, as arbiter plan -json writes one.
func savedPlan(t *testing.T, tournament string) string {
	t.Helper()
	p := &plan.Plan{Version: plan.Version, Tournament: tournament}
	p.Hash = p.ComputeHash()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func paths(fp *plan.Fingerprint) []string {
	var out []string
	for _, f := range fp.Files {
		out = append(out, f.Path)
	}
	return out
}

// A bot's fingerprint lists every file of its directory in path order,
// then the command's files outside it, and changes with any content or
// mode.
func TestBotHashesDirectoryAndCommand(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	write(t, filepath.Join(dir, "b.py"), "print(1)\n", 0o755)
	write(t, filepath.Join(dir, "lib", "a.py"), "x = 1\n", 0o644)
	write(t, filepath.Join(dir, ".git", "index"), "git", 0o644)
	write(t, filepath.Join(dir, "old", "plan.json"), savedPlan(t, "old"), 0o644)
	write(t, filepath.Join(dir, "old", "results.jsonl"), "", 0o644)
	write(t, filepath.Join(root, "outside", "engine.bin"), "engine", 0o644)
	if err := os.Symlink("b.py", filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", filepath.Join(dir, "outside")); err != nil {
		t.Fatal(err)
	}
	cmd := []string{"sh", "b.py", "--depth", "3", "../outside/engine.bin", "missing.txt"}
	fp := Bot(dir, cmd, nil)
	sh, err := filepath.Abs(mustLook(t, "sh"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"b.py", "lib/a.py", "link.py", "outside", sh, filepath.Join(root, "outside", "engine.bin")}
	if got := paths(fp); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	for _, s := range []string{".git/: version control", "old/: an arbiter results directory", "outside/: a link to a directory"} {
		if !slices.ContainsFunc(fp.Skipped, func(l string) bool { return strings.HasPrefix(l, s) }) {
			t.Errorf("skipped %q does not say %q", fp.Skipped, s)
		}
	}
	if fp.Files[0].Mode != "-rwxr-xr-x" || fp.Files[2].Link != "b.py" || fp.Files[2].SHA256 != fp.Files[0].SHA256 {
		t.Errorf("b.py %+v, link.py %+v", fp.Files[0], fp.Files[2])
	}
	again := Bot(dir, cmd, nil)
	if again.Hash != fp.Hash {
		t.Fatalf("hash of the same files changed: %s %s", fp.Hash, again.Hash)
	}

	for _, c := range []struct {
		what   string
		change func()
		counts bool
	}{
		{"content", func() { write(t, filepath.Join(dir, "lib", "a.py"), "x = 2\n", 0o644) }, true},
		{"mode", func() { write(t, filepath.Join(dir, "lib", "a.py"), "x = 2\n", 0o755) }, true},
		{"a command's file", func() { write(t, filepath.Join(root, "outside", "engine.bin"), "engine 2", 0o644) }, true},
		{"a file behind a link to a directory", func() { write(t, filepath.Join(root, "outside", "new.txt"), "", 0o644) }, false},
		{"a file of .git", func() { write(t, filepath.Join(dir, ".git", "index"), "git 2", 0o644) }, false},
	} {
		prev := again.Hash
		c.change()
		again = Bot(dir, cmd, nil)
		if changed := again.Hash != prev; changed != c.counts {
			t.Errorf("changing %s: hash changed %v, want %v", c.what, changed, c.counts)
		}
	}
}

func mustLook(t *testing.T, prog string) string {
	t.Helper()
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(d, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	t.Skipf("no %s on PATH", prog)
	return ""
}

// Excluded paths and the caps are said, never silent.
func TestBotSkipsAndCaps(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b", "c", "d"} {
		write(t, filepath.Join(dir, name), strings.Repeat(name, 10), 0o644)
	}
	write(t, filepath.Join(dir, "out", "x"), "", 0o644)
	write(t, filepath.Join(dir, "t.hcl"), "", 0o644)
	o := Options{Results: []string{filepath.Join(dir, "out")}, Config: []string{filepath.Join(dir, "t.hcl")}}
	fp := Bot(dir, []string{"./a"}, o.exclude())
	if got := paths(fp); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("files %q", got)
	}
	if len(fp.Skipped) != 2 || !strings.HasPrefix(fp.Skipped[0], "out/: a results directory") || !strings.HasPrefix(fp.Skipped[1], "t.hcl: a file of the configuration") {
		t.Errorf("skipped %q", fp.Skipped)
	}

	defer func(f int, b int64) { MaxFiles, MaxBytes = f, b }(MaxFiles, MaxBytes)
	MaxFiles, MaxBytes = 3, 25
	fp = Bot(dir, nil, nil)
	if got := paths(fp); !slices.Equal(got, []string{"a", "b", "c"}) || fp.Files[2].SHA256 != "" {
		t.Errorf("capped files %+v", fp.Files)
	}
	want := []string{"c: hashing its 10 bytes would pass the cap of 25 bytes per bot, so only its mode is recorded",
		"everything after c: the directory holds more than 3 files, only the first 3 in path order are hashed"}
	if !slices.Equal(fp.Skipped, want) {
		t.Errorf("skipped %q, want %q", fp.Skipped, want)
	}
}

// A house bot is arbiter's build; a test binary has no version control
// information, so its build is the hash of its executable.
func TestHouseIsBuild(t *testing.T) {
	a, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	if a.Revision == "" && !strings.HasPrefix(a.Executable, "sha256:") {
		t.Errorf("build %+v has neither a revision nor an executable hash", a)
	}
	h := House("planowanie/random", a)
	other := *a
	other.Executable, other.Revision = "sha256:00", "x"
	if h.Hash == House("planowanie/greedy", a).Hash || h.Hash == House("planowanie/random", &other).Hash {
		t.Error("a house bot's hash does not depend on its name and the build")
	}
	if !strings.HasPrefix(h.House, "planowanie/random of arbiter ") {
		t.Errorf("house %q", h.House)
	}
}

// Bots that share a directory share its walk, each with its own command.
func TestPlanSharesWalks(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "bots", "a.py"), "a", 0o644)
	write(t, filepath.Join(root, "engine.bin"), "e", 0o644)
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "a", Command: []string{"./a.py"}, Dir: "bots"},
		{Name: "b", Command: []string{"./a.py", "../engine.bin"}, Dir: "bots"},
		{Name: "h", House: "g/random"},
	}}
	if err := Plan(p, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	a, b := p.Bots[0].Fingerprint, p.Bots[1].Fingerprint
	if got := paths(a); !slices.Equal(got, []string{"a.py"}) || a.Dir != filepath.Join(root, "bots") {
		t.Errorf("a: %q in %s", got, a.Dir)
	}
	if got := paths(b); !slices.Equal(got, []string{"a.py", filepath.Join(root, "engine.bin")}) {
		t.Errorf("b: %q", got)
	}
	if p.Arbiter == nil || p.Bots[2].Fingerprint.Hash != House("g/random", p.Arbiter).Hash {
		t.Errorf("arbiter %+v, house bot %+v", p.Arbiter, p.Bots[2].Fingerprint)
	}
}

// The configuration's files are left out of a bot whose directory holds
// them, and the plan records which: fingerprinting the saved plan, where
// no configuration is named (and even where its files are gone), leaves
// out the same files and gets the same fingerprint. A saved plan in the
// directory is never part of the bot, nor the file a plan is written to.
func TestSavedPlanLeavesOutTheSameFiles(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "bot.sh"), "exit 0", 0o755)
	write(t, filepath.Join(root, "t.hcl"), "tournament {}", 0o644)
	write(t, filepath.Join(root, "vars", "v.hcl"), "x = 1", 0o644)
	savedPlan := savedPlan(t, "t")
	write(t, filepath.Join(root, "plan.json"), savedPlan, 0o644)
	write(t, filepath.Join(root, "book.json"), `{"version": 1, "moves": []}`, 0o644)
	write(t, filepath.Join(root, "out.json"), "", 0o644)
	out, err := os.Stat(filepath.Join(root, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	bots := func() []plan.Bot {
		return []plan.Bot{{Name: "b", Command: []string{"./bot.sh"}, Dir: "."}, {Name: "h", House: "g/random"}}
	}
	compiled := &plan.Plan{Bots: bots()}
	o := Options{Root: root, Config: []string{filepath.Join(root, "t.hcl"), filepath.Join(root, "vars", "v.hcl")}, Output: out}
	if err := Plan(compiled, o); err != nil {
		t.Fatal(err)
	}
	fp := compiled.Bots[0].Fingerprint
	if got := paths(fp); !slices.Equal(got, []string{"book.json", "bot.sh"}) {
		t.Errorf("files %q", got)
	}
	if !slices.Equal(fp.Config, []string{"t.hcl", "vars/v.hcl"}) || fp.Root != root {
		t.Errorf("config %q, root %s", fp.Config, fp.Root)
	}
	wantSkipped := []string{"out.json: " + whyPlan, "plan.json: " + whyPlan, "t.hcl: " + whyConfig, "vars/v.hcl: " + whyConfig}
	if !slices.Equal(fp.Skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", fp.Skipped, wantSkipped)
	}
	// What plan -json wrote there: a saved plan.
	write(t, filepath.Join(root, "out.json"), savedPlan, 0o644)

	// The saved plan, run from its own file with the root given.
	saved := func() *plan.Plan {
		p := &plan.Plan{Bots: bots()}
		p.Bots[0].Fingerprint = fp
		return p
	}
	again := saved()
	if err := Plan(again, Options{Root: root, Plans: []string{filepath.Join(root, "plan.json")}}); err != nil {
		t.Fatal(err)
	}
	if got := again.Bots[0].Fingerprint; got.Hash != fp.Hash || !slices.Equal(got.Config, fp.Config) || !slices.Equal(got.Skipped, wantSkipped) {
		t.Errorf("from the saved plan: %+v, from the configuration: %+v", got, fp)
	}
	// Without the configuration's files at hand, the plan still says
	// which they were.
	for _, f := range []string{"t.hcl", "vars/v.hcl"} {
		if err := os.Remove(filepath.Join(root, f)); err != nil {
			t.Fatal(err)
		}
	}
	again = saved()
	if err := Plan(again, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if got := again.Bots[0].Fingerprint; got.Hash != fp.Hash || !slices.Equal(got.Config, fp.Config) {
		t.Errorf("without the configuration: %+v", got)
	}

	// A plan of an arbiter before Config: its skipped lines say which.
	write(t, filepath.Join(root, "t.hcl"), "tournament {}", 0o644)
	old := *fp
	old.Config = nil
	again = saved()
	again.Bots[0].Fingerprint = &old
	if err := Plan(again, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if got := again.Bots[0].Fingerprint; got.Hash != fp.Hash || !slices.Equal(got.Config, []string{"t.hcl", "vars/v.hcl"}) {
		t.Errorf("from an older plan: %+v", got)
	}
	if got := again.Bots[0].Fingerprint.LeftOut; got["t.hcl"] != filepath.Join(realPath(root), "t.hcl") || got["plan.json"] == "" {
		t.Errorf("left out %q", got)
	}
}

// BenchmarkBot fingerprints a directory of 64 files of 256 KiB; compare
// its MB/s with BenchmarkSHA256, hashing the same bytes in memory.
func BenchmarkBot(b *testing.B) {
	dir := b.TempDir()
	data := make([]byte, 256<<10)
	for i := range 64 {
		data[0] = byte(i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(64 << 18)
	for b.Loop() {
		Bot(dir, nil, nil)
	}
}

func BenchmarkSHA256(b *testing.B) {
	data := make([]byte, 256<<10)
	b.SetBytes(64 << 18)
	for b.Loop() {
		for range 64 {
			sha256.Sum256(data)
		}
	}
}

// TestBotWithFIFOs: a FIFO in a bot's folder (a build may leave one) is
// recorded by its mode and never opened, which would wait for a writer;
// one named like a saved plan too.
func TestBotWithFIFOs(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a"), "a", 0o644)
	for _, name := range []string{"pipe", "plan.json"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan *plan.Fingerprint, 1)
	go func() { done <- Bot(dir, []string{"./a"}, nil) }()
	select {
	case fp := <-done:
		if got := paths(fp); !slices.Equal(got, []string{"a", "pipe", "plan.json"}) || fp.Files[1].SHA256 != "" || !strings.HasPrefix(fp.Files[1].Mode, "p") {
			t.Errorf("files %+v", fp.Files)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("fingerprinting a folder with a FIFO hangs")
	}
}

// A submitted command's words outside its folder are not hashed: the
// sandbox does not show them to it, and another player's file is not
// published in this one's fingerprint.
func TestOwnWords(t *testing.T) {
	dir := "/contest/players/a"
	got := ownWords(dir, []string{"python3", "-u", "bot.py", "../b/bot.py", "/contest/players/b", "lib/x.py", "/contest/players/a/y.py"})
	want := []string{"python3", "-u", "bot.py", "lib/x.py", "/contest/players/a/y.py"}
	if !slices.Equal(got, want) {
		t.Errorf("ownWords = %q, want %q", got, want)
	}
	if got := ownWords(dir, []string{"../b/bot", "x"}); got != nil {
		t.Errorf("ownWords of a program out of the folder = %q, want nothing", got)
	}
	// The program may be the system's; the other words in the system's
	// folders are not read on the player's behalf.
	got = ownWords(dir, []string{"/bin/sh", "bot.sh", "/etc/shadow", "/usr/share/x.py", "-cp", "lib:/usr/share/java/x.jar"})
	want = []string{"/bin/sh", "bot.sh", "-cp", "lib"}
	if !slices.Equal(got, want) {
		t.Errorf("ownWords with system paths = %q, want %q", got, want)
	}
}

// A submitted command's program in the system's folders is read only
// when it really lies there (its links resolved), not in the bots_from
// folder, and everyone may read it: arbiter, often root, does not read
// for a player what the player could not.
func TestSubmittedProgramEveryoneReads(t *testing.T) {
	sys, players := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Dir(sys), sys} { // t.TempDir's are the user's only
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer func(old []string) { drivers.SystemDirs = old }(drivers.SystemDirs)
	drivers.SystemDirs = append(slices.Clone(drivers.SystemDirs), sys)
	alice, bob := filepath.Join(players, "alice"), filepath.Join(players, "bob")
	write(t, filepath.Join(alice, "bot.sh"), "echo\n", 0o644)
	write(t, filepath.Join(bob, "secret"), "hunter2\n", 0o644)
	write(t, filepath.Join(sys, "open"), "x\n", 0o755)
	write(t, filepath.Join(sys, "shadow"), "root:x\n", 0o640)
	write(t, filepath.Join(sys, "closed", "prog"), "x\n", 0o755)
	if err := os.Chmod(filepath.Join(sys, "closed"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(bob, "secret"), filepath.Join(sys, "link")); err != nil {
		t.Fatal(err)
	}
	for prog, want := range map[string]bool{
		"open": true, "shadow": false, "closed/prog": false, "link": false, "missing": false,
	} {
		command := []string{filepath.Join(sys, prog), "bot.sh"}
		if got := ownWords(alice, command) != nil; got != want {
			t.Errorf("ownWords(%q) keeps the command: %v, want %v", command, got, want)
		}
	}
	fp := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{filepath.Join(sys, "link"), "bot.sh", filepath.Join(sys, "open")},
		Dir: alice, Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{Submitted: true}}}}}
	if err := Plan(fp, Options{Root: players}); err != nil {
		t.Fatal(err)
	}
	if got := paths(fp.Bots[0].Fingerprint); !slices.Equal(got, []string{"bot.sh"}) {
		t.Errorf("files %q, want only bot.sh: a link to another player's file is not the system's", got)
	}
}

// A bots_from player whose command names its interpreter by an absolute
// path in the system's folders has it in its fingerprint, as a bot block
// with the same command does (the program is always part of it).
func TestSubmittedSystemProgramIsHashed(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "bot", "bot.py"), "print(1)\n", 0o644)
	command := []string{"/bin/sh", "bot.py"}
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "organisers", Command: command, Dir: "bot"},
		{Name: "submitted", Command: command, Dir: "bot", Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{Submitted: true}}},
	}}
	if err := Plan(p, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	want := paths(p.Bots[0].Fingerprint)
	if !slices.Contains(want, "/bin/sh") {
		t.Fatalf("the bot block's files %q lack its program /bin/sh", want)
	}
	if got := paths(p.Bots[1].Fingerprint); !slices.Equal(got, want) {
		t.Errorf("the submitted bot's files %q, want the bot block's %q", got, want)
	}
}

// Directories that arbiter made are never a bot's: a results directory
// whose run or merge was killed before it wrote results.jsonl (its lock
// file alone, or with its plan), and a work directory of arbiter slurm
// (its marker). A bot's own file named .lock or slurm.json is hashed.
func TestArbiterDirsAreNotTheBots(t *testing.T) {
	dir := t.TempDir()
	holder := `{"pid":4242,"host":"h","since":"2026-01-02T03:04:05Z","command":["arbiter","run","."]}` + "\n"
	saved := savedPlan(t, "t")
	write(t, filepath.Join(dir, "bot.py"), "print(1)\n", 0o755)
	write(t, filepath.Join(dir, "killed", LockFile), holder, 0o644)
	write(t, filepath.Join(dir, "released", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "writing", LockFile), holder, 0o644)
	write(t, filepath.Join(dir, "writing", "plan.json.tmp"), "{", 0o644)
	write(t, filepath.Join(dir, "merging", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "merging", "plan.json"), saved, 0o644)
	write(t, filepath.Join(dir, "merging", "matches", "r001", "events.jsonl"), "{}\n", 0o644)
	write(t, filepath.Join(dir, "work", SlurmFile), `{"arbiter":"`+SlurmWorkKind+`","plan":"x","out":"/o","shards":2}`+"\n", 0o644)
	write(t, filepath.Join(dir, "work", "logs", "stage0-shard0.log"), "log", 0o644)
	write(t, filepath.Join(dir, "work", "stage0-shards.sbatch"), "#!/bin/sh\n", 0o755)
	// The bot's own.
	write(t, filepath.Join(dir, "mine", LockFile), "locked by the bot\n", 0o644)
	write(t, filepath.Join(dir, "cache", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "cache", "table.bin"), "t", 0o644)
	write(t, filepath.Join(dir, "notes", SlurmFile), `{"arbiter":"something else"}`, 0o644)
	fp := Bot(dir, []string{"./bot.py"}, nil)
	want := []string{"bot.py", "cache/table.bin", "mine/.lock", "notes/slurm.json"}
	if got := paths(fp); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	for _, s := range []string{"killed/: an arbiter results directory", "merging/: an arbiter results directory",
		"released/: an arbiter results directory", "work/: an arbiter slurm work directory", "writing/: an arbiter results directory"} {
		if !slices.Contains(fp.Skipped, s) {
			t.Errorf("skipped %q does not say %q", fp.Skipped, s)
		}
	}
}

// TestMarksDoNotHideABotsFiles: a folder is arbiter's only when it holds
// nothing but what arbiter writes there. A bot's author who copies a
// marker (slurm.json, an empty .lock beside a plan-looking plan.json, a
// plan.json beside an empty results.jsonl) into a folder of the bot's code
// hides nothing: the folder is hashed. Nor is a bot's JSON file that
// merely begins as a plan left out.
func TestMarksDoNotHideABotsFiles(t *testing.T) {
	dir := t.TempDir()
	fakePlan := `{"version":1,"hash":"` + strings.Repeat("ab", 32) + `","weights":[1,2,3]}`
	write(t, filepath.Join(dir, "simple.py"), "import lib.tuning\n", 0o644)
	write(t, filepath.Join(dir, "weights.json"), fakePlan, 0o644)
	write(t, filepath.Join(dir, "lib", SlurmFile), `{"arbiter":"`+SlurmWorkKind+`"}`, 0o644)
	write(t, filepath.Join(dir, "lib", "tuning.py"), "K = 1\n", 0o644)
	write(t, filepath.Join(dir, "lib2", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "lib2", "plan.json"), fakePlan, 0o644)
	write(t, filepath.Join(dir, "lib2", "tuning.py"), "K = 2\n", 0o644)
	write(t, filepath.Join(dir, "lib3", "plan.json"), fakePlan, 0o644)
	write(t, filepath.Join(dir, "lib3", "results.jsonl"), "", 0o644)
	write(t, filepath.Join(dir, "lib3", "tuning.py"), "K = 3\n", 0o644)
	// Hidden one level down, in a folder arbiter writes.
	write(t, filepath.Join(dir, "lib4", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "lib4", "rounds", "tuning.py"), "K = 4\n", 0o644)
	// A slurm work directory with a bot's file among the shards'.
	write(t, filepath.Join(dir, "lib5", SlurmFile), `{"arbiter":"`+SlurmWorkKind+`"}`, 0o644)
	write(t, filepath.Join(dir, "lib5", "shards", "s0-0", "tuning.py"), "K = 5\n", 0o644)
	fp := Bot(dir, []string{"/usr/bin/python3", "simple.py"}, nil)
	// A folder with a results directory's marks and something else:
	// the something else is hashed (and the run names the folder).
	want := []string{"lib/slurm.json", "lib/tuning.py", "lib2/plan.json", "lib2/tuning.py",
		"lib3/plan.json", "lib3/tuning.py", "lib4/rounds/tuning.py",
		"lib5/shards/s0-0/tuning.py", "lib5/slurm.json", "simple.py", "weights.json"}
	got := paths(fp)
	if i := slices.Index(got, "/usr/bin/python3"); i >= 0 {
		got = slices.Delete(got, i, i+1)
	}
	if !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	wantFound := []string{
		"lib2/: an arbiter results directory, but for plan.json, tuning.py, not arbiter's, which are hashed",
		"lib3/: an arbiter results directory, but for plan.json, tuning.py, not arbiter's, which are hashed",
		"lib4/: an arbiter results directory, but for rounds/, not arbiter's, which is hashed",
	}
	if got := FoundArbiters(fp); !slices.Equal(got, wantFound) {
		t.Errorf("left out as arbiter's: %q, want %q", got, wantFound)
	}
}

// TestArbitersFoldersAsArbiterLeavesThem: what arbiter writes into a
// results directory (a run killed before plan.json: its lock, log, shard
// record and pairings; a finished one with its reports) and into a slurm
// work directory is left out, and FoundArbiters names each such folder.
func TestArbitersFoldersAsArbiterLeavesThem(t *testing.T) {
	dir := t.TempDir()
	p := savedPlan(t, "t")
	write(t, filepath.Join(dir, "bot.py"), "print(1)\n", 0o755)
	write(t, filepath.Join(dir, "killed", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "killed", "arbiter.log"), "started\n", 0o644)
	write(t, filepath.Join(dir, "killed", "shard.json"), `{"shard":0,"of":2,"stage":1}`, 0o644)
	write(t, filepath.Join(dir, "killed", "rounds", "round-002.json"), "{}", 0o644)
	write(t, filepath.Join(dir, "done", LockFile), "", 0o644)
	write(t, filepath.Join(dir, "done", "plan.json"), p, 0o644)
	for _, f := range []string{"results.jsonl", "arbiter.log", "standings.txt", "changes.jsonl", "stopped.json",
		"report.html", "duels.txt", "score.txt", "err.txt", "standings.txt.tmp", "matches/r001/events.jsonl.gz",
		"matches/r001/state/py", "builds/py.json", "builds/py.log", "duels/0.txt", "report-matches/r001.js"} {
		write(t, filepath.Join(dir, "done", filepath.FromSlash(f)), "x", 0o644)
	}
	write(t, filepath.Join(dir, "work", SlurmFile), `{"arbiter":"`+SlurmWorkKind+`","plan":"x","out":"/o","shards":2}`+"\n", 0o644)
	for _, f := range []string{"plan.json", "jobs.json", SlurmSbatchErrors, "submit.sh", "stage0-shards.sbatch", "stage1-merge.sbatch", "logs/stage0-shard1.log",
		"logs/stage0-merge.log", "shards/s0-0/.lock", "shards/s0-0/plan.json", "shards/s0-0/shard.json", "shards/s0-0/matches/r001/events.jsonl"} {
		content := "x"
		if path.Base(f) == "plan.json" {
			content = p // a results directory's plan is a whole plan
		}
		write(t, filepath.Join(dir, "work", filepath.FromSlash(f)), content, 0o644)
	}
	if err := os.MkdirAll(filepath.Join(dir, "work", "shards", "s0-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	fp := Bot(dir, []string{"./bot.py"}, nil)
	if got := paths(fp); !slices.Equal(got, []string{"bot.py"}) {
		t.Errorf("files %q", got)
	}
	want := []string{"done/: " + whyResultsDir, "killed/: " + whyResultsDir, "work/: " + whySlurmWork}
	if got := FoundArbiters(fp); !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	if got := SlurmForeign(filepath.Join(dir, "work")); len(got) != 0 {
		t.Errorf("work holds %q", got)
	}
	if got := SlurmForeign(dir); !slices.Equal(got, []string{"bot.py", "done/", "killed/", "work/"}) {
		t.Errorf("a bot's dir holds %q", got)
	}
	if got := SlurmForeign(filepath.Join(dir, "none")); got != nil {
		t.Errorf("a folder that is not there holds %q", got)
	}
}
