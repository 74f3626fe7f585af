package blokus

import (
	"strings"
	"testing"
)

// FuzzAnswers: the lines a bot answers gen_move with, players taking
// turns, are each a placement the position takes, a pass or a fault,
// never a crash.
func FuzzAnswers(f *testing.F) {
	for _, s := range []string{"0,0", "0,0 0,1\n7,7", "pass", "0,0 1,1", "a,b", "", "-1,0", "0,0 0,0", "99999999999999999999,0", "7,7 7,6 6,7 6,6"} {
		f.Add(s)
	}
	rules, err := NewRules(8, 8, nil, checkStones())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, answers string) {
		p := NewPosition(rules)
		for i, text := range strings.Split(answers, "\n") {
			pl := i % 2
			if strings.EqualFold(text, "pass") {
				_, _ = p.FirstMove(pl)
				continue
			}
			cells, err := ParseCells(text)
			if err != nil {
				continue
			}
			pm, problem := p.Check(pl, cells)
			if problem != "" {
				continue
			}
			_ = FormatCells(rules.Cells(pm))
			p.Apply(pl, pm)
		}
	})
}
