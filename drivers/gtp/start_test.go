package gtp

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
	"github.com/arbiter-contests/arbiter/internal/proctest"
)

// A seat whose limits arbiter cannot set up (a memory cgroup of 400
// bytes, too small for arbiter's own steps before the bot's exec) puts
// no seat at fault: Start returns arbiter's error, which the game
// returns from Play, and records no fault. Before, the bot was charged a
// crash at its first command.
func TestStartSetupFailureFaultsNoSeat(t *testing.T) {
	m := proc.Machine()
	if how := m.Enforcement(drivers.LimitMemory).How; !strings.Contains(how, "cgroup") || !m.Sandbox {
		t.Skipf("needs the sandbox and a memory cgroup (memory here: %s)", how)
	}
	// Through the shim (old kernels, ARBITER_SPAWN=shim), arbiter's
	// own start under a tiny limit is killed instead.
	if err := unix.MountSetattr(-1, "", 0, &unix.MountAttr{}); os.Getenv("ARBITER_SPAWN") == "shim" ||
		errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		t.Skip("bots start through the shim here")
	}
	rec := &lines{}
	dm := &drivers.Match{ID: "setup", Record: rec}
	for i, mem := range []int64{1 << 30, 400} {
		dm.Seats = append(dm.Seats, drivers.Seat{Bot: []string{"fine", "tiny"}[i], Command: []string{os.Args[0]},
			Dir: t.TempDir(), Env: []string{"GTP_TEST_BOT=1"}, Limits: drivers.Limits{Memory: mem, Sandbox: &drivers.Sandbox{}}})
	}
	ss, out, err := Start(context.Background(), dm)
	ss.Kill()
	for _, s := range ss {
		if s != nil {
			proctest.AssertGone(t, "ARBITER_TOKEN="+s.Token())
		}
	}
	var se *proc.SetupError
	if !errors.As(err, &se) || se.Bot != "tiny" || out != nil {
		t.Fatalf("Start: %v, outcome %+v; want arbiter's error naming bot tiny, and no outcome", err, out)
	}
	for _, l := range rec.get() {
		if strings.HasPrefix(l, "fault") {
			t.Errorf("recorded %q: no seat is at fault", l)
		}
	}
}
