package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// watchedBot makes a bot folder with files and a plan of that bot,
// fingerprinted, in a results directory of its own.
func watchedBot(t testing.TB, files map[string]string) (*plan.Plan, string, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "bot")
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &plan.Plan{Bots: []plan.Bot{{Name: "alice", Command: []string{"./bot.sh"}, Dir: "bot"}}}
	if err := fingerprint.Plan(p, fingerprint.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return p, dir, out
}

func TestWatchSeesWhatChanged(t *testing.T) {
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n", "lib/a.py": "a = 1\n"})
	w := newWatch(out, p, false, hclog.NewNullLogger())
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	v, err := w.before(m)
	if err != nil {
		t.Fatal(err)
	}
	if v.hashes["alice"] != p.Bots[0].Fingerprint.Hash {
		t.Fatalf("hash %s, want the plan's %s", v.hashes["alice"], p.Bots[0].Fingerprint.Hash)
	}
	// A new file, a file touched, and one written with the same content
	// are no change.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "bot.sh"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib/a.py"), []byte("a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log.txt"), []byte("played\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changes, err := w.after(m, v); err != nil || len(changes) != 0 {
		t.Fatalf("after touching: %v, %v; want no change", changes, err)
	}
	// A file replaced (sed -i writes a new one) and one removed are.
	if err := os.WriteFile(filepath.Join(dir, "bot.sh.new"), []byte("play better\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "bot.sh.new"), filepath.Join(dir, "bot.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "lib/a.py")); err != nil {
		t.Fatal(err)
	}
	changes, err := w.after(m, v)
	var ce *ChangedDuringRunError
	if len(changes) != 1 || !errors.As(err, &ce) || !ce.During {
		t.Fatalf("after editing: %v, %v; want one change, refused as during the match", changes, err)
	}
	c := changes[0]
	if c.Bot != "alice" || strings.Join(c.Changed, ",") != "bot.sh" || strings.Join(c.Removed, ",") != "lib/a.py" {
		t.Fatalf("change %+v, want bot.sh changed and lib/a.py removed", c)
	}
	// The fingerprint now is the one a fresh walk of the recorded files
	// gives, less the new file.
	fresh := fingerprint.Bot(dir, []string{"./bot.sh"}, nil)
	var files []plan.FileSum
	for _, f := range fresh.Files {
		if f.Path != "log.txt" {
			files = append(files, f)
		}
	}
	if got, want := w.bots["alice"].now.fp.Hash, fingerprint.Sum(files); got != want {
		t.Fatalf("hash after the change %s, want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, ChangesFile)); err == nil {
		t.Fatal("a change refused was recorded in changes.jsonl")
	}
}

