package rating

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FuzzFitPGN: any bytes given to rank -pgn are ratings (which rank then
// prints) or an error, never a crash; ReadPGN reads them alike.
func FuzzFitPGN(f *testing.F) {
	ref, err := os.ReadFile("testdata/bayeselo/ref.pgn")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ref[:min(len(ref), 4096)])
	for _, s := range []string{
		"[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
		"[White \"a\"][Black \"b\"][Result \"1/2-1/2\"] { open comment",
		"[White \"a\"]\n[Black \"b\"]\n1. e4 (1. d4 *\n",
		"[White \"\"]\n[Black \"b\"]\n[Result \"0-1\"]\n0-1\n",
		"[White \"a\\\"b\"]\n[Black \"a\"]\n[Result \"*\"]\n*\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _, _ = ReadPGN(bytes.NewReader(b))
		r, rep, err := FitPGN(bytes.NewReader(b), DefaultOptions())
		if err != nil || rep.Rated == 0 {
			return
		}
		plus, minus := r.ExactDist()
		if err := r.WriteTable(io.Discard, plus, minus); err != nil {
			t.Fatal(err)
		}
		_ = r.Rows(plus, minus)
	})
}
