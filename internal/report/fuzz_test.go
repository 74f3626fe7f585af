package report

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fuzzDirs are the results directories FuzzDamagedDir damages: real runs
// of every game, with rounds, stages and faults.
var fuzzDirs = []string{"planowanie", "staged", "placement", "auction", "euchre", "slow-blokus", "crash-planowanie"}

// filesOf lists the files of testdata/dir, by path in dir.
func filesOf(tb testing.TB, dir string) []string {
	var out []string
	err := filepath.WalkDir(filepath.Join("testdata", dir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join("testdata", dir), p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// FuzzDamagedDir: a results directory one of whose files a crash or an
// edit left holding any bytes is written as a page (what it skipped
// said) or refused with an error, never a crash or a hang: what rank,
// report and serve read (Write reads it all: plan, results, rounds,
// stop, transcripts, stderr files).
func FuzzDamagedDir(f *testing.F) {
	files := make([][]string, len(fuzzDirs))
	for i, d := range fuzzDirs {
		files[i] = filesOf(f, d)
		for j, name := range files[i] {
			b, err := os.ReadFile(filepath.Join("testdata", d, name))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), uint8(j), b)
			f.Add(uint8(i), uint8(j), b[:len(b)/2])
		}
	}
	f.Fuzz(func(t *testing.T, dir, file uint8, content []byte) {
		d := int(dir) % len(fuzzDirs)
		name := files[d][int(file)%len(files[d])]
		tmp := t.TempDir()
		out := filepath.Join(tmp, "results")
		if err := os.CopyFS(out, os.DirFS(filepath.Join("testdata", fuzzDirs[d]))); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = Write(out, filepath.Join(tmp, "page.html"))
	})
}
