package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// Bots' cgroups are named arbiter.<arbiter pid>.<sequence>, beside one
// another in the folder the probe found, so that a later run can tell the
// cgroups a killed arbiter left behind (their pid is dead) and clean them.
var cgroupSeq atomic.Int64

// probeCgroups finds where bots' cgroups can be made: under arbiter's own
// cgroup in each hierarchy, with the controllers we need.
func probeCgroups(p *Probe) {
	own := ownCgroups()
	mounts := cgroupMounts()
	if len(mounts) == 0 {
		p.Why["cgroup v2"] = "no cgroup file system mounted"
		for _, c := range v1Controllers {
			p.Why["cgroup v1 "+c] = p.Why["cgroup v2"]
		}
		return
	}
	// v2: the unified hierarchy needs memory and pids delegated to us.
	p.Why["cgroup v2"] = "no cgroup2 file system mounted"
	for _, m := range mounts {
		if m.v2 {
			dir, err := v2Base(v2Own(m.dir(own[""])))
			if err != nil {
				p.Why["cgroup v2"] = err.Error()
			} else {
				p.CgroupV2 = dir
				delete(p.Why, "cgroup v2")
			}
			break
		}
	}
	for _, c := range v1Controllers {
		key := "cgroup v1 " + c
		p.Why[key] = "no v1 hierarchy with the " + c + " controller"
		for _, m := range mounts {
			if m.v2 || !m.controllers[c] {
				continue
			}
			dir := m.dir(own[c])
			if err := tryMkdir(dir); err != nil {
				p.Why[key] = err.Error()
			} else {
				p.CgroupV1[c] = dir
				delete(p.Why, key)
			}
			break
		}
	}
	for _, d := range p.cgroupBases() {
		cleanStale(d)
	}
}

// v1Controllers are the cgroup v1 controllers bots' cgroups use: memory
// and pids for the limits, cpu and cpuacct for CPU used while not on move
// (offmove.go).
var v1Controllers = []string{"memory", "pids", "cpu", "cpuacct"}

func (p *Probe) cgroupBases() []string {
	var out []string
	if p.CgroupV2 != "" {
		return []string{p.CgroupV2}
	}
	for _, c := range v1Controllers {
		if d := p.CgroupV1[c]; d != "" {
			out = append(out, d)
		}
	}
	return out
}

// ownCgroups maps each v1 controller (and "" for v2) to arbiter's cgroup path.
func ownCgroups() map[string]string {
	own := map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return own
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			own[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			own[c] = parts[2]
		}
	}
	return own
}

type cgroupMount struct {
	root, point string
	v2          bool
	controllers map[string]bool
}

// dir is the folder of cgroup path in this mount.
func (m cgroupMount) dir(path string) string {
	rel := strings.TrimPrefix(path, m.root)
	if m.root != "/" && !strings.HasPrefix(path, m.root) {
		rel = "/" // a cgroup namespace shows our cgroup as its root
	}
	return filepath.Join(m.point, rel)
}

func cgroupMounts() []cgroupMount {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []cgroupMount
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root point options [optional...] - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 5 || len(b) < 3 {
			continue
		}
		m := cgroupMount{root: a[3], point: a[4], controllers: map[string]bool{}}
		switch b[0] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			for _, o := range strings.Split(b[2], ",") {
				m.controllers[o] = true
			}
		default:
			continue
		}
		out = append(out, m)
	}
	return out
}

// v2Own is the folder whose children bots' cgroups are, given arbiter's
// own cgroup dir: its parent when dir is the "arbiter.self" that v2Base
// moves arbiter into, where a run's worker processes (`arbiter worker`)
// start and the run's base already has the controllers enabled.
func v2Own(dir string) string {
	if filepath.Base(dir) == "arbiter.self" {
		return filepath.Dir(dir)
	}
	return dir
}

