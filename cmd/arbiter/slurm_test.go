package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// TestSlurm runs tournaments through a real Slurm (.ci/slurm.sh starts a
// single-node one) and compares them with one-machine runs: a 200-match
// Planowanie tournament as 8 shards, with one shard cancelled mid-run and
// requeued; groups by rating over 3 stages; and a run whose shard fails,
// which must be reported as failed. Where Slurm is not running it skips,
// except under CI=true, where it fails.
func TestSlurm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a Slurm integration test (-short)")
	}
	requireSlurm(t)
	st := newSlurmTest(t)
	t.Run("shards", st.shards)
	t.Run("stages", st.stages)
	t.Run("failed-shard", st.failedShard)
	t.Run("empty-stages", st.emptyStages)
	t.Run("killed-after-sbatch", st.killedAfterSbatch)
	t.Run("unnamed-record", st.unnamedRecord)
	t.Run("odd-work-dirs", st.oddWorkDirs)
	t.Run("refused", st.refused)
}

// requireSlurm skips (or fails under CI) unless a Slurm controller
// answers and the node can run jobs.
func requireSlurm(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("sbatch"); err != nil {
		why = "sbatch is not installed"
	} else if out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput(); err != nil {
		why = fmt.Sprintf("sinfo fails (%v: %s)", err, bytes.TrimSpace(out))
	} else if s := strings.TrimSpace(string(out)); !regexp.MustCompile(`^(idle|mixed|allocated)`).MatchString(s) {
		why = fmt.Sprintf("the Slurm node is %q, not idle", s)
	}
	if why == "" {
		return
	}
	msg := "Slurm is not usable here: " + why + "; start a single-node Slurm with .ci/slurm.sh up (as root; it installs slurm-wlm and munge when missing)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " — CI must run this test, so it fails instead of skipping")
	}
	t.Skip(msg)
}

type slurmTest struct {
	t    *testing.T
	bin  string // the test binary as "arbiter"
	env  []string
	conf string
	dir  string
}

func newSlurmTest(t *testing.T) *slurmTest {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// Named arbiter, the test binary is the arbiter (TestMain), also for
	// the Slurm jobs and the house bots they start.
	if err := os.Symlink(self, filepath.Join(bin, "arbiter")); err != nil {
		t.Fatal(err)
	}
	conf, err := filepath.Abs("testdata/slurm")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return &slurmTest{t: t, bin: filepath.Join(bin, "arbiter"), env: env, conf: conf, dir: dir}
}

