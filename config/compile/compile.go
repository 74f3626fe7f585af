// Package compile turns a tournament of a configuration into a match plan
// (package engine/plan).
//
// Compiling decides everything random about a tournament from its seed, so
// the same configuration gives the same plan, byte for byte, on any machine.
package compile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Compile turns a tournament of cfg into a plan.
func Compile(cfg *config.Config, t *config.Tournament) (*plan.Plan, hcl.Diagnostics) {
	p, ms, n, diags := Stream(cfg, t)
	if p == nil || p.Matches != nil || ms == nil {
		return p, diags
	}
	// The list is made at its final size: growing it by appending would
	// hold up to three times its size at once, at a million matches.
	p.Matches = make([]plan.Match, 0, n)
	ms(func(m *plan.Match) bool {
		c := *m
		c.Seats = slices.Clone(m.Seats)
		p.Matches = append(p.Matches, c)
		return true
	})
	return p, diags
}

// Stream is Compile without making the plan's list of matches when the
// tournament's format lists them (all but a tournament in stages, whose
// plan has its Matches): p.Matches is nil, and ms makes the n matches one
// at a time whenever it is walked (nil when none is listed). p.Hash is
// computed from them as they are made, so compiling takes memory that
// does not grow with the number of matches.
func Stream(cfg *config.Config, t *config.Tournament) (p *plan.Plan, ms plan.Seq, n int, diags hcl.Diagnostics) {
	settings, err := json.Marshal(t.Game.Game.Settings())
	if err != nil {
		return nil, nil, 0, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Game settings do not serialise",
			Detail: fmt.Sprintf("The %s driver produced settings that are not JSON (%v); this is a bug in arbiter.", t.Game.Driver, err), Subject: t.Game.DeclRange.Ptr()}}
	}
	p = &plan.Plan{
		Version:    plan.Version,
		Tournament: t.Name,
		Game:       plan.Game{Driver: t.Game.Driver, Name: t.Game.Name, Settings: settings},
		Format:     t.Format,
		Seats:      t.Seats,
		Deal:       t.Deal,
		Order:      t.Order,
		Seed:       t.Seed,
		Rounds:     t.Rounds,
		Players:    t.Players,
		Rating:     t.Rating,
	}
	var variants []string
	if v, ok := t.Game.Game.(drivers.Variants); ok {
		variants = v.Variants()
	}
	for _, b := range append(append([]*config.Bot{}, t.Bots...), t.Fill...) {
		pb := planBot(cfg.Root, b)
		if lim := config.BotLimits(t, b); !lim.IsZero() {
			pb.Limits = &lim
			diags = append(diags, hiddenLinks(b, lim.Sandbox)...)
			if d := config.CheckSandboxProgram(b, lim.Sandbox); d != nil {
				diags = append(diags, d)
			} else if d := config.CheckSandboxInterpreter(b, lim.Sandbox); d != nil {
				diags = append(diags, d)
			}
			if d := config.CheckSandboxDir(b); d != nil && lim.Sandbox != nil {
				diags = append(diags, d)
			}
		}
		p.Bots = append(p.Bots, pb)
	}
	p.Fill = botNames(t.Fill)
	for _, g := range t.Grades {
		p.Grades = append(p.Grades, plan.Grade{Label: g.Label, Percent: g.Percent})
	}
	if len(t.Bots) == 0 {
		return nil, nil, 0, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No bots",
			Detail: "The tournament's bots list is empty. List the bots that take part, like [bot.alice, bot.bob].", Subject: rangePtr(t.Ranges["bots"])}}
	}
	if len(t.Stages) > 0 {
		if d := compileStages(cfg, t, p, variants); d != nil {
			return nil, nil, 0, hcl.Diagnostics{d}
		}
		p.Hash = p.ComputeHash()
		return p, p.All(), len(p.Matches), diags
	}
	p.Candidates = botNames(t.Candidates)
	listing, d := list(p, t)
	if d != nil {
		return nil, nil, 0, hcl.Diagnostics{d}
	}
	clock := t.Game.Game.Clock()
	if listing.Pairing != tournament.NoPairing || t.Rating.Playoffs() {
		p.Later = &plan.Later{Pairing: listing.Pairing, From: listing.From, Playoffs: t.Rating.Playoffs(), Clock: clock, Variants: variants}
		if listing.Pairing != tournament.NoPairing {
			p.Later.Revision = plan.RevisionFor(listing.Pairing, p.Players)
		}
	}
	p.Stop = stopRule(t)
	seatings := len(t.Seats.Seatings(t.Players))
	for _, groups := range listing.Rounds {
		n += len(groups) * seatings
	}
	if n > 0 { // no listed match stays nil: "matches": null in the plan
		ms = p.ListedSeq(listing.Rounds, clock, variants)
	}
	p.Hash = p.HashSeq(ms)
	return p, ms, n, diags
}

// list lists the rounds of t that its format can list before the run.
func list(p *plan.Plan, t *config.Tournament) (*tournament.Listing, *hcl.Diagnostic) {
	field := botNames(t.Bots)
	listing, err := t.Format.List(&tournament.Setup{
		Bots: field, Candidates: p.Candidates, Fill: len(t.Fill),
		Players: t.Players, Rounds: t.Rounds, RandomRounds: t.RandomRounds,
		Seatings: len(t.Seats.Seatings(t.Players)),
		Draw:     func(r int) []string { return p.DrawOrder(r, field) },
	})
	var fill *tournament.NotEnoughFill
	var many *tournament.TooManyMatches
	switch {
	case errors.As(err, &fill):
		return nil, notEnoughFill(t, fill.Why, len(t.Fill))
	case errors.As(err, &many):
		return nil, tooMany(t, many)
	case err != nil:
		panic(fmt.Sprintf("compile: format %v lists with an unknown error: %v", t.Format, err))
	}
	return listing, nil
}

