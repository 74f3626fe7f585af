package proc

import (
	"os"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
)

// passedEnv are the variables of arbiter's own environment that a
// sandboxed bot gets (besides LC_*): what finding programs and reading
// text need. Anything else there (tokens, credentials, the organiser's
// paths) is the organiser's, not the bot's; a bot that needs a variable
// is given it by its configuration's env.
var passedEnv = map[string]bool{"PATH": true, "LANG": true, "LANGUAGE": true, "TZ": true, "JAVA_HOME": true, "LD_LIBRARY_PATH": true}

// HostEnviron is the part of arbiter's environment that a bot under lim
// starts with, before the bot's own variables: all of it for a bot
// outside the sandbox; for a sandboxed one only passedEnv and LC_*, and
// HOME is the sandbox's private /tmp. On a machine without the sandbox
// (arbiter doctor) a bot runs as arbiter's own user and could read
// arbiter's environment in /proc anyway: it gets all of it, as its
// toolchain (environment modules, a version manager) may need.
func HostEnviron(lim drivers.Limits) []string {
	if lim.Sandbox == nil || !Machine().Sandbox {
		return os.Environ()
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if passedEnv[k] || strings.HasPrefix(k, "LC_") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME=/tmp")
}
