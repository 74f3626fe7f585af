// Package diagtest checks the diagnostics of invalid configuration files
// against the expectations written in the files themselves. It is imported
// only by tests.
//
// A line that should carry error diagnostics ends with a comment
//
//	# ERROR: <summary>[, <summary>...]
//
// naming each expected diagnostic's summary (once per diagnostic, so two
// equal diagnostics on one line are written twice). "# ERROR@N: ..."
// expects them on line N instead, for lines that cannot hold a comment
// (inside a heredoc).
package diagtest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

var marker = regexp.MustCompile(`# ERROR(?:@(\d+))?: (.+)$`)

// Want lists the expected diagnostics of src as "<line>: <summary>".
func Want(src string) []string {
	var want []string
	for i, line := range strings.Split(src, "\n") {
		m := marker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := i + 1
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
		}
		for _, s := range strings.Split(m[2], ", ") {
			want = append(want, fmt.Sprintf("%d: %s", n, strings.TrimSpace(s)))
		}
	}
	return want
}

// Check requires the error diagnostics of file, whose source is src, to
// be exactly the ones its markers expect, each pointing into the file (its
// range's byte offsets on the lines it names, which is what a printed
// diagnostic quotes and names the enclosing block by) and saying how to
// fix it. So a file also proves that all its errors are reported in one
// go.
func Check(t testing.TB, file, src string, diags hcl.Diagnostics) {
	t.Helper()
	want := Want(src)
	var got []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Subject == nil {
			t.Errorf("diagnostic %q has no source range", d.Summary)
			continue
		}
		if !strings.HasSuffix(d.Subject.Filename, filepath.Base(file)) {
			t.Errorf("diagnostic %q names file %q, not %s", d.Summary, d.Subject.Filename, file)
		}
		if d.Detail == "" {
			t.Errorf("diagnostic %q at line %d has no detail saying how to fix it", d.Summary, d.Subject.Start.Line)
		}
		if problem := inSource(src, *d.Subject); problem != "" {
			t.Errorf("diagnostic %q at line %d: %s", d.Summary, d.Subject.Start.Line, problem)
		}
		got = append(got, fmt.Sprintf("%d: %s", d.Subject.Start.Line, d.Summary))
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics of %s (-want +got):\n%s\nall: %v", file, diff, diags)
	}
}

// inSource says what is wrong with r as a range of src: byte offsets
// outside it, or off the lines r names; "" when nothing is.
func inSource(src string, r hcl.Range) string {
	for _, p := range []struct {
		name string
		pos  hcl.Pos
	}{{"start", r.Start}, {"end", r.End}} {
		if p.pos.Byte < 0 || p.pos.Byte > len(src) {
			return fmt.Sprintf("its %s byte %d is outside the file", p.name, p.pos.Byte)
		}
		if line := strings.Count(src[:p.pos.Byte], "\n") + 1; line != p.pos.Line {
			return fmt.Sprintf("its %s byte %d is on line %d, not on line %d, which it names", p.name, p.pos.Byte, line, p.pos.Line)
		}
	}
	if r.End.Byte < r.Start.Byte {
		return fmt.Sprintf("it ends (byte %d) before it starts (byte %d)", r.End.Byte, r.Start.Byte)
	}
	return ""
}
