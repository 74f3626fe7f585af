package drivers

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Limits are what a bot process may use, beside its clock. Zero values mean
// "no limit". The plan records them per bot; drivers hand them to
// drivers/proc, which enforces them with the strongest mechanism the
// machine offers (see proc.Probe).
type Limits struct {
	// Memory caps the bot's memory (all its processes), in bytes.
	Memory int64 `json:"memory,omitempty"`
	// CPU caps the CPU time of each of the bot's processes over a whole
	// match: a duration ("30s"), or "match" for the match's total clock.
	CPU string `json:"cpu,omitempty"`
	// Processes caps the tasks (processes and threads) the bot may have
	// at once, itself included.
	Processes int `json:"processes,omitempty"`
	// Network false forbids every network access; nil allows it.
	Network *bool `json:"network,omitempty"`
	// Files caps, in bytes, a private writable folder the bot gets
	// ($ARBITER_FILES, also $TMPDIR); with it set the bot may
	// write nowhere else.
	Files int64 `json:"files,omitempty"`
	// FileCount caps the number of files and folders in that folder.
	FileCount int `json:"file_count,omitempty"`
	// Output caps what the bot may write to stdout for one answer, in
	// bytes (default 1 MiB for a session's answer; a per-move run keeps the
	// game's own cap when it is smaller).
	Output int64 `json:"output,omitempty"`
	// Children false forbids the bot to start other processes (threads
	// stay allowed): Auction's "no starting of other programs".
	Children *bool `json:"children,omitempty"`
	// Sandbox, when set, runs the bot in a world of its own (see
	// drivers/proc): a root holding only the system's folders, what its
	// command needs and its own folders; an unprivileged uid; namespaces
	// of its own. Nil runs it in the machine's world.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Required names limits that must be enforced: a run refuses to
	// start when the machine cannot enforce one of them.
	Required []string `json:"required,omitempty"`
}

// Sandbox is what a sandboxed bot's command needs beside the system's
// folders (/usr, /lib*, /bin, /sbin, /etc without its secrets), its own
// dir and its working folder, resolved when the plan is made.
type Sandbox struct {
	// Program is the file the command runs, when it is not what a PATH
	// lookup finds: the interpreter a version manager's shim (pyenv's
	// python3) would run. "" runs the command as written.
	Program string `json:"program,omitempty"`
	// Read are host files and folders the bot may read (and execute),
	// bound read-only at the same path: its interpreter's installation,
	// an absolute path in its command.
	Read []string `json:"read,omitempty"`
	// Submitted marks a command that came with the bot's submission (a
	// bots_from player folder's info.txt), not from the organiser's
	// configuration. Such a command shows the bot nothing outside its
	// folder but the system's folders and the interpreters that the
	// organiser's PATH finds: not the files its arguments name, nor a
	// program, "#!" interpreter or symbolic link of its folder that leads
	// elsewhere, which would let a player read another's folder.
	Submitted bool `json:"submitted,omitempty"`
}

// DefaultLimiter is an optional capability of a Game: the limits its
// contest's rules give every bot (Planowanie's 400 MB, Auction's 100 MB
// and no other programs). A tournament without its own limits runs its
// bots under them, in the sandbox.
type DefaultLimiter interface {
	DefaultLimits() Limits
}

// MinMemory is the smallest memory limit, 1 MiB. From the moment a
// confined bot's process joins its memory cgroup, what arbiter still does
// for it before its exec (its credentials, its seccomp filter, its root)
// is charged to that cgroup: below about 32 KiB those steps fail, and the
// smallest C program, dynamically linked, needs about 200 KiB to start
// and answer (docs/sandbox.md). A limit under 1 MiB leaves a bot no room
// to do anything, so it is refused where it is written, not found out
// match by match.
const MinMemory = 1 << 20

// MinOutput is the smallest output limit, 2 B: the shortest answer of
// any game's protocol is one character and its line end (a bid of "0", a
// Bricks "OK" is longer), so under 2 B every bot faults on its first.
const MinOutput = 2

