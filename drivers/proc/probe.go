package proc

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Probe is what this machine offers for confining bots, found once per
// process by Machine. Each field that is unavailable has its reason in Why.
//
// Its JSON (arbiter doctor -json, docs/sandbox.md) names the fields in
// snake case, as every other JSON arbiter writes.
type Probe struct {
	UID  int  `json:"uid"`
	Root bool `json:"root"`
	// CapEff is the effective capability mask; CapNames the relevant ones.
	CapEff   uint64   `json:"cap_eff"`
	CapNames []string `json:"cap_names"`

	// CgroupV2 is the cgroup v2 folder bots' cgroups are made in, with
	// the memory and pids controllers enabled; "" if unusable.
	CgroupV2 string `json:"cgroup_v2"`
	// CgroupV1 maps a v1 controller ("memory", "pids") to the folder bots'
	// cgroups are made in; missing when unusable.
	CgroupV1 map[string]string `json:"cgroup_v1"`

	UserNS  bool `json:"user_ns"`
	NetNS   bool `json:"net_ns"`
	MountNS bool `json:"mount_ns"`
	PIDNS   bool `json:"pid_ns"`
	// Landlock is the Landlock ABI version, 0 when unavailable.
	Landlock int `json:"landlock"`
	// Seccomp reports whether seccomp filters can be installed.
	Seccomp bool `json:"seccomp"`
	// Sandbox reports whether bots can run in the default sandbox (see
	// sandbox.go): tried for real, by starting this executable in one.
	Sandbox bool `json:"sandbox"`
	// SandboxFailed reports that this machine has every mechanism the
	// sandbox needs but the probe's start in it failed (Why["sandbox"]
	// says how): a fault to put right, not a machine without the
	// sandbox, so a bot whose limits ask for the sandbox is not started
	// outside it (SandboxFailure).
	SandboxFailed bool `json:"sandbox_failed"`

	// Why holds, per fact above ("cgroup v2", "cgroup v1 memory",
	// "user namespace", ...), why it is unavailable.
	Why map[string]string `json:"why"`
}

// DisableEnv names mechanisms the probe must treat as unavailable, comma
// separated: cgroup, userns, netns, mountns, pidns, landlock, seccomp,
// sandbox. It
// shows what a run would do on a machine without them, and tests the
// fallbacks.
const DisableEnv = "ARBITER_PROBE_DISABLE"

var (
	machineOnce sync.Once
	machine     *Probe
)

// MachineEnv holds, in a process a run starts to play its matches (`arbiter
// worker`), the run's own probe as JSON (MachineEnviron): the worker uses
// it instead of probing again, so that every match of a run is confined
// as the run found and logged. A probe of its own could differ (a start
// that failed on a loaded machine) and run bots bare that the run
// sandboxes.
const MachineEnv = "ARBITER_MACHINE"

// MachineEnviron is the MachineEnv variable ("NAME=value") that gives a
// process started by this one the probe p.
func MachineEnviron(p *Probe) string {
	b, err := json.Marshal(p)
	if err != nil { // a Probe is plain data
		panic(err)
	}
	return MachineEnv + "=" + string(b)
}

// Machine probes the machine once and returns what it found. Probing
// starts a few short processes (this executable, in shim probe mode) to
// try each namespace for real. A process given its parent's probe in
// MachineEnv takes that instead, and takes the variable out of its
// environment; one whose MachineEnv cannot be read probes.
func Machine() *Probe {
	machineOnce.Do(func() {
		if p, ok := machineFromEnv(); ok {
			machine = p
			return
		}
		machine = probe()
	})
	return machine
}

// machineFromEnv is the probe MachineEnv holds, if it holds one.
func machineFromEnv() (*Probe, bool) {
	v, ok := os.LookupEnv(MachineEnv)
	if !ok {
		return nil, false
	}
	os.Unsetenv(MachineEnv)
	var p Probe
	if err := json.Unmarshal([]byte(v), &p); err != nil || p.Why == nil {
		return nil, false
	}
	if p.CgroupV1 == nil {
		p.CgroupV1 = map[string]string{}
	}
	return &p, true
}

