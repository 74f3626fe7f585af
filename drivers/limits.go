package drivers

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
	// Required names limits that must be enforced: a run refuses to
	// start when the machine cannot enforce one of them.
	Required []string `json:"required,omitempty"`
}

// Limit names, as in the configuration's limits block and in Required.
const (
	LimitMemory    = "memory"
	LimitCPU       = "cpu"
	LimitProcesses = "processes"
	LimitNetwork   = "network"
	LimitFiles     = "files"
	LimitOutput    = "output"
)

// LimitNames lists the limits that can be required, in the order
// `arbiter doctor` reports them.
var LimitNames = []string{LimitMemory, LimitCPU, LimitProcesses, LimitNetwork, LimitFiles, LimitOutput}

// NoNetwork reports whether the limits forbid the network.
func (l Limits) NoNetwork() bool { return l.Network != nil && !*l.Network }

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool {
	return l.Memory == 0 && l.CPU == "" && l.Processes == 0 && l.Network == nil &&
		l.Files == 0 && l.FileCount == 0 && l.Output == 0 && len(l.Required) == 0
}
