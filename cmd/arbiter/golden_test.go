package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

var update = flag.Bool("update", false, "rewrite the golden plans in testdata/plans")

const (
	examplesDir = "../../examples"
	goldenDir   = "testdata/plans"
)

// unpinnedKeys are JSON keys dropped from a plan before it is compared at
// any depth: the bots' and arbiter's fingerprints, which depend on the
// build and the machine, and what a bot's sandbox binds (program, read:
// where this machine keeps the bot's interpreter); none is part of the
// plan's hash.
var unpinnedKeys = map[string]bool{"fingerprint": true, "arbiter": true, "program": true, "read": true}

// TestGoldenPlans pins `arbiter plan -json` of every tournament of every
// example, with the example's default variables, in testdata/plans, so a
// change that moves a seed, a seating or a setting shows in review. After
// a change that is meant, refresh them with
//
//	go test ./cmd/arbiter -run TestGoldenPlans -update
func TestGoldenPlans(t *testing.T) {
	for _, kv := range os.Environ() { // the examples' defaults, not this shell's
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "ARBITER_VAR_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, ex := range exampleTournaments(t) {
		want[ex.golden] = true
		t.Run(ex.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"plan", "-json", "-tournament", ex.tournament, ex.dir}, &stdout, &stderr); code != 0 {
				t.Fatalf("arbiter plan -json -tournament %s %s: exit %d\n%s", ex.tournament, ex.dir, code, stderr.String())
			}
			got, err := dropKeys(stdout.Bytes(), unpinnedKeys)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(got, []byte(root)) {
				t.Errorf("the plan names this checkout's path %s: it would differ on another machine", root)
			}
			path := filepath.Join(goldenDir, ex.golden)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			pinned, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (create it with -update)", err)
			}
			if diff := cmp.Diff(strings.Split(string(pinned), "\n"), strings.Split(string(got), "\n")); diff != "" {
				t.Errorf("the plan differs from %s (-pinned +now); if the change is meant, run\n"+
					"  go test ./cmd/arbiter -run TestGoldenPlans -update\n%s", path, diff)
			}
		})
	}
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := filepath.Base(f); !want[name] {
			if *update {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s pins no example's tournament (remove it with -update)", f)
		}
	}
}

type exampleTournament struct {
	dir, tournament string
	golden          string // file name in testdata/plans
}

// exampleTournaments lists every tournament of every directory under
// examples/ that holds .hcl files. Its golden file is named after the
// directory (examples/bricks/large: bricks-large.json), with the
// tournament's name added when the directory declares several.
func exampleTournaments(t *testing.T) []exampleTournament {
	var dirs []string
	err := filepath.WalkDir(examplesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".hcl") && !slices.Contains(dirs, filepath.Dir(path)) {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []exampleTournament
	for _, dir := range dirs {
		cfg, diags := config.Load(dir, config.Options{Driver: all.Driver, DriverNames: all.Names()})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", dir, diags)
		}
		rel, err := filepath.Rel(examplesDir, dir)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.ReplaceAll(filepath.ToSlash(rel), "/", "-")
		for _, tm := range cfg.Tournaments {
			name := base + ".json"
			if len(cfg.Tournaments) > 1 {
				name = base + "-" + tm.Name + ".json"
			}
			out = append(out, exampleTournament{dir: dir, tournament: tm.Name, golden: name})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no example tournaments under %s", examplesDir)
	}
	return out
}

// dropKeys returns the JSON document data without the object members
// whose key is in drop, at any depth, indented as `plan -json` indents,
// with the other members in their order.
func dropKeys(data []byte, drop map[string]bool) ([]byte, error) {
	var compact bytes.Buffer
	if err := filterValue(&compact, json.RawMessage(data), drop); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func filterValue(w *bytes.Buffer, raw json.RawMessage, drop map[string]bool) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return json.Compact(w, raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // { or [
		return err
	}
	open, closing := raw[0], byte('}')
	if open == '[' {
		closing = ']'
	}
	w.WriteByte(open)
	for n := 0; dec.More(); {
		var key string
		if open == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key = tok.(string)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if open == '{' && drop[key] {
			continue
		}
		if n++; n > 1 {
			w.WriteByte(',')
		}
		if open == '{' {
			k, _ := json.Marshal(key)
			fmt.Fprintf(w, "%s:", k)
		}
		if err := filterValue(w, v, drop); err != nil {
			return err
		}
	}
	w.WriteByte(closing)
	return nil
}

// TestDropKeys: the members named fingerprint or arbiter go at any depth,
// everything else stays in its order, formatted as json.MarshalIndent does.
func TestDropKeys(t *testing.T) {
	in := `{"version":1,"arbiter":{"version":"v1"},"bots":[{"name":"a\u003cb","fingerprint":"sha256:1","dir":".."},` +
		`{"name":"c","limits":{"memory":5,"fingerprint":{"x":[1,2]}}}],"empty":{},"list":[],"z":"fingerprint"}`
	got, err := dropKeys([]byte(in), unpinnedKeys)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(struct {
		Version int      `json:"version"`
		Bots    []any    `json:"bots"`
		Empty   struct{} `json:"empty"`
		List    []int    `json:"list"`
		Z       string   `json:"z"`
	}{1, []any{
		struct {
			Name string `json:"name"`
			Dir  string `json:"dir"`
		}{"a<b", ".."},
		struct {
			Name   string         `json:"name"`
			Limits map[string]int `json:"limits"`
		}{"c", map[string]int{"memory": 5}},
	}, struct{}{}, []int{}, "fingerprint"}, "", "  ")
	if string(got) != string(want)+"\n" {
		t.Errorf("dropKeys =\n%s\nwant\n%s", got, want)
	}
}

// TestGoldenPlanTexts pins the head of `arbiter plan`'s text of every
// example tournament (the tournament, the game's settings, the clock and
// the format; not the bots' fingerprints, which depend on the build), in
// testdata/plans/<example>.txt beside its plan: a changed setting shows
// in the text a reviewer reads, not only in the plan's hash. Refresh with
//
//	go test ./cmd/arbiter -run TestGoldenPlanTexts -update
func TestGoldenPlanTexts(t *testing.T) {
	for _, kv := range os.Environ() { // the examples' defaults, not this shell's
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "ARBITER_VAR_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	want := map[string]bool{}
	for _, ex := range exampleTournaments(t) {
		name := strings.TrimSuffix(ex.golden, ".json") + ".txt"
		want[name] = true
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"plan", "-tournament", ex.tournament, ex.dir}, &stdout, &stderr); code != 0 {
				t.Fatalf("arbiter plan -tournament %s %s: exit %d\n%s", ex.tournament, ex.dir, code, stderr.String())
			}
			head, _, ok := strings.Cut(stdout.String(), "\nArbiter: ")
			if !ok {
				t.Fatalf("arbiter plan printed no Arbiter line:\n%s", stdout.String())
			}
			checkGoldenText(t, filepath.Join(goldenDir, name), head+"\n")
		})
	}
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s pins no example's tournament: remove it", f)
		}
	}
}

// checkGoldenText compares got with the file at path, or writes it there
// with -update.
func checkGoldenText(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	pinned, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if diff := cmp.Diff(strings.Split(string(pinned), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("the plan's text differs from %s (-pinned +now); if the change is meant, run\n"+
			"  go test ./cmd/arbiter -run TestGoldenPlanTexts -update\n%s", path, diff)
	}
}
