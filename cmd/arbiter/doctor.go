package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// cmdDoctor prints what this machine offers for confining bots and, per
// limit, the mechanism that enforces it here or why none does.
func cmdDoctor(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("doctor", stderr)
	asJSON := fs.Bool("json", false, "print the probe as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("doctor takes no arguments")
	}
	p := proc.Machine()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Probe         *proc.Probe               `json:"probe"`
			Enforcements  []proc.Enforcement        `json:"enforcements"`
			Sandbox       []proc.Mechanism          `json:"sandbox"`
			DefaultLimits map[string]drivers.Limits `json:"default_limits"`
			MatchesAtOnce pinning                   `json:"matches_at_once"`
		}{p, p.Enforcements(), p.SandboxMechanisms(), gameDefaultLimits(), pinningAt(defaultJobs())})
	}
	fmt.Fprintln(stdout, "Machine:")
	for _, f := range p.Facts() {
		fmt.Fprintf(stdout, "  %-24s %s\n", f[0], f[1])
	}
	fmt.Fprintln(stdout, "\nLimits:")
	for _, e := range p.Enforcements() {
		how := e.How
		if e.Enforced {
			how = "enforced: " + how
		}
		fmt.Fprintf(stdout, "  %-10s %s\n", e.Limit, how)
	}
	printSandbox(stdout, p)
	printPinning(stdout, defaultJobs())
	return nil
}

// pinning is how arbiter run, at jobs matches at once, pins them here
// (docs/cli.md, Matches at once): CPUs holds each worker's CPU list when
// pinned, How says it in a sentence.
type pinning struct {
	Jobs   int      `json:"jobs"`
	Pinned bool     `json:"pinned"`
	CPUs   []string `json:"cpus,omitempty"`
	How    string   `json:"how"`
}

func pinningAt(jobs int) pinning {
	pn := pinning{Jobs: jobs}
	shares := engine.CPUShares(jobs)
	switch {
	case jobs == 1:
		pn.How = "one at a time, in arbiter's own process, its bots on any CPU arbiter may use"
	case shares == nil:
		pn.How = "not pinned (they do not divide evenly among the CPUs): one process plays them, bots on any CPU"
	default:
		pn.Pinned = true
		for _, share := range shares {
			pn.CPUs = append(pn.CPUs, engine.CPUList(share))
		}
		pn.How = fmt.Sprintf("each in a worker process pinned with its bots to its own CPUs: %s (-pin=false: one process, bots on any CPU)", strings.Join(pn.CPUs, " | "))
	}
	return pn
}

// printPinning says how arbiter run, at its default -j, pins its matches
// here (docs/cli.md, Matches at once).
func printPinning(w io.Writer, jobs int) {
	fmt.Fprintf(w, "\nMatches at once (arbiter run's default -j %d):\n  %s\n", jobs, pinningAt(jobs).How)
}

// checkLimits logs, once, how the limits the plan uses are enforced
// here, and fails when a limit some bot requires cannot be.
func checkLimits(p *plan.Plan, log hclog.Logger) error {
	warnOutside(p, log)
	for _, w := range cpuWarnings(p) {
		log.Warn(w)
	}
	used := map[string]bool{}
	required := map[string][]string{} // limit → bots requiring it
	for _, b := range p.Bots {
		if b.Limits == nil {
			continue
		}
		l := b.Limits
		for name, set := range map[string]bool{
			drivers.LimitMemory: l.Memory > 0, drivers.LimitCPU: l.CPU != "", drivers.LimitProcesses: l.Processes > 0,
			drivers.LimitNetwork: l.NoNetwork(), drivers.LimitFiles: l.Files > 0 || l.FileCount > 0, drivers.LimitOutput: l.Output > 0,
			drivers.LimitChildren: l.NoChildren(), drivers.LimitSandbox: l.Sandbox != nil,
		} {
			if set {
				used[name] = true
			}
		}
		for _, r := range l.Required {
			required[r] = append(required[r], b.Name)
		}
	}
	if len(used) == 0 && len(required) == 0 {
		return nil
	}
	m := proc.Machine()
	for _, e := range m.Enforcements() {
		if !used[e.Limit] && required[e.Limit] == nil && e.Limit != "reaping" {
			continue
		}
		if e.Enforced {
			log.Info("limit", "limit", e.Limit, "enforced", true, "how", e.How)
		} else {
			log.Warn("limit", "limit", e.Limit, "enforced", false, "why", e.How)
		}
	}
	if err := refuseBrokenSandbox(p, m); err != nil {
		return err
	}
	var names []string // required limits, in the order doctor reports them
	for _, name := range drivers.LimitNames {
		if required[name] != nil {
			names = append(names, name)
		}
	}
	var refused []string
	for _, e := range m.Unenforceable(names) {
		bots := required[e.Limit]
		sort.Strings(bots)
		refused = append(refused, fmt.Sprintf("%s (required for %s): %s", e.Limit, strings.Join(bots, ", "), e.How))
	}
	if len(refused) > 0 {
		return fmt.Errorf("refusing to run: this machine cannot enforce required limits:\n  %s\nRun \"arbiter doctor\" for details, run elsewhere, or remove them from required", strings.Join(refused, "\n  "))
	}
	return nil
}

// refuseBrokenSandbox refuses a run whose bots ask for the sandbox on a
// machine that has what it needs but could not start a process in it
// (proc.Probe.SandboxFailed): running them outside it, as arbiter's uid
// in the machine's file system, is what only sandbox = false asks for.
func refuseBrokenSandbox(p *plan.Plan, m *proc.Probe) error {
	err := m.SandboxFailure()
	if err == nil {
		return nil
	}
	var in []string
	for _, b := range p.Bots {
		if b.Limits != nil && b.Limits.Sandbox != nil {
			in = append(in, b.Name)
		}
	}
	if len(in) == 0 {
		return nil
	}
	sort.Strings(in)
	return fmt.Errorf("refusing to run bots %s: %w", strings.Join(in, ", "), err)
}
