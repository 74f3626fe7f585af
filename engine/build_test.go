package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
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
	r := buildRunner(t, root, p, true)
	ctx := context.Background()
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	_, release, err := r.builtFor(ctx, m)
	if err != nil || built() != "A\n" {
		t.Fatalf("first build: %v, built %q", err, built())
	}
	write("B\n")
	// Another match of it: its check sees the change.
	done := buildLater(ctx, r, &plan.Match{ID: "r001-g01-s2", Seats: []string{"alice"}})
	stillWaiting(t, done, "built again while a match of the version before was played", built)
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

// Two bots of one folder, whose build stamps a file of it: each one's
// build is no change of the other, and neither is built while a match of
// the other is played.
func TestBotsSharingAFolderBuild(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "cc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	built := func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "bot.out"))
		return string(b)
	}
	write("bot.in", "A\n")
	write("BUILD_INFO", "0\n")
	build := []string{"sh", "-c", "cp bot.in bot.out && date +%s%N > BUILD_INFO"}
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "cc1", Command: []string{"./bot.out"}, Dir: "cc", Build: build},
		{Name: "cc2", Command: []string{"./bot.out", "x"}, Dir: "cc", Build: build}}}
	r := buildRunner(t, root, p, true)
	out := r.Out
	ctx := context.Background()
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"cc1", "cc2"}}
	verdicts, release, err := r.builtFor(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.watch.before(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range m.Seats {
		if verdicts[name].Fingerprint != v.hashes[name] {
			t.Fatalf("bot %s built as %s, is %s: the other's build changed it", name, verdicts[name].Fingerprint, v.hashes[name])
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, ChangesFile)); err == nil {
		t.Fatalf("a build of one bot recorded as a change of the other:\n%s", b)
	}
	release()
	m2 := &plan.Match{ID: "r001-g02-s1", Seats: []string{"cc2"}}
	_, release, err = r.builtFor(ctx, m2)
	if err != nil {
		t.Fatal(err)
	}
	write("bot.in", "B\n")
	done := buildLater(ctx, r, &plan.Match{ID: "r001-g03-s1", Seats: []string{"cc1"}})
	stillWaiting(t, done, "cc1 built while a match of cc2, of its folder, was played", built)
	release()
	if err := <-done; err != nil || built() != "B\n" {
		t.Fatalf("cc1 built again: %v, built %q", err, built())
	}
	// cc2 was built for the folder as cc1's build left it: not built again.
	verdicts, release, err = r.builtFor(ctx, &plan.Match{ID: "r001-g04-s1", Seats: []string{"cc1", "cc2"}})
	if err != nil {
		t.Fatal(err)
	}
	release()
	if verdicts["cc1"].Fingerprint != verdicts["cc2"].Fingerprint || verdicts["cc1"].Fingerprint != r.watch.hash("cc1") {
		t.Fatalf("verdicts %s and %s, bots %s", verdicts["cc1"].Fingerprint, verdicts["cc2"].Fingerprint, r.watch.hash("cc1"))
	}
}

// A build cancelled (Ctrl-C) after it wrote a file of the bot: plan.json
// records the bot as the build left it, so that the resume the interrupt
// invites sees no change, and no verdict is kept, so that it builds again.
func TestCancelledBuildRecorded(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "BUILD_INFO"), []byte("0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{"./bot.out"}, Dir: "bot",
		Build: []string{"sh", "-c", "date +%s%N > BUILD_INFO; sleep 10"}}}}
	r := buildRunner(t, root, p, false)
	out := r.Out
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, _ := os.ReadFile(filepath.Join(dir, "BUILD_INFO")); string(b) != "0\n" {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	if _, _, err := r.builtFor(ctx, &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("builtFor: %v, want it cancelled", err)
	}
	data, err := os.ReadFile(filepath.Join(out, PlanFile))
	if err != nil {
		t.Fatalf("plan.json not written after the build was cancelled: %v", err)
	}
	var rec plan.Plan
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	fresh := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{"./bot.out"}, Dir: "bot", Build: p.Bots[0].Build}}}
	if err := fingerprint.Plan(fresh, fingerprint.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if rec.Bots[0].Fingerprint.Hash != fresh.Bots[0].Fingerprint.Hash {
		t.Fatalf("plan.json records %s, the resume would find %s", rec.Bots[0].Fingerprint.Hash, fresh.Bots[0].Fingerprint.Hash)
	}
	if _, err := os.Stat(filepath.Join(out, BuildsDir, "alice.json")); err == nil {
		t.Fatal("a verdict kept for a cancelled build")
	}
}

