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
	if err := p.verify(p.ComputeHash(), p.checkMatches(false)); err != nil {
		return nil, err
	}
	return &p, nil
}

// checkMatches checks p's matches in order, as a plan only read when read
// (matchCheck.read).
func (p *Plan) checkMatches(read bool) *matchCheck {
	mc := newMatchCheck(p)
	mc.read = read
	for i := range p.Matches {
		mc.add(&p.Matches[i])
	}
	return mc
}

// Runnable checks what Parse checks of a plan's content, but not its
// version or hash, nor the rules of what may be run (matchCheck.read),
// which an earlier arbiter may have written and run by: a plan read as it
// was written, in a results directory, is one every reader can go through
// (seats and players that agree, rounds within bounds), or the error says
// what is not.
func (p *Plan) Runnable() error {
	mc := p.checkMatches(true)
	if err := p.check(mc); err != nil {
		return fmt.Errorf("not a runnable plan: %w", err)
	}
	return nil
}

var errMore = fmt.Errorf("not a plan: more follows the plan's JSON object")

func notAPlan(err error) error {
	return fmt.Errorf("not a plan this arbiter can read (%v); make one with arbiter plan -json", err)
}

// verify is Parse's checks of a decoded plan, given the hash of its
// content and the check of its matches.
func (p *Plan) verify(hash string, mc *matchCheck) error {
	if p.Version != Version {
		return fmt.Errorf("a plan of version %d, and this arbiter runs version %d; compile the configuration again with this arbiter (arbiter plan -json)", p.Version, Version)
	}
	if hash != p.Hash {
		return fmt.Errorf("the plan's content does not match its hash (%.12s, content %.12s): it was edited after it was compiled; compile it again (arbiter plan -json) rather than editing it", p.Hash, hash)
	}
	if err := p.check(mc); err != nil {
		return fmt.Errorf("not a runnable plan: %w", err)
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
