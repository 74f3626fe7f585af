package euchre

import "testing"

// The house bots keep one line a position in a memory file that both
// positions of a team may share.
func TestHouseMemoryLines(t *testing.T) {
	file := withPositionLine(nil, "p0:", "up=js\n")
	file = withPositionLine(file, "p2:", "up=ah\n")
	file = withPositionLine(file, "p0:", "up=9c\n")
	if string(file) != "p0:up=9c\np2:up=ah\n" {
		t.Errorf("file %q", file)
	}
	if got := positionLine(file, "p2:"); got != "up=ah\n" {
		t.Errorf("p2's line %q", got)
	}
	if got := positionLine(file, "p1:"); got != "" {
		t.Errorf("p1's line %q", got)
	}
	if got := string(withPositionLine([]byte("junk"), "p1:", "x\n")); got != "junk\np1:x\n" {
		t.Errorf("after a line without its newline: %q", got)
	}
}