// TestGatedAreTheBuiltFolderBotsWithABuild: a build is taken in (as the
// bots' version, not a change) only for the bots that hold its folder's
// gate: those with a build in that very folder. A bot without a build,
// or of a folder inside it, may be playing while it builds, so what the
// build writes among its files must stay a change of it.
func TestGatedAreTheBuiltFolderBotsWithABuild(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	build := []string{"true"}
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "a", Dir: ".", Command: []string{"./a"}, Build: build},
		{Name: "b", Dir: ".", Command: []string{"./b"}},
		{Name: "c", Dir: "sub", Command: []string{"./c"}, Build: build},
		{Name: "d", Dir: ".", Command: []string{"./d"}, Build: build},
		{Name: "h", House: "planowanie/greedy"},
	}}
	r := &Runner{Plan: p, Root: root}
	for bot, want := range map[string]string{"a": "a d", "d": "a d", "c": "c"} {
		got := r.gated(p.Bot(bot))
		if g := fmt.Sprint(got); g != "["+want+"]" {
			t.Errorf("gated(%s) = %s, want [%s]", bot, g, want)
		}
	}
}

// buildLater checks m's bots and builds them, as before a match, on a
// goroutine of its own; the channel says how that ended (once the gates
// it waits for are released).
func buildLater(ctx context.Context, r *Runner, m *plan.Match) <-chan error {
	done := make(chan error, 1)
	go func() {
		if _, err := r.watch.before(m); err != nil {
			done <- err
			return
		}
		_, release, err := r.builtFor(ctx, m)
		if err == nil {
			release()
		}
		done <- err
	}()
	return done
}

// stillWaiting fails with what when done (buildLater's) has ended: the
// build it started must wait for a gate the test holds. A build let
// through by a broken gate ends within milliseconds; the 300 ms only bound
// how long the test looks, so a slow machine can miss a broken gate but
// never fail a sound one.
func stillWaiting(t *testing.T, done <-chan error, what string, built func() string) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("%s: %v, built %q", what, err, built())
	case <-time.After(300 * time.Millisecond):
	}
}

// TestLentDirNotWritableIsArbitersError: a build whose folder cannot be
// marked nor its lending recorded (LentDir not writable) is not the bot's
// fault: the build fails as arbiter's own error (a *proc.SetupError
// naming the bot), with no verdict kept, so that a resume builds it
// again. Before, it was the build's failure, its matches faults of the
// bot.
func TestLentDirNotWritableIsArbitersError(t *testing.T) {
	if os.Geteuid() != 0 || !proc.Machine().Enforcement("sandbox").Enforced {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs the tests as root with the sandbox, but here it is not")
		}
		t.Skip("needs the sandbox as root: only such a build is lent its folder")
	}
	root := t.TempDir()
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(root, "lent-file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	proc.LentDir = filepath.Join(notDir, "lent") // cannot be made
	t.Cleanup(func() { proc.LentDir = "/var/lib/arbiter/lent" })
	if err := os.MkdirAll(filepath.Join(root, "bot"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{"./bot.out"}, Dir: "bot",
		Build:  []string{"/bin/sh", "-c", "echo built > bot.out"},
		Limits: &drivers.Limits{Sandbox: &drivers.Sandbox{}}}}}
	r := buildRunner(t, root, p, false)
	out := r.Out
	_, _, err := r.builtFor(context.Background(), &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}})
	var se *proc.SetupError
	if !errors.As(err, &se) || se.Bot != "alice" || !strings.Contains(err.Error(), notDir) {
		t.Fatalf("builtFor: %v, want arbiter's own error naming alice and %s", err, notDir)
	}
	if _, err := os.Stat(filepath.Join(out, BuildsDir, "alice.json")); err == nil {
		t.Fatal("a verdict kept for a build that arbiter could not start")
	}
}

