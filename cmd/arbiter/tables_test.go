package main

import (
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/stats"
)

// TestWriteFaultsEmptyDetail: a fault without a detail leaves out the
// colon that would have led it, as writeDefaults does, and a crash's
// line does not claim the log quotes a stderr line the bot may not have
// written.
func TestWriteFaultsEmptyDetail(t *testing.T) {
	var b strings.Builder
	writeFaults(&b, []stats.Standing{{Bot: "q", Faults: 1,
		FirstFault: &stats.FirstFault{Match: "r001-g01-s1", Seat: 2, Fault: drivers.FaultCrash}}})
	want := "\nFaults: q: lost 1 match by its own faults; the first in match r001-g01-s1, crash; " +
		"its stderr is matches/r001-g01-s1/seat2-q.stderr (the run's log quotes its last line, if it wrote one); see results.jsonl.\n"
	if got := b.String(); got != want {
		t.Errorf("writeFaults wrote\n%q\nwant\n%q", got, want)
	}
}
