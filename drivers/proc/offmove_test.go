package proc

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
)

// offMoveBot runs the bots of the off-move tests; false if mode is none
// of them.
func offMoveBot(mode string, in *bufio.Scanner, reply func(string)) bool {
	switch mode {
	case "offhog": // answers at once; from its first command, $OFFHOG_CHILDREN children spin
		n, _ := strconv.Atoi(os.Getenv("OFFHOG_CHILDREN"))
		started := false
		for in.Scan() {
			for ; !started && n > 0; n-- {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), "PROC_TEST_BOT=offspin", "GOMAXPROCS=1")
				if err := cmd.Start(); err != nil {
					reply("cannot start a child: " + err.Error())
				}
			}
			started = true
			reply("ok")
		}
	case "offspin":
		for {
		}
	case "burn50": // answers every command after 50 ms of its own CPU
		for in.Scan() {
			t := threadCPU()
			for threadCPU()-t < 50*time.Millisecond {
			}
			reply("ok")
		}
	default:
		return queuedBot(mode, in, reply)
	}
	return true
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

// offMoveSession starts a bot of mode in the default sandbox, skipping
// (failing on CI) where its CPU is not counted and weighted.
func offMoveSession(t *testing.T, mode string, clock drivers.Clock, env ...string) *Session {
	t.Helper()
	if !Machine().Sandbox {
		offMoveSkip(t, "no sandbox here: "+Machine().Why["sandbox"])
	}
	spec := botSpec(t, mode, clock)
	readable(t, spec.Dir)
	spec.Limits = defaultLimits()
	spec.Env = append(spec.Env, env...)
	spec.Explain = true // as the session games' referees and check ask
	s := start(t, spec)
	t.Cleanup(func() { s.Kill() })
	if s.box == nil || s.box.cg == nil || s.box.cg.usageFile == nil || s.box.cg.weightFile == nil {
		offMoveSkip(t, "the bot's cgroup has no CPU accounting or weight here (cgroup v1 cpu and cpuacct, or v2 with cpu delegated)")
	}
	return s
}

func offMoveSkip(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI has the sandbox and cgroup v1 with cpu and cpuacct, but here: %s", why)
	}
	t.Skip(why)
}

// TestOffMoveCPUIsCharged: a bot that answers at once but whose children
// spin while it is not on move is charged their CPU on its own clock,
// and once that runs out, the time fault says so. The children's CPU off
// move is also read here, between the test's own exchanges: on a machine
// busy with other work they get little of it (they run at the lowest
// weight), and what they did get is what is charged.
func TestOffMoveCPUIsCharged(t *testing.T) {
	const clock = 1500 * time.Millisecond
	s := offMoveSession(t, "offhog", drivers.Clock{Total: drivers.Duration(clock)}, "OFFHOG_CHILDREN=2")
	var err error
	var off time.Duration // CPU used between an answer and the next command
	moves := 0
	for ; moves < 40 && err == nil; moves++ {
		err = s.Exchange("go", readAnswer(s))
		before, _ := s.box.cpuUsed()
		time.Sleep(200 * time.Millisecond) // the opponent's move
		after, _ := s.box.cpuUsed()
		off += after - before
	}
	// What is charged off move is capped by what the clock has left: on a
	// loaded machine the bot's own answers (on move, its children beside
	// it at the lowest weight) take part of it.
	left := clock - (s.Used() - s.OffMove())
	if s.Used() < s.OffMove() || s.OffMove() < min(off-time.Duration(moves)*offMoveAllowance, left)*3/4 {
		t.Errorf("charged %v off move, %v in all, for %v of CPU used between the test's exchanges", s.OffMove(), s.Used(), off)
	}
	var f *Fault
	if off > clock && (!errors.As(err, &f) || f.Kind != drivers.FaultTime || !strings.Contains(f.Detail, "while it was not on move")) {
		t.Fatalf("its children used %v of CPU while it was not on move, over its clock of %v; the match ended with %v, want a time fault that says so", off, clock, err)
	}
	t.Logf("%v of CPU off move, %v charged for it: %v", off, s.OffMove(), err)
}

// TestOffMoveOrdinaryBotUncharged: a bot that does nothing between its
// answer and its next command is charged nothing for that time.
func TestOffMoveOrdinaryBotUncharged(t *testing.T) {
	s := offMoveSession(t, "echo", drivers.Clock{Total: drivers.Duration(10 * time.Second)})
	var wall time.Duration
	for i := 0; i < 20; i++ {
		t0 := time.Now()
		if err := s.Exchange("x", readAnswer(s)); err != nil {
			t.Fatal(err)
		}
		wall += time.Since(t0)
		time.Sleep(20 * time.Millisecond)
	}
	if s.OffMove() != 0 || s.Used() > wall {
		t.Errorf("charged %v off move, %v in all for exchanges that took %v", s.OffMove(), s.Used(), wall)
	}
}