// MinCPU is the smallest cpu limit a configuration may set, 1s. The
// kernel enforces a process's CPU time limit (RLIMIT_CPU) in whole
// seconds, so a shorter one is enforced as a second all the same; a
// limit of a fraction of a second is a mistake for a duration of another
// unit ("100ms" meant as "100s"). A saved plan with a shorter one (an
// earlier arbiter compiled it) is not refused: its bots run under 1s,
// with a warning (CPUWarning), and a fault at the limit says so.
const MinCPU = time.Second

// OutputWarning is the output limit under which validate warns, 64 B: an
// answer is a line of the game's protocol with its line end (and, in
// the GTP-like games, the "= " before it and the empty line after it), a
// move, a bid, a card, a placement, the bot's name. A Bricks move of 8
// bytes fits a limit of 16 B, so a smaller limit is no error, but it is
// likely a mistake for a game with longer answers.
const OutputWarning = 64

// FilesWarning is the files limit under which validate warns, 4 KiB.
// The bot's folder is a tmpfs that counts what it holds in pages of
// 4 KiB: under a page, the first byte a bot writes to a file puts it
// over its limit, but a bot that writes no file runs.
const FilesWarning = 4 << 10

// LimitProblem is what is wrong with one limit: its name (as in a limits
// block) and a sentence that says how to fix it.
type LimitProblem struct{ Limit, Detail string }

// Problems lists what keeps l from being limits a bot can run under: a
// memory limit below MinMemory, an output limit below MinOutput, a size
// or count below zero, a cpu limit that is neither "match" nor a
// positive duration, a required limit that does not exist. The configuration reports them at its limits blocks'
// attributes, and a saved plan's check for each of its bots: one rule
// for both.
func (l Limits) Problems() []LimitProblem {
	var out []LimitProblem
	add := func(limit, format string, args ...any) {
		out = append(out, LimitProblem{limit, fmt.Sprintf(format, args...)})
	}
	switch {
	case l.Memory < 0:
		add(LimitMemory, "memory is %d bytes, below 0: leave memory out for no limit", l.Memory)
	case l.Memory > 0 && l.Memory < MinMemory:
		add(LimitMemory, "memory is %s, but the smallest memory limit is %s: what arbiter does to start a confined bot is charged to the bot's memory, and the smallest C bot needs about 200 KiB to start (see docs/sandbox.md)",
			FormatSize(l.Memory), FormatSize(MinMemory))
	}
	for _, c := range []struct {
		name string
		n    int64
	}{{LimitProcesses, int64(l.Processes)}, {LimitFiles, l.Files}, {"file_count", int64(l.FileCount)}, {LimitOutput, l.Output}} {
		if c.n < 0 {
			add(c.name, "%s is %d, below 0: leave %s out for no limit", c.name, c.n, c.name)
		}
	}
	if l.Output > 0 && l.Output < MinOutput {
		add(LimitOutput, "output is %s, but the smallest output limit is %s: the shortest answer of any game is one character and its line end, so every bot would fault on its first",
			FormatSize(l.Output), FormatSize(MinOutput))
	}
	if l.CPU != "" && l.CPU != "match" {
		if d, err := time.ParseDuration(l.CPU); err != nil || d <= 0 {
			add(LimitCPU, "cpu must be \"match\" (the match's total clock) or a positive duration like \"30s\", not %q", l.CPU)
		}
	}
	for _, r := range l.Required {
		if !slices.Contains(LimitNames, r) {
			add("required", "%q is not a limit; limits: %s", r, strings.Join(LimitNames, ", "))
		}
	}
	return out
}