// v2Base checks that bots' cgroups can be made under dir with the memory
// and pids controllers. A cgroup v2 folder cannot hold processes and
// enable controllers for its children at once, so when arbiter's own
// cgroup holds processes, arbiter moves itself into a child "arbiter.self".
func v2Base(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return "", err
	}
	have := strings.Fields(string(b))
	for _, c := range []string{"memory", "pids"} {
		if !contains(have, c) {
			return "", fmt.Errorf("controller %s is not delegated to %s (it has: %s)", c, dir, strings.Join(append(have, "none")[:max(len(have), 1)], " "))
		}
	}
	enable := func() error {
		return os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids"), 0)
	}
	if err := enable(); err != nil {
		if !errors.Is(err, syscall.EBUSY) {
			return "", fmt.Errorf("enabling memory and pids in %s: %w", dir, err)
		}
		self := filepath.Join(dir, "arbiter.self")
		if err := os.Mkdir(self, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(self, "cgroup.procs"), []byte("0"), 0); err != nil {
			return "", fmt.Errorf("moving arbiter into %s: %w", self, err)
		}
		if err := enable(); err != nil {
			return "", fmt.Errorf("enabling memory and pids in %s: %w", dir, err)
		}
	}
	// cpu is optional: its weight keeps a bot not on move from slowing
	// the one that is (offmove.go); cpu.stat, which counts the CPU used,
	// is there without it.
	if contains(have, "cpu") {
		_ = os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+cpu"), 0)
	}
	if err := tryMkdir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tryMkdir checks that we may make cgroups in dir.
func tryMkdir(dir string) error {
	d := filepath.Join(dir, fmt.Sprintf("arbiter.%d.probe", os.Getpid()))
	if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("cannot make cgroups in %s: %w", dir, err)
	}
	return os.Remove(d)
}

// cleanStale kills the processes of, and removes, the bot cgroups in dir
// that belong to an arbiter that is no longer running (killed with -9).
func cleanStale(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		parts := strings.Split(e.Name(), ".")
		if !e.IsDir() || len(parts) != 3 || parts[0] != "arbiter" {
			continue
		}
		pid, err := strconv.Atoi(parts[1])
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil || errors.Is(syscall.Kill(pid, 0), syscall.EPERM) {
			continue
		}
		cg := filepath.Join(dir, e.Name())
		killCgroup(cg, true)
		removeCgroup(cg)
	}
}

// cgroup is one bot's cgroup in each hierarchy we use.
type cgroup struct {
	v2     bool
	memory string // folder with the memory controller, or ""
	pids   string // folder with the pids controller, or ""
	// cpu and cpuacct are the folders with those v1 controllers, or "";
	// on v2 the one folder has both (cpu only where it was delegated).
	cpu, cpuacct string
	// usageFile counts the CPU the cgroup's processes used (v1
	// cpuacct.usage, v2 cpu.stat), weightFile sets their share of a
	// busy CPU (v1 cpu.shares, v2 cpu.weight): both nil when missing,
	// held open since a session reads and writes them every exchange.
	usageFile, weightFile *os.File
	// offMove says the weight is the low one (setOffMove).
	offMove bool
	// oomFile and pidsFile are the files that count OOM kills and refused
	// forks, held open while their limit is set: opening a cgroup file
	// costs several times reading it, and the watch reads them every
	// watchEvery.
	oomFile, pidsFile *os.File
	// oomBase and pidsBase are the counters' values when the cgroup was
	// lent to its bot (see leaseCgroup): the counts are the bot's beyond
	// them.
	oomBase, pidsBase int64
	key               [2]int64 // the limits it was made with
}

// Cgroups are lent, like network namespaces (netns.go): making one and
// removing it cost a start some 0.3 ms of arbiter's CPU (one of each per
// hierarchy on cgroup v1: memory, pids, cpu and cpuacct). A
// cgroup goes back once its bot's PID namespace has ended and it holds no
// process, to be lent to a bot with the same limits; its counters of OOM
// kills and refused forks are then counted from their values at the
// loan. What stays charged to it is page cache (the bot's tmpfs went with
// its mount namespace), which the kernel reclaims before it would kill
// for memory. A command removes its idle ones as it ends
// (RemoveIdleCgroups); the next run removes those of an arbiter that was
// killed (cleanStale).
var cgroupPool struct {
	sync.Mutex
	idle map[[2]int64][]*cgroup
}

