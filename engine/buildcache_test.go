package engine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
	"github.com/hashicorp/go-hclog"
)

// keepStates points the bots' folders of arbiter's state at a folder of
// the test's own, for root (BuildState) and for another user
// (XDG_CACHE_HOME, which os.UserCacheDir reads), and returns it.
func keepStates(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	was := BuildState
	BuildState = filepath.Join(base, "builds")
	t.Cleanup(func() { BuildState = was })
	t.Setenv("XDG_CACHE_HOME", base)
	root, err := buildStateRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// needSandbox skips a test of the sandboxed build's cache where there is
// no sandbox (CI has one).
func needSandbox(t *testing.T) {
	t.Helper()
	if !proc.Machine().Sandbox {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs the tests with the sandbox, but here it is not")
		}
		t.Skip("no sandbox here: a build outside it keeps its caches where its user's programs do")
	}
}

// A Go bot's build for check or console keeps Go's cache between builds:
// the second build finds the first one's (its $HOME/.cache holds
// go-build), and a build from the cache is the build from scratch, byte
// for byte, while a changed source is built again.
func TestBuildCacheKeptBetweenBuilds(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go here")
	}
	needSandbox(t)
	keepStates(t)
	dir := filepath.Join(t.TempDir(), "bot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module bot\n\ngo 1.21\n")
	b := &plan.Bot{Name: "gobot", Dir: dir, Command: []string{"./bot"},
		Build:  []string{"sh", "-c", `if [ -d "$HOME/.cache/go-build" ]; then echo warm; else echo cold; fi >cache.txt; go build -o bot .`},
		Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{}}}
	build := func(says string) []byte {
		t.Helper()
		write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\""+says+"\") }\n")
		log := filepath.Join(t.TempDir(), "build.log")
		held, err := holdState(context.Background(), b.Name, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		detail, err := runBuild(context.Background(), b, dir, log, buildCache(b, held, t.Logf), t.Logf)
		held.release()
		if err != nil || detail != "" {
			out, _ := os.ReadFile(log)
			t.Fatalf("build: %v %s\n%s", err, detail, out)
		}
		out, err := exec.Command(filepath.Join(dir, "bot")).Output()
		if string(out) != says+"\n" || err != nil {
			t.Fatalf("the bot built from a source that says %q says %q (%v)", says, out, err)
		}
		bin, err := os.ReadFile(filepath.Join(dir, "bot"))
		if err != nil {
			t.Fatal(err)
		}
		return bin
	}
	cache := func() string {
		t.Helper()
		text, _ := os.ReadFile(filepath.Join(dir, "cache.txt"))
		return string(text)
	}
	first := build("one")
	if got := cache(); got != "cold\n" {
		t.Fatalf("the first build found %q, want its cache cold", got)
	}
	state, err := buildState(b.Name, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, "cache", "go-build")); err != nil {
		t.Fatalf("the first build left no Go cache in the bot's cache folder: %v", err)
	}
	if bytes.Equal(build("two"), first) {
		t.Fatal("a changed source was not built again")
	}
	if got := cache(); got != "warm\n" {
		t.Fatalf("the second build found %q, want the first one's cache", got)
	}
	if !bytes.Equal(build("one"), first) {
		t.Fatal("the build from the cache differs from the first, from scratch")
	}
}

// poisonBot is a bot whose build makes what its cache says: a build can
// leave in its cache what a later build takes, which no file of the bot
// holds (as a build that rewrites Go's cache entries can).
func poisonBot(t *testing.T) (p *plan.Plan, root string) {
	t.Helper()
	root = t.TempDir()
	dir := filepath.Join(root, "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `if [ -f "$HOME/.cache/evil" ]; then echo evil; else echo clean; fi >bot.txt; mkdir -p "$HOME/.cache"; echo x >"$HOME/.cache/evil"` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "build.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return &plan.Plan{Bots: []plan.Bot{{Name: "b", Dir: "b", Command: []string{"cat", "bot.txt"}, Build: []string{"sh", "build.sh"},
		Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{}}}}}, root
}

