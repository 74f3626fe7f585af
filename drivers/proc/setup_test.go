package proc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A start that fails in arbiter's own part of it is arbiter's error,
// never the bot's fault: under a memory cgroup of 400 bytes, which the
// bot's process joins before arbiter has dropped its privileges, the
// setting up fails for want of memory. Its report reaches arbiter (the
// report itself needs no memory of the bot's cgroup) as a *SetupError
// that names the bot and the limit; before, the child's exit looked like
// the bot's, a crash at its first command.
func TestSetupFailureIsArbiters(t *testing.T) {
	m := Machine()
	if how := m.Enforcement(drivers.LimitMemory).How; !strings.Contains(how, "cgroup") {
		t.Skipf("memory is not a cgroup's here (%s): a bot's setting up is not charged to its limit", how)
	}
	if !m.Seccomp {
		t.Skip("no seccomp here")
	}
	if !spawnArch || !mountSetattrWorks() {
		t.Skip("bots start through the shim here, whose own start a tiny limit kills")
	}
	check := func(t *testing.T, err error) {
		t.Helper()
		var se *SetupError
		var f *Fault
		switch {
		case !errors.As(err, &se) || errors.As(err, &f):
			t.Fatalf("error %T %v, want a *SetupError and no fault", err, err)
		case !errors.Is(err, unix.ENOMEM):
			t.Errorf("error %v, want it to wrap ENOMEM", err)
		case !strings.Contains(err.Error(), "bot tiny: arbiter could not set up the bot's limits") ||
			!strings.Contains(err.Error(), "under its memory limit of 400B") || !strings.Contains(err.Error(), "the smallest limit is 1MiB"):
			t.Errorf("error %q, want it to name the bot, its limit and the smallest limit", err)
		}
	}
	for _, sandboxed := range []bool{false, true} {
		if sandboxed && !m.Sandbox {
			continue
		}
		// Without the sandbox, the seccomp filter that refuses the
		// network is what arbiter sets up after the bot joined its
		// cgroup.
		no := false
		lim := drivers.Limits{Memory: 400, Network: &no}
		name := "plain"
		if sandboxed {
			lim.Sandbox, name = &drivers.Sandbox{}, "sandboxed"
		}
		t.Run(name+"/session", func(t *testing.T) {
			spec := botSpec(t, "echo", drivers.Clock{})
			spec.Bot, spec.Limits = "tiny", lim
			s, err := Start(context.Background(), spec)
			if err == nil {
				s.Kill()
			}
			check(t, err)
		})
		t.Run(name+"/once", func(t *testing.T) {
			spec, _ := onceSpec(t, "line")
			spec.Bot, spec.Limits, spec.Timeout = "tiny", lim, 5*time.Second
			r, err := RunOnce(context.Background(), spec)
			if r.Fault != nil {
				t.Fatalf("fault %v, want none", r.Fault)
			}
			check(t, err)
		})
	}
}
