package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// TestHoldDirOverlap: builds of overlapping dirs (one, or one inside the
// other) run one after the other, builds of other dirs at once.
func TestHoldDirOverlap(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	release := holdDir(dir)
	got := make(chan string, 3)
	for _, d := range []string{sub, other, dir} {
		go func() {
			r := holdDir(d)
			got <- d
			r()
		}()
	}
	if g := <-got; g != other {
		t.Fatalf("%s was held while %s is", g, dir)
	}
	select {
	case g := <-got:
		t.Fatalf("%s was held while %s is", g, dir)
	case <-time.After(50 * time.Millisecond):
	}
	release()
	for range 2 {
		if g := <-got; g != sub && g != dir {
			t.Fatalf("held %s", g)
		}
	}
}

// A bot changed while a match of it is played is built again only once
// that match has been checked after it ends: the build never rewrites
// the outputs of a version being played. Changed back, it is built
// again too: its outputs are the last build's, not its own.
func TestRebuildWaitsForMatchesOfTheBot(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "bot.in"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	built := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "bot.out"))
		return string(b)
	}
	write("A\n")
	p := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{"./bot.out"}, Dir: "bot",
		Build: []string{"sh", "-c", "cp bot.in bot.out"}}}}
	if err := fingerprint.Plan(p, fingerprint.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Plan: p, Root: root, Out: out, builds: &builds{}, watch: newWatch(out, p, true, hclog.NewNullLogger())}
	ctx := context.Background()
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	_, release, err := r.builtFor(ctx, m)
	if err != nil || built() != "A\n" {
		t.Fatalf("first build: %v, built %q", err, built())
	}
	write("B\n")
	done := make(chan error, 1)
	go func() {
		// Another match of it: its check sees the change.
		m2 := &plan.Match{ID: "r001-g01-s2", Seats: []string{"alice"}}
		if _, err := r.watch.before(m2); err != nil {
			done <- err
			return
		}
		_, release, err := r.builtFor(ctx, m2)
		if err == nil {
			release()
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("built again while a match of the version before was played: %v, built %q", err, built())
	case <-time.After(300 * time.Millisecond):
	}
	if built() != "A\n" {
		t.Fatalf("the match's build was rewritten while it was played: %q", built())
	}
	release()
	if err := <-done; err != nil || built() != "B\n" {
		t.Fatalf("second build: %v, built %q", err, built())
	}
	write("A\n")
	if _, err := r.watch.before(m); err != nil {
		t.Fatal(err)
	}
	if _, release, err = r.builtFor(ctx, m); err != nil || built() != "A\n" {
		t.Fatalf("changed back: %v, built %q; want A built again", err, built())
	}
	release()
}
