package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Limits is a `limits { ... }` block, in a tournament (defaults for every
// bot) or in a bot (overriding the tournament's, attribute by attribute):
//
//	limits {
//	  memory     = "400MiB"   # all the bot's processes together
//	  cpu        = "match"    # CPU time per process: a duration, or the match's total clock
//	  processes  = 16         # processes and threads at once
//	  network    = false      # no network at all
//	  files      = "10MB"     # a private writable folder of this size; no writes elsewhere
//	  file_count = 10         # files and folders in it
//	  output     = "1MiB"     # stdout bytes for one answer
//	  children   = false      # no other processes (threads are fine)
//	  sandbox    = true       # the default; false: the machine's world; "required": refuse to run without it
//	  required   = ["memory", "network"]  # refuse to run where these cannot be enforced
//	}
//
// Without sandbox = false every bot runs in the default sandbox, under its
// game's default limits (drivers.DefaultLimiter) overridden by the
// blocks' attributes.
type Limits struct {
	drivers.Limits
	// SandboxMode is the sandbox attribute: "on", "off" or "required".
	SandboxMode string
	// Set holds the names of the attributes the block sets.
	Set map[string]bool
	// Ranges holds the range of each attribute's value, by name.
	Ranges    map[string]hcl.Range
	DeclRange hcl.Range
}

// LimitsBlock is the block header of a limits block inside bot and
// tournament blocks.
var LimitsBlock = hcl.BlockHeaderSchema{Type: "limits"}

var limitsSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "memory"}, {Name: "cpu"}, {Name: "processes"}, {Name: "network"},
		{Name: "files"}, {Name: "file_count"}, {Name: "output"}, {Name: "required"},
		{Name: "children"}, {Name: "sandbox"},
	},
}

// limitsOf decodes the limits block among blocks, if there is one.
func (l *loader) limitsOf(blocks hcl.Blocks, s scope) (*Limits, hcl.Diagnostics) {
	var lim *Limits
	var diags hcl.Diagnostics
	for _, b := range blocks.OfType("limits") {
		if lim != nil {
			diags = append(diags, errDiag("Duplicate limits block",
				fmt.Sprintf("A limits block was already given at %s. Merge the two into one.", lim.DeclRange.String()), b.DefRange.Ptr()))
			continue
		}
		var d hcl.Diagnostics
		lim, d = l.decodeLimitsBlock(b, s)
		diags = append(diags, d...)
	}
	return lim, diags
}

func (l *loader) decodeLimitsBlock(b *hcl.Block, s scope) (*Limits, hcl.Diagnostics) {
	lim := &Limits{Set: map[string]bool{}, Ranges: map[string]hcl.Range{}, DeclRange: b.DefRange}
	content, diags := b.Body.Content(limitsSchema)
	for name, a := range content.Attributes {
		lim.Ranges[name] = a.Expr.Range()
		v, d := l.value(a.Expr, s)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		rng := a.Expr.Range().Ptr()
		bad := func(detail string) {
			diags = append(diags, errDiag("Invalid "+name+" limit", detail, rng))
		}
		ok := true
		switch name {
		case "memory", "files", "output":
			n, err := drivers.ParseSize(v)
			if err == nil && n < 1 {
				err = fmt.Errorf("it is 0; leave %s out for no limit", name)
			}
			if err != nil {
				bad(fmt.Sprintf("%s must be a size like \"400MiB\", \"10MB\" or a number of bytes: %v.", name, err))
				ok = false
			}
			*map[string]*int64{"memory": &lim.Memory, "files": &lim.Files, "output": &lim.Output}[name] = n
		case "cpu":
			var str string
			if err := gocty.FromCtyValue(v, &str); err != nil {
				bad("cpu must be \"match\" (the match's total clock) or a duration like \"30s\".")
				ok = false
				break
			}
			if d, err := time.ParseDuration(str); str != "match" && (err != nil || d <= 0) {
				bad(fmt.Sprintf("cpu must be \"match\" (the match's total clock) or a positive duration like \"30s\", not %q.", str))
				ok = false
			}
			lim.CPU = str
		case "processes", "file_count":
			var n int
			if err := gocty.FromCtyValue(toNumber(v), &n); err != nil || n < 1 || n > math.MaxInt32 {
				bad(name + " must be a whole number from 1 up.")
				ok = false
			}
			*map[string]*int{"processes": &lim.Processes, "file_count": &lim.FileCount}[name] = n
		case "network", "children":
			var allowed bool
			if err := gocty.FromCtyValue(toBool(v), &allowed); err != nil {
				bad(name + " must be true (allowed) or false (forbidden).")
				ok = false
			}
			if name == "network" {
				lim.Network = &allowed
			} else {
				lim.Children = &allowed
			}
		case "sandbox":
			lim.SandboxMode, ok = sandboxMode(v)
			if !ok {
				bad("sandbox must be true (the default sandbox), false (bots run in the machine's world, with the limits set here only) or \"required\" (refuse to run where the sandbox cannot be had).")
			}
		case "required":
			lim.Required, ok = requiredLimits(v, bad)
		}
		if ok {
			lim.Set[name] = true
		}
	}
	diags = append(diags, lim.ruleDiags(content)...)
	return lim, appendNonNil(diags, lim.sandboxContradiction())
}

