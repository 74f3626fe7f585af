package engine

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
)

func TestSplitCPUs(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		jobs int
		want [][]int
	}{
		{[]int{0, 1}, 2, [][]int{{0}, {1}}},
		{[]int{0, 1, 2}, 2, [][]int{{0}, {1, 2}}},
		{[]int{2, 3, 6, 7, 8, 9, 10, 11}, 3, [][]int{{2, 3}, {6, 7, 8}, {9, 10, 11}}},
		{[]int{4}, 1, [][]int{{4}}},
		{[]int{0, 1}, 3, nil},
		{[]int{0, 1}, 0, nil},
	} {
		if diff := cmp.Diff(c.want, splitCPUs(c.cpus, c.jobs)); diff != "" {
			t.Errorf("splitCPUs(%v, %d) (-want +got):\n%s", c.cpus, c.jobs, diff)
		}
	}
}

// TestParseRecord reads a record as a worker's hclog writes it, its
// arguments in their order.
func TestParseRecord(t *testing.T) {
	level, module, msg, args, ok := parseRecord([]byte(`{"@level":"warn","@message":"bot fault","@module":"engine","@timestamp":"2026-11-22T00:00:00.000000Z","match":"r001-g01-s1","seat":2,"bot":"a","fault":"time"}`))
	if !ok || level != hclog.Warn || module != "engine" || msg != "bot fault" {
		t.Fatalf("got %v %q %q ok=%v", level, module, msg, ok)
	}
	want := []string{"match", "r001-g01-s1", "seat", "2", "bot", "a", "fault", "time"}
	got := make([]string, len(args))
	for i, a := range args {
		got[i] = fmt.Sprint(a)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	for _, line := range []string{"", "panic: oops", "{not json", `["@level"]`} {
		if _, _, _, _, ok := parseRecord([]byte(line)); ok {
			t.Errorf("parseRecord(%q) took it for a record", line)
		}
	}
}
