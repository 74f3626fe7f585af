package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/all"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// printSandbox explains the default sandbox in `arbiter doctor`: what it
// needs and whether this machine has it (and what a bot can do where
// not), and each game's default limits.
func printSandbox(w io.Writer, p *proc.Probe) {
	fmt.Fprintln(w, "\nDefault sandbox (every bot, unless its limits say sandbox = false):")
	if p.Sandbox {
		fmt.Fprintf(w, "  in force here: %s\n", p.Enforcement(drivers.LimitSandbox).How)
	} else {
		fmt.Fprintf(w, "  NOT available here: %s\n", p.Why["sandbox"])
	}
	fmt.Fprintln(w, "  It needs:")
	for _, m := range p.SandboxMechanisms() {
		if m.Have {
			fmt.Fprintf(w, "    yes  %s\n", m.Name)
			continue
		}
		fmt.Fprintf(w, "    NO   %s (%s)\n         without it: %s\n", m.Name, m.Why, m.Without)
	}
	fmt.Fprintln(w, "  Default limits of each game (a limits block overrides them attribute by attribute):")
	defaults := gameDefaultLimits()
	for _, name := range all.Names() {
		if l, ok := defaults[name]; ok {
			fmt.Fprintf(w, "    %-11s %s\n", name, describeLimits(l))
		}
	}
}

// gameDefaultLimits are the default limits of each game that has them
// (drivers.DefaultLimiter), by driver name.
func gameDefaultLimits() map[string]drivers.Limits {
	out := map[string]drivers.Limits{}
	for _, name := range all.Names() {
		d, _ := all.Driver(name)
		if dl, ok := d.(drivers.DefaultLimiter); ok {
			out[name] = dl.DefaultLimits()
		}
	}
	return out
}

// describeLimits says limits in a line: "memory 400MiB, cpu match, ...".
func describeLimits(l drivers.Limits) string {
	var parts []string
	if l.Memory > 0 {
		parts = append(parts, "memory "+proc.Size(l.Memory))
	}
	if l.CPU != "" {
		parts = append(parts, "cpu "+l.CPU)
	}
	if l.Processes > 0 {
		parts = append(parts, fmt.Sprintf("processes %d", l.Processes))
	}
	if l.NoNetwork() {
		parts = append(parts, "no network")
	}
	if l.NoChildren() {
		parts = append(parts, "no child processes")
	}
	if l.Files > 0 {
		parts = append(parts, "files "+proc.Size(l.Files))
	}
	if l.FileCount > 0 {
		parts = append(parts, fmt.Sprintf("file_count %d", l.FileCount))
	}
	if l.Output > 0 {
		parts = append(parts, "output "+proc.Size(l.Output))
	}
	if l.Sandbox != nil {
		s := "sandbox"
		if l.Sandbox.Program != "" {
			s += " (runs " + l.Sandbox.Program + ")"
		}
		if len(l.Sandbox.Read) > 0 {
			s += " reading " + strings.Join(l.Sandbox.Read, " ")
		}
		parts = append(parts, s)
	}
	if len(l.Required) > 0 {
		parts = append(parts, "required "+strings.Join(l.Required, " "))
	}
	return strings.Join(parts, ", ")
}

// planLimits is the limits line of a bot in `arbiter plan`.
func planLimits(b plan.Bot) string {
	if b.Limits == nil {
		return "no limits, no sandbox"
	}
	if b.Limits.Sandbox == nil {
		return describeLimits(*b.Limits) + ", no sandbox"
	}
	return describeLimits(*b.Limits)
}

// warnOutside warns once, naming them, about the bots that run outside
// the sandbox because their configuration says sandbox = false.
func warnOutside(p *plan.Plan, log hclog.Logger) {
	var outside []string
	for _, b := range p.Bots {
		if b.Limits == nil || b.Limits.Sandbox == nil {
			outside = append(outside, b.Name)
		}
	}
	if len(outside) == 0 {
		return
	}
	sort.Strings(outside)
	log.Warn("bots run outside the sandbox (sandbox = false)", "bots", strings.Join(outside, ", "), "allows", proc.SandboxMissing)
}

// cpuWarnings are the warnings of the plan's cpu limits under a second
// (drivers.Limits.CPUWarning), in the plan's order of bots: a saved plan
// an earlier arbiter compiled may have them, and they are enforced as a
// second.
func cpuWarnings(p *plan.Plan) []string {
	var out []string
	for _, b := range p.Bots {
		if b.Limits == nil {
			continue
		}
		if w := b.Limits.CPUWarning(); w != "" {
			out = append(out, "bot "+b.Name+": "+w)
		}
	}
	return out
}
