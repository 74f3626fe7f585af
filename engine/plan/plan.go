// Package plan is a match plan: every match with its id, round, group,
// seats, seed, clock and the bots' resolved commands, plus the run-time
// helpers that make the matches a plan cannot list (rounds paired from
// results, playoffs). A plan is immutable, JSON-serialisable and
// identified by the hash of its content, so it can be reviewed before
// anything runs, a results directory can tell whether it belongs to it,
// and a saved plan runs on its own, without the configuration it came from.
//
// The package knows nothing of HCL or of the configuration: package
// config/compile makes plans.
package plan

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Version is bumped when the meaning of a plan's fields changes.
const Version = 1

// Plan is a compiled tournament.
type Plan struct {
	Version int    `json:"version"`
	Hash    string `json:"hash"`
	// Arbiter is the build of arbiter the plan was made with; like the
	// bots' fingerprints it is not part of Hash.
	Arbiter    *Arbiter              `json:"arbiter,omitempty"`
	Tournament string                `json:"tournament"`
	Game       Game                  `json:"game"`
	Format     tournament.Format     `json:"format"`
	Seats      tournament.SeatDesign `json:"seats"`
	Deal       tournament.DealMode   `json:"deal"`
	Seed       uint64                `json:"seed"`
	Rounds     int                   `json:"rounds"`
	Players    int                   `json:"players"`
	// Candidates are a gauntlet's candidates.
	Candidates []string `json:"candidates,omitempty"`
	// Rating is the ranking reported first; the default, BayesElo, is
	// left out.
	Rating tournament.Rating `json:"rating,omitempty"`
	Bots   []Bot             `json:"bots"`
	// Fill names the bots that only complete groups.
	Fill []string `json:"fill,omitempty"`
	// Order is the order of a round's matches; the default, by group, is
	// left out.
	Order tournament.Order `json:"order,omitempty"`
	// Later describes the matches that depend on results and so cannot be
	// listed: rounds grouped by rating or score, and playoffs. Nil when
	// Matches is the whole tournament.
	Later *Later `json:"later,omitempty"`
	// Stop is the stopping rule, or nil.
	Stop *Stop `json:"stop,omitempty"`
	// Stages are the stages of a tournament played in stages (nil
	// otherwise); Matches then lists the matches of the first stages
	// whose fields are named bots (ListedStages), and the engine makes
	// each later stage's when the stages before it have finished.
	Stages []Stage `json:"stages,omitempty"`
	// Grades label bands of the final ranking (nil: none).
	Grades  []Grade `json:"grades,omitempty"`
	Matches []Match `json:"matches"`
	// Made names, in order, the later stages made so far that Matches
	// holds, those without a match too (a gate that admitted too few
	// bots, a field the game cannot seat): what is made is not to come.
	// Not saved: the engine names each stage as it adds its matches; a
	// stage Matches holds a match of is made, named or not.
	Made []string `json:"-"`
	// Unrecorded names, by their files in rounds/, the later steps
	// that a reader of a results directory made again from the results
	// while their files are missing and none of their matches has a
	// result: nothing the directory holds says that its run made them,
	// so a playoff of them to come is not said to be made. Not saved.
	Unrecorded []string `json:"-"`
}

// Later is how the engine makes the matches that a plan cannot list. The
// matches it makes are a pure function of the plan and the results of
// the matches before them, so a resumed run makes the same ones.
type Later struct {
	// Pairing is how rounds From..Rounds are grouped (NoPairing, left
	// out, when every round is listed).
	Pairing tournament.Pairing `json:"pairing,omitempty"`
	From    int                `json:"from,omitempty"`
	// Revision is the revision of the pairing rules the rounds are
	// paired by (package pairing): 0, left out, in a plan made before
	// PairingRevision 1, and a plan made before a later revision keeps
	// its own, whose rounds are paired as they were then, so that its
	// run resumes, replays and merges as it began.
	Revision int `json:"revision,omitempty"`
	// Playoffs says that bots tied on mean place after all rounds play
	// playoff matches (a rating whose Playoffs is true), up to MaxPlayoffs
	// stages.
	Playoffs bool `json:"playoffs,omitempty"`
	// Clock and Variants are what the later matches play with.
	Clock    drivers.Clock `json:"clock"`
	Variants []string      `json:"variants,omitempty"`
}

// PairingRevision is the latest revision of the pairing rules
// (Later.Revision); RevisionFor says which a plan is made with now. Revision 1: a rating difference that no
// game links counts as unknown, so a bot's best opponent by rating is one
// it has no link to (rather than its only opponent again), and a Swiss
// round's fill seats go to the bots that have had them least, wherever
// the short groups then fall. Revision 2: a Swiss round of duels has the
// fewest meetings possible, found by a matching rather than a search
// bounded in its steps, which on a large field could stop with
// rematches that another pairing avoids.
const PairingRevision = 2

// RevisionFor is the revision that a plan pairing its rounds by pairing
// in groups of players is made with now: the latest that changed how
// such rounds are paired. Revision 2 changed only Swiss duels, so a plan
// paired by rating, or a Swiss in larger groups, is made with revision
// 1 as before it, and its configuration compiled again after an upgrade
// is the plan its results directory holds.
func RevisionFor(pairing tournament.Pairing, players int) int {
	if pairing == tournament.ByScore && players == 2 {
		return PairingRevision
	}
	return 1
}

// MaxPlayoffs is how many playoff stages may follow the rounds: bots that
// tie after them (identical bots do, forever) stay tied.
const MaxPlayoffs = 3