// stopRule is t's stopping rule, or nil.
func stopRule(t *config.Tournament) *plan.Stop {
	s := t.Stop
	if s == nil {
		return nil
	}
	out := &plan.Stop{MaxMatches: s.MaxMatches, IntervalWidth: s.IntervalWidth}
	if s.SPRT != nil {
		cand := t.Bots[0].Name
		if len(t.Candidates) == 1 {
			cand = t.Candidates[0].Name
		}
		out.SPRT = &plan.SPRT{Candidate: cand, Elo0: s.SPRT.Elo0, Elo1: s.SPRT.Elo1, Alpha: s.SPRT.Alpha, Beta: s.SPRT.Beta}
		if s.SPRT.Model != config.SPRTModels[0] {
			out.SPRT.Model = s.SPRT.Model
		}
	}
	return out
}

func notEnoughFill(t *config.Tournament, why string, have int) *hcl.Diagnostic {
	subject := rangePtr(t.Ranges["fill"])
	if subject == nil {
		subject = rangePtr(t.Ranges["bots"])
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not enough fill bots",
		Detail:  fmt.Sprintf("%s, but fill lists %d bot(s). Add house bots to fill, or change the field or players.", why, have),
		Subject: subject}
}

// capNote says what the cap on a plan's matches is not: stop's
// max_matches ends a run early, but the plan still lists every match.
const capNote = "A plan lists at most 1000000 matches whatever its stop block says: max_matches stops a run, it does not shorten the plan."

// tooMany says which setting makes too many matches: the rounds, when
// one round is within the limit, else the field.
func tooMany(t *config.Tournament, many *tournament.TooManyMatches) *hcl.Diagnostic {
	if many.PerRound > 0 && many.Rounds > 1 {
		subject := rangePtr(t.Ranges["rounds"])
		if subject == nil {
			subject = rangePtr(t.Ranges["bots"])
		}
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many matches",
			Detail: fmt.Sprintf("This %s would list %d matches a round for %d rounds, more than %d matches in all. Use at most %d rounds, or fewer matches a round (fewer bots or a smaller seat design). %s",
				many.What, many.PerRound, many.Rounds, tournament.MaxMatches, tournament.MaxMatches/many.PerRound, capNote),
			Subject: subject}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many matches",
		Detail:  fmt.Sprintf("One round of this %s would list more than %d matches. Use fewer bots, fewer players per match, a smaller seat design (\"balanced\" instead of \"permute\") or format \"groups\". %s", many.What, tournament.MaxMatches, capNote),
		Subject: rangePtr(t.Ranges["bots"])}
}

// hiddenLinks warns of the symbolic links of a player's folder, or
// those an organiser's bot's command names in its folder
// (drivers.CommandLinks: its folder may be large, dir = "."), that lead
// out of it to what its sandbox sb (nil: none) does not show
// (drivers.HiddenLinks): the listing shows the file, but every match it
// plays would end in its failing to open it, or to start.
func hiddenLinks(b *config.Bot, sb *drivers.Sandbox) hcl.Diagnostics {
	if sb == nil || b.House != "" {
		return nil
	}
	links, summary, named, fix := drivers.CommandLinks(b.Command, b.Dir, *sb), "Link out of a bot's folder", "its command names %s, a symbolic link", ", name the file by its own path in the command (the sandbox shows the files the organiser's command names)"
	if b.Submitted {
		links, summary, named, fix = drivers.HiddenLinks(b.Dir, *sb), "Link out of a player's folder", "%s is a symbolic link", ""
	}
	var diags hcl.Diagnostics
	for _, l := range links {
		link, _ := os.Readlink(l.Path)
		where := fmt.Sprintf("which leads to %s, outside the bot's folder %s", l.Target, b.Dir)
		if l.Through != "" {
			where = fmt.Sprintf("which goes through %s, outside the bot's folder %s, on its way to %s", l.Through, b.Dir, l.Target)
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary,
			Detail: fmt.Sprintf("Bot %q: "+named+" to %s, %s. In the sandbox (the default) a bot sees only its own folder, the system's folders and the interpreters on PATH, so the link will not be visible inside the sandbox: the bot cannot open it, and a match that needs it ends in a fault. Copy the file into %s%s, or run the tournament with limits { sandbox = false }.",
				b.Name, l.Path, link, where, b.Dir, fix),
			Subject: b.DeclRange.Ptr()})
	}
	return diags
}

func planBot(root string, b *config.Bot) plan.Bot {
	pb := plan.Bot{Name: b.Name, House: b.House, Env: b.Env}
	if b.Nick != b.Name {
		pb.Nick = b.Nick
	}
	if b.House == "" {
		pb.Command = b.Command
		pb.Dir = b.Dir
		if len(b.Build) > 0 {
			pb.Build, pb.BuildTimeout = b.Build, drivers.Duration(b.BuildTimeout)
		}
		if rel, err := filepath.Rel(root, b.Dir); err == nil {
			pb.Dir = filepath.ToSlash(rel)
		}
	}
	return pb
}

func rangePtr(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return &r
}

// botNames are the names of bots (nil for none).
func botNames(bots []*config.Bot) []string {
	var names []string
	for _, b := range bots {
		names = append(names, b.Name)
	}
	return names
}
