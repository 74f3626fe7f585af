package gtp

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/proc"
)

// BenchmarkAskGTP is the cost of one command and its answer with a real
// bot process (the test binary's answerBot), alone (Ask) and three in one
// write (AskAll, as a referee writes a play with time_left and gen_move):
// the hot path of every session game.
func BenchmarkAskGTP(b *testing.B) {
	s, err := proc.Start(context.Background(), proc.Spec{
		Bot: "answers", Argv: []string{os.Args[0]}, Dir: b.TempDir(), Env: []string{"GTP_TEST_BOT=1"},
		Clock: drivers.Clock{Total: drivers.Duration(time.Hour)}, Grace: 100 * time.Millisecond,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Kill()
	b.Run("Ask", func(b *testing.B) {
		for range b.N {
			if _, _, err := Ask(s, "play 0 AS"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AskAll3", func(b *testing.B) {
		p := SessionPlayer{S: s}
		for range b.N {
			for _, a := range p.AskAll("play 0 AS", "time_left 1000", "gen_move") {
				if a.Err != nil {
					b.Fatal(a.Err)
				}
			}
		}
	})
}
