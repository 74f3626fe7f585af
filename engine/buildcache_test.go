package engine

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/plan"
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

// A Go bot's build in the sandbox keeps Go's cache between builds: the
// second build finds the first one's (its $HOME/.cache holds go-build),
// and a build from the cache is the build from scratch, byte for byte,
// while a changed source is built again.
func TestBuildCacheKeptBetweenBuilds(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go here")
	}
	if !proc.Machine().Sandbox {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs the tests with the sandbox, but here it is not")
		}
		t.Skip("no sandbox here: a build outside it keeps its caches where its user's programs do")
	}
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
		detail, err := Build(context.Background(), b, dir, log, t.Logf)
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

// Each bot has a folder of its own, by name and folder; a cache over
// BuildCacheCap is emptied before the build; the folder of a bot whose
// folder is gone is removed at the next build.
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
	cache := buildCache(b, a, warn)
	if cache == "" || warned > 0 {
		t.Fatalf("no cache made (%d warnings)", warned)
	}
	defer func(n int64) { BuildCacheCap = n }(BuildCacheCap)
	BuildCacheCap = 10
	if err := os.WriteFile(filepath.Join(cache, "big"), []byte("more than ten bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if buildCache(b, a, warn) != cache || warned != 1 {
		t.Fatalf("a cache over its cap: %d warnings, want 1", warned)
	}
	if _, err := os.Stat(filepath.Join(cache, "big")); err == nil {
		t.Fatal("a cache over its cap was not emptied")
	}
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	buildCache(&plan.Bot{Name: "carol", Limits: b.Limits}, c, warn)
	if _, err := os.Stat(filepath.Dir(cache)); err == nil {
		t.Fatal("the state of a bot whose folder is gone stays")
	}
	if buildCache(&plan.Bot{Name: "bare"}, c, warn) != "" {
		t.Fatal("a build outside the sandbox was given a cache")
	}
}
