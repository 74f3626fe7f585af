package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// TestOwnerHint: a refusal of a file in a folder of another user's (a
// match folder a run as root left in a user's results directory, which
// that user's resume must replace) says whose the folder is and that
// arbiter runs as another; a refusal among this user's own files, and any
// other error, is left as it is.
func TestOwnerHint(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot give a folder to uid 65534 to stand for another user's")
	}
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	refused := func(path string) error {
		return &fs.PathError{Op: "unlinkat", Path: path, Err: syscall.EACCES}
	}
	err := OwnerHint(refused(filepath.Join(theirs, "seat0-a.stderr")))
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), theirs+" belongs to uid 65534") || !strings.Contains(err.Error(), "arbiter runs as uid 0") {
		t.Errorf("a refusal in uid 65534's folder: %v, want it to say whose the folder is and who arbiter runs as", err)
	}
	for _, e := range []error{refused(filepath.Join(dir, "mine")), &fs.PathError{Op: "open", Path: theirs, Err: syscall.ENOSPC}} {
		if got := OwnerHint(e); got != e {
			t.Errorf("OwnerHint(%v) = %v, want it unchanged", e, got)
		}
	}
}

// TestLockDirOfAnotherUser: a user who runs arbiter on a results
// directory a run as root made (its lock file root's) is told whose it
// is, not only "permission denied". The test, as root, runs a copy of
// itself as uid 65534 on a folder of root's.
func TestLockDirOfAnotherUser(t *testing.T) {
	if dir := os.Getenv("ENGINE_TEST_OTHERS_DIR"); dir != "" {
		_, err := LockDir(dir)
		if err == nil || !strings.Contains(err.Error(), "belongs to uid 0") || !strings.Contains(err.Error(), "arbiter runs as uid 65534") {
			t.Fatalf("LockDir of root's results directory as uid 65534: %v, want it to say whose the directory is", err)
		}
		return
	}
	dir, runs := asNobody(t, "^TestLockDirOfAnotherUser$")
	results := filepath.Join(dir, "results")
	l, err := LockDir(results)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	runs("ENGINE_TEST_OTHERS_DIR=" + results)
}

// asNobody is proctest.AsNobody of the test run: dir, a folder of the
// test's that uid 65534 may read and write in, and runs, which runs the
// test as uid 65534 with env and fails the test if it fails. It skips the
// test when it does not run as root.
func asNobody(t *testing.T, run string) (dir string, runs func(env ...string)) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot run a process as uid 65534")
	}
	cmd, dir := proctest.AsNobody(t, run)
	return dir, func(env ...string) {
		t.Helper()
		cmd.Env = append(cmd.Env, env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("as uid 65534: %v\n%s", err, out)
		}
	}
}

// TestOwnerWarning: root running in a results directory of another
// user's is warned that the matches it begins will be root's; in its own
// directory it is not.
func TestOwnerWarning(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot give a folder to uid 65534 to stand for another user's")
	}
	dir := t.TempDir()
	if w := OwnerWarning(dir); w != "" {
		t.Errorf("a results directory of its own: warned %q", w)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if w := OwnerWarning(dir); !strings.Contains(w, "belongs to uid 65534") || !strings.Contains(w, "arbiter runs as uid 0") {
		t.Errorf("a results directory of uid 65534's: warned %q, want whose it is and who arbiter runs as", w)
	}
}

// TestOwnerWarningAsAUser: a user who is not root, running in a results
// directory of root's (root let it write there), is not warned: root's
// resume replaces any file of its; in a directory of another user's it
// is. The test, as root, runs a copy of itself as uid 65534 on a folder
// of root's and one of uid 65533's.
func TestOwnerWarningAsAUser(t *testing.T) {
	if dirs := os.Getenv("ENGINE_TEST_OWNER_DIRS"); dirs != "" {
		roots, others, _ := strings.Cut(dirs, ":")
		if w := OwnerWarning(roots); w != "" {
			t.Errorf("uid 65534 in a results directory of root's: warned %q", w)
		}
		if w := OwnerWarning(others); !strings.Contains(w, "belongs to uid 65533") || !strings.Contains(w, "arbiter runs as uid 65534") {
			t.Errorf("uid 65534 in a results directory of uid 65533's: warned %q, want whose it is and who arbiter runs as", w)
		}
		return
	}
	dir, runs := asNobody(t, "^TestOwnerWarningAsAUser$")
	roots, others := filepath.Join(dir, "roots"), filepath.Join(dir, "others")
	for _, d := range []string{roots, others} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(others, 65533, 65533); err != nil {
		t.Fatal(err)
	}
	runs("ENGINE_TEST_OWNER_DIRS=" + roots + ":" + others)
}

