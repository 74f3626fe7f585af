package drivertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/testbot"
)

// The suite's own bots. They speak no game's protocol: each waits for
// the first line of its input (or its end: a per-move game may give it
// none) and then does what its name says. The hostile ones run only
// under limits that give them a PID namespace and a cgroup of their own.
const (
	botHog    = "drivertest/hog"    // allocates and touches memory without end
	botForker = "drivertest/forker" // starts processes until refused, then exits 1
	botFlood  = "drivertest/flood"  // writes to stdout without a newline, without end
	botSpin   = "drivertest/spin"   // an endless loop
	botSilent = "drivertest/silent" // starts a grandchild in a session of its own, then says nothing, ignoring SIGTERM
	botSleep  = "drivertest/sleep"  // the forker's and the silent bot's children: sleeps, ignoring SIGTERM
)

func init() {
	testbot.Register(botHog, func([]string) int {
		waitInput()
		var keep [][]byte
		for {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = byte(i)
			}
			keep = append(keep, b)
		}
	})
	testbot.Register(botForker, func([]string) int {
		waitInput()
		for range 10000 {
			if err := testbot.Command(botSleep).Start(); err != nil {
				fmt.Fprintln(os.Stderr, "forker refused:", err)
				return 1
			}
		}
		return 0
	})
	testbot.Register(botFlood, func([]string) int {
		waitInput()
		w := bufio.NewWriterSize(os.Stdout, 64<<10)
		b := []byte(strings.Repeat("x", 4096))
		for {
			if _, err := w.Write(b); err != nil {
				return 1
			}
		}
	})
	testbot.Register(botSpin, func([]string) int {
		waitInput()
		for {
		}
	})
	testbot.Register(botSilent, func([]string) int {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		dir := os.Getenv(envDir)
		c := testbot.Command(botSleep)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "silent:", err)
			return 1
		}
		pid := strconv.Itoa(c.Process.Pid)
		os.WriteFile(filepath.Join(dir, "pids", "silent-"+strconv.Itoa(os.Getpid())), []byte(pid+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "started"), []byte(pid), 0o644)
		time.Sleep(time.Hour)
		return 0
	})
	testbot.Register(botSleep, func([]string) int {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		time.Sleep(time.Hour)
		return 0
	})
}

// waitInput reads the first line of stdin, or to its end. A bot told to
// misbehave once (envOnce) that already did becomes the bot of envThen
// instead, with its own arguments: the game's per-move arguments.
func waitInput() {
	if once := os.Getenv(envOnce); once != "" {
		if f, err := os.OpenFile(once, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			f.Close()
		} else {
			var then []string
			if err := json.Unmarshal([]byte(os.Getenv(envThen)), &then); err != nil || len(then) == 0 {
				fmt.Fprintln(os.Stderr, "drivertest: bad", envThen, err)
				os.Exit(2)
			}
			argv := append(then, os.Args[2:]...)
			err := syscall.Exec(argv[0], argv, os.Environ())
			fmt.Fprintln(os.Stderr, "drivertest: exec", argv[0], err)
			os.Exit(2)
		}
	}
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// limitCase is a bot killed by one limit.
type limitCase struct {
	limit  string
	bot    string
	limits drivers.Limits
	kinds  []string
}

// confined are limits that put a hostile bot in a box of its own (a PID
// namespace and a cgroup) whatever limit its case is about.
var confined = drivers.Limits{Memory: 256 << 20, Processes: 64, Network: new(bool)}

func limitCases() []limitCase {
	with := func(f func(*drivers.Limits)) drivers.Limits {
		l := confined
		f(&l)
		return l
	}
	return []limitCase{
		{drivers.LimitMemory, botHog, with(func(l *drivers.Limits) { l.Memory = 64 << 20 }), hogVerdicts()},
		{drivers.LimitProcesses, botForker, with(func(l *drivers.Limits) { l.Processes = 8 }), []string{drivers.FaultProcesses}},
		{drivers.LimitOutput, botFlood, with(func(l *drivers.Limits) { l.Output = 32 << 10 }), []string{drivers.FaultOutput}},
		{drivers.LimitCPU, botSpin, with(func(l *drivers.Limits) { l.CPU = CPULimit }), []string{drivers.FaultTime}},
	}
}

// hogVerdicts are the verdicts of a Go memory hog: under RLIMIT_DATA
// (no memory cgroup) the Go runtime may die of a SIGSEGV in its garbage
// collector instead of saying "out of memory", and then nothing tells
// that death from a crash (as in proc's hostile tests).
func hogVerdicts() []string {
	if strings.HasPrefix(proc.Machine().Enforcement(drivers.LimitMemory).How, "RLIMIT_DATA") {
		return []string{drivers.FaultMemory, drivers.FaultCrash}
	}
	return []string{drivers.FaultMemory}
}

func (s *Suite) limits(t *testing.T) {
	settings := s.LimitSettings
	if settings == nil {
		settings = s.Settings
	}
	raw, err := json.Marshal(settings)
	if err != nil {
		t.Fatalf("LimitSettings: %v", err)
	}
	for _, lc := range limitCases() {
		t.Run(lc.limit, func(t *testing.T) {
			if ok, why := enforced(lc.limit); !ok {
				t.Skipf("%s is not enforced here: %s", lc.limit, why)
			}
			f := Fault{Name: lc.limit, Bot: testbot.Argv(t, lc.bot), Kind: lc.kinds[0], Kinds: lc.kinds[1:], Limits: lc.limits, Clock: s.LimitClock,
				once: s.Defaults != nil}
			for seat := range s.Seats {
				t.Run(fmt.Sprintf("seat%d", seat), func(t *testing.T) {
					t.Parallel()
					p := s.fault(t, s.load(t, raw), f, seat)
					if lc.limit == drivers.LimitCPU && !t.Failed() && !mentions(p, seat, "CPU time") {
						t.Errorf("seat %d: nothing says the CPU limit killed the bot (rather than the clock): %+v", seat, p.out.Seats[seat])
					}
				})
			}
		})
	}
}

// mentions reports whether seat's detail or the transcript's events say s.
func mentions(p *played, seat int, s string) bool {
	if strings.Contains(p.out.Seats[seat].Detail, s) {
		return true
	}
	for _, l := range p.tr.Normalized(nil) {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
