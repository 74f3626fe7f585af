package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Read reads a saved plan: the output of `arbiter plan -json`, or the
// plan.json of a results directory. It checks that the file is a whole
// plan that this arbiter can run as it was reviewed: a version it knows,
// no field it does not, a hash that matches the content (so an edited or
// truncated plan is refused), and matches that seat the plan's bots.
func Read(path string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse is Read of a plan's bytes.
func Parse(b []byte) (*Plan, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, notAPlan(err)
	}
	if dec.More() {
		return nil, errMore
	}
	if err := p.verify(p.ComputeHash(), len(p.Matches), seatsOf(p.All())); err != nil {
		return nil, err
	}
	return &p, nil
}

var errMore = fmt.Errorf("not a plan: more follows the plan's JSON object")

func notAPlan(err error) error {
	return fmt.Errorf("not a plan this arbiter can read (%v); make one with arbiter plan -json", err)
}

// verify is Parse's checks of a decoded plan, given the hash of its
// content, its number of matches and what they seat.
func (p *Plan) verify(hash string, n int, seats []seat) error {
	if p.Version != Version {
		return fmt.Errorf("a plan of version %d, and this arbiter runs version %d; compile the configuration again with this arbiter (arbiter plan -json)", p.Version, Version)
	}
	if hash != p.Hash {
		return fmt.Errorf("the plan's content does not match its hash (%.12s, content %.12s): it was edited after it was compiled; compile it again (arbiter plan -json) rather than editing it", p.Hash, hash)
	}
	if err := p.check(n, seats); err != nil {
		return fmt.Errorf("not a runnable plan: %w", err)
	}
	return nil
}

// seat is a name the matches seat and the first match that seats it.
type seat struct{ name, match string }

// seatsOf lists the names that the matches of ms seat, each with the
// first match seating it, in the order they first appear.
func seatsOf(ms Seq) []seat {
	var out []seat
	seen := map[string]bool{}
	if ms != nil {
		ms(func(m *Match) bool {
			for _, n := range m.Seats {
				if !seen[n] {
					seen[n] = true
					out = append(out, seat{n, m.ID})
				}
			}
			return true
		})
	}
	return out
}

// check reports a plan whose parts do not fit together, which no
// compiler made: n is its number of matches, seats what they seat.
func (p *Plan) check(n int, seats []seat) error {
	if p.Game.Driver == "" {
		return fmt.Errorf("it names no game driver")
	}
	if n == 0 {
		return fmt.Errorf("it lists no matches")
	}
	bots := map[string]bool{}
	for _, b := range p.Bots {
		if bots[b.Name] {
			return fmt.Errorf("bot %q is listed twice", b.Name)
		}
		bots[b.Name] = true
		if b.House == "" && len(b.Command) == 0 {
			return fmt.Errorf("bot %q has neither a house bot nor a command", b.Name)
		}
	}
	for _, names := range [][]string{p.Fill, p.Candidates} {
		for _, n := range names {
			if !bots[n] {
				return fmt.Errorf("%q is not one of the plan's bots", n)
			}
		}
	}
	// The first name that is no bot, in order of first appearance, is in
	// the first match that seats a stranger.
	for _, s := range seats {
		if !bots[s.name] {
			return fmt.Errorf("match %s seats %q, which is not one of the plan's bots", s.match, s.name)
		}
	}
	return nil
}

// DirIn is the bot's working directory when the plan's relative dirs are
// relative to root (see Bot.Dir).
func (b *Bot) DirIn(root string) string {
	if filepath.IsAbs(b.Dir) {
		return b.Dir
	}
	return filepath.Join(root, filepath.FromSlash(b.Dir))
}
