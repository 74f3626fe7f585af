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
		return nil, fmt.Errorf("not a plan this arbiter can read (%v); make one with arbiter plan -json", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not a plan: more follows the plan's JSON object")
	}
	if p.Version != Version {
		return nil, fmt.Errorf("a plan of version %d, and this arbiter runs version %d; compile the configuration again with this arbiter (arbiter plan -json)", p.Version, Version)
	}
	if h := p.ComputeHash(); h != p.Hash {
		return nil, fmt.Errorf("the plan's content does not match its hash (%.12s, content %.12s): it was edited after it was compiled; compile it again (arbiter plan -json) rather than editing it", p.Hash, h)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("not a runnable plan: %w", err)
	}
	return &p, nil
}

// check reports a plan whose parts do not fit together, which no
// compiler made.
func (p *Plan) check() error {
	if p.Game.Driver == "" {
		return fmt.Errorf("it names no game driver")
	}
	if len(p.Matches) == 0 {
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
	for _, m := range p.Matches {
		for _, n := range m.Seats {
			if !bots[n] {
				return fmt.Errorf("match %s seats %q, which is not one of the plan's bots", m.ID, n)
			}
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
