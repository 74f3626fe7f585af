package engine

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// TestAllowedChangesHouseBots: a shard of a merged plan that a newer
// arbiter played with -allow-changed-bots records the change of arbiter's
// build alone, as every run does, and its house bots' fingerprints change
// with the build: the merge takes it (it refused every plan with a house
// bot, naming each house bot as run with other files). An external bot
// changed without a recorded change is still refused.
func TestAllowedChangesHouseBots(t *testing.T) {
	old := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	now := &plan.Arbiter{Version: "(devel)", Executable: "sha256:n3w"}
	bots := func(a *plan.Arbiter, ext string) []plan.Bot {
		return []plan.Bot{
			{Name: "greedy", House: "planowanie/greedy", Fingerprint: fingerprint.House("planowanie/greedy", a)},
			{Name: "py", Command: []string{"python3", "bot.py"}, Fingerprint: &plan.Fingerprint{Hash: ext}},
		}
	}
	op := &plan.Plan{Arbiter: old, Bots: bots(old, "sha256:py")}
	dir := t.TempDir()
	change := BotChange{From: old.ID(), To: now.ID()}
	if err := appendChanges(dir, changeRecord{Changes: []BotChange{change}, Plan: "m/plan.json"}); err != nil {
		t.Fatal(err)
	}
	shard := &shardDir{dir: dir, plan: plan.Plan{Arbiter: now, Bots: bots(now, "sha256:py")}}
	got := allowedChanges([]*shardDir{shard}, op)
	if len(got) != 1 || got[0].Bot != "" || got[0].From != change.From || got[0].To != change.To {
		t.Fatalf("allowedChanges = %+v, want the change of arbiter's build alone", got)
	}
	shard.plan.Bots = bots(now, "sha256:py2")
	if got := allowedChanges([]*shardDir{shard}, op); got != nil {
		t.Fatalf("allowedChanges with a changed bot not recorded = %+v, want nil", got)
	}
}

