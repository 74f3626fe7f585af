package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

func TestProbeReport(t *testing.T) {
	p := Machine()
	for _, f := range p.Facts() {
		t.Logf("%-24s %s", f[0], f[1])
	}
	for _, e := range p.Enforcements() {
		t.Logf("%-10s %v %s", e.Limit, e.Enforced, e.How)
	}
	t.Logf("sandbox_failed %v", p.SandboxFailed)
}

// TestUnenforceable: on a machine without cgroups, namespaces, seccomp or
// Landlock, as root, only the limits arbiter can keep by itself or with
// rlimits are enforceable; the others are returned, in the order asked.
func TestUnenforceable(t *testing.T) {
	bare := &Probe{Root: true, Why: map[string]string{}}
	var got []string
	for _, e := range bare.Unenforceable([]string{"output", "network", "memory", "files", "cpu", "processes"}) {
		if e.Enforced || e.How == "" {
			t.Errorf("%s: enforced %v, how %q", e.Limit, e.Enforced, e.How)
		}
		got = append(got, e.Limit)
	}
	if want := "network files processes"; strings.Join(got, " ") != want {
		t.Errorf("Unenforceable = %v, want %s", got, want)
	}
	withAll := &Probe{CgroupV2: "/sys/fs/cgroup/x", NetNS: true, Landlock: 3, Seccomp: true, Sandbox: true, Why: map[string]string{}}
	if u := withAll.Unenforceable(drivers.LimitNames); len(u) != 0 {
		t.Errorf("with cgroup v2, a network namespace, Landlock, seccomp and the sandbox: Unenforceable = %v", u)
	}
}

// TestSandboxFailureRefuses: where the machine has what the sandbox needs
// but the probe could not start a process in it, a bot whose limits ask
// for the sandbox is not started outside it (before, it ran as arbiter's
// uid in the machine's file system, with one warning); a bot whose limits
// say sandbox = false still starts, and so does every bot on a machine
// without the sandbox's mechanisms.
func TestSandboxFailureRefuses(t *testing.T) {
	failed := &Probe{Root: true, SandboxFailed: true, Why: map[string]string{"sandbox": "starting a process in it failed: permission denied"}}
	missing := &Probe{Root: true, Why: map[string]string{"sandbox": "it needs mount, PID and network namespaces"}}
	for _, c := range []struct {
		name    string
		p       *Probe
		sandbox *drivers.Sandbox
		refused bool
	}{
		{"failed/sandboxed", failed, &drivers.Sandbox{}, true},
		{"failed/sandbox=false", failed, nil, false},
		{"missing/sandboxed", missing, &drivers.Sandbox{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command("/bin/true")
			b, err := prepareWith(c.p, cmd, drivers.Limits{Sandbox: c.sandbox}, drivers.Clock{}, "", 0, nil)
			if b != nil {
				b.Close()
			}
			refused := err != nil && strings.Contains(err.Error(), "the sandbox could not be entered, although this machine has what it needs: "+c.p.Why["sandbox"])
			if refused != c.refused || err != nil && !refused {
				t.Errorf("prepare: %v, want refused %v", err, c.refused)
			}
		})
	}
}

// TestProbeNamesUnrunnableExecutable: as root, an arbiter built under
// umask 077 (mode 0700) cannot be run by the sandbox's uid; the probe
// says so, naming the file and its mode, and the sandbox counts as
// failed, not missing.
func TestProbeNamesUnrunnableExecutable(t *testing.T) {
	if p := Machine(); !p.Sandbox || !p.Root {
		t.Skip("needs the sandbox as root")
	}
	dir := t.TempDir()
	readable(t, dir)
	exe := filepath.Join(dir, "arbiter")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(exe, 0o700); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(exe, "-test.run", "^TestProbeReport$", "-test.v", "-test.count", "1").CombinedOutput()
	want := fmt.Sprintf("arbiter's executable %s is mode 0700: uid 65534, the sandbox's, may not run it", exe)
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "sandbox_failed true") {
		t.Errorf("the probe of an arbiter of mode 0700 does not say %q and sandbox_failed true:\n%s", want, out)
	}
}

// TestMachineFromParent: a process given its parent's probe in
// MachineEnv (a run's worker) uses it without probing, and takes the
// variable out of its environment, which its bots outside the sandbox
// inherit.
func TestMachineFromParent(t *testing.T) {
	saved := Machine()
	defer func() { machine = saved }()
	parent := &Probe{UID: 4242, Root: true, SandboxFailed: true, CgroupV1: map[string]string{},
		Why: map[string]string{"sandbox": "the parent's marker"}}
	t.Setenv(MachineEnv, strings.TrimPrefix(MachineEnviron(parent), MachineEnv+"="))
	starts := 0
	testHookProbeStart = func() error { starts++; return nil }
	defer func() { testHookProbeStart = nil }()
	machineOnce = sync.Once{}
	p := Machine()
	if p.UID != 4242 || !p.SandboxFailed || p.Why["sandbox"] != "the parent's marker" || starts != 0 {
		t.Errorf("Machine() = %+v after %d probe starts, want the parent's probe and none", p, starts)
	}
	if v, ok := os.LookupEnv(MachineEnv); ok {
		t.Errorf("%s=%s is still in the environment", MachineEnv, v)
	}
}