// RemoveIdleCgroups removes the bots' cgroups that went back and wait to
// be lent again, as a command of arbiter ends: a run that finished does
// not leave them for a later run to remove. A start after it makes its
// cgroup anew.
func RemoveIdleCgroups() {
	cgroupPool.Lock()
	idle := cgroupPool.idle
	cgroupPool.idle = nil
	cgroupPool.Unlock()
	for _, list := range idle {
		for _, c := range list {
			c.remove()
		}
	}
}

// idleCgroups bounds the idle cgroups kept for one set of limits.
const idleCgroups = 64

// lentCharge is the most memory a cgroup may still be charged with to be
// lent again (or a 64th of its limit, if more): what a bot leaves is
// mostly some hundred KiB of page cache and kernel objects; more (a bot
// that wrote files, dirty pages) would cost the next bot the kernel's
// reclaim, so that cgroup is removed instead.
const lentCharge = 2 << 20

// charged is the memory charged to the cgroup (0 without a memory one).
func (c *cgroup) charged() int64 {
	if c.memory == "" {
		return 0
	}
	f := "memory.usage_in_bytes"
	if c.v2 {
		f = "memory.current"
	}
	b, err := os.ReadFile(filepath.Join(c.memory, f))
	if err != nil {
		return lentCharge + 1
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return lentCharge + 1
	}
	return n
}

// leaseCgroup lends a cgroup with the given limits: an idle one, or a new
// one.
func leaseCgroup(p *Probe, memory int64, pids int) (*cgroup, error) {
	key := [2]int64{memory, int64(pids)}
	cgroupPool.Lock()
	if list := cgroupPool.idle[key]; len(list) > 0 {
		cg := list[len(list)-1]
		cgroupPool.idle[key] = list[:len(list)-1]
		cgroupPool.Unlock()
		cg.oomBase, cg.pidsBase = cg.rawOOMKills(), cg.rawPidsDenied()
		return cg, nil
	}
	cgroupPool.Unlock()
	cg, err := newCgroup(p, memory, pids)
	if cg != nil {
		cg.key = key
	}
	return cg, err
}

// giveBack returns a cgroup whose bot has ended; one that still holds a
// process is killed and removed instead.
func (c *cgroup) giveBack() {
	if c == nil {
		return
	}
	for _, d := range c.dirs() {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil || len(bytes.TrimSpace(b)) > 0 {
			c.kill()
			c.remove()
			return
		}
	}
	c.setOffMove(false) // a per-move bot, lent it next, runs at the usual weight
	if c.charged() > max(lentCharge, c.key[0]/64) {
		c.remove()
		return
	}
	cgroupPool.Lock()
	defer cgroupPool.Unlock()
	if cgroupPool.idle == nil {
		cgroupPool.idle = map[[2]int64][]*cgroup{}
	}
	if len(cgroupPool.idle[c.key]) >= idleCgroups {
		c.remove()
		return
	}
	cgroupPool.idle[c.key] = append(cgroupPool.idle[c.key], c)
}

