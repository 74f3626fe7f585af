package proc

import (
	"errors"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
)

// A bot that gives no answer in time is said to have kept computing
// when its processes used the CPU for at least a quarter of its wait
// or want the CPU at the deadline (an endless loop, however busy the
// machine is with other work), and not when it sat waiting (a bot that does not
// answer, or holds an answer it did not flush): the game's detail then
// says "an endless loop", not "it may not have flushed its output".
func TestTimeFaultSaysBusy(t *testing.T) {
	for _, tc := range []struct {
		mode string
		busy bool
	}{{"spin", true}, {"silent", false}} {
		t.Run(tc.mode, func(t *testing.T) {
			s := offMoveSession(t, tc.mode, drivers.Clock{Move: drivers.Duration(time.Second)})
			err := s.Exchange("go", readAnswer(s))
			var f *Fault
			if !errors.As(err, &f) || f.Kind != drivers.FaultTime || !f.Silent || f.Busy != tc.busy {
				t.Fatalf("Exchange = %v (%+v), want a silent time fault with Busy %v", err, f, tc.busy)
			}
			want := drivers.NothingArrivedNote
			if tc.busy {
				want = drivers.ComputedNote
			}
			if got := drivers.ArrivedNote(err); got != want {
				t.Errorf("ArrivedNote = %q, want %q", got, want)
			}
		})
	}
}