// TestMachineFromParentUnreadable: a process whose MachineEnv is not a
// probe probes the machine itself.
func TestMachineFromParentUnreadable(t *testing.T) {
	t.Setenv(MachineEnv, "{not json")
	if p, ok := machineFromEnv(); ok || p != nil {
		t.Errorf("machineFromEnv of %q = %+v, %v; want nothing", "{not json", p, ok)
	}
}

// TestProbeRetriesTransientStart: a start of the probe's process that
// fails for want of resources (EAGAIN from clone on a loaded machine) is
// tried again, and the probe finds what it finds without the failures;
// when every try fails so, the sandbox is failed, not missing: bots that
// ask for it are not started outside it. A start the kernel does not
// allow (EPERM) is a machine without the namespace, as before.
func TestProbeRetriesTransientStart(t *testing.T) {
	real := Machine()
	t.Setenv(DisableEnv, "cgroup")
	defer func(b []time.Duration) { probeBackoff = b; testHookProbeStart = nil }(probeBackoff)
	probeBackoff = []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}
	startFails := func(errno syscall.Errno, times int) *int {
		n := 0
		testHookProbeStart = func() error {
			n++
			if times < 0 || n <= times {
				return &os.PathError{Op: "fork/exec", Path: "/proc/self/exe", Err: errno}
			}
			return nil
		}
		return &n
	}
	n := startFails(syscall.EAGAIN, 2)
	p := probe()
	if *n <= 2 || p.Sandbox != real.Sandbox || p.SandboxFailed != real.SandboxFailed || p.NetNS != real.NetNS || p.MountNS != real.MountNS || p.PIDNS != real.PIDNS {
		t.Errorf("after %d starts, 2 failed with EAGAIN: %+v, want as Machine(): %+v", *n, p, real)
	}
	startFails(syscall.EAGAIN, -1)
	p = probe()
	if (real.Sandbox || real.SandboxFailed) && (p.Sandbox || !p.SandboxFailed || !strings.Contains(p.Why["sandbox"], "resource temporarily unavailable")) {
		t.Errorf("every start failing with EAGAIN: sandbox %v, sandbox_failed %v (%s); want failed", p.Sandbox, p.SandboxFailed, p.Why["sandbox"])
	}
	if err := p.SandboxFailure(); (real.Sandbox || real.SandboxFailed) && err == nil {
		t.Errorf("every start failing with EAGAIN: SandboxFailure() = nil")
	}
	startFails(syscall.EPERM, -1)
	p = probe()
	if p.Sandbox || p.SandboxFailed || p.NetNS || p.PIDNS || p.MountNS {
		t.Errorf("every start refused with EPERM: %+v, want a machine without namespaces nor the sandbox", p)
	}
}

// TestSandboxWithoutCgroups: what doctor says a bot can do without
// cgroups follows the machine: as a user who is not root, with user and
// PID namespaces, processes are RLIMIT_NPROC's and die with the PID
// namespace (it said "not counted as root" and "found by token" to every
// user); root's are not counted; without a user namespace a user's are
// not counted either, and are found by token.
func TestSandboxWithoutCgroups(t *testing.T) {
	for _, c := range []struct {
		p         Probe
		want, not []string
	}{
		{Probe{UserNS: true, PIDNS: true}, []string{"RLIMIT_NPROC in a user namespace", "die with its PID namespace"}, []string{"processes are not counted", "token"}},
		{Probe{Root: true, PIDNS: true}, []string{"root is exempt", "die with its PID namespace"}, []string{"token"}},
		{Probe{}, []string{"not counted (RLIMIT_NPROC needs a user namespace)", "found by token"}, []string{"PID namespace"}},
	} {
		without := ""
		for _, m := range c.p.SandboxMechanisms() {
			if strings.HasPrefix(m.Name, "cgroups") {
				without = m.Without
			}
		}
		for _, w := range c.want {
			if !strings.Contains(without, w) {
				t.Errorf("root %v, user namespace %v, PID namespace %v: without cgroups %q, want it to say %q", c.p.Root, c.p.UserNS, c.p.PIDNS, without, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(without, w) {
				t.Errorf("root %v, user namespace %v, PID namespace %v: without cgroups %q, should not say %q", c.p.Root, c.p.UserNS, c.p.PIDNS, without, w)
			}
		}
	}
}