func probe() *Probe {
	p := &Probe{UID: os.Getuid(), CgroupV1: map[string]string{}, Why: map[string]string{}}
	p.Root = p.UID == 0
	p.CapEff = capEff()
	for _, c := range []struct {
		bit  uint
		name string
	}{{unix.CAP_SYS_ADMIN, "CAP_SYS_ADMIN"}, {unix.CAP_SETUID, "CAP_SETUID"}, {unix.CAP_SETPCAP, "CAP_SETPCAP"},
		{unix.CAP_SYS_RESOURCE, "CAP_SYS_RESOURCE"}, {unix.CAP_KILL, "CAP_KILL"}, {unix.CAP_DAC_OVERRIDE, "CAP_DAC_OVERRIDE"}} {
		if p.CapEff&(1<<c.bit) != 0 {
			p.CapNames = append(p.CapNames, c.name)
		}
	}
	disabled := map[string]bool{}
	for _, d := range strings.Split(os.Getenv(DisableEnv), ",") {
		disabled[strings.TrimSpace(d)] = true
	}
	const off = "disabled by " + DisableEnv
	if disabled["cgroup"] {
		p.Why["cgroup v2"] = off
		for _, c := range v1Controllers {
			p.Why["cgroup v1 "+c] = off
		}
	} else {
		probeCgroups(p)
	}
	faults := probeNamespaces(p)
	for _, ns := range []struct {
		key, name string
		ok        *bool
	}{{"userns", "user namespace", &p.UserNS}, {"netns", "network namespace", &p.NetNS},
		{"mountns", "mount namespace", &p.MountNS}, {"pidns", "PID namespace", &p.PIDNS}} {
		if disabled[ns.key] || disabled["userns"] && !p.Root {
			*ns.ok = false
			p.Why[ns.name] = off
			delete(faults, ns.name)
		}
	}

	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if disabled["landlock"] {
		p.Why["landlock"] = off
	} else if errno == 0 {
		p.Landlock = int(abi)
	} else {
		p.Why["landlock"] = "landlock_create_ruleset: " + errno.Error()
	}
	if disabled["seccomp"] {
		p.Why["seccomp"] = off
	} else if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err == nil {
		p.Seccomp = seccompArch != 0
		if !p.Seccomp {
			p.Why["seccomp"] = "no filter for this architecture"
		}
	} else {
		p.Why["seccomp"] = "prctl(PR_GET_SECCOMP): " + err.Error()
	}
	probeSandbox(p, disabled["sandbox"], faults)
	return p
}

// probeSandbox starts this executable in the default sandbox, as a bot
// would be started, and records whether it got there. faults are the
// namespaces whose probe failed otherwise than by the machine's refusal
// (probeNamespaces): without one the sandbox is failed, not missing.
func probeSandbox(p *Probe, disabled bool, faults map[string]bool) {
	needed := []string{"mount namespace", "PID namespace", "network namespace"}
	lacking, failed := false, false
	for i, ok := range []bool{p.MountNS, p.PIDNS, p.NetNS} {
		lacking = lacking || !ok && !faults[needed[i]]
		failed = failed || !ok && faults[needed[i]]
	}
	switch {
	case disabled:
		p.Why["sandbox"] = "disabled by " + DisableEnv
		return
	case lacking:
		p.Why["sandbox"] = "it needs mount, PID and network namespaces (" + p.why(needed...) + ")"
		return
	case !p.Seccomp:
		p.Why["sandbox"] = "it needs seccomp (" + p.Why["seccomp"] + ")"
		return
	case failed:
		p.SandboxFailed = true
		p.Why["sandbox"] = "starting a process in its namespaces failed (" + p.why(needed...) + ")"
		return
	}
	if err := retryProbe(func() error { return trySandbox(p) }); err != nil {
		p.Sandbox, p.SandboxFailed = false, true
		exe, _ := os.Executable()
		p.Why["sandbox"] = fmt.Sprintf("starting a process in it failed: %v%s", err, unreachableExe(p, exe))
	}
}

