package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// benchPlan writes the plan of testdata/slurm's "many" tournament with
// the given number of rounds (8 matches each) to dir/plan.json.
func benchPlan(b *testing.B, dir string, rounds int) *plan.Plan {
	b.Helper()
	cf := configFlags{tournament: "many", vars: listFlag{}}
	src, err := os.ReadFile("testdata/slurm/tournaments.hcl")
	if err != nil {
		b.Fatal(err)
	}
	conf := filepath.Join(dir, "conf")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		b.Fatal(err)
	}
	hcl := strings.Replace(string(src), "rounds  = 25", fmt.Sprintf("rounds  = %d", rounds), 1)
	if err := os.WriteFile(filepath.Join(conf, "t.hcl"), []byte(hcl), 0o644); err != nil {
		b.Fatal(err)
	}
	l, err := cf.load(conf, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	j, _ := json.MarshalIndent(l.plan, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "plan.json"), append(j, '\n'), 0o644); err != nil {
		b.Fatal(err)
	}
	return l.plan
}

// fakeShards writes n shard directories of p's matches with synthetic
// results (scores from a seeded generator) and one-line transcripts, as
// arbiter run -shard would leave them.
func fakeShards(b *testing.B, dir string, p *plan.Plan, n int) []string {
	b.Helper()
	planJSON, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	index := map[string]*plan.Match{}
	for i := range p.Matches {
		index[p.Matches[i].ID] = &p.Matches[i]
	}
	var dirs []string
	for k := 0; k < n; k++ {
		sd := filepath.Join(dir, fmt.Sprintf("s0-%d", k))
		dirs = append(dirs, sd)
		var results []byte
		for _, id := range engine.ShardMatches(p.Matches, k, n) {
			m := index[id]
			r := engine.Result{Match: id, Round: m.Round, Group: m.Group, Seed: m.Seed, ElapsedMS: 100}
			for _, bot := range m.Seats {
				s := engine.SeatResult{Bot: bot}
				s.Score = float64(rng.IntN(4))
				r.Seats = append(r.Seats, s)
			}
			line, _ := json.Marshal(r)
			results = append(append(results, line...), '\n')
			md := filepath.Join(sd, "matches", id)
			if err := os.MkdirAll(md, 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(md, "events.jsonl"), append(line, '\n'), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		rec, _ := json.MarshalIndent(engine.Shard{K: k, N: n}, "", "  ")
		for name, data := range map[string][]byte{"plan.json": planJSON, "shard.json": append(rec, '\n'), "results.jsonl": results} {
			if err := os.WriteFile(filepath.Join(sd, name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dirs
}

// BenchmarkMerge100k is arbiter merge of 100,000 synthetic results of a
// real plan (12,500 rounds of two groups of four, four seatings) from 8
// shards into a new directory: checks, transcripts copied, results.jsonl,
// standings with BayesElo.
func BenchmarkMerge100k(b *testing.B) {
	dir := b.TempDir()
	p := benchPlan(b, dir, 12500)
	if len(p.Matches) != 100000 {
		b.Fatalf("%d matches", len(p.Matches))
	}
	shards := fakeShards(b, dir, p, 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, fmt.Sprintf("merged%d", i))
		if code := run(append([]string{"merge", "-out", out}, shards...), io.Discard, os.Stderr); code != 0 {
			b.Fatal("merge failed")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/result")
}

// BenchmarkShardOverhead is what sharding adds per shard, measured on
// the 200-match plan in 8 shards: starting arbiter run -shard as a
// process on a finished shard (start, plan load, journal, nothing to
// play) and merging the 8 shards, reported per match. (The merge comes
// first: the run records fingerprints in the synthetic shard's plan.json,
// which the merge would then rightly refuse as another shard's.)
func BenchmarkShardOverhead(b *testing.B) {
	dir := b.TempDir()
	p := benchPlan(b, dir, 25)
	shards := fakeShards(b, dir, p, 8)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "arbiter")
	if err := os.Symlink(self, bin); err != nil {
		b.Fatal(err)
	}
	b.Run("merge", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out := filepath.Join(dir, fmt.Sprintf("merged%d", i))
			if code := run(append([]string{"merge", "-out", out}, shards...), io.Discard, os.Stderr); code != 0 {
				b.Fatal("merge failed")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/200, "ns/match")
	})
	b.Run("start", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			out, err := exec.Command(bin, "run", filepath.Join(dir, "plan.json"), "-shard", "3/8", "-out", shards[3]).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "0 match(es) played") {
				b.Fatalf("%v\n%s", err, out)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(engine.ShardMatches(p.Matches, 3, 8))), "ns/match")
	})
}
