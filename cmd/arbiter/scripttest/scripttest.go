package scripttest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
)

// binDir holds the arbiter the scripts run, built by TestMain from this
// module's source: `exec arbiter` finds it first on the scripts' PATH,
// and house bots run it again as "arbiter bot ...".
var binDir string

// sources are the files of this module the build of arbiter read, found
// by TestMain; TestScripts looks at each so that go test's cache knows
// them: it keeps a result only while the files a test looked at are
// unchanged, and a build in a child process is out of its sight.
var sources []string

// Main builds arbiter for the scripts and runs the tests of m: a part's
// TestMain.
func Main(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "arbiter-scripttest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "scripttest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Mode 0755 whatever the umask: the sandbox's uid runs the house bots
	// from this build.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "scripttest:", err)
		return 1
	}
	// go test puts its Go's bin folder first on the test's PATH.
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "arbiter"), "github.com/arbiter-contests/arbiter/cmd/arbiter")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "scripttest: building arbiter:", err)
		return 1
	}
	binDir = dir
	if sources, err = moduleSources(); err != nil {
		fmt.Fprintln(os.Stderr, "scripttest: listing arbiter's sources:", err)
		return 1
	}
	return m.Run()
}

// moduleSources are the Go and embedded files of this module's packages
// that arbiter is built from, and go.mod and go.sum.
func moduleSources() ([]string, error) {
	list := exec.Command("go", "list", "-deps", "-f",
		`{{if and .Module .Module.Main}}{{range .GoFiles}}{{$.Dir}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$.Dir}}/{{.}}
{{end}}{{.Module.GoMod}}
{{end}}`, "github.com/arbiter-contests/arbiter/cmd/arbiter")
	list.Stderr = os.Stderr
	out, err := list.Output()
	if err != nil {
		return nil, err
	}
	files := slices.DeleteFunc(strings.Split(string(out), "\n"), func(f string) bool { return f == "" })
	for _, f := range slices.Clone(files) {
		if strings.HasSuffix(f, "go.mod") {
			files = append(files, strings.TrimSuffix(f, ".mod")+".sum")
		}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// Run runs part (0 to parts-1) of the scripts of
// cmd/arbiter/testdata/script: those whose place in the sorted list of
// names leaves part when divided by parts. It is called by the test
// of a package two folders below cmd/arbiter (part1, part2).
func Run(t *testing.T, part, parts int) {
	for _, f := range sources {
		os.Stat(f) // for go test's cache (sources)
	}
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	all, err := filepath.Glob("../../testdata/script/*.txtar")
	if err != nil || len(all) == 0 {
		t.Fatalf("no scripts in ../../testdata/script: %v", err)
	}
	slices.Sort(all)
	var files []string
	for i, f := range all {
		if i%parts == part {
			files = append(files, f)
		}
	}
	testscript.Run(t, testscript.Params{
		Files:               files,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("ROOT", root)
			// The bots' folders of arbiter's state (check's and console's
			// builds), the test's own, not the machine's.
			env.Setenv("ARBITER_STATE_DIR", filepath.Join(env.WorkDir, ".arbiter-state"))
			env.Setenv("REFDIR", filepath.Join(root, "engine", "rating", "testdata", "bayeselo"))
			return nil
		},
		// [enforced:LIMIT] holds when this machine enforces LIMIT.
		Condition: func(cond string) (bool, error) {
			if limit, ok := strings.CutPrefix(cond, "enforced:"); ok {
				return proc.Machine().Enforcement(limit).Enforced, nil
			}
			// [cpucounted] holds when a bot's CPU is counted (a time
			// fault says whether it kept computing).
			if cond == "cpucounted" {
				return proc.Machine().CPUCounted() && proc.Machine().Sandbox, nil
			}
			// [root] holds when the tests run as root (which may run a
			// command as another user: setpriv).
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gamelog":     cmdGameLog,
			"sameanswers": cmdSameAnswers,
		},
	})
}

// cmdGameLog prints what a match transcript says about the game, without
// time offsets and time_left commands (which depend on the machine's
// speed): gamelog EVENTS.JSONL OUTFILE (or events.jsonl.gz).
func cmdGameLog(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: gamelog events.jsonl outfile")
	}
	f, err := engine.OpenTranscriptFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l map[string]any
		ts.Check(json.Unmarshal(sc.Bytes(), &l))
		delete(l, "t")
		if s, ok := l["send"].(string); ok && strings.HasPrefix(s, "time_left") {
			continue
		}
		if l["event"] == "result" {
			continue // carries times used
		}
		b, _ := json.Marshal(l)
		out.Write(append(b, '\n'))
	}
	ts.Check(sc.Err())
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644))
}

// cmdSameAnswers checks that the answers in a console session's output
// (lines starting "=" or "?", quit's too, which a match reads as well)
// are the answers seat SEAT gave in a match:
// sameanswers EVENTS.JSONL SEAT CONSOLE_OUTPUT.
func cmdSameAnswers(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: sameanswers events.jsonl seat console-output")
	}
	answer := func(l string) bool { return strings.HasPrefix(l, "=") || strings.HasPrefix(l, "?") }
	f, err := engine.OpenTranscriptFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Seat *int    `json:"seat"`
			Recv *string `json:"recv"`
		}
		ts.Check(json.Unmarshal(sc.Bytes(), &l))
		if l.Seat != nil && l.Recv != nil && fmt.Sprint(*l.Seat) == args[1] && answer(*l.Recv) {
			want = append(want, *l.Recv)
		}
	}
	ts.Check(sc.Err())
	var got []string
	for _, l := range strings.Split(ts.ReadFile(args[2]), "\n") {
		if answer(l) {
			got = append(got, l)
		}
	}
	same := slices.Equal(got, want)
	switch {
	case same && neg:
		ts.Fatalf("the session gave the match's %d answers", len(want))
	case !same && !neg:
		ts.Fatalf("the session's answers differ from the match's:\n got %q\nwant %q", got, want)
	}
}
