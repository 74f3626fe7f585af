package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// build compiles the test binaries of the benchmarked packages and arbiter.
func (b *bench) build() {
	for _, pkg := range []string{"drivers/proc", "drivers/planowanie", "drivers/euchre"} {
		out, err := exec.Command("go", "test", "-c", "-o", b.testBin(pkg), "./"+pkg).CombinedOutput()
		if err != nil {
			check(fmt.Errorf("go test -c ./%s: %v\n%s", pkg, err, out))
		}
	}
	out, err := exec.Command("go", "build", "-o", b.arbiter(), "./cmd/arbiter").CombinedOutput()
	if err != nil {
		check(fmt.Errorf("go build ./cmd/arbiter: %v\n%s", err, out))
	}
}

func (b *bench) testBin(pkg string) string {
	return filepath.Join(b.dir, strings.ReplaceAll(pkg, "/", "_")+".test")
}

func (b *bench) arbiter() string { return filepath.Join(b.dir, "arbiter") }

// onOneCPU runs f with the benchmarks it runs pinned, with every process
// they start, to one CPU (the last this process may use), by taskset(1);
// pinned is false, and f ran unpinned, where there is no taskset.
func (b *bench) onOneCPU(f func()) (cpu int, pinned bool) {
	taskset, err := exec.LookPath("taskset")
	var set unix.CPUSet
	if err != nil || unix.SchedGetaffinity(0, &set) != nil {
		f()
		return 0, false
	}
	for c := range 1024 {
		if set.IsSet(c) {
			cpu = c
		}
	}
	b.pin = []string{taskset, "-c", strconv.Itoa(cpu)}
	defer func() { b.pin = nil }()
	f()
	return cpu, true
}

// metrics are one benchmark's figures by unit ("ns/op", "sends/op", ...).
type metrics map[string]float64

// pair runs the benchmarks of pkg named in names interleaved, rounds
// times each, with benchtime (or the one a name gives after '@'), and
// returns each one's median figures.
func (b *bench) pair(pkg, benchtime string, names ...string) []metrics {
	all := make([]map[string][]float64, len(names))
	for i := range all {
		all[i] = map[string][]float64{}
	}
	for range b.rounds {
		for i, name := range names {
			bt := benchtime
			if n, t, ok := strings.Cut(name, "@"); ok {
				name, bt = n, t
			}
			for unit, v := range b.runBench(pkg, name, bt) {
				all[i][unit] = append(all[i][unit], v)
			}
		}
	}
	out := make([]metrics, len(names))
	for i, m := range all {
		out[i] = metrics{}
		for unit, vs := range m {
			out[i][unit] = median(vs)
		}
	}
	return out
}

// runBench runs one benchmark once and parses its result line; a
// benchmark that skips itself (what it measures is missing here) has
// no figures.
func (b *bench) runBench(pkg, name, benchtime string) metrics {
	argv := append(slices.Clone(b.pin), b.testBin(pkg), "-test.run", "^$", "-test.bench", "^"+name+"$", "-test.benchtime", benchtime)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = filepath.Join(".", pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		check(fmt.Errorf("%s %s: %v\n%s", pkg, name, err, out))
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || !strings.HasPrefix(f[0], name) {
			continue
		}
		m := metrics{}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				m[f[i+1]] = v
			}
		}
		return m
	}
	if strings.Contains(string(out), "--- SKIP: "+name) {
		return metrics{}
	}
	check(fmt.Errorf("%s %s: no result line in\n%s", pkg, name, out))
	return nil
}

// usage is what one command cost: wall time, CPU time and peak memory.
type usage struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
	out       []byte
}

func (u usage) String() string {
	return fmt.Sprintf("%.2f s wall, %.2f s CPU, %.1f MB peak", u.wall.Seconds(), u.cpu.Seconds(), float64(u.maxRSS)/1e6)
}

// measure runs a command with stdin (when not "") and returns its usage;
// a failing command ends the run with its output.
func measure(stdin string, argv ...string) usage {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		tail := out.Bytes()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		check(fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail))
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return usage{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		maxRSS: int64(ru.Maxrss) * 1024, out: out.Bytes()}
}

// measureDiscard is measure for a command whose output is large: it is
// counted and dropped.
func measureDiscard(argv ...string) (usage, int64) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var n counter
	cmd.Stdout = &n
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		check(fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, errOut.Bytes()))
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return usage{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		maxRSS: int64(ru.Maxrss) * 1024}, int64(n)
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}
