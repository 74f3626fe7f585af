package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/engine/fingerprint"
	"golang.org/x/sys/unix"
)

const slurmLockHCL = `deck "d" {
  ranks = "23456789TJQKA"
  suits = "CDHS"
}
game "planowanie" "g" {
  deck  = deck.d
  deals = [{ cards = 1, leader = 0 }]
  clock { total = "1m" }
}
bot "a" { house = "planowanie/random" }
bot "b" { house = "planowanie/greedy" }
tournament "t" {
  game    = game.planowanie.g
  bots    = [bot.a, bot.b]
  players = 2
  seed    = 7
}
`

// TestSlurmLockUnsupported: where the work directory's file system cannot
// flock (Lustre without -o flock: ENOSYS), arbiter slurm goes on unlocked,
// saying so; where locking fails otherwise, it fails, and leaves no
// slurm.json that does not mark the work directory (an empty one would
// leave a work directory in a bot's dir in its fingerprint).
func TestSlurmLockUnsupported(t *testing.T) {
	t.Cleanup(func() { flockWork = unix.Flock })
	dir := t.TempDir()
	hcl := filepath.Join(dir, "t.hcl")
	if err := os.WriteFile(hcl, []byte(slurmLockHCL), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		err    error
		submit bool
		ok     bool
	}{
		{"ENOSYS", unix.ENOSYS, false, true},
		{"EOPNOTSUPP", unix.EOPNOTSUPP, false, true},
		{"ENOLCK", unix.ENOLCK, false, true},
		{"EIO, -submit", unix.EIO, true, false},
		{"EIO", unix.EIO, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			flockWork = func(int, int) error { return c.err }
			out := filepath.Join(t.TempDir(), "o")
			args := []string{hcl, "-out", out, "-shards", "2"}
			if c.submit {
				args = append(args, "-submit")
			}
			var stdout, stderr bytes.Buffer
			err := cmdSlurm(args, &stdout, &stderr)
			if (err == nil) != c.ok {
				t.Fatalf("err %v, want ok %v; stderr %s", err, c.ok, stderr.String())
			}
			if c.ok && !strings.Contains(stderr.String(), "going on without the lock") {
				t.Errorf("no warning of the missing lock: %s", stderr.String())
			}
			work := out + ".slurm"
			if _, err := os.Stat(filepath.Join(work, fingerprint.SlurmFile)); err == nil && !fingerprint.IsSlurmWork(work) {
				b, _ := os.ReadFile(filepath.Join(work, fingerprint.SlurmFile))
				t.Fatalf("left %s that does not mark the work directory: %q", fingerprint.SlurmFile, b)
			}
		})
	}
}