// TestChangesOfAnotherUser: a user who resumes, letting a change go on
// (-allow-changed-bots), a results directory whose changes.jsonl a resume
// as root began (root's arbiter is another build) is told whose the file
// is, as of the lock and a match folder, not only "permission denied".
// The test, as root, runs a copy of itself as uid 65534 on a folder of
// uid 65534's that holds a changes.jsonl of root's.
func TestChangesOfAnotherUser(t *testing.T) {
	if dir := os.Getenv("ENGINE_TEST_CHANGES_DIR"); dir != "" {
		err := RecordCompiledChanges(dir, "plan.json", []BotChange{{Bot: "a", From: "aaaaaaaaaaaa", To: "bbbbbbbbbbbb"}})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ChangesFile)+" belongs to uid 0") || !strings.Contains(err.Error(), "arbiter runs as uid 65534") {
			t.Fatalf("a change recorded as uid 65534 into root's changes.jsonl: %v, want it to say whose the file is", err)
		}
		return
	}
	dir, runs := asNobody(t, "^TestChangesOfAnotherUser$")
	results := filepath.Join(dir, "results")
	if err := os.Mkdir(results, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := RecordCompiledChanges(results, "plan.json", []BotChange{{Bot: "a", From: "cccccccccccc", To: "aaaaaaaaaaaa"}}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(results, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	runs("ENGINE_TEST_CHANGES_DIR=" + results)
}

// TestBuildRecordsOfAnotherUser: a user who resumes, the bot changed so
// that it builds again, a results directory whose builds/ a run as root
// wrote (the folder let to others, its files root's) is told whose the
// build's log and verdict are, not only "permission denied". The test,
// as root, runs a copy of itself as uid 65534 on builds/ files of root's.
func TestBuildRecordsOfAnotherUser(t *testing.T) {
	if dir := os.Getenv("ENGINE_TEST_BUILDS_DIR"); dir != "" {
		builds := filepath.Join(dir, BuildsDir)
		b := &plan.Bot{Name: "good", Build: []string{"true"}}
		_, err := runBuild(context.Background(), b, dir, filepath.Join(builds, "good.log"), "", func(string, ...any) {})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(builds, "good.log")+" belongs to uid 0") || !strings.Contains(err.Error(), "arbiter runs as uid 65534") {
			t.Errorf("a build logged as uid 65534 into root's builds/good.log: %v, want it to say whose the file is", err)
		}
		err = (&Runner{Out: dir}).writeBuildRecord("good", BuildRecord{Bot: "good", OK: true})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(builds, "good.json")+" belongs to uid 0") || !strings.Contains(err.Error(), "arbiter runs as uid 65534") {
			t.Errorf("a build verdict written as uid 65534 over root's builds/good.json: %v, want it to say whose the file is", err)
		}
		return
	}
	dir, runs := asNobody(t, "^TestBuildRecordsOfAnotherUser$")
	results := filepath.Join(dir, "results")
	if err := os.MkdirAll(filepath.Join(results, BuildsDir), 0o777); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Out: results}
	if err := r.writeBuildRecord("good", BuildRecord{Bot: "good", OK: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(results, BuildsDir, "good.log"), []byte("compiling good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{results, filepath.Join(results, BuildsDir)} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	runs("ENGINE_TEST_BUILDS_DIR=" + results)
}

// TestResultsFoldersOfAnotherUser: a user who resumes a run of root's
// (its lock, log and results let to others, its folders root's) is told
// whose the folder is that refuses what the run writes next, not only
// "permission denied": builds/ made for a bot's first build, a kept
// verdict of builds/ removed before a bot new since a saved plan is
// built, rounds/ made for a stage's pairing, and a file such as
// plan.json replaced; not a file of the user's own there it made
// read-only, which its mode refuses. The test, as root, runs a copy of
// itself as uid 65534 on a results directory of root's.
func TestResultsFoldersOfAnotherUser(t *testing.T) {
	if dir := os.Getenv("ENGINE_TEST_RESULTS_DIRS"); dir != "" {
		roots, rootsBuilds, _ := strings.Cut(dir, ":")
		hinted := func(what string, err error, folder string) {
			t.Helper()
			if err == nil || !strings.Contains(err.Error(), folder+" belongs to uid 0") || !strings.Contains(err.Error(), "arbiter runs as uid 65534") {
				t.Errorf("%s as uid 65534 in a folder of root's: %v, want it to say whose %s is", what, err, folder)
			}
		}
		b := plan.Bot{Name: "good", Build: []string{"true"}, Fingerprint: &plan.Fingerprint{Hash: "aaaaaaaaaaaa"}}
		_, err := (&Runner{Out: roots}).buildAnew(context.Background(), &b, nil, func() (string, error) { return "", nil })
		hinted("builds/ made", err, roots)
		r := &Runner{Out: rootsBuilds, Plan: &plan.Plan{Bots: []plan.Bot{b}}, SincePlan: &SincePlan{Added: map[string][]string{"good": {"new.txt"}}}}
		hinted("builds/good.json removed", r.checkSincePlan(context.Background()), filepath.Join(rootsBuilds, BuildsDir, "good.json"))
		hinted("rounds/ made", mkdirResults(filepath.Join(roots, RoundsDir)), roots)
		hinted("plan.json replaced", writeFileAtomic(filepath.Join(roots, PlanFile), []byte("{}\n")), roots)
		// A file of its own it made read-only is refused by its mode,
		// not by the folder of root's that holds it.
		if _, err := os.OpenFile(filepath.Join(roots, ResultsFile), os.O_RDWR, 0); err == nil || strings.Contains(OwnerHint(err).Error(), "belongs to") {
			t.Errorf("a file of uid 65534's of 0444 opened in a folder of root's: %v, want no owner named", OwnerHint(err))
		}
		return
	}
	dir, runs := asNobody(t, "^TestResultsFoldersOfAnotherUser$")
	roots, rootsBuilds := filepath.Join(dir, "roots"), filepath.Join(dir, "builds")
	for _, d := range []string{roots, filepath.Join(rootsBuilds, BuildsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := (&Runner{Out: rootsBuilds}).writeBuildRecord("good", BuildRecord{Bot: "good", OK: true}); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(roots, ResultsFile)
	if err := errors.Join(os.WriteFile(mine, nil, 0o444), os.Chown(mine, 65534, 65534)); err != nil {
		t.Fatal(err)
	}
	runs("ENGINE_TEST_RESULTS_DIRS=" + roots + ":" + rootsBuilds)
}

// TestBuildInAFolderOfAnotherUser: a user's build of a bot whose folder
// is root's fails as the compiler says ("cannot open output file"), and
// its verdict says too which folder the user may not write in and whose
// it is; so of a folder of root's inside the bot's, past one the user
// may not read. A build that failed for another reason in a folder of
// its own, one of its own folders in it kept read-only, says nothing of
// it. The test,
// as root, runs a copy of itself as uid 65534 on bot folders of root's
// and of uid 65534's.
func TestBuildInAFolderOfAnotherUser(t *testing.T) {
	if dirs := os.Getenv("ENGINE_TEST_BOT_DIRS"); dirs != "" {
		f := strings.Split(dirs, ":")
		out, roots, own, tree := f[0], f[1], f[2], f[3]
		r := &Runner{Out: out}
		build := func(dir string, command ...string) BuildRecord {
			t.Helper()
			rec, err := r.buildAnew(context.Background(), &plan.Bot{Name: filepath.Base(dir), Dir: dir, Build: command}, nil, func() (string, error) { return "", nil })
			if err != nil || rec.OK {
				t.Fatalf("the build in %s as uid 65534: %+v, %v; want it to fail", dir, rec, err)
			}
			return rec
		}
		rec := build(roots, "sh", "-c", "echo made >made")
		if want := "(the bot's folder " + roots + " belongs to uid 0 (root), mode drwxr-xr-x, and arbiter runs as uid 65534"; !strings.Contains(rec.Detail, want) {
			t.Errorf("a build as uid 65534 in a folder of root's: %q, want it to say %q", rec.Detail, want)
		}
		if rec := build(own, "false"); strings.Contains(rec.Detail, "belongs to") || strings.Contains(rec.Detail, "not writable") {
			t.Errorf("a build as uid 65534 that failed in a folder of its own: %q, want nothing said of the folder", rec.Detail)
		}
		if note, want := unwritableNote(own+"/.."), "(the folder "+filepath.Join(own, "..", "roots")+" of the bot's belongs to uid 0 (root)"; !strings.Contains(note, want) {
			t.Errorf("a folder of root's in a bot's of uid 65534's: %q, want %q", note, want)
		}
		if note, want := unwritableNote(tree), "(the folder "+filepath.Join(tree, "b")+" of the bot's belongs to uid 0 (root)"; !strings.Contains(note, want) {
			t.Errorf("a folder of root's after one of uid 65534's it may not read: %q, want %q", note, want)
		}
		return
	}
	dir, runs := asNobody(t, "^TestBuildInAFolderOfAnotherUser$")
	bots := filepath.Join(dir, "bots")
	out, roots, own := filepath.Join(dir, "out"), filepath.Join(bots, "roots"), filepath.Join(bots, "own")
	// own/data: a folder of uid 65534's own kept read-only, which its
	// failed build does not blame; tree/a: one it may write in but not
	// read, which the walk passes by to tree/b, of root's.
	data, tree := filepath.Join(own, "data"), filepath.Join(dir, "tree")
	for _, d := range []string{out, roots, data, filepath.Join(tree, "a"), filepath.Join(tree, "b")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{out, own, data, bots, tree, filepath.Join(tree, "a")} {
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(os.Chmod(data, 0o555), os.Chmod(filepath.Join(tree, "a"), 0o300)); err != nil {
		t.Fatal(err)
	}
	runs("ENGINE_TEST_BOT_DIRS=" + out + ":" + roots + ":" + own + ":" + tree)
}

// TestPlanOfAnotherUser: a results directory whose plan.json the user may
// not read (root's, of 0600) is a results directory: rank, report,
// replay and serve (ReadPlan), merge (readShardDir) and a run's resume
// (CheckPlanDir, which said a bare "open out/plan.json: permission
// denied") say the file cannot be read and whose it is, not that the
// folder is not a results directory ("out is not a results directory:
// open out/plan.json: permission denied"); one without a plan.json still
// is not.
func TestPlanOfAnotherUser(t *testing.T) {
	if dir := os.Getenv("ENGINE_TEST_PLAN_DIR"); dir != "" {
		want := filepath.Join(dir, PlanFile) + " cannot be read: open " + filepath.Join(dir, PlanFile) + ": permission denied (" + filepath.Join(dir, PlanFile) + " belongs to uid 0"
		_, err := ReadPlan(dir)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "belongs to") != 1 {
			t.Errorf("ReadPlan of root's plan.json of 0600 as uid 65534: %v; want it to begin %q, naming the owner once", err, want)
		}
		_, err = readShardDir(dir)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("readShardDir of root's plan.json of 0600 as uid 65534: %v; want it to begin %q", err, want)
		}
		// A run's resume (openJournal), a shard's and -submit's check.
		_, err = CheckPlanDir(dir, &plan.Plan{}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "belongs to") != 1 {
			t.Errorf("CheckPlanDir of root's plan.json of 0600 as uid 65534: %v; want it to begin %q, naming the owner once", err, want)
		}
		none := filepath.Join(filepath.Dir(dir), "none")
		if _, err := ReadPlan(none); err == nil || !strings.HasPrefix(err.Error(), none+" is not a results directory: ") {
			t.Errorf("ReadPlan of a folder without plan.json: %v; want it to say it is not a results directory", err)
		}
		return
	}
	dir, runs := asNobody(t, "^TestPlanOfAnotherUser$")
	results, none := filepath.Join(dir, "results"), filepath.Join(dir, "none")
	for _, d := range []string{results, none} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(results, PlanFile), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	runs("ENGINE_TEST_PLAN_DIR=" + results)
}
