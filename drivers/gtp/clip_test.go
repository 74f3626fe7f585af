package gtp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipKeepsCharacters: a bot's text is cut at the start of a
// character, never inside one.
func TestClipKeepsCharacters(t *testing.T) {
	for _, s := range []string{
		"a" + strings.Repeat("é", 150), // a two-byte character across byte 200
		strings.Repeat("€", 100),       // three bytes each
		strings.Repeat("x", 300),
	} {
		got := Clip(s)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "...") || len(got) > MaxQuoted+3 || !strings.HasPrefix(s, strings.TrimSuffix(got, "...")) {
			t.Errorf("Clip(%.20q...) = %q", s, got)
		}
	}
	if got := Clip("short é"); got != "short é" {
		t.Errorf("Clip of a short text = %q", got)
	}
}
