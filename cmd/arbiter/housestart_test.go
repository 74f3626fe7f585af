package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// houseStartInits are the packages outside the standard library whose
// init may run when arbiter starts as a house bot: drivers/house/start and
// what it imports, and three packages that import so little that Go
// initialises them before os, which every bot needs: go-cmp's internal
// diff and value, and x/text's norm (they cost microseconds together;
// go-cmp's cmp itself, a regexp compiled and more, must not run).
var houseStartInits = []string{
	"github.com/arbiter-contests/arbiter/drivers/house",
	"github.com/arbiter-contests/arbiter/drivers/shuffle",
	"github.com/arbiter-contests/arbiter/drivers/proc/shim",
	"golang.org/x/sys/unix",
	"github.com/google/go-cmp/cmp/internal/diff",
	"github.com/google/go-cmp/cmp/internal/value",
	"golang.org/x/text/unicode/norm",
}

// initsOf runs exe with args and GODEBUG=inittrace=1, and returns its
// stdout and the packages outside the standard library whose init ran, in
// order.
func initsOf(t *testing.T, exe, stdin string, args ...string) (string, []string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "ARBITER_SEED=3", "ARBITER_SEAT=1", "ARBITER_POSITION=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, errs.String())
	}
	var pkgs []string
	for _, m := range regexp.MustCompile(`(?m)^init (\S+) @`).FindAllStringSubmatch(errs.String(), -1) {
		if first, _, _ := strings.Cut(m[1], "/"); strings.Contains(first, ".") {
			pkgs = append(pkgs, m[1])
		}
	}
	return out.String(), pkgs
}

// TestHouseBotStartsLight: a house bot's process runs the bot before the
// packages that only arbiter's other commands need (HCL, cty, go-cmp,
// hclog, ...) initialise, which would cost every start about 1.5 ms of CPU
// (docs/benchmarks.md, "House-bot starts"). It fails when the house bots'
// packages import a heavy package again, or arbiter stops importing
// drivers/house/start.
func TestHouseBotStartsLight(t *testing.T) {
	t.Parallel()
	// arbiter itself: this test's binary also links the tests' own
	// packages, some of which Go would initialise first.
	exe := filepath.Join(t.TempDir(), "arbiter")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The check can fail: the same binary, not running a house bot,
	// initialises the heavy packages.
	_, all := initsOf(t, exe, "", "bot", "-list")
	for _, heavy := range []string{"github.com/hashicorp/hcl/v2/hclsyntax", "github.com/zclconf/go-cty/cty", "github.com/google/go-cmp/cmp", "github.com/hashicorp/go-hclog"} {
		if !slices.Contains(all, heavy) {
			t.Fatalf("arbiter bot -list does not initialise %s, so a house bot not initialising it proves nothing; inits: %v", heavy, all)
		}
	}
	bots := []struct{ args, stdin, want string }{
		{"bot planowanie/greedy", "set_cards 2 AC 5D\ngen_declare\nquit\n", "=\n\n= 1\n\n=\n\n"},
		{"bot planowanie/random", "quit\n", "=\n\n"},
		{"bot euchre/rules", "js,ah,9c,tc,qd\n3\n1\nordering\njh\n", "p\n"},
	}
	for _, b := range bots {
		out, inits := initsOf(t, exe, b.stdin, strings.Fields(b.args)...)
		if out != b.want {
			t.Errorf("%s answered %q, want %q", b.args, out, b.want)
		}
		for _, p := range inits {
			if !slices.ContainsFunc(houseStartInits, func(ok string) bool { return p == ok || strings.HasPrefix(p, ok+"/") }) {
				t.Errorf("%s initialised %s, which a house bot does not need", b.args, p)
			}
		}
	}
}
