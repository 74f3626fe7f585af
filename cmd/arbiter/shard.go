package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// defaultJobs is -j's default: the CPUs Slurm gave the task, when run as
// one, else this machine's.
func defaultJobs() int {
	if n, err := strconv.Atoi(os.Getenv("SLURM_CPUS_PER_TASK")); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// jobsFlag is run's -j, whose usage says its default: -h would print its
// value again ("(default 2)") were its DefValue not the zero value's.
func jobsFlag(fs *flag.FlagSet) *int {
	jobs := fs.Int("j", defaultJobs(), "matches to run at once (default: $SLURM_CPUS_PER_TASK inside a Slurm job, else the number of CPUs)")
	fs.Lookup("j").DefValue = "0"
	return jobs
}

// shardFlags are run's -shard and -stage.
type shardFlags struct {
	shard string
	stage int
}

func (f *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.shard, "shard", "", "play only shard K/N of the stage's matches, K counted from 0 (see docs/distributed.md)")
	fs.IntVar(&f.stage, "stage", 0, "with -shard: the stage to play; a stage after 0 is paired in the results directory that holds the plan file (the merge of the stage before)")
}

// plan works out the shard to play, writing nothing; nil without -shard.
func (f *shardFlags) plan(path string, p *plan.Plan, only []string, stderr io.Writer) (*engine.ShardPlan, error) {
	if f.shard == "" {
		if f.stage != 0 {
			return nil, usageError("-stage goes with -shard")
		}
		return nil, nil
	}
	if len(only) > 0 {
		return nil, usageError("-shard and -match do not go together")
	}
	sh, err := engine.ParseShard(f.shard)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if f.stage > 0 && !isPlanFile(path) {
		return nil, usageError("-stage %d needs the plan.json of the results directory its stage was paired in, not %s", f.stage, path)
	}
	if f.stage < 0 || f.stage >= engine.Stages(p) {
		return nil, fmt.Errorf("-stage %d: this plan runs in stages 0 to %d", f.stage, engine.Stages(p)-1)
	}
	sh.Stage = f.stage
	sp, err := engine.PlanShard(p, sh, filepath.Dir(path), all.Driver)
	if err != nil {
		return nil, err
	}
	if sp.Finished {
		fmt.Fprintf(stderr, "Stage %d has no matches: the tournament in %s is complete.\n", f.stage, filepath.Dir(path))
	} else if len(sp.Matches) == 0 {
		ms, _ := engine.StageMatches(p, sp.Paired, f.stage)
		fmt.Fprintf(stderr, "Nothing to play: %s has no matches; the stage's %d match(es) make %d unit(s) (a group of a round each), fewer than its %d shards.\n",
			sp.Shard, len(ms), engine.Units(ms), sp.Shard.N)
	}
	return sp, nil
}

// prepareShard makes out the results directory of the shard sp; when sp
// is nil (not a shard), it refuses a shard's directory. out's lock is
// held; root is where p's bot dirs are, for messages.
func prepareShard(out string, p *plan.Plan, sp *engine.ShardPlan, root string) error {
	if sp == nil {
		return engine.PrepareRun(out, p, root)
	}
	return engine.PrepareShard(out, p, sp, root)
}

// shardFrom is the merged results directory whose stages before the
// shard's its matches follow from ("" for none: not a shard, or stage 0).
func shardFrom(sp *engine.ShardPlan) string {
	if sp == nil {
		return ""
	}
	return sp.From
}

// shardOnly is the match ids a run plays: the shard's when it is one.
func shardOnly(sp *engine.ShardPlan, only []string) []string {
	if sp == nil {
		return only
	}
	return sp.Matches
}
