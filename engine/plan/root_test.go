package plan

import (
	"strings"
	"testing"
)

// BotRoot finds the directory that a run took its bots' relative dirs
// from: recorded in their fingerprints, or for fingerprints recorded
// before that, from the dirs they ran in, which a dir climbing out with
// ".." cannot tell alone.
func TestBotRoot(t *testing.T) {
	ran := func(name, dir, in, root string) Bot {
		return Bot{Name: name, Dir: dir, Fingerprint: &Fingerprint{Dir: in, Root: root}}
	}
	house := Bot{Name: "h", House: "g/random", Fingerprint: &Fingerprint{House: "g/random"}}
	for _, c := range []struct {
		what string
		bots []Bot
		root string
		err  string
	}{
		{"recorded", []Bot{ran("up", "..", "/a", "/a/conf"), house}, "/a/conf", ""},
		{"below, not recorded", []Bot{ran("b", "bots/x", "/a/conf/bots/x", "")}, "/a/conf", ""},
		{"here, not recorded", []Bot{ran("b", ".", "/a/conf", "")}, "/a/conf", ""},
		{"up, not recorded", []Bot{ran("up", "..", "/a", "")}, "", `which directory bot "up"'s dir .. was taken from`},
		{"up, told by another", []Bot{ran("up", "../x", "/a/x", ""), ran("b", ".", "/a/conf", "")}, "/a/conf", ""},
		{"up, elsewhere", []Bot{ran("up", "..", "/b", ""), ran("b", ".", "/a/conf", "")}, "", `bot "up" ran in /b, which is not its dir .. in /a/conf`},
		{"two roots", []Bot{ran("x", ".", "/a", "/a"), ran("y", ".", "/b", "/b")}, "", "different directories"},
		{"house bots only", []Bot{house}, "", ""},
		{"absolute", []Bot{ran("abs", "/opt/bot", "/opt/bot", "")}, "", ""},
	} {
		root, err := (&Plan{Bots: c.bots}).BotRoot()
		if root != c.root || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: root %q, error %v; want %q, %q", c.what, root, err, c.root, c.err)
		}
	}
}
