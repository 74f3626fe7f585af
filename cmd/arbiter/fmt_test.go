package main

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/arbiter-contests/arbiter/internal/starters"
)

// TestExamplesFormatted runs arbiter fmt -check on every directory of
// examples/ that holds .hcl files (examples/bricks/large too): what a
// reader copies is what arbiter fmt writes.
func TestExamplesFormatted(t *testing.T) {
	dirs := map[string]bool{}
	err := filepath.WalkDir("../../examples", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".hcl" {
			dirs[filepath.Dir(path)] = true
		}
		return err
	})
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example found: %v", err)
	}
	for dir := range dirs {
		var out, errs bytes.Buffer
		if code := run([]string{"fmt", "-check", dir}, &out, &errs); code != 0 {
			t.Errorf("arbiter fmt -check %s: exit %d; run arbiter fmt on it\n%s%s", dir, code, out.String(), errs.String())
		}
	}
}

// TestStartersFormatted runs arbiter fmt -check on the tournament that
// arbiter init writes for every game: a new author's first file is what
// arbiter fmt writes (the Auction's was not).
func TestStartersFormatted(t *testing.T) {
	for _, game := range starters.Games() {
		dir := filepath.Join(t.TempDir(), game)
		if _, err := starters.Write(game, dir); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		if code := run([]string{"fmt", "-check", dir}, &out, &errs); code != 0 {
			t.Errorf("arbiter init %s writes files arbiter fmt -check refuses (exit %d): run arbiter fmt on internal/starters/%s\n%s%s", game, code, game, out.String(), errs.String())
		}
	}
}