func TestWatchAllowedRecordsTheChange(t *testing.T) {
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n"})
	w := newWatch(out, p, true, hclog.NewNullLogger())
	w.results = func() int { return 3 }
	m := &plan.Match{ID: "r002-g01-s1", Seats: []string{"alice"}}
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("play better\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := w.before(m)
	if err != nil {
		t.Fatal(err)
	}
	if v.hashes["alice"] == p.Bots[0].Fingerprint.Hash {
		t.Fatal("the match would record the hash from before the change")
	}
	notes, err := ReadChanges(out)
	if err != nil || len(notes) != 1 {
		t.Fatalf("changes %v, %v; want one", notes, err)
	}
	if n := notes[0]; n.Bot != "alice" || n.After != 3 || n.Match != m.ID || n.To != short(v.hashes["alice"]) {
		t.Fatalf("note %+v", n)
	}
	b, err := os.ReadFile(filepath.Join(out, PlanFile))
	if err != nil || !strings.Contains(string(b), v.hashes["alice"]) {
		t.Fatalf("plan.json does not record the new hash: %v", err)
	}
	if changes, err := w.after(m, v); err != nil || len(changes) != 0 {
		t.Fatalf("after: %v, %v; want no change", changes, err)
	}
}

// A shard's directory goes on with no change, -allow-changed-bots or
// not: its results after the change would carry another hash than those
// before it, and the merge takes neither (foreignFingerprint). The
// refusal says what works for a shard.
func TestWatchShardRefusesAllowedChange(t *testing.T) {
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n"})
	if err := os.WriteFile(filepath.Join(out, ShardFile), []byte(`{"shard": 0, "of": 2, "stage": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newWatch(out, p, true, hclog.NewNullLogger())
	m := &plan.Match{ID: "r002-g01-s1", Seats: []string{"alice"}}
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("play better\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := w.before(m)
	var ce *ChangedDuringRunError
	if !errors.As(err, &ce) || ce.Shard == nil {
		t.Fatalf("before: %v; want the change refused, as a shard's", err)
	}
	for _, want := range []string{"holds shard 0/2 of stage 0", "-allow-changed-bots does not go on here", "run the shard again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "run again with -allow-changed-bots") {
		t.Errorf("the refusal offers -allow-changed-bots to a shard: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, ChangesFile)); err == nil {
		t.Fatal("a change refused was recorded in changes.jsonl")
	}
}

// BenchmarkWatchCheck is the cost of a check of a bot of 200 files that
// did not change: what every match pays twice per bot.
func BenchmarkWatchCheck(b *testing.B) {
	files := map[string]string{"bot.sh": "play\n"}
	for i := 0; i < 200; i++ {
		files[filepath.Join("lib", strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+".py")+string(rune('0'+i/26))] = "pass\n"
	}
	benchCheck(b, files)
}

// A file past the byte cap is recorded by its mode alone: touched, or
// written again with the same content, it is no change, as a resume
// compares it.
func TestWatchByteCapTouched(t *testing.T) {
	defer func(b int64) { fingerprint.MaxBytes = b }(fingerprint.MaxBytes)
	fingerprint.MaxBytes = 10
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n", "weights.bin": "01234567\n"})
	w := newWatch(out, p, false, hclog.NewNullLogger())
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	v, err := w.before(m)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "weights.bin"), later, later); err != nil {
		t.Fatal(err)
	}
	if changes, err := w.after(m, v); err != nil || len(changes) != 0 {
		t.Fatalf("touching a file past the byte cap: %v, %v; want no change", changes, err)
	}
	// Its mode is compared still.
	if err := os.Chmod(filepath.Join(dir, "weights.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	changes, err := w.after(m, v)
	if len(changes) != 1 || strings.Join(changes[0].Changed, ",") != "weights.bin" || err == nil {
		t.Fatalf("a file past the byte cap made executable: %v, %v; want it changed", changes, err)
	}
}

// Without -allow-changed-bots, a match whose bot another match's check
// saw change gets the refusal too, not changes to play again with.
func TestWatchRefusedChangeSeenByAnother(t *testing.T) {
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n"})
	w := newWatch(out, p, false, hclog.NewNullLogger())
	m1 := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	m2 := &plan.Match{ID: "r001-g01-s2", Seats: []string{"alice"}}
	v1, err := w.before(m1)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := w.before(m2)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot.sh"), []byte("play better\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *ChangedDuringRunError
	if _, err := w.after(m1, v1); !errors.As(err, &ce) {
		t.Fatalf("first after: %v, want the refusal", err)
	}
	changes, err := w.after(m2, v2)
	if !errors.As(err, &ce) || !ce.During || ce.Match != m2.ID || len(changes) != 1 {
		t.Fatalf("second after: %v, %v; want the change refused as during %s", changes, err, m2.ID)
	}
}

// A kill between the line of changes.jsonl and plan.json leaves the
// change recorded and plan.json as it was: the resume records it again,
// and it is noted once.
func TestReadChangesOnceWhenRecordedAgain(t *testing.T) {
	out := t.TempDir()
	c := BotChange{Bot: "alice", From: "sha256:aaaaaaaaaaaa", To: "sha256:bbbbbbbbbbbb", Changed: []string{"bot.sh"}}
	back := BotChange{Bot: "alice", From: c.To, To: c.From, Changed: []string{"bot.sh"}}
	got := recordedNotes(t, out, []changeRecord{
		{Time: "t1", Results: 4, Changes: []BotChange{c}, Match: "r002-g01-s1"},
		{Time: "t2", Results: 5, Changes: []BotChange{c}}, // the resume's
		{Time: "t3", Results: 6, Changes: []BotChange{back}},
		{Time: "t4", Results: 7, Changes: []BotChange{c}}, // changed again: noted
	}, func(n ChangeNote) string { return fmt.Sprintf("%d %s %s", n.After, n.To, n.Match) })
	want := "4 sha256:bbbbbbbbbbbb r002-g01-s1|6 sha256:aaaaaaaaaaaa |7 sha256:bbbbbbbbbbbb "
	if got != want {
		t.Fatalf("notes %q, want %q", got, want)
	}
}

// recordedNotes appends records to out's changes.jsonl and says the
// notes ReadChanges lists, each as say puts it, joined by "|".
func recordedNotes(t *testing.T, out string, records []changeRecord, say func(ChangeNote) string) string {
	t.Helper()
	for _, rec := range records {
		if err := appendChanges(out, rec); err != nil {
			t.Fatal(err)
		}
	}
	notes, err := ReadChanges(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range notes {
		got = append(got, say(n))
	}
	return strings.Join(got, "|")
}

// A run of a saved plan resumed with a bot changed again records two
// changes, the resume's (from what plan.json records) and the one since
// the plan was compiled, before plan.json: killed after both, the resume
// records both again, and each is noted once (rank listed both twice, as
// if the bot had changed twice more).
func TestReadChangesOnceWhenBothRecordedAgain(t *testing.T) {
	out := t.TempDir()
	v1, v2, v3 := "sha256:111111111111", "sha256:222222222222", "sha256:333333333333"
	compiled := func(results int, from, to string) changeRecord {
		return changeRecord{Results: results, Changes: []BotChange{{Bot: "alice", From: from, To: to}}, Plan: "p.json"}
	}
	resumed := changeRecord{Results: 1, Changes: []BotChange{{Bot: "alice", From: v2, To: v3}}}
	got := recordedNotes(t, out, []changeRecord{compiled(0, v1, v2), resumed, compiled(1, v1, v3), resumed, compiled(1, v1, v3)},
		func(n ChangeNote) string { return fmt.Sprintf("%d %s %s %s", n.After, n.From, n.To, n.Plan) })
	want := "0 " + v1 + " " + v2 + " p.json|1 " + v2 + " " + v3 + " |1 " + v1 + " " + v3 + " p.json"
	if got != want {
		t.Fatalf("notes %q, want %q", got, want)
	}
}

// BenchmarkWatchCheck20k is a check of a bot at the cap of 20,000 files.
func BenchmarkWatchCheck20k(b *testing.B) {
	files := map[string]string{"bot.sh": "play\n"}
	for i := 0; i < 20000; i++ {
		files[fmt.Sprintf("lib/d%03d/f%05d.py", i/100, i)] = "pass\n"
	}
	benchCheck(b, files)
}

// Checks of matches played at once stat without the lock and merge under
// it: whatever their order, the bot ends as a fresh walk finds it, and
// each change is recorded once.
func TestWatchChecksAtOnce(t *testing.T) {
	p, dir, out := watchedBot(t, map[string]string{"bot.sh": "play\n", "lib/a.py": "a = 1\n"})
	w := newWatch(out, p, true, hclog.NewNullLogger())
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			m := &plan.Match{ID: fmt.Sprintf("r001-g0%d-s1", g+1), Seats: []string{"alice"}}
			for i := 0; i < 30; i++ {
				v, err := w.before(m)
				if err == nil {
					_, err = w.after(m, v)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for i := 0; i < 5; i++ {
		// Written aside and renamed in: a check never hashes a file
		// half written (os.WriteFile truncates first).
		tmp := filepath.Join(dir, "lib/a.py.tmp")
		if err := os.WriteFile(tmp, []byte(fmt.Sprintf("a = %d\n", i+2)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "lib/a.py")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	m := &plan.Match{ID: "r002-g01-s1", Seats: []string{"alice"}}
	v, err := w.before(m)
	if err != nil {
		t.Fatal(err)
	}
	if fresh := fingerprint.Bot(dir, []string{"./bot.sh"}, nil); v.hashes["alice"] != fresh.Hash {
		t.Fatalf("hash %s after the checks, a fresh walk gives %s", v.hashes["alice"], fresh.Hash)
	}
	b, err := os.ReadFile(filepath.Join(out, ChangesFile))
	if err != nil {
		t.Fatal(err)
	}
	// Each change goes on from where the one before it ended, and none
	// is recorded twice.
	last := short(p.Bots[0].Fingerprint.Hash)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec changeRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		for _, c := range rec.Changes {
			if c.From != last || c.From == c.To {
				t.Fatalf("a change from %s to %s after one to %s: %s", c.From, c.To, last, b)
			}
			last = c.To
		}
	}
	if last != short(v.hashes["alice"]) {
		t.Fatalf("the last change is to %s, the bot is %s: %s", last, short(v.hashes["alice"]), b)
	}
}

// benchCheck measures a check, before a match, of a bot of files that
// did not change.
func benchCheck(b *testing.B, files map[string]string) {
	p, _, out := watchedBot(b, files)
	w := newWatch(out, p, false, hclog.NewNullLogger())
	m := &plan.Match{ID: "r001-g01-s1", Seats: []string{"alice"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.before(m); err != nil {
			b.Fatal(err)
		}
	}
}
