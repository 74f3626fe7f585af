package engine

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/internal/shell"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Shards are disjoint, cover the stage, keep a group of a round in one
// shard, balance by matches, and do not depend on anything but the plan.
func TestShardMatches(t *testing.T) {
	var ms []plan.Match
	for r := 1; r <= 7; r++ {
		for g := 1; g <= 3; g++ {
			for s := 1; s <= 1+g%3; s++ { // groups of 2, 3 and 1 seatings
				ms = append(ms, plan.Match{ID: fmt.Sprintf("r%03d-g%02d-s%d", r, g, s), Round: r, Group: g})
			}
		}
	}
	for _, n := range []int{1, 2, 5, 8, 60} {
		owner := map[string]int{}
		group := map[[2]int]int{}
		sizes := make([]int, n)
		for k := 0; k < n; k++ {
			ids := ShardMatches(ms, k, n)
			if !slices.Equal(ids, ShardMatches(ms, k, n)) {
				t.Fatalf("%d/%d: not deterministic", k, n)
			}
			sizes[k] = len(ids)
			for _, id := range ids {
				if o, ok := owner[id]; ok {
					t.Fatalf("%s in shards %d and %d of %d", id, o, k, n)
				}
				owner[id] = k
			}
		}
		for _, m := range ms {
			k, ok := owner[m.ID]
			if !ok {
				t.Fatalf("N=%d: %s in no shard", n, m.ID)
			}
			u := [2]int{m.Round, m.Group}
			if o, ok := group[u]; ok && o != k {
				t.Fatalf("N=%d: round %d group %d split over shards %d and %d", n, m.Round, m.Group, o, k)
			}
			group[u] = k
		}
		// Balanced within the largest unit (3 matches).
		if n <= 21 && slices.Max(sizes)-slices.Min(sizes) > 3 {
			t.Fatalf("N=%d: shard sizes %v", n, sizes)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "3", "a/b", "2/2", "-1/2", "0/0", "1/-3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	if s, err := ParseShard("7/8"); err != nil || s.K != 7 || s.N != 8 {
		t.Fatalf("ParseShard(7/8) = %v, %v", s, err)
	}
}

// swissPlan is a runnable plan of a Swiss tournament of 3 rounds between
// bots a and b, as readers of a results directory want its plan.json
// (ReadPlan): its first round listed, the others paired during the run.
func swissPlan() *plan.Plan {
	return &plan.Plan{Tournament: "t", Game: plan.Game{Driver: "g"}, Format: tournament.Swiss, Seats: tournament.Fixed, Players: 2, Rounds: 3,
		Later:   &plan.Later{Pairing: tournament.ByScore, From: 2},
		Bots:    []plan.Bot{{Name: "a", Command: []string{"./a"}}, {Name: "b", House: "g/random"}},
		Matches: []plan.Match{{ID: "r001-g01-s1", Round: 1, Group: 1, Shift: 1, Seats: []string{"a", "b"}}}}
}

// TestReadShardLostStage: a shard's directory that lacks a pairing of
// the stages it was run from is refused, saying the file is missing and
// where it comes from, when it holds results or other pairings of them;
// a shard of a stage after the last, which has none of them nor
// results, plays nothing, as it did.
func TestReadShardLostStage(t *testing.T) {
	// Bot a's dir is relative: the command to run the shard again needs
	// the -root its fingerprint records, as merge's does.
	p := swissPlan()
	p.Bots[0].Dir, p.Bots[0].Fingerprint = "bots/a", &plan.Fingerprint{Dir: "/conf dir/bots/a", Root: "/conf dir"}
	round := func(r int) []byte {
		id := fmt.Sprintf("r%03d-g01-s1", r)
		return mustIndent(&pairing.Pairing{Round: r, Rule: "swiss", Groups: [][]string{{"a", "b"}},
			Matches: []plan.Match{{ID: id, Round: r, Group: 1, Seats: []string{"b", "a"}}}})
	}
	result := `{"match":"r003-g01-s1","seed":0,"seats":[{"bot":"b"},{"bot":"a"}]}` + "\n"
	for _, c := range []struct {
		name    string
		files   map[string][]byte
		lost    string // the file named missing; "" when read
		matches []string
	}{
		{"whole", map[string][]byte{"rounds/r002.json": round(2), "rounds/r003.json": round(3)}, "", []string{"r003-g01-s1"}},
		{"after the last", nil, "", nil},
		{"one of two lost", map[string][]byte{"rounds/r002.json": round(2)}, "r003.json", nil},
		{"both lost, results", map[string][]byte{ResultsFile: []byte(result)}, "r002.json", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s1 y")
			files := map[string][]byte{PlanFile: mustIndent(p), ShardFile: mustIndent(Shard{K: 0, N: 1, Stage: 2})}
			maps.Copy(files, c.files)
			if err := os.MkdirAll(filepath.Join(dir, RoundsDir), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, b := range files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sp, err := ReadShard(dir)
			if c.lost != "" {
				want := filepath.Join(dir, RoundsDir, c.lost) + " is missing: " + dir + " holds shard 0/1 of stage 2"
				again := shell.Line("arbiter", "run", "MERGED/plan.json", "-root", "/conf dir", "-shard", "0/1", "-stage", "2", "-out", dir)
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), again) {
					t.Fatalf("ReadShard: %v, want an error saying %q and how to run the shard again", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sp.Finished != (c.matches == nil) || !slices.Equal(sp.Matches, c.matches) {
				t.Fatalf("ReadShard: finished %v, matches %q; want %q", sp.Finished, sp.Matches, c.matches)
			}
		})
	}
}

// TestReadShardBadRecord: a shard.json whose shard or stage is out of
// range (a copied or edited file) is refused by its reader, naming the
// file, where it made the readers panic.
func TestReadShardBadRecord(t *testing.T) {
	p := swissPlan()
	for _, c := range []struct {
		name, rec, want string
	}{
		{"negative stage", `{"shard":0,"of":1,"stage":-1}`, "stage -1 is out of range: this plan runs in stages 0 to 2"},
		{"stage past the last", `{"shard":0,"of":1,"stage":3}`, "stage 3 is out of range: this plan runs in stages 0 to 2"},
		{"negative shard", `{"shard":-1,"of":2,"stage":0}`, "shard -1/2 is out of range: the shards of 2 are 0/2 to 1/2"},
		{"shard past the last", `{"shard":2,"of":2,"stage":0}`, "shard 2/2 is out of range: the shards of 2 are 0/2 to 1/2"},
		{"no shards", `{"shard":0,"of":0,"stage":0}`, "0 shards: there is at least 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string][]byte{PlanFile: mustIndent(p), ShardFile: []byte(c.rec)}
			for name, b := range files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := filepath.Join(dir, ShardFile) + ": " + c.want
			_, err := ReadShard(dir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("ReadShard: %v; want an error saying %q", err, want)
			}
			_, _, err = ReadDir(dir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("ReadDir: %v; want an error saying %q", err, want)
			}
		})
	}
}

// TestNextNamesAsStageNames: for plans without stages, nextNames is the
// step's name of stageNames, which it no longer lists (a Swiss of a
// million rounds listed it a million times): every step and one past the
// end, of plans with and without pairing, playoffs and rounds to pair.
func TestNextNamesAsStageNames(t *testing.T) {
	for _, later := range []*plan.Later{nil,
		{Pairing: tournament.ByScore, From: 2}, {Pairing: tournament.ByRating, From: 3, Playoffs: true},
		{Playoffs: true}, {Pairing: tournament.ByScore, From: 9, Playoffs: true}, {Pairing: tournament.ByScore, From: 7}} {
		for _, rounds := range []int{1, 2, 5, 7} {
			p := &plan.Plan{Rounds: rounds, Later: later}
			names := stageNames(p)
			for step := range len(names) + 2 {
				var want []string
				if step < len(names) {
					want = names[step : step+1]
				}
				if got := nextNames(p, step); !slices.Equal(got, want) {
					t.Errorf("later %+v, %d rounds, step %d: %v, want %v", later, rounds, step, got, want)
				}
			}
		}
	}
}

func BenchmarkNextNamesSwiss(b *testing.B) {
	p := &plan.Plan{Rounds: 100000, Later: &plan.Later{Pairing: tournament.ByScore, From: 2}}
	for b.Loop() {
		for step := 0; step < p.Rounds; step += 1000 {
			nextNames(p, step)
		}
	}
}
