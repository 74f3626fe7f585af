// Package plan compiles a tournament into a match plan: every match with
// its id, round, group, seats, seed, clock and the bots' resolved commands.
// A plan is immutable, JSON-serialisable and identified by the hash of its
// content, so it can be reviewed before anything runs and a results
// directory can tell whether it belongs to it.
//
// Compiling decides everything random about a tournament from its seed, so
// the same configuration gives the same plan, byte for byte, on any machine.
package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Version is bumped when the meaning of a plan's fields changes.
const Version = 1

// Plan is a compiled tournament.
type Plan struct {
	Version    int    `json:"version"`
	Hash       string `json:"hash"`
	Tournament string `json:"tournament"`
	Game       Game   `json:"game"`
	Format     string `json:"format"`
	Seats      string `json:"seats"`
	Deal       string `json:"deal"`
	Seed       uint64 `json:"seed"`
	Rounds     int    `json:"rounds"`
	Players    int    `json:"players"`
	Bots       []Bot  `json:"bots"`
	// Fill names the bots that only complete groups.
	Fill    []string `json:"fill,omitempty"`
	Matches []Match  `json:"matches"`
}

// Game is the game every match plays.
type Game struct {
	Driver   string          `json:"driver"`
	Name     string          `json:"name"`
	Settings json.RawMessage `json:"settings"`
}

// Bot is a bot as the plan runs it.
type Bot struct {
	Name string `json:"name"`
	// House is "<driver>/<bot>" for a built-in bot, run as `arbiter bot House`.
	House   string   `json:"house,omitempty"`
	Command []string `json:"command,omitempty"`
	// Dir is relative to the configuration's root directory (slash
	// separated) when it lies inside it, so plans are the same on every
	// machine; otherwise absolute.
	Dir string            `json:"dir,omitempty"`
	Env map[string]string `json:"env,omitempty"`
	// Limits are what the bot's process may use (nil: no limit).
	Limits *drivers.Limits `json:"limits,omitempty"`
}

// Match is one match of the plan.
type Match struct {
	ID    string `json:"id"`
	Round int    `json:"round"`
	Group int    `json:"group"`
	// Shift is which seating of the group this is (1-based).
	Shift int `json:"shift"`
	// Seed decides the match's deals; seats with the same seed get the
	// same hands.
	Seed uint64 `json:"seed"`
	// Seats are bot names in seat order.
	Seats []string      `json:"seats"`
	Clock drivers.Clock `json:"clock"`
}

// ComputeHash returns the hash of the plan's content (everything but Hash).
func (p *Plan) ComputeHash() string {
	c := *p
	c.Hash = ""
	b, err := json.Marshal(&c)
	if err != nil {
		panic(fmt.Sprintf("plan does not marshal: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Bot returns the plan's bot called name.
func (p *Plan) Bot(name string) *Bot {
	for i := range p.Bots {
		if p.Bots[i].Name == name {
			return &p.Bots[i]
		}
	}
	return nil
}

// Match returns the match with the given id.
func (p *Plan) Match(id string) *Match {
	for i := range p.Matches {
		if p.Matches[i].ID == id {
			return &p.Matches[i]
		}
	}
	return nil
}