// ruleDiags reports the limits set in content that no bot can run
// under, by the rule a saved plan is checked by, and a cpu limit under
// drivers.MinCPU, which a saved plan is only warned of (an attribute
// already in error is not reported again), and warns of those some bots cannot
// (drivers.Limits.Warnings), which a saved plan is not refused for.
func (lim *Limits) ruleDiags(content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range lim.Limits.ConfigProblems() {
		if a := content.Attributes[p.Limit]; a != nil && lim.Set[p.Limit] {
			diags = append(diags, errDiag("Invalid "+p.Limit+" limit", drivers.Sentence(p.Detail), a.Expr.Range().Ptr()))
		}
	}
	for _, p := range lim.Limits.Warnings() {
		if a := content.Attributes[p.Limit]; a != nil && lim.Set[p.Limit] {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Small " + p.Limit + " limit",
				Detail: drivers.Sentence(p.Detail), Subject: a.Expr.Range().Ptr()})
		}
	}
	return diags
}

// sandboxContradiction refuses a block that says sandbox = false and
// requires the sandbox: the requirement would be dropped without a word.
func (lim *Limits) sandboxContradiction() *hcl.Diagnostic {
	if !lim.Set["sandbox"] || lim.SandboxMode != "off" || !contains(lim.Required, drivers.LimitSandbox) {
		return nil
	}
	return errDiag("Invalid required limit",
		fmt.Sprintf("required lists \"sandbox\", but this block says sandbox = false (%s): a bot cannot be both required to run in the sandbox and run outside it. "+
			"Take \"sandbox\" out of required to run outside the sandbox, or sandbox = false out to require it.", lim.Ranges["sandbox"].String()),
		rangePtr(lim.Ranges["required"]))
}

// requiresSandbox says whether lim requires the sandbox (sandbox =
// "required", or "sandbox" in required), and the range of the attribute
// that does.
func (lim *Limits) requiresSandbox() (hcl.Range, bool) {
	switch {
	case lim == nil:
		return hcl.Range{}, false
	case lim.Set["sandbox"] && lim.SandboxMode == "required":
		return lim.Ranges["sandbox"], true
	case contains(lim.Required, drivers.LimitSandbox):
		return lim.Ranges["required"], true
	}
	return hcl.Range{}, false
}

// checkSandboxDropped warns of each bot of tournament t whose limits
// block says sandbox = false when t's requires the sandbox: the bot's
// block overrides the tournament's (sandbox-default.md), so the bot runs
// outside the sandbox, which the organiser may not have meant.
func checkSandboxDropped(t *Tournament, bots []*Bot) hcl.Diagnostics {
	where, ok := t.Limits.requiresSandbox()
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	done := map[*Bot]bool{}
	for _, b := range bots {
		if b == nil || done[b] || b.Limits == nil || !b.Limits.Set["sandbox"] || b.Limits.SandboxMode != "off" {
			continue
		}
		done[b] = true
		rng := b.Limits.Ranges["sandbox"]
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Required sandbox dropped for a bot",
			Detail: fmt.Sprintf("Tournament %q requires the sandbox (%s), but bot %q says sandbox = false, which overrides it: %s runs outside the sandbox, in the machine's world. "+
				"The tournament's requirement still makes run refuse a machine without the sandbox. Leave sandbox = false out of bot %q to run it in the sandbox.",
				t.Name, where.String(), b.Name, b.Name, b.Name),
			Subject: &rng})
	}
	return diags
}