// newCgroup makes a bot's cgroup with the given limits (0: none) in the
// hierarchies the probe found.
func newCgroup(p *Probe, memory int64, pids int) (*cgroup, error) {
	name := fmt.Sprintf("arbiter.%d.%d", os.Getpid(), cgroupSeq.Add(1))
	cg := &cgroup{}
	mk := func(base string) (string, error) {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", err
		}
		return d, nil
	}
	var err error
	if p.CgroupV2 != "" {
		cg.v2 = true
		if cg.memory, err = mk(p.CgroupV2); err != nil {
			return nil, err
		}
		cg.pids, cg.cpu, cg.cpuacct = cg.memory, cg.memory, cg.memory
		if memory > 0 {
			err = errors.Join(write(cg.memory, "memory.max", memory), write(cg.memory, "memory.swap.max", 0))
			if errors.Is(err, os.ErrNotExist) { // no swap accounting
				err = write(cg.memory, "memory.max", memory)
			}
		}
		if err == nil && pids > 0 {
			err = write(cg.pids, "pids.max", int64(pids))
		}
	} else {
		if d := p.CgroupV1["memory"]; d != "" && err == nil {
			if cg.memory, err = mk(d); err == nil && memory > 0 {
				if err = write(cg.memory, "memory.limit_in_bytes", memory); err == nil {
					// Without swap accounting the file is missing: fine.
					_ = write(cg.memory, "memory.memsw.limit_in_bytes", memory)
				}
			}
		}
		if d := p.CgroupV1["pids"]; d != "" && err == nil {
			if cg.pids, err = mk(d); err == nil && pids > 0 {
				err = write(cg.pids, "pids.max", int64(pids))
			}
		}
		if d := p.CgroupV1["cpu"]; d != "" && err == nil {
			cg.cpu, err = mk(d)
		}
		if d := p.CgroupV1["cpuacct"]; d != "" && err == nil {
			if d == p.CgroupV1["cpu"] { // mounted together: cpu,cpuacct
				cg.cpuacct = cg.cpu
			} else {
				cg.cpuacct, err = mk(d)
			}
		}
	}
	if err != nil {
		cg.remove()
		return nil, fmt.Errorf("making the bot's cgroup: %w", err)
	}
	if memory > 0 && cg.memory != "" {
		cg.oomFile, _ = os.Open(cg.oomPath()) // nil: read by path
	}
	if pids > 0 && cg.pids != "" {
		cg.pidsFile, _ = os.Open(filepath.Join(cg.pids, "pids.events"))
	}
	cg.openCPU()
	return cg, nil
}

func write(dir, file string, v int64) error {
	return os.WriteFile(filepath.Join(dir, file), []byte(strconv.FormatInt(v, 10)), 0)
}

// procsFiles are the files the shim writes "0" to, to join the cgroup.
// In cgroup v1 that is "tasks", which moves only the writing thread (the
// one that execs the bot; the shim's other threads end at the exec): the
// kernel then skips the lock that makes moving a whole process wait for
// an RCU grace period, several milliseconds per hierarchy. cgroup v2 has
// no such file for a domain cgroup, so there it is cgroup.procs.
func (c *cgroup) procsFiles() []string {
	file := "tasks"
	if c.v2 {
		file = "cgroup.procs"
	}
	var out []string
	for _, d := range c.dirs() {
		out = append(out, filepath.Join(d, file))
	}
	return out
}