// TestPlanDiffHouseBots: shards that two builds of arbiter played differ
// in the build, which is named, and not in each house bot as a bot run
// with other files (a season's 24 house bots were named one by one,
// the build last as "arbiter" differs).
func TestPlanDiffHouseBots(t *testing.T) {
	old := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	now := &plan.Arbiter{Version: "(devel)", Executable: "sha256:n3w"}
	raw := func(a *plan.Arbiter) []byte {
		b, err := json.Marshal(&plan.Plan{Arbiter: a, Bots: []plan.Bot{
			{Name: "greedy", House: "planowanie/greedy", Fingerprint: fingerprint.House("planowanie/greedy", a)},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	got := planDiff("s0", raw(old), "s1", raw(now))
	want := "arbiter's build differs (it referees every match and plays the house bots): (devel) executable 0ld in s0, (devel) executable n3w in s1"
	if got != want {
		t.Fatalf("planDiff = %q, want %q", got, want)
	}
}

// TestAllowedChangesTo: a shard's recorded change is taken only as the
// change to what the shard's plan.json records: a change from Out's
// fingerprint to another (a record of another run into the directory,
// or edited) let a shard of other bots, or of another build of arbiter,
// merge as if its change were recorded.
func TestAllowedChangesTo(t *testing.T) {
	old := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	now := &plan.Arbiter{Version: "(devel)", Executable: "sha256:n3w"}
	bots := func(ext string) []plan.Bot {
		return []plan.Bot{{Name: "py", Command: []string{"python3", "bot.py"}, Fingerprint: &plan.Fingerprint{Hash: ext}}}
	}
	cases := []struct {
		name    string
		arbiter *plan.Arbiter
		bot     string
		change  BotChange
		want    bool
	}{
		{"bot as recorded", old, "sha256:py2", BotChange{Bot: "py", From: "sha256:py", To: "sha256:py2"}, true},
		{"bot to another", old, "sha256:py3", BotChange{Bot: "py", From: "sha256:py", To: "sha256:py2"}, false},
		{"build as recorded", now, "sha256:py", BotChange{From: old.ID(), To: now.ID()}, true},
		{"build to another", now, "sha256:py", BotChange{From: old.ID(), To: (&plan.Arbiter{Version: "(devel)", Executable: "sha256:0th3r"}).ID()}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := appendChanges(dir, changeRecord{Changes: []BotChange{tc.change}, Plan: "m/plan.json"}); err != nil {
				t.Fatal(err)
			}
			shard := &shardDir{dir: dir, plan: plan.Plan{Arbiter: tc.arbiter, Bots: bots(tc.bot)}}
			got := allowedChanges([]*shardDir{shard}, &plan.Plan{Arbiter: old, Bots: bots("sha256:py")})
			if (got != nil) != tc.want {
				t.Fatalf("allowedChanges = %+v, want taken %v", got, tc.want)
			}
		})
	}
}

// TestAllowedChangesRefusedRun: a finished shard run again with its bot
// changed once more is refused, but its change was recorded first (from
// the plan's fingerprint to the bot as it is now, which no result was
// played with): the change its results were played with, recorded
// before, is the one taken, not the last, which refused the shard.
func TestAllowedChangesRefusedRun(t *testing.T) {
	arb := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	bots := func(ext string) []plan.Bot {
		return []plan.Bot{{Name: "py", Command: []string{"python3", "bot.py"}, Fingerprint: &plan.Fingerprint{Hash: ext}}}
	}
	dir := t.TempDir()
	for _, to := range []string{"sha256:py2", "sha256:py3"} {
		if err := appendChanges(dir, changeRecord{Changes: []BotChange{{Bot: "py", From: "sha256:py", To: to}}, Plan: "m/plan.json"}); err != nil {
			t.Fatal(err)
		}
	}
	shard := &shardDir{dir: dir, plan: plan.Plan{Arbiter: arb, Bots: bots("sha256:py2")}}
	got := allowedChanges([]*shardDir{shard}, &plan.Plan{Arbiter: arb, Bots: bots("sha256:py")})
	if len(got) != 1 || got[0].To != "sha256:py2" {
		t.Fatalf("allowedChanges = %+v, want the change to sha256:py2 its plan records", got)
	}
}

// TestCarryChangesRefusedRun: into a new Out, a shard's change since the
// plan is the one it recorded to the files its plan records, those its
// results were played with, not a later one an earlier arbiter's run,
// refused by the resume's comparison, recorded to files no result was
// played with.
func TestCarryChangesRefusedRun(t *testing.T) {
	arb := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	bots := func(hash string) []plan.Bot {
		return []plan.Bot{{Name: "py", Command: []string{"python3", "bot.py"}, Fingerprint: &plan.Fingerprint{Hash: hash}}}
	}
	var shards []*shardDir
	for k, later := range []string{"sha256:py3", ""} {
		dir := t.TempDir()
		for _, to := range []string{"sha256:py2", later} {
			if to == "" {
				continue
			}
			if err := appendChanges(dir, changeRecord{Changes: []BotChange{{Bot: "py", From: "sha256:py", To: to, Changed: []string{"bot.py"}}}, Plan: "p.json"}); err != nil {
				t.Fatal(err)
			}
		}
		shards = append(shards, &shardDir{dir: dir, shard: Shard{K: k, N: 2}, plan: plan.Plan{Arbiter: arb, Bots: bots("sha256:py2")}})
	}
	in := &mergeInput{shards: shards}
	in.carryChanges()
	if len(in.changes) != 1 || in.changes[0].To != "sha256:py2" || in.compiledFrom != "p.json" {
		t.Fatalf("carryChanges = %#v from %q, want the change to sha256:py2 the shards' plans record, from p.json", in.changes, in.compiledFrom)
	}
}

// TestChangesWithAddedFiles: a bot changed since the plan in a recorded
// file and by a file new since it (no build) is recorded to the hash of
// its recorded files (CompareSincePlan, as compareBot hashes them), while
// the shard's plan.json records every file it has now: the merge takes
// that change as the one the shard's results were played with, into a
// new Out (carryChanges dropped it: the merged results, of the bot as
// changed, had no changes.jsonl and rank no note) and into Out
// (allowedChanges refused the shard as run with other files).
func TestChangesWithAddedFiles(t *testing.T) {
	arb := &plan.Arbiter{Version: "(devel)", Executable: "sha256:0ld"}
	fp := func(files ...plan.FileSum) *plan.Fingerprint {
		f := &plan.Fingerprint{Files: files}
		f.Hash = fingerprint.Hash(f)
		return f
	}
	bot := func(f *plan.Fingerprint) *plan.Plan {
		return &plan.Plan{Arbiter: arb, Bots: []plan.Bot{{Name: "sh", Command: []string{"./bot.sh"}, Fingerprint: f}}}
	}
	saved := bot(fp(plan.FileSum{Path: "bot.sh", Mode: "-rwxr-xr-x", SHA256: "1"}))
	now := bot(fp(plan.FileSum{Path: "bot.sh", Mode: "-rwxr-xr-x", SHA256: "2"}, plan.FileSum{Path: "extra.txt", Mode: "-rw-r--r--", SHA256: "3"}))
	changes, _ := CompareSincePlan(saved, now)
	if len(changes) != 1 || len(changes[0].Added) != 1 {
		t.Fatalf("CompareSincePlan = %+v, want one change that adds extra.txt", changes)
	}
	var shards []*shardDir
	for k := range 2 {
		dir := t.TempDir()
		if err := appendChanges(dir, changeRecord{Changes: changes, Plan: "p.json"}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, &shardDir{dir: dir, shard: Shard{K: k, N: 2}, plan: *now})
	}
	in := &mergeInput{shards: shards}
	in.carryChanges()
	if len(in.changes) != 1 || in.changes[0].To != changes[0].To {
		t.Errorf("carryChanges = %+v, want the change %+v", in.changes, changes[0])
	}
	if got := allowedChanges(shards, saved); len(got) != 1 || got[0].To != changes[0].To {
		t.Errorf("allowedChanges = %+v, want the change %+v", got, changes[0])
	}
	now.Bots[0].Fingerprint = fp(plan.FileSum{Path: "bot.sh", Mode: "-rwxr-xr-x", SHA256: "4"}, plan.FileSum{Path: "extra.txt", Mode: "-rw-r--r--", SHA256: "3"})
	for _, sd := range shards {
		sd.plan = *now
	}
	if got := allowedChanges(shards, saved); got != nil {
		t.Errorf("allowedChanges of a shard whose bot.sh is another than the change's = %+v, want nil", got)
	}
}
