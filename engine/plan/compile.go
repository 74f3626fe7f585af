package plan

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/config"
)

// Streams of the random source: each decision draws from its own stream,
// so changing how one is made never shifts another.
const (
	streamGroups = 1
	streamDeals  = 2
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
	groups := (n + k - 1) / k
	// Groups are as even as possible, so the largest deficit is in the
	// smallest group.
	if need := k - n/groups; need > len(t.Fill) {
		subject := rangePtr(t.Ranges["fill"])
		if subject == nil {
			subject = rangePtr(t.Ranges["bots"])
		}
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Not enough fill bots",
			Detail: fmt.Sprintf("%d bots make %d group(s) of %d seats, so up to %d seat(s) of a group must be filled, but fill lists %d bot(s). Add house bots to fill, or change the field or players.",
				n, groups, k, need, len(t.Fill)),
			Subject: subject})
	}

	clock := t.Game.Game.Clock()
	shifts := 1
	if t.Seats == "rotate" {
		shifts = k
	}
	for r := 1; r <= t.Rounds; r++ {
		order := drawOrder(t.Seed, r, t.Bots)
		start := 0
		for g := 1; g <= groups; g++ {
			size := n / groups
			if g <= n%groups {
				size++
			}
			members := make([]string, 0, k)
			for _, b := range order[start : start+size] {
				members = append(members, b.Name)
			}
			start += size
			for i := 0; len(members) < k; i++ {
				members = append(members, t.Fill[i].Name)
			}
			for s := 1; s <= shifts; s++ {
				seats := make([]string, k)
				for i := range seats {
					seats[i] = members[(i+s-1)%k]
				}
				p.Matches = append(p.Matches, Match{
					ID:    fmt.Sprintf("r%03d-g%02d-s%d", r, g, s),
					Round: r, Group: g, Shift: s,
					Seed:  dealSeed(t, r, g, s),
					Seats: seats,
					Clock: clock,
				})
			}
		}
	}
	p.Hash = p.ComputeHash()
	return p, diags
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
func dealSeed(t *config.Tournament, round, group, shift int) uint64 {
	switch t.Deal {
	case "per-round":
		group, shift = 0, 0
	case "per-group":
		shift = 0
	}
	src := rand.NewPCG(t.Seed, mix(streamDeals, uint64(round), uint64(group), uint64(shift)))
	return src.Uint64() >> 11
}

// mix packs a stream number and a match's coordinates into the PCG's
// second seed word.
func mix(stream, round, group, shift uint64) uint64 {
	return stream<<60 ^ round<<32 ^ group<<16 ^ shift
}

func planBot(root string, b *config.Bot) Bot {
	pb := Bot{Name: b.Name, House: b.House, Env: b.Env}
	if b.House == "" {
		pb.Command = b.Command
		pb.Dir = b.Dir
		if rel, err := filepath.Rel(root, b.Dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
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
