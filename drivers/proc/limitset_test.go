package proc

import (
	"testing"
	"time"
)

// A time fault says the limit that set the deadline, to the millisecond:
// what rounds to the whole is said as the whole.
func TestLimitSetSaid(t *testing.T) {
	ms := time.Millisecond
	for _, tt := range []struct {
		l    limitSet
		want string
	}{
		{limitSet{kind: moveLimit, left: time.Second, of: time.Second}, "its move limit of 1s"},
		{limitSet{kind: turnLimit, left: 298 * ms, of: 800 * ms}, "the 298ms left of its turn of 800ms"},
		{limitSet{kind: turnLimit, left: 2*time.Second - 50*time.Microsecond, of: 2 * time.Second}, "its turn of 2s"},
		{limitSet{kind: clockLimit, left: 5 * time.Minute, of: 5 * time.Minute, startup: 10 * time.Second}, "its clock of 5m0s and the 10s left of its start-up allowance"},
		{limitSet{kind: clockLimit, left: 571400 * time.Microsecond, of: 2 * time.Second}, "the 571ms left of its clock of 2s"},
		{limitSet{}, ""},
	} {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.l, got, tt.want)
		}
	}
}
