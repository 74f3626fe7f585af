package bricks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
)

// The original referee's files in the results directory.
const (
	DuelsFile  = "duels.txt"
	ScoreFile  = "score.txt"
	ErrorsFile = "err.txt"
	DuelsDir   = "duels"
)

// reportCache keeps what Report read of each finished duel, so that a
// tournament of thousands of duels does not reread them all after each.
type reportCache struct {
	mu     sync.Mutex
	ends   map[string]End // by match directory
	copied map[string]bool
}

// Report rewrites the original referee's files from every finished duel,
// in plan order. A duel's index is its position in the plan counted from
// 0, as the original counts its duels.
func (g *Game) Report(dir string, matches []drivers.ReportedMatch) error {
	c := &g.report
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ends == nil {
		c.ends, c.copied = map[string]End{}, map[string]bool{}
	}
	if err := os.MkdirAll(filepath.Join(dir, DuelsDir), 0o755); err != nil {
		return err
	}
	duels := make([]Duel, 0, len(matches))
	for _, rm := range matches {
		end, ok := c.ends[rm.Dir]
		if !ok {
			b, err := os.ReadFile(filepath.Join(rm.Dir, EndFile))
			if err != nil {
				return fmt.Errorf("duel %s: %w", rm.ID, err)
			}
			if err := json.Unmarshal(b, &end); err != nil {
				return fmt.Errorf("duel %s: %s: %w", rm.ID, EndFile, err)
			}
			c.ends[rm.Dir] = end
		}
		if len(rm.Nicks) != 2 || len(rm.Bots) != 2 {
			return fmt.Errorf("duel %s has %d seats, not 2", rm.ID, len(rm.Nicks))
		}
		d := Duel{Index: rm.Index - 1, Bots: [2]string(rm.Bots), Nicks: [2]string(rm.Nicks), End: end}
		if w := rm.Outcome.Seats; len(w) == 2 && w[end.Winner].Fault != "" {
			// The game's winner was judged at fault after the game: a
			// second bot whose build failed, never tried since the
			// first could not start either. Nobody won the duel.
			d.NoWinner, d.WinnerFault = true, w[end.Winner].Detail
		}
		duels = append(duels, d)
		dst := filepath.Join(dir, DuelsDir, strconv.Itoa(d.Index)+".txt")
		if !c.copied[dst] {
			if err := copyFile(filepath.Join(rm.Dir, ReplayFile), dst); err != nil {
				return fmt.Errorf("duel %s: %w", rm.ID, err)
			}
			c.copied[dst] = true
		}
	}
	for _, f := range []struct {
		name string
		text []byte
	}{
		{DuelsFile, DuelsText(duels)},
		{ScoreFile, ScoreText(duels)},
		{ErrorsFile, ErrorsText(duels)},
	} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.text); err != nil {
			return err
		}
	}
	return nil
}

// Duel is one finished duel as the original's files see it.
type Duel struct {
	Index int
	Bots  [2]string // seat 0 started
	Nicks [2]string
	End   End
	// NoWinner says both players lost: End's winner could not be started
	// either (WinnerFault says why), which the original, trying one
	// player at a time, never had to say. Such a duel's winner field is
	// empty and both players have a loss with a fault code.
	NoWinner    bool
	WinnerFault string
}

// DuelsText is duels.txt: "index:starting:following:winner:message" per
// duel, the message being the original's closing sentence ("Player X won
// normally!", or the fault's), as its DuelSaver writes it.
func DuelsText(duels []Duel) []byte {
	var b bytes.Buffer
	for _, d := range duels {
		winner, msg := d.Nicks[d.End.Winner], d.End.Message
		if d.NoWinner {
			winner = ""
			msg += fmt.Sprintf(" Player %s -> %s", d.Nicks[d.End.Winner], d.WinnerFault)
		}
		fmt.Fprintf(&b, "%d:%s:%s:%s:%s\n", d.Index, d.Nicks[0], d.Nicks[1], winner, msg)
	}
	return b.Bytes()
}

// ScoreText is score.txt: one line per player,
// "nick \twins/losses \tnormal_wins/fault_losses\tcodes", sorted by wins
// (most first), then normal wins (most first), then fault losses (fewest
// first); ties keep the order in which players first appear in the duels,
// as the original's stable sort does.
func ScoreText(duels []Duel) []byte {
	type score struct {
		nick                         string
		wins, losses, normal, faults int
		codes                        strings.Builder
	}
	var order []*score
	byBot := map[string]*score{}
	get := func(bot, nick string) *score {
		s, ok := byBot[bot]
		if !ok {
			s = &score{nick: nick}
			byBot[bot] = s
			order = append(order, s)
		}
		return s
	}
	for _, d := range duels {
		p := [2]*score{get(d.Bots[0], d.Nicks[0]), get(d.Bots[1], d.Nicks[1])}
		w, l := p[d.End.Winner], p[1-d.End.Winner]
		if d.NoWinner { // both lost: the second could not be started either
			w.losses++
			w.faults++
			w.codes.WriteByte(CodeNoStart)
		} else {
			w.wins++
		}
		l.losses++
		if d.End.Code == string(rune(CodeNormal)) && !d.NoWinner {
			w.normal++
		} else {
			l.faults++
			l.codes.WriteString(d.End.Code)
		}
	}
	slices.SortStableFunc(order, func(a, b *score) int {
		switch {
		case a.wins != b.wins:
			return b.wins - a.wins
		case a.normal != b.normal:
			return b.normal - a.normal
		}
		return a.faults - b.faults
	})
	var b bytes.Buffer
	for _, s := range order {
		// The original's ScoreDBRecord.toString: " \t" after the nick and
		// after wins/losses, a bare tab before the codes.
		fmt.Fprintf(&b, "%s \t%d/%d \t%d/%d\t%s\n", s.nick, s.wins, s.losses, s.normal, s.faults, s.codes.String())
	}
	return b.Bytes()
}

// ErrorsText is err.txt: the set-up errors (a program that could not
// start) and the silent players, one line each, in duel order.
func ErrorsText(duels []Duel) []byte {
	var b bytes.Buffer
	for _, d := range duels {
		if d.End.Error != "" {
			b.WriteString(d.End.Error + "\n")
		}
	}
	return b.Bytes()
}

func copyFile(src, dst string) error { return atomicfile.Copy(src, dst, 0o666) }

// writeFileAtomic replaces a file so that a reader never sees half of it.
func writeFileAtomic(name string, data []byte) error { return atomicfile.Write(name, data, 0o644) }