// trySandbox starts this executable in the default sandbox once.
func trySandbox(p *Probe) error {
	cmd, err := ownCommand()
	if err != nil {
		return fmt.Errorf("cannot find this executable: %w", err)
	}
	cmd.Env = []string{shimProbeEnv + "=ns"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	p.Sandbox = true // so that prepareWith lays out a sandbox
	b, err := prepareWith(p, cmd, drivers.Limits{Sandbox: &drivers.Sandbox{}}, drivers.Clock{}, "", 0, nil)
	if err == nil {
		err = runProbe(cmd)
		b.Close()
	}
	if err != nil {
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out.String()), "arbiter shim: "))
		return fmt.Errorf("%w %s", err, msg)
	}
	return nil
}

// unreachableExe says, as root, when arbiter's own executable (what the
// probe starts in the sandbox, and what house bots run) is not one the
// sandbox's uid may run: a binary built under umask 077 is mode 0700.
func unreachableExe(p *Probe, exe string) string {
	fi, err := os.Stat(exe)
	if !p.Root || err != nil || fi.Mode().Perm()&0o001 != 0 {
		return ""
	}
	return fmt.Sprintf(" (arbiter's executable %s is mode %04o: uid %d, the sandbox's, may not run it; chmod 755 it, or build it under umask 022)",
		exe, fi.Mode().Perm(), SandboxUID)
}

// SandboxFailure is the error of a bot start that asks for the sandbox
// on a machine where it is a fault that the sandbox cannot be had
// (SandboxFailed); nil otherwise. Arbiter runs a bot outside the sandbox
// only where its configuration says so, or where the machine lacks what
// the sandbox needs (docs/sandbox-default.md, Machines without it).
func (p *Probe) SandboxFailure() error {
	if !p.SandboxFailed {
		return nil
	}
	return fmt.Errorf("the sandbox could not be entered, although this machine has what it needs: %s. "+
		"Bots that should run in it are not run outside it: put the cause right (arbiter doctor shows it), "+
		"or give the bots limits { sandbox = false } to run them outside it knowingly", p.Why["sandbox"])
}

func capEff() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "CapEff:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return n
		}
	}
	return 0
}

// probeNamespaces tries each namespace by starting this executable in it:
// the only reliable test, since containers and sysctls deny them in many
// ways. It returns the namespaces whose start failed otherwise than by the
// machine's refusal (deniedStart): a fault, not a machine without them.
func probeNamespaces(p *Probe) (faults map[string]bool) {
	faults = map[string]bool{}
	if _, err := ownCommand(); err != nil {
		for _, n := range []string{"user namespace", "network namespace", "mount namespace", "PID namespace"} {
			p.Why[n] = "cannot find this executable: " + err.Error()
		}
		return faults
	}
	if err := tryNamespace(p, syscall.CLONE_NEWUSER, false); err == nil {
		p.UserNS = true
	} else if deniedStart(err) {
		p.Why["user namespace"] = "unprivileged user namespaces are not allowed: " + err.Error()
	} else {
		p.Why["user namespace"] = "starting a process in one failed: " + err.Error()
		faults["user namespace"] = true
	}
	need := ""
	if !p.Root && !p.UserNS {
		need = "not root and no user namespace"
	}
	for _, ns := range []struct {
		name  string
		flag  uintptr
		mount bool
		ok    *bool
	}{
		{"network namespace", syscall.CLONE_NEWNET, false, &p.NetNS},
		{"mount namespace", syscall.CLONE_NEWNS, true, &p.MountNS},
		{"PID namespace", syscall.CLONE_NEWPID, false, &p.PIDNS},
	} {
		if need != "" {
			p.Why[ns.name] = need
			faults[ns.name] = faults["user namespace"]
			continue
		}
		if err := tryNamespace(p, ns.flag, ns.mount); err == nil {
			*ns.ok = true
		} else {
			p.Why[ns.name] = err.Error()
			faults[ns.name] = !deniedStart(err)
		}
	}
	for n, f := range faults {
		if !f {
			delete(faults, n)
		}
	}
	return faults
}

