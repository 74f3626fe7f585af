package blokus

import (
	"os"
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/drivers/board"
)

// TestProtocolDocNamesEveryCommand: every command the referee sends a
// bot, on a board with filled cells too, is in the protocol's command
// list of docs/protocols/blokus.md, which bot authors write from.
func TestProtocolDocNamesEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocols/blokus.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(string(doc), "## Protocol")
	list, _, _ = strings.Cut(list, "## Adapter")
	documented := map[string]bool{}
	for _, l := range strings.Split(list, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			documented[f[0]] = true
		}
	}
	s := settingsOf(t, 3, 4, []board.Cell{{X: 1, Y: 1}}, "0,0", "0,0;1,0")
	ps := []*scripted{newScripted("2,0", "pass"), newScripted("0,3", "1,2 2,2")}
	Referee(t.Context(), s, 1, []Player{ps[0], ps[1]}, &events{})
	for i, p := range ps {
		for _, cmd := range p.cmds {
			if name := strings.Fields(cmd)[0]; !documented[name] {
				t.Errorf("seat %d was sent %q, but docs/protocols/blokus.md's protocol does not list %s", i, cmd, name)
			}
		}
	}
}
