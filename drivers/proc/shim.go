package proc

import "github.com/arbiter-contests/arbiter/drivers/proc/shim"

// The shim (package shim) is this executable re-run between fork and the
// bot's exec; Prepare writes its configuration.
type (
	shimConfig = shim.Config
	rlimit     = shim.Rlimit
)

const (
	shimEnv      = shim.Env
	shimProbeEnv = shim.ProbeEnv
	// shimFailed is the shim's exit status when it cannot confine the
	// bot; Box.Explain turns it into a start fault.
	shimFailed  = shim.Failed
	seccompArch = shim.SeccompArch
)