// tryNamespace starts this executable in the namespaces flags (and a user
// namespace when not root), in shim probe mode "mount" when mount, else
// "ns", trying again a start that failed transiently (retryProbe).
func tryNamespace(p *Probe, flags uintptr, mount bool) error {
	return retryProbe(func() error {
		cmd, err := ownCommand()
		if err != nil {
			return err
		}
		mode := "ns"
		if mount {
			mode = "mount"
		}
		cmd.Env = []string{shimProbeEnv + "=" + mode}
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags, Pdeathsig: syscall.SIGKILL}
		if !p.Root {
			cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER
		}
		if cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWUSER != 0 {
			cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: p.UID, Size: 1}}
			cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		err = runProbe(cmd)
		if err != nil && out.Len() > 0 {
			return fmt.Errorf("%w: %s", err, strings.TrimSpace(out.String()))
		}
		return err
	})
}

// probeBackoff are the waits before each new try of a probe's start that
// failed transiently (transientStart): len(probeBackoff)+1 tries in all.
var probeBackoff = []time.Duration{20 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond}

// probeTimeout is how long a probe's process may take to end before it is
// killed and its try counted as failed transiently.
const probeTimeout = 10 * time.Second

var errProbeTimeout = errors.New("the process did not end in time")

// testHookProbeStart, when set, is called before each start of a probe's
// process: an error it returns is that start's.
var testHookProbeStart func() error

// retryProbe runs try, a start of a probe's process, until it succeeds or
// fails otherwise than transiently, len(probeBackoff)+1 times at most.
func retryProbe(try func() error) error {
	err := try()
	for _, wait := range probeBackoff {
		if !transientStart(err) {
			break
		}
		time.Sleep(wait)
		err = try()
	}
	return err
}

// transientStart reports whether err, a probe's try, failed in a way a
// new try may not: the start itself failed for want of resources on a
// loaded machine (EAGAIN, ENOMEM from clone) or was interrupted (EINTR),
// or the process did not end in time.
func transientStart(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ENOMEM) || errors.Is(err, syscall.EINTR) ||
		errors.Is(err, errProbeTimeout)
}

// deniedStart reports whether err, a namespace probe's failure, says that
// the machine does not allow the namespace: the kernel refused it (EPERM:
// not allowed, as in a container; EINVAL: not built in; ENOSPC, EUSERS: a
// sysctl's limit, 0 to forbid them), or the process started and found it
// unusable (its exit status). Anything else (a start that failed
// transiently on every try, a process killed by a signal, another error)
// is a fault of the moment, not a machine without it.
func deniedStart(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.Exited() || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS)
}

// runProbe starts cmd, a probe's process, and waits for its end; one that
// has not ended after probeTimeout is killed (errProbeTimeout).
func runProbe(cmd *exec.Cmd) error {
	if testHookProbeStart != nil {
		if err := testHookProbeStart(); err != nil {
			return err
		}
	}
	cmd.WaitDelay = time.Second // the output of a process left behind
	if err := cmd.Start(); err != nil {
		return err
	}
	var late atomic.Bool
	timer := time.AfterFunc(probeTimeout, func() {
		late.Store(true)
		cmd.Process.Kill()
	})
	err := cmd.Wait()
	timer.Stop()
	if late.Load() {
		return fmt.Errorf("%w (%v): %v", errProbeTimeout, probeTimeout, err)
	}
	return err
}

