package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/diagtest"
	"github.com/arbiter-contests/arbiter/tournament"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/config/compile"
	"github.com/arbiter-contests/arbiter/drivers/all"
)

func load(path string, opts config.Options) (*config.Config, hcl.Diagnostics) {
	opts.Driver, opts.DriverNames = all.Driver, all.Names()
	if opts.Environ == nil {
		opts.Environ = []string{}
	}
	cfg, diags := config.Load(path, opts)
	if diags.HasErrors() {
		return cfg, diags
	}
	for _, t := range cfg.Tournaments {
		_, d := compile.Compile(cfg, t)
		diags = append(diags, d...)
	}
	return cfg, diags
}

// TestInvalid loads every file in testdata/invalid. Each line that should
// carry a diagnostic ends with "# ERROR: <summary>"; every error must be
// expected and every expectation met, so a file also proves that all its
// errors are reported in one go.
func TestInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := load(file, config.Options{})
			diagtest.Check(t, file, string(src), diags)
		})
	}
}

func TestValidWithVariables(t *testing.T) {
	cfg, diags := load("testdata/valid/variables.hcl", config.Options{
		Vars:    []string{"rounds=5"},
		Environ: []string{"ARBITER_VAR_seed=42", "ARBITER_VAR_rounds=9"},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tr := cfg.Tournaments[0]
	if tr.Rounds != 5 {
		t.Errorf("rounds = %d: -var must override the environment", tr.Rounds)
	}
	if tr.Seed != 42 || tr.Players != 2 || tr.Seats != tournament.Fixed || tr.Deal != tournament.PerGroup {
		t.Errorf("tournament = %+v", tr)
	}
	b := cfg.Bot("b")
	if want := filepath.Join(cfg.Root, "bots"); b.Dir != want {
		t.Errorf("bot dir = %q, want %q (relative to the declaring file)", b.Dir, want)
	}
	if b.Env["LEVEL"] != "3" {
		t.Errorf("bot env = %v", b.Env)
	}
	p, _ := compile.Compile(cfg, tr)
	if len(p.Matches) != 5 {
		t.Errorf("%d matches, want 5 (one fixed seating per round)", len(p.Matches))
	}
	if got := p.Bot("b").Dir; got != "bots" {
		t.Errorf("plan bot dir = %q, want it relative to the config root", got)
	}
}

func TestVarFile(t *testing.T) {
	dir := t.TempDir()
	vf := filepath.Join(dir, "prod.hcl")
	os.WriteFile(vf, []byte("seed = 7\nrounds = 2\n"), 0o644)
	cfg, diags := load("testdata/valid/variables.hcl", config.Options{VarFiles: []string{vf}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if tr := cfg.Tournaments[0]; tr.Seed != 7 || tr.Rounds != 2 {
		t.Errorf("seed %d rounds %d, want 7 and 2 from the var file", tr.Seed, tr.Rounds)
	}
}

func TestUndeclaredVar(t *testing.T) {
	_, diags := load("testdata/valid/variables.hcl", config.Options{Vars: []string{"seed=1", "sede=2"}})
	if !diags.HasErrors() || diags[0].Summary != "Undeclared variable" || !strings.Contains(diags[0].Detail, "sede") {
		t.Fatalf("diags = %v, want Undeclared variable naming sede", diags)
	}
}

func TestExampleConfigsAreValid(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*")
	for _, dir := range dirs {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.hcl")); len(m) == 0 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if _, diags := load(dir, config.Options{}); diags.HasErrors() {
				t.Fatal(diags)
			}
		})
	}
}