// runLikeBuild builds bot b of p as a run does (Runner.build), its
// results in out, and returns what the build made.
func runLikeBuild(t *testing.T, p *plan.Plan, root, out string) string {
	t.Helper()
	o := fingerprint.Options{Root: root, Results: []string{out}}
	taken := func() *plan.Plan {
		one := *p
		one.Bots = slices.Clone(p.Bots)
		if err := fingerprint.Plan(&one, o); err != nil {
			t.Fatal(err)
		}
		return &one
	}
	r := &Runner{Plan: taken(), Root: root, Out: out}
	b := &r.Plan.Bots[0]
	rec, err := r.build(context.Background(), b, b.Fingerprint.Hash, func() (string, error) {
		b.Fingerprint = taken().Bots[0].Fingerprint
		return b.Fingerprint.Hash, nil
	})
	if err != nil || !rec.OK {
		t.Fatalf("run's build: %v %+v", err, rec)
	}
	made, _ := os.ReadFile(filepath.Join(root, "b", "bot.txt"))
	return string(made)
}

// A build for check or console may leave in its kept cache what makes a
// later build make what no file of the bot holds; a run's build never
// takes that cache (it starts from an empty one), nor a file that such a
// build made in place of the run's own.
func TestBuildCachePoisonedNotTakenByRun(t *testing.T) {
	needSandbox(t)
	keepStates(t)
	p, root := poisonBot(t)
	out := filepath.Join(t.TempDir(), "results")
	if got := runLikeBuild(t, p, root, out); got != "clean\n" {
		t.Fatalf("the run's first build made %q", got)
	}
	check := func(rebuild bool) string {
		t.Helper()
		built, err := BuildOutside(context.Background(), p, "b", fingerprint.Options{Root: root}, rebuild, hclog.NewNullLogger(), func() {})
		defer built.Close()
		if err != nil || !built.Record.OK {
			t.Fatalf("check's build: %v %+v", err, built.Record)
		}
		made, _ := os.ReadFile(filepath.Join(root, "b", "bot.txt"))
		return string(made)
	}
	if got := check(false); got != "clean\n" {
		t.Fatalf("check's first build made %q", got)
	}
	if got := check(true); got != "evil\n" {
		t.Fatalf("check's build from its kept cache made %q: the test proves nothing", got)
	}
	if got := runLikeBuild(t, p, root, out); got != "clean\n" {
		t.Fatalf("a run took what a build from check's kept cache made: %q", got)
	}
	if got := runLikeBuild(t, p, root, filepath.Join(t.TempDir(), "again")); got != "clean\n" {
		t.Fatalf("a run's build into another results directory made %q", got)
	}
}