// cloneFlags are the namespaces a box with limits l is started in
// outside the sandbox; mounts says it mounts folders of its own (a
// private folder, its JVM perf data folder).
func (p *Probe) cloneFlags(l drivers.Limits, mounts bool) (flags uintptr) {
	if p.PIDNS {
		flags |= syscall.CLONE_NEWPID
	}
	if l.NoNetwork() && p.NetNS {
		flags |= syscall.CLONE_NEWNET
	}
	if mounts && p.MountNS {
		flags |= syscall.CLONE_NEWNS
	}
	if flags != 0 && !p.Root {
		flags |= syscall.CLONE_NEWUSER
	}
	return flags
}

// nprocWorks reports whether RLIMIT_NPROC can confine a bot: only for a
// bot in its own user namespace under a uid other than root's, since root
// is exempt and the count is per user.
func (p *Probe) nprocWorks() bool { return !p.Root && p.UserNS }

// Enforcement is how one limit is enforced on this machine.
type Enforcement struct {
	Limit    string `json:"limit"` // one of drivers.LimitNames
	Enforced bool   `json:"enforced"`
	// How names the mechanisms in force, or says why the limit is not
	// enforced.
	How string `json:"how"`
}

// Enforcements says, per limit, which mechanism is in force here, in the
// order of drivers.LimitNames, followed by "reaping".
func (p *Probe) Enforcements() []Enforcement {
	var out []Enforcement
	add := func(limit string, ok bool, how string) {
		out = append(out, Enforcement{Limit: limit, Enforced: ok, How: how})
	}
	switch {
	case p.CgroupV2 != "":
		add(drivers.LimitMemory, true, "cgroup v2 memory.max (the kernel kills the bot at the limit)")
	case p.CgroupV1["memory"] != "":
		add(drivers.LimitMemory, true, "cgroup v1 memory.limit_in_bytes (the kernel kills the bot at the limit)")
	default:
		add(drivers.LimitMemory, true, "RLIMIT_DATA per process (allocations fail at the limit; "+p.why("cgroup v2", "cgroup v1 memory")+")")
	}
	add(drivers.LimitCPU, true, "RLIMIT_CPU per process")
	switch {
	case p.CgroupV2 != "":
		add(drivers.LimitProcesses, true, "cgroup v2 pids.max")
	case p.CgroupV1["pids"] != "":
		add(drivers.LimitProcesses, true, "cgroup v1 pids.max")
	case p.nprocWorks():
		add(drivers.LimitProcesses, true, "RLIMIT_NPROC in a user namespace of its own ("+p.why("cgroup v2", "cgroup v1 pids")+")")
	case p.Root:
		add(drivers.LimitProcesses, false, "not enforced: no pids cgroup ("+p.why("cgroup v2", "cgroup v1 pids")+") and root is exempt from RLIMIT_NPROC")
	default:
		add(drivers.LimitProcesses, false, "not enforced: no pids cgroup ("+p.why("cgroup v2", "cgroup v1 pids")+") and no user namespace ("+p.Why["user namespace"]+")")
	}
	var net []string
	if p.NetNS {
		net = append(net, "a network namespace of its own (no interface but a down loopback)")
	}
	if p.Seccomp {
		net = append(net, "seccomp (a socket of any family but Unix is refused: EACCES)")
	}
	if len(net) > 0 {
		add(drivers.LimitNetwork, true, strings.Join(net, " + "))
	} else {
		add(drivers.LimitNetwork, false, "not enforced: no network namespace ("+p.Why["network namespace"]+") and no seccomp ("+p.Why["seccomp"]+")")
	}
	folder := "a private tmpfs capped at the limit, in a mount namespace"
	if !p.MountNS {
		folder = "a plain folder checked after every answer, RLIMIT_FSIZE per file (no mount namespace: " + p.Why["mount namespace"] + ")"
	}
	if p.Landlock > 0 {
		add(drivers.LimitFiles, true, fmt.Sprintf("%s + Landlock ABI %d (no writes elsewhere)", folder, p.Landlock))
	} else {
		add(drivers.LimitFiles, false, "not enforced: writes outside the bot's folder are not prevented (no Landlock: "+p.Why["landlock"]+"); the folder is "+folder)
	}
	add(drivers.LimitOutput, true, "arbiter counts the bytes of every answer")
	if p.Seccomp {
		add(drivers.LimitChildren, true, "seccomp (fork, vfork and clone of a process fail with EPERM; threads are allowed)")
	} else {
		add(drivers.LimitChildren, false, "not enforced: no seccomp ("+p.Why["seccomp"]+")")
	}
	if p.Sandbox {
		add(drivers.LimitSandbox, true, p.sandboxHow())
	} else if p.SandboxFailed {
		add(drivers.LimitSandbox, false, "not available: "+p.Why["sandbox"]+"; a failure to put right, not a machine without it: "+
			"bots that ask for the sandbox are not started outside it")
	} else {
		add(drivers.LimitSandbox, false, "not enforced: "+p.Why["sandbox"]+"; "+SandboxMissing)
	}
	var reap []string
	if p.CgroupV2 != "" || p.CgroupV1["pids"] != "" || p.CgroupV1["memory"] != "" {
		reap = append(reap, "killing every process of the bot's cgroup")
	}
	if p.PIDNS {
		reap = append(reap, "a PID namespace of its own (its processes die with it, and with arbiter)")
	}
	reap = append(reap, "subreaper and ARBITER_TOKEN scan")
	add("reaping", true, strings.Join(reap, " + "))
	return out
}

