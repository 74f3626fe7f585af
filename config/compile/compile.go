// Package compile turns a tournament of a configuration into a match plan
// (package engine/plan).
//
// Compiling decides everything random about a tournament from its seed, so
// the same configuration gives the same plan, byte for byte, on any machine.
package compile

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/engine/plan"
)

// Compile turns a tournament of cfg into a plan.
func Compile(cfg *config.Config, t *config.Tournament) (*plan.Plan, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	settings, err := json.Marshal(t.Game.Game.Settings())
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Game settings do not serialise",
			Detail: fmt.Sprintf("The %s driver produced settings that are not JSON (%v); this is a bug in arbiter.", t.Game.Driver, err), Subject: t.Game.DeclRange.Ptr()}}
	}
	p := &plan.Plan{
		Version:    plan.Version,
		Tournament: t.Name,
		Game:       plan.Game{Driver: t.Game.Driver, Name: t.Game.Name, Settings: settings},
		Format:     t.Format,
		Seats:      t.Seats,
		Deal:       t.Deal,
		Seed:       t.Seed,
		Rounds:     t.Rounds,
		Players:    t.Players,
	}
	if t.Rating != config.Ratings[0] {
		p.Rating = t.Rating
	}
	var variants []string
	if v, ok := t.Game.Game.(drivers.Variants); ok {
		variants = v.Variants()
	}
	for _, b := range append(append([]*config.Bot{}, t.Bots...), t.Fill...) {
		pb := planBot(cfg.Root, b)
		if lim := config.BotLimits(t, b); !lim.IsZero() {
			pb.Limits = &lim
		}
		p.Bots = append(p.Bots, pb)
	}
	for _, b := range t.Fill {
		p.Fill = append(p.Fill, b.Name)
	}

	n, k := len(t.Bots), t.Players
	if n == 0 {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No bots",
			Detail: "The tournament's bots list is empty. List the bots that take part, like [bot.alice, bot.bob].", Subject: rangePtr(t.Ranges["bots"])})
	}
	for _, c := range t.Candidates {
		p.Candidates = append(p.Candidates, c.Name)
	}
	clock := t.Game.Game.Clock()
	design := plan.Seatings(t.Seats, k)

	// rounds lists the groups of every listed round.
	var rounds [][][]string
	switch t.Format {
	case "groups", "swiss":
		sizes := plan.GroupSizes(n, k)
		// Groups are as even as possible, so the largest deficit is in the
		// smallest group.
		if need := k - sizes[len(sizes)-1]; need > len(t.Fill) {
			return nil, append(diags, notEnoughFill(t, fmt.Sprintf("%d bots make %d group(s) of %d seats, so up to %d seat(s) of a group must be filled",
				n, len(sizes), k, need), len(t.Fill)))
		}
		if count := len(sizes) * len(design) * t.Rounds; count > MaxMatches || count < 0 {
			return nil, append(diags, tooMany(t, "tournament"))
		}
		listed := t.Rounds
		switch {
		case t.Format == "swiss" && t.Rounds > 1:
			listed = 1
			p.Later = &plan.Later{Pairing: "swiss", From: 2}
		case t.Format == "groups" && t.RandomRounds > 0 && t.RandomRounds < t.Rounds:
			listed = t.RandomRounds
			p.Later = &plan.Later{Pairing: "rating", From: t.RandomRounds + 1}
		}
		for r := 1; r <= listed; r++ {
			order := p.DrawOrder(r, botNames(t.Bots))
			var groups [][]string
			start := 0
			for _, size := range sizes {
				members := make([]string, 0, k)
				for _, b := range order[start : start+size] {
					members = append(members, b)
				}
				start += size
				groups = append(groups, p.Complete(members))
			}
			rounds = append(rounds, groups)
		}
	case "round-robin":
		var names []string
		for _, b := range t.Bots {
			names = append(names, b.Name)
		}
		if count := binomial(n, k) * len(design) * t.Rounds; count > MaxMatches || count < 0 {
			return nil, append(diags, tooMany(t, "round robin"))
		}
		groups := combinations(names, k)
		for r := 1; r <= t.Rounds; r++ {
			rounds = append(rounds, groups)
		}
	case "gauntlet":
		cand := map[string]bool{}
		for _, c := range t.Candidates {
			cand[c.Name] = true
		}
		var opponents []string
		for _, b := range t.Bots {
			if !cand[b.Name] {
				opponents = append(opponents, b.Name)
			}
		}
		if need := k - 1 - len(opponents); need > len(t.Fill) {
			return nil, append(diags, notEnoughFill(t, fmt.Sprintf("A gauntlet match seats a candidate with %d opponents, and the field has %d", k-1, len(opponents)), len(t.Fill)))
		}
		var groups [][]string
		for _, c := range t.Candidates {
			if len(opponents) < k-1 {
				groups = append(groups, p.Complete(append([]string{c.Name}, opponents...)))
				continue
			}
			for _, opp := range combinations(opponents, k-1) {
				groups = append(groups, append([]string{c.Name}, opp...))
			}
		}
		if count := len(groups) * len(design) * t.Rounds; count > MaxMatches || count < 0 {
			return nil, append(diags, tooMany(t, "gauntlet"))
		}
		for r := 1; r <= t.Rounds; r++ {
			rounds = append(rounds, groups)
		}
	}
	if t.Rating == "placement" {
		if p.Later == nil {
			p.Later = &plan.Later{}
		}
		p.Later.Playoffs = true
	}
	if p.Later != nil {
		p.Later.Clock = clock
		p.Later.Variants = variants
	}
	if s := t.Stop; s != nil {
		p.Stop = &plan.Stop{MaxMatches: s.MaxMatches, IntervalWidth: s.IntervalWidth}
		if s.SPRT != nil {
			cand := t.Bots[0].Name
			if len(t.Candidates) == 1 {
				cand = t.Candidates[0].Name
			}
			p.Stop.SPRT = &plan.SPRT{Candidate: cand, Elo0: s.SPRT.Elo0, Elo1: s.SPRT.Elo1, Alpha: s.SPRT.Alpha, Beta: s.SPRT.Beta}
			if s.SPRT.Model != config.SPRTModels[0] {
				p.Stop.SPRT.Model = s.SPRT.Model
			}
		}
	}

	for i, groups := range rounds {
		p.Matches = append(p.Matches, p.ListedRound(i+1, groups, clock, variants)...)
	}
	p.Hash = p.ComputeHash()
	return p, diags
}

