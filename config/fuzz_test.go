package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/config"
)

// FuzzLoad: any bytes as an organiser's .hcl file are a configuration
// whose tournaments compile, or diagnostics, never a crash.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.hcl")
	more, _ := filepath.Glob("../examples/*/*.hcl")
	for _, path := range append(seeds, more...) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(t.TempDir(), "t.hcl")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, diags := load(path, config.Options{})
		if cfg == nil && !diags.HasErrors() {
			t.Fatal("no configuration and no error")
		}
	})
}