// Enforcement returns how limit is enforced here.
func (p *Probe) Enforcement(limit string) Enforcement {
	for _, e := range p.Enforcements() {
		if e.Limit == limit {
			return e
		}
	}
	return Enforcement{Limit: limit, How: "unknown limit"}
}

func (p *Probe) why(keys ...string) string {
	var parts []string
	for _, k := range keys {
		if w := p.Why[k]; w != "" {
			parts = append(parts, k+": "+w)
		}
	}
	return strings.Join(parts, "; ")
}

// Facts lists the probe's findings as name/value lines for `arbiter doctor`.
func (p *Probe) Facts() [][2]string {
	yes := func(ok bool, key string) string {
		if ok {
			return "yes"
		}
		return "no (" + p.Why[key] + ")"
	}
	caps := strings.Join(p.CapNames, " ")
	if caps == "" {
		caps = "none of interest"
	}
	v2 := p.CgroupV2
	if v2 == "" {
		v2 = "no (" + p.Why["cgroup v2"] + ")"
	}
	v1 := func(c string) string {
		if d := p.CgroupV1[c]; d != "" {
			return d
		}
		return "no (" + p.Why["cgroup v1 "+c] + ")"
	}
	ll := "no (" + p.Why["landlock"] + ")"
	if p.Landlock > 0 {
		ll = "ABI " + strconv.Itoa(p.Landlock)
	}
	return [][2]string{
		{"user", fmt.Sprintf("uid %d, root %v", p.UID, p.Root)},
		{"capabilities", fmt.Sprintf("%s (CapEff %016x)", caps, p.CapEff)},
		{"cgroup v2 (memory+pids)", v2},
		{"cgroup v1 memory", v1("memory")},
		{"cgroup v1 pids", v1("pids")},
		{"cgroup v1 cpu", v1("cpu")},
		{"cgroup v1 cpuacct", v1("cpuacct")},
		{"user namespace", yes(p.UserNS, "user namespace")},
		{"network namespace", yes(p.NetNS, "network namespace")},
		{"mount namespace", yes(p.MountNS, "mount namespace")},
		{"PID namespace", yes(p.PIDNS, "PID namespace")},
		{"Landlock", ll},
		{"seccomp", yes(p.Seccomp, "seccomp")},
		{"sandbox", yes(p.Sandbox, "sandbox")},
	}
}

// Unenforceable returns the limits among required that this machine
// cannot enforce, with the reasons.
func (p *Probe) Unenforceable(required []string) []Enforcement {
	var out []Enforcement
	for _, r := range required {
		if e := p.Enforcement(r); !e.Enforced {
			out = append(out, e)
		}
	}
	return out
}