// TestOffMoveOpponentKeepsItsClock: on one CPU with a bot whose four
// children spin all match, a bot that thinks for 50 ms of CPU a move gets
// the CPU: the spinners, at the lowest weight while their bot is not on
// move (from its first charge for them, in the warm-up), take next to
// none of it, where at an equal weight their cgroup took as much as the
// thinker's 50 ms, charged to its clock. (Their CPU is read, not the
// thinker's charge alone: the CPU may be busy with other work too.)
func TestOffMoveOpponentKeepsItsClock(t *testing.T) {
	restore := pinThreads(t, 0)
	hog := offMoveSession(t, "offhog", drivers.Clock{}, "OFFHOG_CHILDREN=4")
	bot := offMoveSession(t, "burn50", drivers.Clock{Total: drivers.Duration(30 * time.Second)})
	restore()
	if err := hog.Exchange("go", readAnswer(hog)); err != nil { // its children start
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	const moves = 6
	var taken time.Duration // the spinners' CPU while the thinker was on move
	for i := 0; i < moves; i++ {
		if err := hog.Exchange("go", readAnswer(hog)); err != nil {
			t.Fatal(err)
		}
		before, _ := hog.box.cpuUsed()
		if err := bot.Exchange("go", readAnswer(bot)); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		after, _ := hog.box.cpuUsed()
		taken += after - before
	}
	if hog.OffMove() == 0 {
		t.Fatal("the spinners' bot was charged nothing for them")
	}
	// Next to none: 10 ms a move, or where a loaded host drew the moves
	// out, a fiftieth of the thinker's time on move, up to 25 ms (at a
	// load of 45 they had 11 ms of 1.2 s moves, under 1% of them, as
	// they have 1-2 ms of 300 ms moves). At an equal weight their cgroup
	// takes as much as the thinker's, 55-60 ms a move at any load.
	allowed := min(max(10*time.Millisecond, bot.Used()/moves/50), 25*time.Millisecond)
	if taken/moves > allowed {
		t.Errorf("the spinners took %v of CPU a move from the 50 ms bot (charged %v a move), want next to none (up to %v)", taken/moves, bot.Used()/moves, allowed)
	}
	t.Logf("the 50 ms bot: %v a move; the spinners took %v a move, were charged %v off move in all", bot.Used()/moves, taken/moves, hog.OffMove())
}

// readAnswer reads an answer of the test bots: "= text" and an empty line.
func readAnswer(s *Session) func(time.Time) error {
	return func(deadline time.Time) error {
		for {
			line, err := s.ReadLine(deadline)
			if err != nil || line == "" {
				return err
			}
		}
	}
}

// receiveFirst receives the answer to the first command of a write: its
// first line, and the error of reading it to its end.
func receiveFirst(s *Session) (first string, err error) {
	err = s.Receive(func(deadline time.Time) error {
		var err error
		if first, err = s.ReadLine(deadline); err != nil {
			return err
		}
		return readAnswer(s)(deadline)
	})
	return first, err
}

// pinThreads puts every thread of the test on cpu, so that the bots it
// starts share that one CPU; restore puts them back.
func pinThreads(t *testing.T, cpu int) (restore func()) {
	t.Helper()
	var was, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err != nil {
		t.Skip(err)
	}
	one.Set(cpu)
	each := func(set *unix.CPUSet) {
		tasks, _ := os.ReadDir("/proc/self/task")
		for _, task := range tasks {
			if tid, err := strconv.Atoi(task.Name()); err == nil {
				_ = unix.SchedSetaffinity(tid, set)
			}
		}
	}
	each(&one)
	return func() { each(&was) }
}

// BenchmarkOffMove is what time off move adds to an exchange with a bot
// in its cgroup: the CPU read and the weight written at the answer, and
// again at the next command.
func BenchmarkOffMove(b *testing.B) {
	spec := botSpec(b, "echo", drivers.Clock{})
	spec.Limits = drivers.Limits{Memory: 400 << 20, Processes: 16}
	s := start(b, spec)
	defer s.Close("quit")
	if s.box == nil || s.box.cg == nil || s.box.cg.usageFile == nil {
		b.Skip("no CPU accounting in the bot's cgroup here")
	}
	for b.Loop() {
		s.offMoveFrom(time.Now())
		s.chargeOffMove(time.Now().Add(time.Second)) // a wait long enough to be read
	}
}

func TestOnlineCPUs(t *testing.T) {
	if n := onlineCPUs(); n < 1 {
		t.Skipf("no /sys/devices/system/cpu/online here (%d)", n)
	}
	if machineCPUs < runtime.NumCPU() {
		t.Errorf("machineCPUs %d, fewer than runtime.NumCPU's %d", machineCPUs, runtime.NumCPU())
	}
}
