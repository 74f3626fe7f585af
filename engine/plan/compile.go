package plan

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
	"github.com/arbiter-contests/arbiter/drivers"
)

// Streams of the random source: each decision draws from its own stream,
// so changing how one is made never shifts another.
const (
	streamGroups   = 1
	streamDeals    = 2
	streamPlayoffs = 3
)

// Compile turns a tournament of cfg into a plan.
func Compile(cfg *config.Config, t *config.Tournament) (*Plan, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	settings, err := json.Marshal(t.Game.Game.Settings())
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Game settings do not serialise",
			Detail: fmt.Sprintf("The %s driver produced settings that are not JSON (%v); this is a bug in arbiter.", t.Game.Driver, err), Subject: t.Game.DeclRange.Ptr()}}
	}
	p := &Plan{
		Version:    Version,
		Tournament: t.Name,
		Game:       Game{Driver: t.Game.Driver, Name: t.Game.Name, Settings: settings},
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
	design := Seatings(t.Seats, k)

	// rounds lists the groups of every listed round.
	var rounds [][][]string
	switch t.Format {
	case "groups", "swiss":
		sizes := GroupSizes(n, k)
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
			p.Later = &Later{Pairing: "swiss", From: 2}
		case t.Format == "groups" && t.RandomRounds > 0 && t.RandomRounds < t.Rounds:
			listed = t.RandomRounds
			p.Later = &Later{Pairing: "rating", From: t.RandomRounds + 1}
		}
		for r := 1; r <= listed; r++ {
			order := drawOrder(t.Seed, r, t.Bots)
			var groups [][]string
			start := 0
			for _, size := range sizes {
				members := make([]string, 0, k)
				for _, b := range order[start : start+size] {
					members = append(members, b.Name)
				}
				start += size
				groups = append(groups, p.complete(members))
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
				groups = append(groups, p.complete(append([]string{c.Name}, opponents...)))
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
			p.Later = &Later{}
		}
		p.Later.Playoffs = true
	}
	if p.Later != nil {
		p.Later.Clock = clock
		p.Later.Variants = variants
	}
	if s := t.Stop; s != nil {
		p.Stop = &Stop{MaxMatches: s.MaxMatches, IntervalWidth: s.IntervalWidth}
		if s.SPRT != nil {
			cand := t.Bots[0].Name
			if len(t.Candidates) == 1 {
				cand = t.Candidates[0].Name
			}
			p.Stop.SPRT = &SPRT{Candidate: cand, Elo0: s.SPRT.Elo0, Elo1: s.SPRT.Elo1, Alpha: s.SPRT.Alpha, Beta: s.SPRT.Beta}
			if s.SPRT.Model != config.SPRTModels[0] {
				p.Stop.SPRT.Model = s.SPRT.Model
			}
		}
	}

	for i, groups := range rounds {
		r := i + 1
		for g, members := range groups {
			p.Matches = append(p.Matches, p.groupMatches(fmt.Sprintf("r%03d-g%02d", r, g+1), streamDeals, r, g+1, members, design, clock, variant(variants, r))...)
		}
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

// complete fills a group up to Players seats with the plan's fill bots,
// in their order.
func (p *Plan) complete(members []string) []string {
	out := append([]string(nil), members...)
	for i := 0; len(out) < p.Players; i++ {
		out = append(out, p.Fill[i])
	}
	return out
}

// groupMatches lists the seatings of one group: match id+"-s<n>", seat i
// of seating s holding members[design[s][i]].
func (p *Plan) groupMatches(id string, stream uint64, r, g int, members []string, design [][]int, clock drivers.Clock, variant string) []Match {
	var out []Match
	for s, perm := range design {
		seats := make([]string, len(perm))
		for i, m := range perm {
			seats[i] = members[m]
		}
		out = append(out, Match{
			ID:    fmt.Sprintf("%s-s%d", id, s+1),
			Round: r, Group: g, Shift: s + 1,
			Seed:    dealSeed(p.Seed, p.Deal, stream, r, g, s+1),
			Seats:   seats,
			Clock:   clock,
			Variant: variant,
		})
	}
	return out
}

// RoundMatches lists the matches of a round r that the engine grouped
// (Later.Pairing): each group in seat order of its first seating, filled
// with fill bots, played in the plan's seat design. Ids and seeds follow
// the listed rounds' scheme, so a round's seeds are the same whether it
// was listed or paired.
func (p *Plan) RoundMatches(r int, groups [][]string) []Match {
	design := Seatings(p.Seats, p.Players)
	var out []Match
	for g, members := range groups {
		out = append(out, p.groupMatches(fmt.Sprintf("r%03d-g%02d", r, g+1), streamDeals, r, g+1, p.complete(members), design, p.Later.Clock, variant(p.Later.Variants, r))...)
	}
	return out
}

// PlayoffMatches lists the matches of playoff stage (1-based) between
// groups of tied bots: each group plays alone, with as many seats as it
// has bots, in the plan's seat design for that many (rotate where swap
// needs two bots, balanced where permute would be too many). Ids are
// playoff-<stage>-g<group>-s<seating>; seeds come from their own stream,
// so a playoff never repeats a round's deals; their round is
// Rounds+stage.
func (p *Plan) PlayoffMatches(stage int, groups [][]string) []Match {
	r := p.Rounds + stage
	var out []Match
	for g, members := range groups {
		design := p.Seats
		switch {
		case design == "swap" && len(members) != 2:
			design = "rotate"
		case design == "permute" && len(members) > config.MaxPermutePlayers:
			design = "balanced"
		}
		out = append(out, p.groupMatches(fmt.Sprintf("playoff-%d-g%02d", stage, g+1), streamPlayoffs, r, g+1, members,
			Seatings(design, len(members)), p.Later.Clock, variant(p.Later.Variants, r))...)
	}
	return out
}

// GroupSizes splits n bots into groups of at most k, as even as possible,
// larger groups first.
func GroupSizes(n, k int) []int {
	groups := (n + k - 1) / k
	sizes := make([]int, groups)
	for g := range sizes {
		sizes[g] = n / groups
		if g < n%groups {
			sizes[g]++
		}
	}
	return sizes
}

// DrawOrder is the order of the bots for round r's random draw (see
// drawOrder); later rounds use it to break ties.
func (p *Plan) DrawOrder(r int, names []string) []string {
	bots := make([]*config.Bot, len(names))
	for i, n := range names {
		bots[i] = &config.Bot{Name: n}
	}
	out := make([]string, len(names))
	for i, b := range drawOrder(p.Seed, r, bots) {
		out[i] = b.Name
	}
	return out
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

// drawOrder is the field in a random order for round r: every bot draws a
// number from a stream seeded by the tournament seed, the round and its
// name. Sorting by the draws, rather than shuffling the list, keeps the
// order of the other bots when one is added or removed, and makes the order
// of the bots list irrelevant.
func drawOrder(seed uint64, r int, bots []*config.Bot) []*config.Bot {
	type draw struct {
		bot *config.Bot
		key uint64
	}
	draws := make([]draw, len(bots))
	for i, b := range bots {
		h := fnv.New64a()
		h.Write([]byte(b.Name))
		draws[i] = draw{b, rand.NewPCG(seed^h.Sum64(), mix(streamGroups, uint64(r), 0, 0)).Uint64()}
	}
	sort.Slice(draws, func(i, j int) bool {
		if draws[i].key != draws[j].key {
			return draws[i].key < draws[j].key
		}
		return draws[i].bot.Name < draws[j].bot.Name
	})
	order := make([]*config.Bot, len(bots))
	for i, d := range draws {
		order[i] = d.bot
	}
	return order
}

// dealSeed derives a match's seed from the tournament seed and its place,
// never from anything else, so adding rounds or matches leaves the seeds of
// the others alone. Seeds stay below 2^53 so JSON readers in any language
// keep them exact.
func dealSeed(seed uint64, deal string, stream uint64, round, group, shift int) uint64 {
	switch deal {
	case "per-round":
		group, shift = 0, 0
	case "per-group":
		shift = 0
	}
	src := rand.NewPCG(seed, mix(stream, uint64(round), uint64(group), uint64(shift)))
	return src.Uint64() >> 11
}

// mix packs a stream number and a match's coordinates into the PCG's
// second seed word.
func mix(stream, round, group, shift uint64) uint64 {
	return stream<<60 ^ round<<32 ^ group<<16 ^ shift
}

// variant is round r's variant: they take turns, round by round.
func variant(variants []string, r int) string {
	if len(variants) == 0 {
		return ""
	}
	return variants[(r-1)%len(variants)]
}

func planBot(root string, b *config.Bot) Bot {
	pb := Bot{Name: b.Name, House: b.House, Env: b.Env}
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