func (c *cgroup) dirs() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, d := range []string{c.memory, c.pids, c.cpu, c.cpuacct} {
		if d != "" && !contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// oomKills is how many of the bot's processes the kernel killed for
// going over the memory limit.
func (c *cgroup) oomKills() int64 {
	if c == nil {
		return 0
	}
	return c.rawOOMKills() - c.oomBase
}

// rawOOMKills is the counter since the cgroup was made.
func (c *cgroup) rawOOMKills() int64 {
	if c.memory == "" {
		return 0
	}
	return keyedIn(c.oomFile, c.oomPath(), "oom_kill")
}

func (c *cgroup) oomPath() string {
	if c.v2 {
		return filepath.Join(c.memory, "memory.events")
	}
	return filepath.Join(c.memory, "memory.oom_control")
}

// pidsDenied is how many times a fork or thread creation of the bot
// failed at the pids limit.
func (c *cgroup) pidsDenied() int64 {
	if c == nil {
		return 0
	}
	return c.rawPidsDenied() - c.pidsBase
}

// rawPidsDenied is the counter since the cgroup was made.
func (c *cgroup) rawPidsDenied() int64 {
	if c.pids == "" {
		return 0
	}
	return keyedIn(c.pidsFile, filepath.Join(c.pids, "pids.events"), "max")
}

// keyedIn reads the value of key from a flat-keyed cgroup file held open
// as f, or from path when f is nil.
func keyedIn(f *os.File, path, key string) int64 {
	if f == nil {
		return keyed(path, key)
	}
	var buf [1024]byte // the counter files hold a few short lines
	n, _ := f.ReadAt(buf[:], 0)
	return keyedValue(buf[:n], key)
}

// counters is the limit the bot went over by its cgroup's event
// counters: a process the kernel killed at the memory limit, a fork or
// thread refused at the process limit; nil if none. It reads only files
// and the Box's fixed fields, so any goroutine may call it.
func (b *Box) counters() *Fault {
	b.cgMu.Lock()
	oom, pids := b.finalOOM, b.finalPids
	if !b.closed {
		oom, pids = b.cg.oomKills(), b.cg.pidsDenied()
	}
	b.cgMu.Unlock()
	if n := oom; n > 0 && b.lim.Memory > 0 {
		return faultf(drivers.FaultMemory, "went over its memory limit of %s: the kernel killed %d of its processes%s", Size(b.lim.Memory), n, b.jvmMemoryHint())
	}
	if n := pids; n > 0 && b.lim.Processes > 0 {
		return faultf(drivers.FaultProcesses, "tried to have more than %d processes and threads at once (%d refused)%s", b.lim.Processes, n, b.jvmThreadsHint())
	}
	return nil
}

// jvmMemoryHint is what a JVM over its memory limit is told, "" for
// another program: in the sandbox, which shows no cgroup files, the JVM
// cannot see the limit and sizes its heap from the machine's memory, so
// it goes over the limit before it collects its garbage; a maximum heap
// of three quarters of the limit leaves room for its code, threads and
// metaspace. A command that gives a maximum heap is told to make it
// smaller; one that gives the JVM's memory (-XX:MaxRAM=), a quarter of
// which is its heap by default, is told so and to give a heap.
func (b *Box) jvmMemoryHint() string {
	if !b.jvm {
		return ""
	}
	heap := fmt.Sprintf(`"-Xmx%dm"`, max(1, b.lim.Memory*3/4>>20))
	switch {
	case javacmd.MaxRAM(b.jvmHeap):
		return fmt.Sprintf(": the JVM takes its memory to be what %s says and by default makes its heap a quarter of it; that heap and what the JVM holds beside it (its code, threads, metaspace) must fit in the limit; give it a maximum heap well under the limit, e.g. %s", b.jvmHeap, heap)
	case b.jvmHeap != "":
		return fmt.Sprintf(": the JVM's heap (%s) and what it holds beside it (its code, threads, metaspace) must fit in the limit; give it a smaller maximum heap, e.g. %s", b.jvmHeap, heap)
	case b.sandboxed:
		return fmt.Sprintf(": a JVM cannot see this limit in the sandbox and sizes its heap from the machine's memory; give it a maximum heap well under the limit, e.g. %s before the class in its command", heap)
	}
	return fmt.Sprintf(": give the JVM a maximum heap well under the limit, e.g. %s before the class in its command", heap)
}

// jvmThreadsHint is what a JVM over its process limit is told, "" for
// another program or a command that gives javacmd.ThreadFlags already:
// the options that keep its own threads (its garbage collector's, its
// compilers') within a small limit.
func (b *Box) jvmThreadsHint() string {
	if !b.jvm || len(b.jvmMissing) == 0 {
		return ""
	}
	q := make([]string, len(b.jvmMissing))
	for i, f := range b.jvmMissing {
		q[i] = strconv.Quote(f)
	}
	return fmt.Sprintf(": a JVM's own threads (its garbage collector's, its compilers') go over a small limit; give %s before the class in its command", strings.Join(q, ", "))
}

// watchEvery is how often a bot's cgroup counters are read while it is
// waited on (an answer, a per-move run): a bot that goes over its memory
// or process limit and then never answers (a fork bomb, a child killed
// at the memory limit while the bot waits for it) gets its verdict
// within about this long, not when its clock runs out. The first read
// comes watchEvery into the wait, so a bot that answers sooner costs a
// timer set and stopped, and one that thinks costs a read of two small
// files every watchEvery.
const watchEvery = 10 * time.Millisecond

// limitWatch reads a bot's cgroup counters every watchEvery while it is
// armed and hands the first limit the bot went over to report, once.
// Polling serves cgroup v1 and v2 alike: v1's memory controller has no
// file that notifies of an OOM kill.
//
// Disarming leaves the timer set: a bot that answers fast is armed again
// at once, and setting and stopping a timer every exchange would cost
// more than the rest of the watch. A timer that fires disarmed reads
// nothing and is not set again until the next arm.
type limitWatch struct {
	box     *Box
	report  func(*Fault)
	timer   *time.Timer
	mu      sync.Mutex
	armed   bool // between arm and disarm, and nothing reported yet
	pending bool // the timer is set
	done    bool // reported
}

// watch makes a limitWatch for the bot, disarmed; nil when the bot has no
// counter to watch (no cgroup, or no memory or process limit in it).
// report runs on the watch's goroutine.
func (b *Box) watch(report func(*Fault)) *limitWatch {
	if b == nil || b.cg == nil || !(b.lim.Memory > 0 && b.cg.memory != "" || b.lim.Processes > 0 && b.cg.pids != "") {
		return nil
	}
	w := &limitWatch{box: b, report: report}
	w.timer = time.AfterFunc(time.Hour, w.fire)
	w.timer.Stop()
	return w
}

// arm starts watching: the bot is being waited on. The counters are read
// within watchEvery.
func (w *limitWatch) arm() {
	if w == nil {
		return
	}
	w.mu.Lock()
	if !w.done {
		w.armed = true
		if !w.pending {
			w.pending = true
			w.timer.Reset(watchEvery)
		}
	}
	w.mu.Unlock()
}

// disarm stops watching; once it returns, the counters are not read and
// report is not called until the next arm.
func (w *limitWatch) disarm() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.armed = false
	w.mu.Unlock()
}

