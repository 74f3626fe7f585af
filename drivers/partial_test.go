package drivers

import (
	"strings"
	"testing"
)

// TestWithoutLineEnd checks the wording of a partial answer: kept as it
// arrived (a lone "\r" too), clipped at a UTF-8 character's start with
// the mark outside the quotes.
func TestWithoutLineEnd(t *testing.T) {
	for _, tc := range []struct{ partial, want string }{
		{"OK", `only "OK" arrived, without its line's end`},
		{"OK\r", `only "OK\r" arrived, without its line's end`},
		{strings.Repeat("0", 100), `only "` + strings.Repeat("0", 80) + `" (clipped at 80 bytes) arrived, without its line's end`},
		{strings.Repeat("0", 79) + "é" + "tail", `only "` + strings.Repeat("0", 79) + `" (clipped at 79 bytes) arrived, without its line's end`},
	} {
		if got := WithoutLineEnd(tc.partial); got != tc.want {
			t.Errorf("WithoutLineEnd(%q) = %s, want %s", tc.partial, got, tc.want)
		}
	}
}

// TestWithoutArrivedNote checks that every note on what a bot was doing
// at its time-out is stripped from the end of a detail, and nothing else.
func TestWithoutArrivedNote(t *testing.T) {
	const d = "no answer within 1s"
	for _, note := range []string{NothingArrivedNote, QueuedNote, ComputedNote, WaitingNote, TakenNote} {
		if got := WithoutArrivedNote(d + note); got != d {
			t.Errorf("WithoutArrivedNote(%q) = %q, want %q", d+note, got, d)
		}
	}
	for _, keep := range []string{d, d + ": " + WithoutLineEnd("1"), NothingArrivedNote + "; and more"} {
		if got := WithoutArrivedNote(keep); got != keep {
			t.Errorf("WithoutArrivedNote(%q) = %q, want it unchanged", keep, got)
		}
	}
}