// arbiter runs the arbiter; it fails the test if the exit status is not
// want (0: success).
func (st *slurmTest) arbiter(t *testing.T, wantOK bool, args ...string) string {
	t.Helper()
	cmd := exec.Command(st.bin, args...)
	cmd.Env = st.env
	out, err := cmd.CombinedOutput()
	if (err == nil) != wantOK {
		t.Fatalf("arbiter %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// slurm runs a Slurm command.
func (st *slurmTest) slurm(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = st.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// sbatch submits a job and cancels it when the test ends.
func (st *slurmTest) sbatch(t *testing.T, args ...string) string {
	t.Helper()
	id := st.slurm(t, "sbatch", append([]string{"--parsable"}, args...)...)
	id, _, _ = strings.Cut(id, ";")
	t.Cleanup(func() { _ = exec.Command("scancel", id).Run() })
	return id
}

// states are the states of a job's tasks by ArrayTaskId ("" for a job).
func (st *slurmTest) states(t *testing.T, id string) map[string]string {
	t.Helper()
	s, err := jobStates(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitJob waits until every task of job id is terminal and returns their
// states.
func (st *slurmTest) waitJob(t *testing.T, id string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		s := st.states(t, id)
		done := true
		for _, v := range s {
			done = done && terminal[v]
		}
		if done {
			return s
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("job %s did not finish in 5 minutes: %v", id, st.states(t, id))
	return nil
}

// shards plays the 200-match tournament with arbiter slurm -submit as 8
// shards, cancels shard 0 mid-run (scancel): the merge is cancelled and
// the run reported failed. Shard 0 is requeued and resumes; submitting
// again runs every shard again, which adds nothing, and the merge. The
// merge equals arbiter run -j 2.
func (st *slurmTest) shards(t *testing.T) {
	one := filepath.Join(st.dir, "many-one")
	start := time.Now()
	st.arbiter(t, true, "run", st.conf, "-tournament", "many", "-out", one, "-j", "2")
	oneTime := time.Since(start)

	out := filepath.Join(st.dir, "many")
	work := out + ".slurm"
	args := []string{"slurm", st.conf, "-tournament", "many", "-out", out, "-shards", "8", "-cpus", "1", "-time", "10:00", "-submit"}
	start = time.Now()
	cmd, stdout, errOutput := st.startSplit(t, args)
	var output bytes.Buffer // stdout, copied by the goroutine below
	arrays := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			output.WriteString(sc.Text() + "\n")
			if m := regexp.MustCompile(`^Stage 0: shards job (\d+)`).FindStringSubmatch(sc.Text()); m != nil {
				arrays <- m[1]
			}
		}
	}()
	var array string
	select {
	case array = <-arrays:
	case <-time.After(time.Minute):
		t.Fatal("arbiter slurm -submit did not submit in a minute")
	}
	st.cancelLater("job " + array)
	shard0 := filepath.Join(work, "shards", "s0-0", "results.jsonl")
	p, err := plan.Read(filepath.Join(work, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	size := len(engine.ShardMatches(p.Matches, 0, 8))
	for n := 0; n < 2; n = countLines(shard0) {
		if time.Since(start) > 3*time.Minute {
			t.Fatalf("shard 0 did not finish 2 matches in 3 minutes: %v", st.states(t, array))
		}
		time.Sleep(50 * time.Millisecond)
	}
	st.slurm(t, "scancel", array+"_0")
	err = cmd.Wait()
	<-copied
	output.Write(errOutput.Bytes())
	if err == nil {
		t.Fatalf("arbiter slurm -submit succeeded although shard 0 was cancelled:\n%s", output.String())
	}
	for _, want := range []string{"the Slurm run failed", "stage 0 shards (job " + array + "_0): CANCELLED", "stage 0 merge (job ", "): CANCELLED"} {
		if !strings.Contains(output.String(), want) {
			t.Fatalf("arbiter slurm -submit with a cancelled shard does not say %q:\n%s", want, output.String())
		}
	}
	killedAt := countLines(shard0)
	if killedAt >= size {
		t.Fatalf("shard 0 finished all %d matches before scancel took effect; nothing was tested", killedAt)
	}
	t.Logf("shard 0 cancelled with %d of its %d matches finished; requeued", killedAt, size)
	st.slurm(t, "scontrol", "requeue", array+"_0")
	// Slurm holds a requeued job back for 2 minutes; release it now.
	st.slurm(t, "scontrol", "update", "jobid="+array+"_0", "StartTime=now")
	if s := st.waitJob(t, array+"_0")["_0"]; s != "COMPLETED" {
		t.Fatalf("requeued shard 0: %s", s)
	}
	logPath := filepath.Join(work, "logs", "stage0-shard0.log")
	if !regexp.MustCompile(fmt.Sprintf(`finished_before=%d to_run=%d`, killedAt, size-killedAt)).MatchString(readFile(t, logPath)) {
		t.Fatalf("the requeued shard 0 did not resume from its %d finished matches:\n%s", killedAt, readFile(t, logPath))
	}
	// Submitting again runs every shard again, adding nothing, then merges.
	got := st.arbiter(t, true, args...)
	st.cancelLater(got)
	t.Logf("figures: one machine -j 2: %v for 200 matches; 8 shards via sbatch with a cancel, a requeue and a second submission: %v",
		oneTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	for k := 0; k < 8; k++ {
		log := readFile(t, filepath.Join(work, "logs", fmt.Sprintf("stage0-shard%d.log", k)))
		if !regexp.MustCompile(`0 match\(es\) played, \d+ already finished`).MatchString(log) {
			t.Fatalf("shard %d run again played matches:\n%s", k, log)
		}
	}
	sameRun(t, one, out)

	// Merging again changes nothing.
	before := readFile(t, filepath.Join(out, "results.jsonl"))
	var dirs []string
	for k := 0; k < 8; k++ {
		dirs = append(dirs, filepath.Join(work, "shards", fmt.Sprintf("s0-%d", k)))
	}
	remerge := st.arbiter(t, true, append([]string{"merge", "-out", out}, dirs...)...)
	if !strings.Contains(remerge, "0 new result(s), 200 merged before") {
		t.Fatalf("merging again:\n%s", remerge)
	}
	if readFile(t, filepath.Join(out, "results.jsonl")) != before {
		t.Fatal("merging again changed results.jsonl")
	}
}

// stages runs groups by rating (3 stages) with arbiter slurm -submit and
// compares it with arbiter run -j 2.
func (st *slurmTest) stages(t *testing.T) {
	one := filepath.Join(st.dir, "rating-one")
	st.arbiter(t, true, "run", st.conf, "-tournament", "rating", "-out", one, "-j", "2")
	out := filepath.Join(st.dir, "rating")
	got := st.arbiter(t, true, "slurm", st.conf, "-tournament", "rating", "-out", out, "-shards", "3", "-submit")
	for _, want := range []string{"Wrote 3 stage(s) of 3 shard(s)", "Stage 2: shards job", "Every job completed."} {
		if !strings.Contains(got, want) {
			t.Fatalf("arbiter slurm -submit does not say %q:\n%s", want, got)
		}
	}
	st.cancelLater(got)
	sameRun(t, one, out)
	if n := len(readDirNames(t, filepath.Join(out, "rounds"))); n != 2 {
		t.Fatalf("%d rounds paired, want 2 (rounds 2 and 3)", n)
	}
}

// emptyStages: placement plays its ties off in up to 3 playoff stages,
// which arbiter slurm writes jobs for; here one is played, and the
// shards of the two after it play nothing. Their merges once failed
// ("merge the shards of every earlier stage into it first"), so Slurm
// cancelled the later stages and -submit exited 1.
func (st *slurmTest) emptyStages(t *testing.T) {
	one := filepath.Join(st.dir, "placement-one")
	st.arbiter(t, true, "run", st.conf, "-tournament", "placement", "-out", one, "-j", "2")
	out := filepath.Join(st.dir, "placement")
	got := st.arbiter(t, true, "slurm", st.conf, "-tournament", "placement", "-out", out, "-shards", "2", "-submit")
	st.cancelLater(got)
	for _, want := range []string{"Wrote 4 stage(s) of 2 shard(s)", "Stage 3: shards job", "Every job completed."} {
		if !strings.Contains(got, want) {
			t.Fatalf("arbiter slurm -submit does not say %q:\n%s", want, got)
		}
	}
	sameRun(t, one, out)
	for _, s := range []string{"2", "3"} {
		log := readFile(t, filepath.Join(out+".slurm", "logs", "stage"+s+"-merge.log"))
		if !strings.Contains(log, "Merged 2 shard(s) of stage "+s) || !strings.Contains(log, "The tournament is complete.") {
			t.Fatalf("stage %s's merge does not say the tournament is complete:\n%s", s, log)
		}
	}
}

// failedShard: a shard that fails makes Slurm cancel the merge and the
// later stages, and arbiter slurm -submit reports the failure.
func (st *slurmTest) failedShard(t *testing.T) {
	out := filepath.Join(st.dir, "failing")
	shard := filepath.Join(out+".slurm", "shards", "s0-1")
	if err := os.MkdirAll(shard, 0o755); err != nil {
		t.Fatal(err)
	}
	// Another shard's record: run -shard 1/2 refuses this directory.
	if err := os.WriteFile(filepath.Join(shard, "shard.json"), []byte(`{"shard": 0, "of": 2, "stage": 0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := st.arbiter(t, false, "slurm", st.conf, "-tournament", "rating", "-out", out, "-shards", "2", "-submit")
	st.cancelLater(got)
	for _, want := range []string{"the Slurm run failed", "stage 0 shards (job ", "_1): FAILED; its log: " + filepath.Join(out+".slurm", "logs", "stage0-shard1.log"),
		"stage 0 merge (job ", "): CANCELLED", "stage 2 merge"} {
		if !strings.Contains(got, want) {
			t.Fatalf("arbiter slurm -submit with a failing shard does not say %q:\n%s", want, got)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "results.jsonl")); err == nil {
		t.Fatal("the merge ran although a shard failed")
	}
}

// killedAfterSbatch: arbiter slurm -submit is killed (kill -9) once
// sbatch submitted its first job, before it could record the job's id; a
// second -submit finds the job by its name and comment, which the first
// recorded before it ran sbatch, and waits for it instead of submitting
// a second chain beside it, then submits the rest. The job is submitted
// held, so that it is still queued when the second -submit looks, and
// released once that says it waits for it.
func (st *slurmTest) killedAfterSbatch(t *testing.T) {
	out := filepath.Join(st.dir, "killed")
	args := []string{"slurm", st.conf, "-tournament", "rating", "-out", out, "-shards", "1", "-submit"}
	held := st.killedSubmitting(t, "killed", st.bin, args...)
	if strings.Contains(readFile(t, filepath.Join(out+".slurm", "jobs.json")), held) {
		t.Fatalf("jobs.json records job %s, which the killed -submit never learnt", held)
	}

	cmd, stdout, errOutput := st.startSplit(t, args)
	var output bytes.Buffer // stdout, read below
	sc := bufio.NewScanner(stdout)
	waiting := false
	for sc.Scan() {
		output.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "Stage 0: shards job") && !waiting {
			_ = cmd.Process.Kill()
			st.cancelLater(sc.Text())
			t.Fatalf("the second -submit submitted a chain beside held job %s:\n%s", held, output.String())
		}
		if strings.Contains(sc.Text(), "waiting for them (jobs "+held+") instead of submitting again") {
			waiting = true
			st.slurm(t, "scontrol", "release", held)
		}
	}
	err := cmd.Wait()
	output.Write(errOutput.Bytes())
	st.cancelLater(output.String())
	if err != nil || !waiting {
		t.Fatalf("the second -submit (%v) did not wait for job %s:\n%s", err, held, output.String())
	}
	for _, want := range []string{"The earlier submission was stopped before it submitted stage 0 merge", "Every job completed."} {
		if !strings.Contains(output.String(), want) {
			t.Fatalf("the second -submit does not say %q:\n%s", want, output.String())
		}
	}
}

// startSplit starts arbiter with args; its stdout is read from the pipe
// returned, and its stderr copied, by cmd's own copy, into errOutput: one
// buffer written by both at once (-submit prints its jobs' states as they
// change) would mix their bytes.
func (st *slurmTest) startSplit(t *testing.T, args []string) (cmd *exec.Cmd, stdout io.Reader, errOutput *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(st.bin, args...)
	cmd.Env = st.env
	errOutput = &bytes.Buffer{}
	cmd.Stderr = errOutput
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, errOutput
}

// killedSubmitting runs name with args, its sbatch a stand-in that
// submits the job held and then kills (kill -9) the process that ran it,
// and returns the job's id ("" if sbatch failed), which is cancelled when
// the test ends. dir (under st.dir) holds the stand-in.
func (st *slurmTest) killedSubmitting(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	real, err := exec.LookPath("sbatch")
	if err != nil {
		t.Fatal(err)
	}
	wrap := filepath.Join(st.dir, dir+"-sbatch")
	if err := os.Mkdir(wrap, 0o755); err != nil {
		t.Fatal(err)
	}
	idFile := filepath.Join(wrap, "job")
	script := fmt.Sprintf("#!/bin/sh\nid=$(%s --hold \"$@\")\necho \"$id\" >%s\nkill -9 $PPID\nexit 1\n", real, idFile)
	if err := os.WriteFile(filepath.Join(wrap, "sbatch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(slices.Clone(st.env), "PATH="+wrap+string(os.PathListSeparator)+filepath.Dir(st.bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if got, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("%s %s was not killed:\n%s", name, strings.Join(args, " "), got)
	}
	held, _, _ := strings.Cut(strings.TrimSpace(readFile(t, idFile)), ";")
	st.cancelLater("job " + held)
	return held
}

// oddWorkDirs: work directories whose path, the jobs' comment, Slurm or
// squeue's output do not carry as is. Longer than Slurm takes a comment
// (1024 bytes), -submit still submits (before, every sbatch failed), and
// the comment jobs.json records is the job's. Ending in a space, squeue
// finds the job of that comment (before, the space of the last line was
// trimmed, and a -submit killed after sbatch was submitted beside). Ending
// in "|", submit.sh finds it (before, read dropped the "|", and a second
// submit.sh submitted beside it).
func (st *slurmTest) oddWorkDirs(t *testing.T) {
	long := filepath.Join(st.dir, strings.Repeat(strings.Repeat("l", 200)+"/", 6), "w")
	if err := os.MkdirAll(filepath.Dir(long), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"slurm", st.conf, "-tournament", "rating", "-out", filepath.Join(st.dir, "long"), "-work", long, "-shards", "1", "-submit"}
	if id := st.killedSubmitting(t, "long", st.bin, args...); id == "" {
		t.Fatalf("arbiter slurm -submit of a work directory of %d bytes did not submit", len(long))
	} else if got, want := st.slurm(t, "squeue", "-h", "-j", id, "-o", "%k"), readFile(t, filepath.Join(long, "jobs.json")); !strings.Contains(want, fmt.Sprintf("%q", got)) {
		t.Fatalf("job %s's comment %q is not the one jobs.json records:\n%s", id, got, want)
	}

	spaced := filepath.Join(st.dir, "a, 100% \"q' \u017c ")
	// A name of this run alone: squeue lists the job alone, last.
	name := "arbiter-odd-" + filepath.Base(filepath.Dir(st.dir))
	id := st.sbatch(t, "--hold", "-J", name, "-o", "/dev/null", "--comment="+spaced, "--wrap", "true")
	tasks, err := queuedTasks("-n", []string{name}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []queuedTask{{id: id, state: "PENDING", name: name, comment: spaced}}; !slices.Equal(tasks, want) {
		t.Fatalf("squeue's tasks of job %s's name: %+v, not %+v", id, tasks, want)
	}

	piped := filepath.Join(st.dir, "p|")
	st.arbiter(t, true, "slurm", st.conf, "-tournament", "rating", "-out", filepath.Join(st.dir, "piped"), "-work", piped, "-shards", "1")
	held := st.killedSubmitting(t, "piped", filepath.Join(piped, "submit.sh"))
	cmd := exec.Command(filepath.Join(piped, "submit.sh"))
	cmd.Env = st.env
	got, err := cmd.CombinedOutput()
	st.cancelLater(string(got))
	if err == nil || !strings.Contains(string(got), "(scancel "+held+")") {
		t.Fatalf("submit.sh of %s (%v) did not refuse while its job %s is queued:\n%s", piped, err, held, got)
	}
}

// unnamedRecord: a jobs.json of an earlier arbiter, which recorded ids
// without names, names the id of a job queued under the name of this
// work directory's job, which may be another's: -submit refuses to wait
// for it or to submit beside it. (Before, it waited for it; the job is
// held, and the wait is cut short after two minutes.)
// refused: a job Slurm refuses (a partition it does not know), by
// -submit or submit.sh, is said to be refused, why, and is not left in
// jobs.json, which would have another -shards refused for jobs submitted.
func (st *slurmTest) refused(t *testing.T) {
	out := filepath.Join(st.dir, "refused")
	args := []string{"slurm", st.conf, "-tournament", "rating", "-out", out, "-partition", "arbiter-no-such-partition"}
	got := st.arbiter(t, false, append(args, "-shards", "1", "-submit")...)
	st.cancelLater(got)
	jobs := filepath.Join(out+".slurm", "jobs.json")
	if !strings.Contains(got, "Slurm refused the job (stage 0 shards): Invalid partition name specified") || fileExists(jobs) {
		t.Fatalf("-submit to a partition Slurm does not know (jobs.json left: %v):\n%s", fileExists(jobs), got)
	}
	st.arbiter(t, true, append(args, "-shards", "2")...)
	cmd := exec.Command(filepath.Join(out+".slurm", "submit.sh"))
	cmd.Env = st.env
	sh, err := cmd.CombinedOutput()
	st.cancelLater(string(sh))
	if err == nil || !strings.Contains(string(sh), "submit.sh: Slurm refused the job (stage 0 shards): Invalid partition name specified") || fileExists(jobs) {
		t.Fatalf("submit.sh to a partition Slurm does not know (%v; jobs.json left: %v):\n%s", err, fileExists(jobs), sh)
	}
	st.arbiter(t, true, append(args, "-shards", "1")...)
}

func (st *slurmTest) unnamedRecord(t *testing.T) {
	out := filepath.Join(st.dir, "unnamed")
	st.arbiter(t, true, "slurm", st.conf, "-tournament", "rating", "-out", out, "-shards", "1")
	id := st.sbatch(t, "--hold", "-J", "arbiter-rating-s0", "-o", "/dev/null", "--wrap", "true")
	rec := fmt.Sprintf(`[{"what": "stage 0 shards", "id": %q}]`+"\n", id)
	if err := os.WriteFile(filepath.Join(out+".slurm", "jobs.json"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, st.bin, "slurm", st.conf, "-tournament", "rating", "-out", out, "-shards", "1", "-submit")
	cmd.Env = st.env
	got, err := cmd.CombinedOutput()
	st.cancelLater(string(got))
	if err == nil || !strings.Contains(string(got), "records the ids of the jobs it submitted but not their names, and jobs "+id+", queued or running") {
		t.Fatalf("arbiter slurm -submit (%v) of a jobs.json without names did not refuse job %s:\n%s", err, id, got)
	}
	if st.states(t, id)[""] != "PENDING" {
		t.Fatalf("job %s: %v", id, st.states(t, id))
	}
}

// cancelLater cancels, when the test ends, the jobs arbiter slurm says
// it submitted.
func (st *slurmTest) cancelLater(out string) {
	for _, m := range regexp.MustCompile(`job (\d+)`).FindAllStringSubmatch(out, -1) {
		id := m[1]
		st.t.Cleanup(func() { _ = exec.Command("scancel", id).Run() })
	}
}

// sameRun checks that the merged results directory got is the one-machine
// run want, timings apart: the same plan, results (got's in plan order),
// paired rounds, standings, transcripts and the games' own files.
func sameRun(t *testing.T, want, got string) {
	t.Helper()
	if readFile(t, filepath.Join(want, "plan.json")) != readFile(t, filepath.Join(got, "plan.json")) {
		t.Fatal("plan.json differs")
	}
	wantRes, _ := timelessResults(t, want)
	gotRes, order := timelessResults(t, got)
	if len(wantRes) != len(gotRes) {
		t.Fatalf("%d results, want %d", len(gotRes), len(wantRes))
	}
	for id, line := range wantRes {
		if gotRes[id] != line {
			t.Fatalf("match %s:\n got %s\nwant %s%s", id, gotRes[id], line, seatStderr(got, id))
		}
	}
	var planOrder []string
	var p struct {
		Matches []struct{ ID string } `json:"matches"`
	}
	_ = json.Unmarshal([]byte(readFile(t, filepath.Join(got, "plan.json"))), &p)
	for _, m := range p.Matches {
		planOrder = append(planOrder, m.ID)
	}
	for _, name := range readDirNames(t, filepath.Join(got, "rounds")) {
		var pr struct {
			Matches []struct{ ID string } `json:"matches"`
		}
		_ = json.Unmarshal([]byte(readFile(t, filepath.Join(got, "rounds", name))), &pr)
		for _, m := range pr.Matches {
			planOrder = append(planOrder, m.ID)
		}
	}
	if !slices.Equal(order, planOrder) {
		t.Fatalf("merged results.jsonl is not in plan order:\n got %v\nwant %v", order, planOrder)
	}
	if w, g := readDirNames(t, filepath.Join(want, "rounds")), readDirNames(t, filepath.Join(got, "rounds")); !slices.Equal(w, g) {
		t.Fatalf("rounds/ holds %v, want %v", g, w)
	}
	for _, name := range readDirNames(t, filepath.Join(want, "rounds")) {
		if readFile(t, filepath.Join(want, "rounds", name)) != readFile(t, filepath.Join(got, "rounds", name)) {
			t.Fatalf("rounds/%s differs", name)
		}
	}
	if w, g := readFile(t, filepath.Join(want, "standings.txt")), readFile(t, filepath.Join(got, "standings.txt")); w != g {
		t.Fatalf("standings differ:\n got\n%s\nwant\n%s", g, w)
	}
	for _, id := range readDirNames(t, filepath.Join(want, "matches")) {
		w := timelessEvents(t, filepath.Join(want, "matches", id, "events.jsonl"))
		if g := timelessEvents(t, filepath.Join(got, "matches", id, "events.jsonl")); g != w {
			t.Fatalf("transcript of %s differs (-one machine +shards):\n%s", id, cmp.Diff(w, g))
		}
	}
	skip := map[string]bool{"arbiter.log": true, "merged.json": true, ".lock": true, "results.jsonl": true, "matches": true, "rounds": true}
	w := slices.DeleteFunc(readDirNames(t, want), func(n string) bool { return skip[n] })
	g := slices.DeleteFunc(readDirNames(t, got), func(n string) bool { return skip[n] })
	if !slices.Equal(w, g) {
		t.Fatalf("the merged directory holds %v, the one-machine run %v", g, w)
	}
}

// timelessResults reads results.jsonl without timings, by match, and the
// match ids in file order.
func timelessResults(t *testing.T, dir string) (map[string]string, []string) {
	t.Helper()
	out := map[string]string{}
	var order []string
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "results.jsonl"))), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		delete(r, "elapsed_ms")
		for _, s := range r["seats"].([]any) {
			// Measured, as engine's replay takes them: the CPU a
			// bot used off move is there only when it was charged,
			// which a loaded machine makes more likely.
			delete(s.(map[string]any), "time_ms")
			delete(s.(map[string]any), "off_move_ms")
		}
		b, _ := json.Marshal(r)
		id := r["match"].(string)
		out[id] = string(b)
		order = append(order, id)
	}
	return out, order
}

// timelessEvents is a transcript without times: offsets, time_left
// commands, the result's times, and the answers to quit, which are
// recorded only when they came within the bot's grace to end (500 ms,
// gtp.SessionPlayer.quit): a house bot descheduled that long at the end
// of a match on a loaded host (eight shard jobs on two cores) has none,
// and the game, over, is the same.
func timelessEvents(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	quit := map[float64]bool{} // the seats sent quit
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path)), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		delete(l, "t")
		if s, ok := l["send"].(string); ok && strings.HasPrefix(s, "time_left") {
			continue
		}
		seat, _ := l["seat"].(float64)
		if l["send"] == "quit" {
			quit[seat] = true
		} else if _, recv := l["recv"]; recv && quit[seat] {
			continue
		}
		if l["event"] == "result" {
			continue // times used; results.jsonl is compared without them
		}
		j, _ := json.Marshal(l)
		b.Write(append(j, '\n'))
	}
	return b.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readDirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func countLines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// seatStderr is what the bots of match id in the results directory dir
// wrote on stderr, for a failure's message: a bot's own words on why it
// ended are the evidence a result alone does not hold.
func seatStderr(dir, id string) string {
	files, _ := filepath.Glob(filepath.Join(dir, engine.MatchesDir, id, "*.stderr"))
	var b strings.Builder
	for _, f := range files {
		if text, err := os.ReadFile(f); err == nil && len(text) > 0 {
			fmt.Fprintf(&b, "\n%s:\n%s", filepath.Base(f), text)
		}
	}
	return b.String()
}

// TestTimelessEvents checks that the transcripts the shards test compares
// tell apart any difference in what was sent or answered before quit,
// though not the time_left commands, the times, or a seat's answers after
// it was sent quit (recorded only within its grace to end).
func TestTimelessEvents(t *testing.T) {
	const base = `{"t":0.001,"event":"match","data":{"id":"m"}}
{"t":0.002,"seat":0,"send":"time_left 900"}
{"t":0.003,"seat":0,"send":"gen_play"}
{"t":0.004,"seat":0,"recv":"= KS"}
{"t":0.005,"seat":1,"send":"gen_play"}
{"t":0.006,"seat":1,"recv":"= QS"}
{"t":0.007,"seat":0,"send":"quit"}
{"t":0.008,"seat":1,"recv":"= AS"}
{"t":0.009,"seat":1,"send":"quit"}
{"t":0.010,"seat":0,"recv":"="}
{"t":0.011,"seat":1,"recv":"="}
{"t":0.012,"event":"result","data":{"elapsed_ms":12}}`
	dir := t.TempDir()
	events := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return timelessEvents(t, path)
	}
	want := events("base", base)
	for _, c := range []struct {
		name, old, new string
		same           bool
	}{
		{"other times", `"t":0.004`, `"t":3.5`, true},
		{"other time_left", "time_left 900", "time_left 850", true},
		{"no answer to quit", `{"t":0.010,"seat":0,"recv":"="}` + "\n", "", true},
		{"another answer", "= KS", "= KH", false},
		{"a seat's answer after another's quit", "= AS", "= AH", false},
		{"another command", `"seat":1,"send":"gen_play"`, `"seat":1,"send":"gen_lead"`, false},
		{"no quit", `{"t":0.009,"seat":1,"send":"quit"}` + "\n", "", false},
	} {
		text := strings.Replace(base, c.old, c.new, 1)
		if text == base {
			t.Fatalf("%s: %q is not in the transcript", c.name, c.old)
		}
		if got := events(c.name, text); (got == want) != c.same {
			t.Errorf("%s: same transcript %v, want %v:\n%s", c.name, got == want, c.same, cmp.Diff(want, got))
		}
	}
}

// TestTaskWord checks that a shard directory in the scripts reads back
// whole from sh, a space or quote in it kept, with the array task's
// number in place of ${SLURM_ARRAY_TASK_ID}.
func TestTaskWord(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/w/shards/s0-${SLURM_ARRAY_TASK_ID}", "/w/shards/s0-3"},
		{"/my w/it's/s1-${SLURM_ARRAY_TASK_ID}", "/my w/it's/s1-3"},
		{"${SLURM_ARRAY_TASK_ID}/$HOME", "3/$HOME"},
	} {
		cmd := exec.Command("sh", "-c", "printf '%s' "+taskWord(c.in))
		cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID=3")
		out, err := cmd.Output()
		if err != nil || string(out) != c.want {
			t.Errorf("taskWord(%q) = %s, which sh reads as %q (%v), want %q", c.in, taskWord(c.in), out, err, c.want)
		}
	}
}

// TestScriptChanges checks what a refused re-attach says differs in a job
// script: a changed option or arbiter path by its words, an option added
// or dropped, or a line whose words do not pair up, whole.
func TestScriptChanges(t *testing.T) {
	was := "#!/bin/sh\n#SBATCH --cpus-per-task=1\n#SBATCH --requeue\nexec /old/arbiter merge -out /o /w/s0-0\n"
	for _, c := range []struct {
		now  string
		want []string
	}{
		{was, nil},
		{"#!/bin/sh\n#SBATCH --cpus-per-task=2\n#SBATCH --requeue\nexec /new/arbiter merge -out /o /w/s0-0\n",
			[]string{"--cpus-per-task=1 → --cpus-per-task=2", "/old/arbiter → /new/arbiter"}},
		{"#!/bin/sh\n#SBATCH --cpus-per-task=1\n#SBATCH --time=10\n#SBATCH --requeue\nexec /old/arbiter merge -out /o /w/s0-0 /w/s0-1\n",
			[]string{"without exec /old/arbiter merge -out /o /w/s0-0", "with #SBATCH --time=10", "with exec /old/arbiter merge -out /o /w/s0-0 /w/s0-1"}},
		// An arbiter, or a directory, whose path holds a blank is one
		// word, quoted: its path changed, not the line's words.
		{"#!/bin/sh\n#SBATCH --cpus-per-task=1\n#SBATCH --requeue\nexec '/opt/my arbiter/arbiter' merge -out /o /w/s0-0\n",
			[]string{"/old/arbiter → '/opt/my arbiter/arbiter'"}},
		// A script that differs in blanks alone says so, once, rather
		// than nothing (or a line without and with itself).
		{was + "\n", []string{"blanks differ (spaces, empty lines)"}},
		{"#!/bin/sh\n\n#SBATCH --cpus-per-task=1 \n#SBATCH --requeue\nexec /old/arbiter merge -out /o  /w/s0-0\n",
			[]string{"blanks differ (spaces, empty lines)"}},
		{"#!/bin/sh \n#SBATCH --cpus-per-task=2\n#SBATCH --requeue\nexec /old/arbiter merge -out /o /w/s0-0\n",
			[]string{"--cpus-per-task=1 → --cpus-per-task=2", "blanks differ (spaces, empty lines)"}},
	} {
		if got := scriptChanges(was, c.now); !slices.Equal(got, c.want) {
			t.Errorf("scriptChanges(%q, %q) = %q, want %q", was, c.now, got, c.want)
		}
	}
}

// TestOtherArbiter checks that the arbiter a work directory's jobs ran
// is named when it is another than this one, whole, and not when it is
// this one at a path with a blank (quoted in the scripts).
func TestOtherArbiter(t *testing.T) {
	for _, c := range []struct{ wrote, self, want string }{
		{"/opt/my arbiter/arbiter", "/opt/my arbiter/arbiter", ""},
		{"/opt/my arbiter/arbiter", "/usr/bin/arbiter", "'/opt/my arbiter/arbiter'"},
		{"/opt/old/arbiter", "/usr/bin/arbiter", "/opt/old/arbiter"},
	} {
		j := &slurmJob{work: t.TempDir(), out: "/o", root: "/c", shards: 2, cpus: 1, name: "arbiter-t", self: c.wrote}
		if err := os.WriteFile(j.script("shards", 0), []byte(j.shardScript(0)), 0o644); err != nil {
			t.Fatal(err)
		}
		j.self = c.self
		if got := j.otherArbiter(); got != c.want {
			t.Errorf("scripts written by %s, run by %s: otherArbiter() = %q, want %q", c.wrote, c.self, got, c.want)
		}
	}
}

// TestTaskLog checks that -submit names a task's log by the %a of the
// log's name alone: a work directory's own "%a" is kept (sbatch reads it
// as "%%a", outputPattern).
func TestTaskLog(t *testing.T) {
	for _, c := range []struct{ pattern, task, want string }{
		{"/w/logs/stage0-shard%a.log", "_3", "/w/logs/stage0-shard3.log"},
		{"/w%a/logs/stage0-shard%a.log", "_3", "/w%a/logs/stage0-shard3.log"},
		{"/w%a/logs/stage0-merge.log", "", "/w%a/logs/stage0-merge.log"},
	} {
		if got := taskLog(c.pattern, c.task); got != c.want {
			t.Errorf("taskLog(%q, %q) = %q, want %q", c.pattern, c.task, got, c.want)
		}
	}
	if got, want := outputPattern("/w%j/logs/stage0-shard%a.log"), "/w%%j/logs/stage0-shard%a.log"; got != want {
		t.Errorf("outputPattern = %q, want %q", got, want)
	}
}

// TestProgressLine checks what -submit prints of a job while it waits:
// its tasks counted by state, a pending range of tasks as the tasks it
// holds, and nothing for a job whose tasks all wait for the jobs before.
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		tasks map[string]slurmTask
		want  string
	}{
		{map[string]slurmTask{"_0-3": {"PENDING", "Dependency"}}, ""},
		{map[string]slurmTask{"": {"PENDING", "Dependency"}}, ""},
		{map[string]slurmTask{"": {"RUNNING", "None"}}, "RUNNING"},
		{map[string]slurmTask{"_2-3%1": {"PENDING", "Resources"}, "_0": {"RUNNING", "None"}, "_1": {"COMPLETED", "None"}},
			"1 COMPLETED, 2 PENDING (Resources), 1 RUNNING"},
		{map[string]slurmTask{"_1,4-6": {"PENDING", "ReqNodeNotAvail,_UnavailableNodes:n1"}}, "4 PENDING (ReqNodeNotAvail, UnavailableNodes:n1)"},
	} {
		if got := progressLine(c.tasks); got != c.want {
			t.Errorf("progressLine(%v) = %q, want %q", c.tasks, got, c.want)
		}
	}
}

// TestSlurmRefusal: sbatch's refusals by slurmctld (src/common/slurm_errno.c's
// words) submitted nothing; its failures to reach slurmctld or hear its
// answer, which it reports the same way, may have submitted the job.
func TestSlurmRefusal(t *testing.T) {
	const failed = "sbatch: error: Batch job submission failed: "
	for _, c := range []struct {
		stdout, stderr, why string
	}{
		{"", "sbatch: error: invalid partition specified: nosuch\n" + failed + "Invalid partition name specified\n", "Invalid partition name specified"},
		{"", failed + "Requested time limit is invalid (missing or exceeds some limit)\n", "Requested time limit is invalid (missing or exceeds some limit)"},
		{"", failed + "Invalid account or account/partition combination specified\n", "Invalid account or account/partition combination specified"},
		{"", failed + "Socket timed out on send/recv operation\n", ""},
		{"", failed + "Zero Bytes were transmitted or received\n", ""},
		{"", failed + "Unable to contact slurm controller (connect failure)\n", ""},
		{"", failed + "Connection reset by peer\n", ""},
		{"", failed + "Resource temporarily unavailable\n", ""},
		{"", "sbatch: error: Something else\n", ""},
		// An answer sbatch could not read (a reply to a request slurmctld may
		// have acted on): Slurm's SLURM_ERROR, which says nothing of why.
		{"", "sbatch: error: slurm_unpack_received_msg: [[localhost]:6817] Message receive failure\n" + failed + "Unspecified error\n", ""},
		// The system's errors a receive can end in.
		{"", failed + "Host is down\n", ""},
		{"", failed + "Input/output error\n", ""},
		{"", failed + "Timer expired\n", ""},
		{"", failed + "Operation now in progress\n", ""},
		{"", failed + "No error\n", ""},
		{"Submitted batch job 7\n", failed + "Invalid partition name specified\n", ""},
	} {
		why, _, ok := slurmRefusal(c.stdout, c.stderr)
		if why != c.why || ok != (c.why != "") {
			t.Errorf("slurmRefusal(%q, %q) = %q, %v; want %q", c.stdout, c.stderr, why, ok, c.why)
		}
	}
}