// MaxMatches caps the size of a plan, against a round robin or a seat
// design that would list more matches than anyone can play.
const MaxMatches = 1_000_000

func notEnoughFill(t *config.Tournament, why string, have int) *hcl.Diagnostic {
	subject := rangePtr(t.Ranges["fill"])
	if subject == nil {
		subject = rangePtr(t.Ranges["bots"])
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not enough fill bots",
		Detail:  fmt.Sprintf("%s, but fill lists %d bot(s). Add house bots to fill, or change the field or players.", why, have),
		Subject: subject}
}

func tooMany(t *config.Tournament, what string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many matches",
		Detail:  fmt.Sprintf("This %s would list more than %d matches. Use fewer bots, fewer players per match, a smaller seat design (\"balanced\" instead of \"permute\") or format \"groups\".", what, MaxMatches),
		Subject: rangePtr(t.Ranges["bots"])}
}

// combinations lists every k-subset of items, in lexicographic order of
// positions.
func combinations(items []string, k int) [][]string {
	var out [][]string
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	for k <= len(items) {
		c := make([]string, k)
		for i, j := range idx {
			c[i] = items[j]
		}
		out = append(out, c)
		i := k - 1
		for i >= 0 && idx[i] == len(items)-k+i {
			i--
		}
		if i < 0 {
			break
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
	return out
}

// binomial is n choose k, or -1 when it exceeds MaxMatches.
func binomial(n, k int) int {
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
		if c > MaxMatches {
			return -1
		}
	}
	return c
}

func planBot(root string, b *config.Bot) plan.Bot {
	pb := plan.Bot{Name: b.Name, House: b.House, Env: b.Env}
	if b.Nick != b.Name {
		pb.Nick = b.Nick
	}
	if b.House == "" {
		pb.Command = b.Command
		pb.Dir = b.Dir
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

func botNames(bots []*config.Bot) []string {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	return names
}
