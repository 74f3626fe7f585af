package euchre

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// diskSlack is how far past its memory rule a bot's folder may get
// during a decision: what it writes between two looks of the quota's
// watch (every 5 ms, at the page cache's few GB/s, with the watch late
// on a busy machine: 32 MiB was once exceeded by 2 MiB on a loaded CI
// host). The bots write 400 MiB, so a watch that did not stop them
// still fails by far.
const diskSlack = 128 << 20

// TestWritesBoundedDuringTheDecision: a bot that writes 400 MiB into its
// memory folder in one decision, or 80 files of 5 MiB, is stopped near
// its memory rule (one file of 1024 bytes): the default's reason breaks
// the memory rule, and the bytes it left, as the rule's check reports
// them, are within diskSlack of it.
func TestWritesBoundedDuringTheDecision(t *testing.T) {
	sizes := regexp.MustCompile(` has (\d+) bytes`)
	for _, mode := range []string{"bigmemory", "manymemory"} {
		t.Run(mode, func(t *testing.T) {
			g := &Game{settings: DefaultSettings(), clock: drivers.Clock{Move: drivers.Duration(3 * time.Second)}}
			g.settings.MaxHands = 1
			m, _ := processMatch(t, 31, house(t, "rules"), bad(t, mode, Ordering))
			rec := &events{}
			m.Record = rec
			if _, err := g.Play(context.Background(), m); err != nil {
				t.Fatal(err)
			}
			defaults := rec.of("default")
			if len(defaults) == 0 {
				t.Fatal("no default recorded")
			}
			for _, e := range defaults {
				d := e.(DefaultEvent)
				if !regexp.MustCompile(`broke the memory rule \(one file of at most 1024 bytes\)`).MatchString(d.Reason) {
					t.Errorf("reason %q does not name the memory rule", d.Reason)
				}
				var total int64
				for _, m := range sizes.FindAllStringSubmatch(d.Reason, -1) {
					n, _ := strconv.ParseInt(m[1], 10, 64)
					total += n
				}
				if total > g.settings.Memory+diskSlack {
					t.Errorf("the bot left %d bytes in its memory folder, more than %d past its rule: %s", total, diskSlack, d.Reason)
				}
				t.Logf("%s", d.Reason)
			}
		})
	}
}
