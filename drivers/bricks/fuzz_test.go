package bricks

import (
	"strings"
	"testing"
)

// FuzzAnswers: the lines a bot answers with, one a move, are each a move
// the board takes or a fault (not a move, or an illegal one whose
// problem is said in both the arbiter's and the original's words), never
// a crash.
func FuzzAnswers(f *testing.F) {
	for _, s := range []string{"0x0_1x0", "1x2_2x2\n0x0_0x1", "-1x0_0x0", "+4x4_4x3", "4x4_5x4", "1x1_1x1", "x_x", "", "999999999x0_0x0", "0x0_1x0_2x0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answers string) {
		b := NewBoard(5, []Cell{{X: 2, Y: 2}})
		for _, a := range strings.Split(answers, "\n") {
			mv, ok := ParseMove(a)
			if !ok {
				continue
			}
			if problem := b.Check(mv); problem != "" {
				if b.OriginalProblem(mv) == "" {
					t.Errorf("%q: illegal (%s), but the original's words are empty", a, problem)
				}
				continue
			}
			b.Place(mv)
			_ = mv.String()
			if !b.HasMove() {
				return
			}
		}
	})
}
