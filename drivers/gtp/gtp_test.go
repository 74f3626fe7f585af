package gtp

import (
	"errors"
	"strings"
	"testing"
)

// TestServeFraming checks the bot side's answers: '=' with and without
// text, '?' with the error, blank lines skipped, and the end at quit.
func TestServeFraming(t *testing.T) {
	in := strings.NewReader("name\n\n  \nempty\nbad x\nquit\nname\n")
	var out strings.Builder
	var seen []string
	err := Serve(in, &out, func(f []string) (string, error) {
		seen = append(seen, strings.Join(f, " "))
		switch f[0] {
		case "name":
			return "house bot", nil
		case "bad":
			return "", errors.New("bad takes nothing")
		}
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "= house bot\n\n=\n\n? bad takes nothing\n\n=\n\n"
	if out.String() != want {
		t.Errorf("answers %q, want %q", out.String(), want)
	}
	if got := strings.Join(seen, "|"); got != "name|empty|bad x|quit" {
		t.Errorf("handled %q, want the commands up to quit", got)
	}
}
