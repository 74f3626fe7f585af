package auction

import "testing"

// TestSharedPrefix: the prefix check's hint suggests is one the game
// takes: never ".", a start that only a folder or hidden files share,
// nor state or log; a command's file name first.
func TestSharedPrefix(t *testing.T) {
	for _, tc := range []struct {
		command, names []string
		want           string
	}{
		{[]string{"./tym42"}, []string{"tym42tmp", "tym42.dat"}, "tym42"},
		{[]string{"python3", "tym7.py"}, []string{"tym7x"}, "tym7"},
		{[]string{"./bot"}, []string{"mine1", "mine2"}, "mine"},
		{[]string{"./bot"}, []string{".a", ".b"}, ""},
		{[]string{"./bot"}, []string{"..x", "..y"}, ""},
		{[]string{"./bot"}, []string{"only"}, ""},
	} {
		if got := sharedPrefix(tc.command, tc.names); got != tc.want {
			t.Errorf("sharedPrefix(%q, %q) = %q, want %q", tc.command, tc.names, got, tc.want)
		}
	}
}