// Each bot has a folder of its own, by name and folder; a cache over
// BuildCacheCap is emptied before the build; a bot's build outside the
// sandbox has no cache.
func TestBuildCacheFolders(t *testing.T) {
	keepStates(t)
	a, c := t.TempDir(), t.TempDir()
	names := map[string]bool{}
	for _, k := range [][2]string{{"alice", a}, {"bob", a}, {"alice", c}} {
		s, err := buildState(k[0], k[1])
		if err != nil {
			t.Fatal(err)
		}
		names[s] = true
	}
	if len(names) != 3 {
		t.Fatalf("folders %v, want one for each bot and folder", names)
	}
	b := &plan.Bot{Name: "alice", Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{}}}
	warned := 0
	warn := func(string, ...any) { warned++ }
	held, err := holdState(context.Background(), b.Name, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.release()
	cache := buildCache(b, held, warn)
	if cache == "" || warned > 0 {
		t.Fatalf("no cache made (%d warnings)", warned)
	}
	defer func(n int64) { BuildCacheCap = n }(BuildCacheCap)
	BuildCacheCap = 10
	if err := os.WriteFile(filepath.Join(cache, "big"), []byte("more than ten bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if buildCache(b, held, warn) != cache || warned != 1 {
		t.Fatalf("a cache over its cap: %d warnings, want 1", warned)
	}
	if _, err := os.Stat(filepath.Join(cache, "big")); err == nil {
		t.Fatal("a cache over its cap was not emptied")
	}
	if buildCache(&plan.Bot{Name: "bare"}, held, warn) != "" {
		t.Fatal("a build outside the sandbox was given a cache")
	}
}

// A state is removed only when no arbiter holds it or runs its bot's
// files and it has not been used for StateMaxAge, whether or not its bot's folder is seen (another
// mount namespace may not see a folder in use); a state's dir file is
// never seen empty while it is rewritten.
func TestBuildCachePrune(t *testing.T) {
	root := keepStates(t)
	gone := filepath.Join(t.TempDir(), "gone") // never made: as another namespace sees it
	old := time.Now().Add(-2 * StateMaxAge)
	age := func(state string) {
		t.Helper()
		for _, f := range []string{filepath.Join(state, stateDirFile), state} {
			if err := os.Chtimes(f, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	exists := func(state string) bool {
		_, err := os.Stat(state)
		return err == nil
	}
	fresh, err := holdState(context.Background(), "fresh", gone, nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh.release()
	held, err := holdState(context.Background(), "held", gone, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.release()
	age(held.dir)
	stale, err := holdState(context.Background(), "stale", gone, nil)
	if err != nil {
		t.Fatal(err)
	}
	stale.release()
	age(stale.dir)
	// A check that runs the bot's files holds the use lock alone (its
	// bot in a folder of its own: the use lock is the folder's).
	running, err := holdState(context.Background(), "running", filepath.Join(gone, "running"), nil)
	if err != nil {
		t.Fatal(err)
	}
	use, err := running.use(context.Background(), syscall.LOCK_SH, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer use.Close()
	running.release()
	age(running.dir)
	// Use files unused as long: one unheld, of a folder no longer
	// checked, and the one held.
	unheld := filepath.Join(root, "0123456789abcdef"+useSuffix)
	if err := os.WriteFile(unheld, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{unheld, running.useFile} {
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// Folders arbiter did not make (a root named by ARBITER_STATE_DIR may
	// be the user's own folder) stay, however old: one named otherwise,
	// and one named like a state but without its dir file.
	var theirs []string
	for _, name := range []string{"photos-2025", "notes-0123456789abcdef"} {
		d := filepath.Join(root, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
		theirs = append(theirs, d)
	}
	pruneStates(root)
	for _, d := range theirs {
		if !exists(d) {
			t.Fatalf("%s, not a state arbiter made, was removed", filepath.Base(d))
		}
	}
	if !exists(fresh.dir) {
		t.Fatal("a state used just now, its bot's folder not seen, was removed")
	}
	if !exists(held.dir) {
		t.Fatal("a state held by an arbiter was removed")
	}
	if !exists(running.dir) {
		t.Fatal("a state whose bot's files a check runs was removed")
	}
	if exists(stale.dir) {
		t.Fatal("a state unheld and unused for StateMaxAge stays")
	}
	if exists(unheld) || !exists(running.useFile) {
		t.Fatalf("of the use files unused for StateMaxAge, the unheld one stays (%v) or the held one is removed (%v)", exists(unheld), !exists(running.useFile))
	}
	// Its dir file rewritten again and again, a reader never sees it
	// empty or missing.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2000 {
			if err := atomicfile.Write(filepath.Join(held.dir, stateDirFile), []byte(gone+"\n"), 0o600); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		if data, err := os.ReadFile(filepath.Join(held.dir, stateDirFile)); err != nil || string(data) != gone+"\n" {
			t.Fatalf("the dir file read as %q (%v) while rewritten", data, err)
		}
	}
}

// An arbiter waiting for a state that a pruner removes under its lock
// holds the state made anew, not a lock of a file no longer there.
func TestBuildCacheLockAfterPrune(t *testing.T) {
	root := keepStates(t)
	dir := t.TempDir()
	first, err := holdState(context.Background(), "b", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *heldState)
	go func() {
		h, err := holdState(context.Background(), "b", dir, nil)
		if err != nil {
			t.Error(err)
		}
		got <- h
	}()
	// The pruner's removal, done by the holder: renamed away, then gone.
	time.Sleep(100 * time.Millisecond)
	if err := os.Rename(first.dir, filepath.Join(root, ".gone-test")); err != nil {
		t.Fatal(err)
	}
	first.release()
	second := <-got
	if second == nil {
		return
	}
	defer second.release()
	held, err := second.lock.Stat()
	if err != nil {
		t.Fatal(err)
	}
	now, err := os.Stat(filepath.Join(second.dir, stateLockFile))
	if err != nil || !os.SameFile(held, now) {
		t.Fatalf("the lock held is not the state's lock file (%v)", err)
	}
}

// A state without a lock file (kept by an arbiter before those files),
// old enough to be pruned, is not pruned by one arbiter while another
// takes it: the pruner locks the file the taker locks. Before, a pruner
// that found no lock file renamed the folder away however it was held
// meanwhile, so the taker built in a folder no longer its state. The
// two race for it many times over.
func TestBuildCachePruneLockless(t *testing.T) {
	root := keepStates(t)
	dir := t.TempDir()
	old := time.Now().Add(-2 * StateMaxAge)
	for i := range 1000 {
		name := fmt.Sprintf("b%d", i)
		state, err := buildState(name, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(state, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(state, stateDirFile), []byte(dir+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(state, stateDirFile), old, old); err != nil {
			t.Fatal(err)
		}
		var pruners sync.WaitGroup
		for range 3 {
			pruners.Add(1)
			go func() {
				defer pruners.Done()
				pruneStates(root)
			}()
		}
		held, err := holdState(context.Background(), name, dir, nil)
		pruners.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if !proc.AtPath(held.lock, filepath.Join(state, stateLockFile)) {
			t.Fatalf("round %d: the state was pruned while held (its lock is no longer at its path)", i)
		}
		held.release()
		if err := os.RemoveAll(state); err != nil {
			t.Fatal(err)
		}
	}
}

// Two bots of one folder share its use lock: a build of one (which
// rewrites the folder's files) waits while a check or console runs the
// other's, saying for whom; a bot of another folder does not wait.
// Before, each state had its own, so a check of the second bot rebuilt
// the folder under the first's cases.
func TestBuildCacheUseSharedFolder(t *testing.T) {
	keepStates(t)
	dir, other := t.TempDir(), t.TempDir()
	hold := func(name, dir string) *heldState {
		t.Helper()
		h, err := holdState(context.Background(), name, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.release)
		return h
	}
	b, c, d := hold("b", dir), hold("c", dir), hold("d", other)
	running, err := b.use(context.Background(), syscall.LOCK_SH, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A context already ended: the lock is taken if it is free, and not
	// waited for if it is not.
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	told := -1
	if f, err := c.use(ended, syscall.LOCK_EX, func(pid int) { told = pid }); err == nil {
		f.Close()
		t.Fatal("a build of bot c took its folder's use lock while a check ran bot b of that folder")
	}
	if told != os.Getpid() {
		t.Errorf("bot c's build was told it waits for pid %d, want %d, which runs bot b", told, os.Getpid())
	}
	f, err := d.use(ended, syscall.LOCK_EX, nil)
	if err != nil {
		t.Fatalf("a build of a bot of another folder waits for bot b's check: %v", err)
	}
	f.Close()
	running.Close()
	f, err = c.use(ended, syscall.LOCK_EX, nil)
	if err != nil {
		t.Fatalf("bot c's build waits once bot b's check has ended: %v", err)
	}
	f.Close()
}