// ConfigProblems is Problems and a cpu limit under MinCPU: what a
// configuration may not set, though a saved plan may have it
// (CPUWarning).
func (l Limits) ConfigProblems() []LimitProblem {
	out := l.Problems()
	if d, ok := l.subSecondCPU(); ok {
		out = append(out, LimitProblem{LimitCPU, fmt.Sprintf("the cpu limit is %q, but the smallest is %s of CPU time per process (a duration: \"1s\", \"30s\", \"2m\"): the kernel enforces it in whole seconds, so %v would be enforced as %s (see docs/sandbox.md)", l.CPU, MinCPU, d, MinCPU)})
	}
	return out
}

// CPUWarning is what a saved plan's cpu limit under MinCPU is warned of,
// as its bots run: that it is enforced as MinCPU. "" for another limit.
func (l Limits) CPUWarning() string {
	if _, ok := l.subSecondCPU(); !ok {
		return ""
	}
	return fmt.Sprintf("the cpu limit is %q, under %s: the kernel enforces it in whole seconds, so it is enforced as %s (a configuration may no longer set it: see docs/sandbox.md)", l.CPU, MinCPU, MinCPU)
}

// subSecondCPU is the cpu limit when it is a positive duration under
// MinCPU.
func (l Limits) subSecondCPU() (time.Duration, bool) {
	d, err := time.ParseDuration(l.CPU)
	return d, l.CPU != "match" && err == nil && d > 0 && d < MinCPU
}

// Warnings lists the limits of l that some bots can run under but
// likely not all: an output limit below OutputWarning, a files limit
// below FilesWarning. validate warns of them at their attributes; a saved
// plan is not refused for them (its bots may well have run under them).
func (l Limits) Warnings() []LimitProblem {
	var out []LimitProblem
	if l.Output >= MinOutput && l.Output < OutputWarning {
		out = append(out, LimitProblem{LimitOutput, fmt.Sprintf("output is %s, under %s: an answer is a line of the game's protocol with its line end (a move, a bid, a card, a placement, the bot's name, and in the GTP-like games \"= \" before it and an empty line after it), so a bot whose answer is longer faults on it; a Bricks move (8 bytes) fits",
			FormatSize(l.Output), FormatSize(OutputWarning))})
	}
	if l.Files > 0 && l.Files < FilesWarning {
		out = append(out, LimitProblem{LimitFiles, fmt.Sprintf("files is %s, under %s: the bot's folder counts what it holds in pages of %s, so the first byte a bot writes to a file puts it over; only a bot that writes no file runs under it",
			FormatSize(l.Files), FormatSize(FilesWarning), FormatSize(FilesWarning))})
	}
	return out
}

// Limit names, as in the configuration's limits block and in Required.
const (
	LimitMemory    = "memory"
	LimitCPU       = "cpu"
	LimitProcesses = "processes"
	LimitNetwork   = "network"
	LimitFiles     = "files"
	LimitOutput    = "output"
	LimitChildren  = "children"
	// LimitSandbox is the sandbox as a whole (Limits.Sandbox).
	LimitSandbox = "sandbox"
)

// LimitNames lists the limits that can be required, in the order
// `arbiter doctor` reports them.
var LimitNames = []string{LimitMemory, LimitCPU, LimitProcesses, LimitNetwork, LimitFiles, LimitOutput, LimitChildren, LimitSandbox}

// NoNetwork reports whether the limits forbid the network.
func (l Limits) NoNetwork() bool { return l.Network != nil && !*l.Network }

// NoChildren reports whether the limits forbid starting other processes.
func (l Limits) NoChildren() bool { return l.Children != nil && !*l.Children }

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool {
	return l.Memory == 0 && l.CPU == "" && l.Processes == 0 && l.Network == nil &&
		l.Files == 0 && l.FileCount == 0 && l.Output == 0 && l.Children == nil && l.Sandbox == nil && len(l.Required) == 0
}

// UnstatedLimits are the default limits of a game whose contest's rules
// state none (Bricks, Blokus, Euchre): Planowanie's 400 MiB, room for the
// threads of a JVM or Go runtime, no network, CPU time within the clock.
func UnstatedLimits() Limits {
	no := false
	return Limits{Memory: 400 << 20, CPU: "match", Processes: 64, Network: &no}
}