// TestBuildStartFailure: a build that could not be started is the bot's
// failure only for a *proc.Fault (its command, its folder); anything else
// (the lending's record not written, a cgroup not made) is arbiter's own
// error, naming the bot.
func TestBuildStartFailure(t *testing.T) {
	b := &plan.Bot{Name: "alice", Build: []string{"make"}}
	for _, c := range []struct {
		name   string
		err    error
		detail string // "": arbiter's error
	}{
		{"a fault is the build's", &proc.Fault{Kind: drivers.FaultStart, Detail: "cannot start make"}, `the build "make" could not be started: start: cannot start make`},
		{"a setup error is arbiter's", &proc.SetupError{Err: errors.New("recording the lending: read-only file system")}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			detail, err := buildStartFailure(b, c.err)
			var se *proc.SetupError
			switch {
			case detail != c.detail:
				t.Errorf("detail %q, want %q", detail, c.detail)
			case c.detail == "" && (!errors.As(err, &se) || se.Bot != "alice"):
				t.Errorf("error %v, want arbiter's naming alice", err)
			case c.detail != "" && err != nil:
				t.Errorf("error %v, want none", err)
			}
		})
	}
}

// buildRunner fingerprints p's bots, of root, and is a Runner of p whose
// results directory is root/out, watching its bots' files (allow: a
// change is recorded, as with -allow-changed-bots).
func buildRunner(t *testing.T, root string, p *plan.Plan, allow bool) *Runner {
	t.Helper()
	if err := fingerprint.Plan(p, fingerprint.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return &Runner{Plan: p, Root: root, Out: out, builds: &builds{}, watch: newWatch(out, p, allow, hclog.NewNullLogger())}
}

// A build's output past the fingerprint's byte cap is recorded by its
// mode alone, and compared so: not read in full and taken for replaced
// at every run. Only the files the fingerprint does not cover are read,
// so the covered ones do not use up the cap.
func TestOutputsPastByteCap(t *testing.T) {
	defer func(b int64) { fingerprint.MaxBytes = b }(fingerprint.MaxBytes)
	fingerprint.MaxBytes = 10
	dir := t.TempDir()
	for name, text := range map[string]string{"a.txt": "12345678", "b.txt": "12345", "c.bin": "012345678"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := fingerprint.Uncovered(dir, map[string]bool{"a.txt": true}, nil)
	if len(out) != 2 || out[0].Path != "b.txt" || out[0].SHA256 == "" || out[1].Path != "c.bin" || out[1].SHA256 != "" {
		t.Fatalf("outputs %+v, want b.txt hashed and c.bin by its mode", out)
	}
	if changed := changedOutput(dir, out); changed != "" {
		t.Errorf("changedOutput = %q for outputs as the build left them, want none", changed)
	}
	if err := os.Chmod(filepath.Join(dir, "c.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if changed := changedOutput(dir, out); changed != "c.bin" {
		t.Errorf("changedOutput = %q, want c.bin, whose mode changed", changed)
	}
}

// Two bots of one folder whose builds write the same output: the verdict
// of the one built first holds for the folder as the other's build left
// it, and records the outputs so, so that the next run builds neither
// again (each finding the output not as its own build left it).
func TestSharedFolderOutputsRefreshed(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("play\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	build := []string{"/bin/sh", "-c", "date +%s%N > stamp"}
	p := &plan.Plan{Bots: []plan.Bot{
		{Name: "a", Command: []string{"./bot.sh"}, Dir: "bot", Build: build},
		{Name: "b", Command: []string{"./bot.sh", "x"}, Dir: "bot", Build: build}}}
	r := buildRunner(t, root, p, true)
	ctx := context.Background()
	for _, m := range []*plan.Match{{ID: "r001-g01-s1", Seats: []string{"a"}}, {ID: "r001-g02-s1", Seats: []string{"b"}}} {
		_, release, err := r.builtFor(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	for _, name := range []string{"a", "b"} {
		rec, err := readBuildRecord(r.Out, name)
		if err != nil {
			t.Fatal(err)
		}
		if changed := changedOutput(dir, rec.Outputs); changed != "" {
			t.Errorf("bot %s's verdict records %s not as the last build left it: the next run builds it again", name, changed)
		}
	}
}