func (w *limitWatch) fire() {
	w.mu.Lock()
	w.pending = false
	armed := w.armed
	w.mu.Unlock()
	if !armed {
		return
	}
	f := w.box.counters()
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case !w.armed:
	case f == nil:
		w.pending = true
		w.timer.Reset(watchEvery)
	default:
		w.armed, w.done = false, true
		w.report(f)
	}
}

// keyed reads the value of key from a flat-keyed cgroup file.
func keyed(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return keyedValue(b, key)
}

// keyedValue is the value of key in the lines "key value" of b, 0 if none.
func keyedValue(b []byte, key string) int64 {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) > len(key) && line[len(key)] == ' ' && string(line[:len(key)]) == key {
			n, _ := strconv.ParseInt(string(bytes.TrimSpace(line[len(key)+1:])), 10, 64)
			return n
		}
	}
	return 0
}

// kill kills every process of the cgroup until none is left.
func (c *cgroup) kill() {
	for _, d := range c.dirs() {
		killCgroup(d, c.v2)
	}
}

func killCgroup(dir string, v2 bool) {
	// cgroup.kill: v2 since Linux 5.14. (On v1 there is none, and opening
	// a file cgroupfs lacks fails with EACCES, not ENOENT.)
	if v2 && os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0) == nil {
		return
	}
	for round := 0; round < 1000; round++ {
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil || len(strings.TrimSpace(string(b))) == 0 {
			return
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// remove removes the cgroup folders, waiting briefly for the kernel to
// let go of exiting processes.
func (c *cgroup) remove() {
	if c == nil {
		return
	}
	for _, f := range []*os.File{c.oomFile, c.pidsFile, c.usageFile, c.weightFile} {
		if f != nil {
			f.Close()
		}
	}
	for _, d := range c.dirs() {
		removeCgroup(d)
	}
}

func removeCgroup(dir string) {
	for i := 0; i < 200; i++ {
		err := os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