// Stop is a stopping rule; any part that triggers stops the run. The
// engine evaluates it on the longest finished prefix of the matches in
// plan order, so the decision does not depend on how many matches ran at
// once or in which order they finished.
type Stop struct {
	SPRT *SPRT `json:"sprt,omitempty"`
	// MaxMatches: the run plays only the first MaxMatches matches.
	MaxMatches int `json:"max_matches,omitempty"`
	// IntervalWidth: stop at the end of a round when every bot of the
	// field has a 95% rating interval narrower than this, in Elo.
	IntervalWidth float64 `json:"interval_width,omitempty"`
}

// SPRT tests Candidate against its opponents.
type SPRT struct {
	Candidate string  `json:"candidate"`
	Elo0      float64 `json:"elo0"`
	Elo1      float64 `json:"elo1"`
	Alpha     float64 `json:"alpha"`
	Beta      float64 `json:"beta"`
	// Model is what elo0 and elo1 measure (rating.SPRT.Model).
	Model string `json:"model,omitempty"`
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
	// separated, "../x" when it lies outside it), so plans and their
	// hashes are the same wherever the files are checked out; absolute
	// only when no relative path leads there.
	Dir string            `json:"dir,omitempty"`
	Env map[string]string `json:"env,omitempty"`
	// Nick is the display name in game-specific outputs, when not Name.
	Nick string `json:"nick,omitempty"`
	// Limits are what the bot's process may use (nil: no limit).
	Limits *drivers.Limits `json:"limits,omitempty"`
	// Build is run once in Dir before the bot's first match, within
	// BuildTimeout (see engine's builds).
	Build        []string         `json:"build,omitempty"`
	BuildTimeout drivers.Duration `json:"build_timeout,omitempty"`
	// Fingerprint is what the bot runs (not part of the plan's Hash).
	Fingerprint *Fingerprint `json:"fingerprint,omitempty"`
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
	Seats []string `json:"seats"`
	// Variant is the game variant the match plays (drivers.Variants).
	Variant string        `json:"variant,omitempty"`
	Clock   drivers.Clock `json:"clock"`
	// Stage and Pool place a match of a tournament played in stages.
	Stage string `json:"stage,omitempty"`
	Pool  int    `json:"pool,omitempty"`
}

// Grade is a label given to the bots ranked within the top Percent of
// the field (Percent of the ranked bots, rounded down).
type Grade struct {
	Label   string  `json:"label"`
	Percent float64 `json:"percent"`
}

// GradeOf is the label of the narrowest grade whose band holds rank (1 =
// best) among n ranked bots, or "".
func (p *Plan) GradeOf(rank, n int) string {
	best, label := 0.0, ""
	for _, g := range p.Grades {
		if float64(rank) <= g.Percent/100*float64(n)+1e-9 && (label == "" || g.Percent < best) {
			best, label = g.Percent, g.Label
		}
	}
	return label
}

// ComputeHash returns the hash of the plan's content: everything but Hash,
// Arbiter, the bots' fingerprints and what their sandboxes bind, which
// say in what state the bots and this machine are, not which tournament
// this is.
func (p *Plan) ComputeHash() string {
	return p.HashSeq(p.All())
}

// hashed is the part of p that its hash covers (Matches aside).
func (p *Plan) hashed() *Plan {
	c := *p
	c.Hash = ""
	c.Arbiter = nil
	c.Matches = nil
	c.Bots = make([]Bot, len(p.Bots))
	for i, b := range p.Bots {
		b.Fingerprint = nil
		if b.Limits != nil && b.Limits.Sandbox != nil {
			// What the sandbox binds (an interpreter's installation) is
			// this machine's answer to the command, like a fingerprint:
			// the same configuration has the same hash everywhere.
			lim := *b.Limits
			lim.Sandbox = &drivers.Sandbox{}
			b.Limits = &lim
		}
		c.Bots[i] = b
	}
	return &c
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

// UnknownBot says that the plan has no bot called name, and what the
// user likely meant: the bot that runs in a folder of that name (a
// bots_from player folder, "Zoë Müller (late)", whose bot is
// Zo__M_ller__late_), or the closest of its bots' names, or its bots.
func (p *Plan) UnknownBot(name string) error {
	var names, in []string
	var dir string
	submitted := false
	for _, b := range p.Bots {
		if b.House == "" && b.Dir != "" && path.Base(b.Dir) == name && b.Name != name {
			in, dir = append(in, b.Name), b.Dir
			submitted = b.Limits != nil && b.Limits.Sandbox != nil && b.Limits.Sandbox.Submitted
		}
		names = append(names, b.Name)
	}
	switch {
	case len(in) == 1 && submitted:
		return fmt.Errorf("the plan has no bot %q, but the bot %q runs in the folder %q (a bots_from folder's name becomes a bot's name with every character but ASCII letters, digits, _ and - made _): use %s", name, in[0], dir, in[0])
	case len(in) == 1:
		return fmt.Errorf("the plan has no bot %q, but the bot %q runs in the folder %q: use %s", name, in[0], dir, in[0])
	case len(in) > 1:
		return fmt.Errorf("the plan has no bot %q, but the bots %s run in folders of that name: use one of them", name, strings.Join(in, ", "))
	}
	if s := drivers.Suggest(name, names); s != "" {
		return fmt.Errorf("the plan has no bot %q%s", name, s)
	}
	return fmt.Errorf("the plan has no bot %q; its bots are %s", name, strings.Join(names, ", "))
}

// GameClock is the clock the matches of p play with: the game block's,
// which compiling gives every match, every round paired during the run
// and every stage.
func (p *Plan) GameClock() drivers.Clock {
	switch {
	case len(p.Matches) > 0:
		return p.Matches[0].Clock
	case p.Later != nil:
		return p.Later.Clock
	case len(p.Stages) > 0:
		return p.Stages[0].Clock
	}
	return drivers.Clock{}
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