// requiredLimits decodes the required attribute of a limits block, a
// list of limit names; bad hears of every problem.
func requiredLimits(v cty.Value, bad func(detail string)) ([]string, bool) {
	var names []string
	lv, err := convert.Convert(v, cty.List(cty.String))
	if err == nil {
		err = gocty.FromCtyValue(lv, &names)
	}
	if err != nil {
		bad(fmt.Sprintf("required must be a list of limit names, like [\"memory\", \"network\"]; names: %s.", strings.Join(drivers.LimitNames, ", ")))
		return nil, false
	}
	ok := true
	for _, n := range names {
		if !contains(drivers.LimitNames, n) {
			bad(fmt.Sprintf("%q is not a limit%s. Limits: %s.", n, suggest(n, drivers.LimitNames), strings.Join(drivers.LimitNames, ", ")))
			ok = false
		}
	}
	return names, ok
}

// sandboxMode reads the sandbox attribute: true, false or "required".
func sandboxMode(v cty.Value) (string, bool) {
	var b bool
	if err := gocty.FromCtyValue(toBool(v), &b); err == nil {
		if b {
			return "on", true
		}
		return "off", true
	}
	var s string
	if err := gocty.FromCtyValue(v, &s); err == nil && s == "required" {
		return s, true
	}
	return "", false
}

// BotLimits are the limits bot plays under in tournament t: its game's
// default limits (unless sandbox = false), then the tournament's limits
// block, overridden attribute by attribute by the bot's; the required
// lists of all count. In the sandbox (the default), the limits also say
// what the bot's command needs there (drivers.ResolveSandbox).
func BotLimits(t *Tournament, bot *Bot) drivers.Limits {
	mode := "on"
	for _, l := range []*Limits{t.Limits, bot.Limits} {
		if l != nil && l.Set["sandbox"] {
			mode = l.SandboxMode
		}
	}
	var out drivers.Limits
	if d, ok := gameOf(t).(drivers.DefaultLimiter); ok && mode != "off" {
		out = d.DefaultLimits()
	}
	mergeLimits(&out, t, bot)
	if mode == "off" {
		return out
	}
	sb := drivers.Sandbox{}
	if bot.House == "" && len(bot.Command) > 0 {
		env := make([]string, 0, len(bot.Env))
		for k, v := range bot.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		if bot.Submitted {
			sb = drivers.ResolveSubmitted(bot.Command, bot.Dir, env)
		} else {
			sb = drivers.ResolveSandbox(bot.Command, bot.Dir, env)
		}
	}
	sb.Submitted = bot.Submitted
	out.Sandbox = &sb
	if mode == "required" && !contains(out.Required, drivers.LimitSandbox) {
		out.Required = append(out.Required, drivers.LimitSandbox)
	}
	return out
}

func gameOf(t *Tournament) any {
	if t.Game == nil {
		return nil
	}
	return t.Game.Game
}

// mergeLimits sets on out what the tournament's and the bot's limits
// blocks set, in that order.
func mergeLimits(out *drivers.Limits, t *Tournament, bot *Bot) {
	for _, l := range []*Limits{t.Limits, bot.Limits} {
		if l == nil {
			continue
		}
		for name := range l.Set {
			switch name {
			case "memory":
				out.Memory = l.Memory
			case "cpu":
				out.CPU = l.CPU
			case "processes":
				out.Processes = l.Processes
			case "network":
				out.Network = l.Network
			case "files":
				out.Files = l.Files
			case "file_count":
				out.FileCount = l.FileCount
			case "output":
				out.Output = l.Output
			case "children":
				out.Children = l.Children
			}
		}
		for _, r := range l.Required {
			if !contains(out.Required, r) {
				out.Required = append(out.Required, r)
			}
		}
	}
}
