package auction

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// diskSlack is how far past its quota a bot's folder may get during its
// move: what a bot writes between two looks of the quota's watch (every
// 5 ms; at the page cache's few GB/s, and with the watch's goroutine
// late on a busy machine), on top of one file of the quota's bytes plus
// one, the most RLIMIT_FSIZE lets it write where the run is confined.
// The bots write 400 MiB, so one the watch did not stop still fails by
// far (Euchre's test, at 32 MiB past 50 written, was once 2 MiB over on
// a loaded CI host).
const diskSlack = 128 << 20

// TestWritesBoundedDuringTheMove: a bot that writes 400 MiB into one file
// during its move, and one that writes 80 files of 5 MiB (each within the
// bytes), are stopped near their quota of 10 files and 10 MB: each gets
// the files default naming the limit, and what they kept, as the
// referee's check after the move reports it, is within diskSlack of the
// quota. Bare, the watch stops them; in the sandbox under the game's
// default limits, RLIMIT_FSIZE also caps the one file at the quota plus
// one byte.
func TestWritesBoundedDuringTheMove(t *testing.T) {
	bareAndSandboxed(t, func(t *testing.T, lim drivers.Limits) {
		s := testSettings
		s.IdleRounds = 1
		s.Files = FileLimits{Count: 10, Bytes: 10_000_000}
		_, out, rec := playQuota(t, lim, s, seat{"big", "bigfile"}, seat{"many", "manyfiles"}, seat{"c", "copy"})
		seen := map[int]bool{}
		for _, d := range rec.defaults() {
			seen[d.Seat] = true
			// Stopped by the watch ("... during its move, over its
			// limit of 10 files and 10000000 bytes (files { count,
			// bytes }): stopped; kept ..."), or, when its writes failed
			// at RLIMIT_FSIZE and it answered before the watch looked,
			// by the referee's check alone ("kept 1 file of 10000001
			// bytes, over its limit of ...").
			if d.Seat == 2 || d.Kind != FilesKind || !strings.Contains(d.Detail, "over its limit of 10 files and 10000000 bytes") {
				t.Errorf("default %+v, want a files default of seat 0 or 1 naming its quota", d)
			}
			var files, bytes int64
			if i := strings.Index(d.Detail, "kept "); i < 0 {
				t.Errorf("seat %d: no figure of what it kept in %q", d.Seat, d.Detail)
			} else if _, err := fmt.Sscanf(strings.NewReplacer("files", "file", "bytes", "byte").Replace(d.Detail[i:]), "kept %d file of %d byte", &files, &bytes); err != nil {
				t.Errorf("seat %d: %v reading %q", d.Seat, err, d.Detail[i:])
			}
			if bytes > s.Files.Bytes+diskSlack {
				t.Errorf("seat %d kept %d bytes in %d files, more than its quota of %d bytes and %d past it", d.Seat, bytes, files, s.Files.Bytes, diskSlack)
			}
			if lim.Sandbox != nil && d.Seat == 0 && bytes != s.Files.Bytes+1 {
				t.Errorf("seat 0 kept %d bytes, want its one file cut at %d by RLIMIT_FSIZE", bytes, s.Files.Bytes+1)
			}
			t.Logf("seat %d: %s", d.Seat, d.Detail)
		}
		if !seen[0] || !seen[1] || out.Seats[2].Defaults != 0 {
			t.Errorf("defaults %v, want seats 0 and 1's", rec.defaults())
		}
	})
}

// TestFolderHolesDuringTheMove: a bot that reserves 300 MiB with
// fallocate keeping its file empty (FALLOC_FL_KEEP_SIZE), and one that
// bids and then writes 40 MiB in its grace, each get the files default
// for the round and keep nothing over the quota: bare, the reservation
// counts by its blocks; in the sandbox it is refused.
func TestFolderHolesDuringTheMove(t *testing.T) {
	bareAndSandboxed(t, func(t *testing.T, lim drivers.Limits) {
		s := testSettings
		s.IdleRounds = 1
		s.Files = FileLimits{Count: 10, Bytes: 2_000_000}
		m, out, rec := playQuota(t, lim, s, seat{"r", "reserve"}, seat{"a", "afterbid"}, seat{"c", "copy"})
		if out.Seats[1].Defaults == 0 || out.Seats[2].Defaults != 0 {
			t.Errorf("defaults %v, want seat 1's (it wrote after its bid), not seat 2's", rec.defaults())
		}
		if reserved := out.Seats[0].Defaults != 0; reserved != (lim.Sandbox == nil) {
			t.Errorf("seat 0 has %d defaults (%v); want them bare, where its reservation is made, and none in the sandbox, where it is refused", out.Seats[0].Defaults, rec.defaults())
		}
		for _, d := range rec.defaults() {
			if d.Kind != FilesKind || !strings.Contains(d.Detail, "over its limit of 10 files and 2000000 bytes") {
				t.Errorf("default %+v, want a files default naming its quota", d)
			}
		}
		var used int64
		filepath.WalkDir(m.Dir, func(p string, e fs.DirEntry, err error) error {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				used += proc.DiskUsage(fi)
			}
			return nil
		})
		if used > 10<<20 {
			t.Errorf("the match's folder takes %d bytes on the disk after the match, want the bots' files removed", used)
		}
	})
}

// bareAndSandboxed runs f as "bare" (no limits) and as "sandbox" (the
// game's default limits in the default sandbox), which is skipped where
// the machine has no sandbox, except on CI.
func bareAndSandboxed(t *testing.T, f func(t *testing.T, lim drivers.Limits)) {
	sandboxed := Driver{}.DefaultLimits()
	sandboxed.Sandbox = &drivers.Sandbox{}
	for _, c := range []struct {
		name   string
		limits drivers.Limits
	}{{"bare", drivers.Limits{}}, {"sandbox", sandboxed}} {
		t.Run(c.name, func(t *testing.T) {
			if c.limits.Sandbox != nil && !proc.Machine().Sandbox {
				if os.Getenv("CI") == "true" {
					t.Fatal("no sandbox on CI")
				}
				t.Skip("no sandbox here (arbiter doctor says why)")
			}
			f(t, c.limits)
		})
	}
}

// playQuota plays a match of seats under lim and s, on a small board,
// its folders open to the sandbox's uid.
func playQuota(t *testing.T, lim drivers.Limits, s Settings, seats ...seat) (*drivers.Match, *drivers.Outcome, *recorder) {
	m, rec, _ := newMatch(t, 1, seats...)
	for i := range m.Seats {
		m.Seats[i].Limits = lim
	}
	for d := m.Dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := play(context.Background(), m, s, Board{Name: "spec", Cols: 4, Rows: 3}, examplePosition(t))
	if err != nil {
		t.Fatal(err)
	}
	return m, out, rec
}
