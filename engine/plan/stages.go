package plan

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Stage is one stage of a tournament played in stages (see
// docs/stages.md): its own format over its own field, split into pools
// ("groups" in the organisers' words: A, B, C, ...). A stage's field is
// named bots, or picks from the standings of earlier stages, which are
// known only when those stages have finished; its matches are then a pure
// function of the plan and the results of the stages before it.
type Stage struct {
	Name   string            `json:"name"`
	Format tournament.Format `json:"format"`
	// Players is the seats of a match; 0 seats a whole pool in every
	// match.
	Players int                   `json:"players,omitempty"`
	Rounds  int                   `json:"rounds"`
	Seats   tournament.SeatDesign `json:"seats"`
	Rating  tournament.Rating     `json:"rating,omitempty"`
	// Pools is how many pools the field is split into; Split how:
	// "random" (snake over the round's random draw) or "seeded" (snake
	// over the order of Bots: best seed to pool A, next to B, ...).
	Pools int    `json:"pools"`
	Split string `json:"split"`
	// TopShort, with Split "seeded", makes the top seeds' pools the short
	// ones (A first) when the field does not divide by Pools: the last,
	// partial row of the snake goes to the last pools. False in a plan
	// made before the rule, whose snake filled the last row from where
	// it ran, so that the top seed's pool was the only large one.
	TopShort bool `json:"top_short,omitempty"`
	// Bots is the field, in seeding order; a bot picked twice counts at
	// its first pick.
	Bots []Pick `json:"bots"`
	// Gate makes the stage an entry gate: every bot of the field plays
	// Games matches against the gate's bots, and is admitted when it
	// made no fault in them.
	Gate *Gate `json:"gate,omitempty"`
	// Playoffs says that bots the stage's rating leaves tied on mean
	// place in a group play placement playoffs among themselves when the
	// stage's matches have finished (rating "placement", not a gate), up
	// to MaxPlayoffs of them, before a later stage picks from it. A plan
	// written before stages played playoffs has none.
	Playoffs bool `json:"playoffs,omitempty"`
	// Clock and Variants are what the stage's matches play with.
	Clock    drivers.Clock `json:"clock"`
	Variants []string      `json:"variants,omitempty"`
}

// Pick is part of a stage's field: a named bot, or places From..To of
// every pool of an earlier stage (ordered by place, then pool: all the
// winners, then all the runners-up, ...), or the bots an earlier gate
// admitted (in its field's order).
type Pick struct {
	Bot      string `json:"bot,omitempty"`
	Stage    string `json:"stage,omitempty"`
	From     int    `json:"from,omitempty"`
	To       int    `json:"to,omitempty"`
	Admitted bool   `json:"admitted,omitempty"`
}

// Gate is an entry gate's condition.
type Gate struct {
	// Against are the bots every bot of the field plays (never admitted
	// themselves).
	Against []string `json:"against"`
	// Games is how many matches each bot plays against each of Against.
	Games int `json:"games"`
}

// Static is whether the stage's field is named bots only, so that its
// matches can be listed before anything runs.
func (s *Stage) Static() bool {
	for _, p := range s.Bots {
		if p.Bot == "" {
			return false
		}
	}
	return true
}

// MayBeUneven says whether the stage's pools can differ in size, so that
// which of them are short matters: more than one pool, and a field of
// named bots that does not divide by them, or a field picked from
// earlier stages, whose size is known only when they have finished.
func (s *Stage) MayBeUneven() bool {
	if s.Pools <= 1 {
		return false
	}
	if !s.Static() {
		return true
	}
	var field []string
	for _, pick := range s.Bots {
		if !slices.Contains(field, pick.Bot) {
			field = append(field, pick.Bot)
		}
	}
	n := min(s.Pools, len(field))
	return n > 1 && len(field)%n != 0
}

// MakesLater says whether the run makes matches from results that the
// plan cannot list: later stages, rounds paired by rating or score, or
// placement playoffs.
func (p *Plan) MakesLater() bool {
	return len(p.Stages) > 0 || p.Later != nil
}

// ListedStages is how many stages, from the first, a plan lists before
// the run: those whose fields, like all before them, are named bots.
func (p *Plan) ListedStages() int {
	for k := range p.Stages {
		if !p.Stages[k].Static() {
			return k
		}
	}
	return len(p.Stages)
}

// StageIndex is the index of the stage called name, or -1.
func (p *Plan) StageIndex(name string) int {
	for k := range p.Stages {
		if p.Stages[k].Name == name {
			return k
		}
	}
	return -1
}

// PoolName is the letter of pool g (1-based): A, B, ... Z, then 27, 28...
func PoolName(g int) string {
	if g >= 1 && g <= 26 {
		return string(rune('A' + g - 1))
	}
	return fmt.Sprint(g)
}

// SplitPools splits the field of stage k (its bots, in seeding order)
// into its pools: snake order over the field ("seeded") or over the
// field's random draw ("random"), so pool sizes differ by at most one and
// each pool gets one bot of every Pools consecutive seeds.
func (p *Plan) SplitPools(k int, field []string) [][]string {
	st := &p.Stages[k]
	order := field
	if st.Split == "random" {
		order = stageDraw(p.Seed, st.Name, field)
	}
	n := min(st.Pools, len(order))
	if n == 0 {
		return nil
	}
	pools := make([][]string, n)
	topShort := st.Split == "seeded" && st.TopShort
	for i, b := range order {
		g := snakePool(i, n, len(order), topShort)
		pools[g] = append(pools[g], b)
	}
	if st.Split == "random" && len(order)%n != 0 {
		// The snake leaves the first groups short; which groups have
		// fewer members is drawn too (Fibot: "a randomly chosen group
		// will have fewer members"), from the seed and the stage's name.
		names := make([]string, n)
		for g := range names {
			names[g] = PoolName(g + 1)
		}
		drawn := stageDraw(p.Seed, st.Name+"#short", names)
		shuffled := make([][]string, n)
		for g, name := range drawn {
			shuffled[g] = pools[slices.Index(names, name)]
		}
		pools = shuffled
	}
	return pools
}

// snakePool is the pool (0-based) of seed i (0-based) of total in n
// pools, snake-wise: row by row of n seeds, every other row backwards.
// With topShort the last, partial row of m seeds goes to the last m
// pools (in the row's direction), so the top seeds' pools are the short
// ones; otherwise it runs from where its row starts.
func snakePool(i, n, total int, topShort bool) int {
	row, col := i/n, i%n
	backward := row%2 == 1
	if m := total % n; topShort && row == total/n {
		if backward {
			return n - 1 - col
		}
		return n - m + col
	}
	if backward {
		return n - 1 - col
	}
	return col
}

// stageDraw is the field of a stage in a random order drawn from the
// tournament seed and the stage's name, independent of the field's order.
func stageDraw(seed uint64, stage string, bots []string) []string {
	h := fnv.New64a()
	h.Write([]byte(stage))
	return drawOrder(seed^h.Sum64(), 0, bots)
}

// StagePoolGroups lists the groups of one pool of stage k (of members
// seated Players at a time, all of them when 0), round by round, by the
// stage's format; seats reports whether the game can seat that many.
// A pool that cannot be seated plays nothing.
func (p *Plan) StagePoolGroups(k int, members []string) ([][][]string, error) {
	st := &p.Stages[k]
	players := st.Players
	if players == 0 {
		players = len(members)
	}
	setup := &tournament.Setup{Bots: members, Players: players, Rounds: st.Rounds,
		Seatings: len(st.Seats.ForGroup(players).Seatings(players)),
		Draw:     func(r int) []string { return stageDraw(p.Seed^uint64(r), st.Name, members) }}
	if st.Gate != nil {
		setup.Bots = append(append([]string{}, members...), st.Gate.Against...)
		setup.Candidates = members
	}
	if st.Gate == nil && len(members) < players || len(members) == 0 || players < 1 {
		return nil, nil
	}
	l, err := st.Format.List(setup)
	if err != nil {
		return nil, err
	}
	if l.Pairing != tournament.NoPairing {
		return nil, fmt.Errorf("format %v pairs rounds from results, which a stage does not", st.Format)
	}
	return l.Rounds, nil
}

// StageMatches lists the matches of pool g (1-based) of stage k from its
// rounds of groups (StagePoolGroups). Ids are
// <stage>-<pool>-r<round>-g<group>-s<seating>; seeds come from a stream
// of the stage and pool, so no two stages share deals.
func (p *Plan) StageMatches(k, g int, rounds [][][]string) []Match {
	st := &p.Stages[k]
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", st.Name, g)
	var out []Match
	for r, groups := range rounds {
		for gi, members := range groups {
			design := st.Seats.ForGroup(len(members)).Seatings(len(members))
			for s, perm := range design {
				seats := make([]string, len(perm))
				for i, m := range perm {
					seats[i] = members[m]
				}
				out = append(out, Match{
					ID:    fmt.Sprintf("%s-%s-r%03d-g%02d-s%d", st.Name, PoolName(g), r+1, gi+1, s+1),
					Round: r + 1, Group: gi + 1, Shift: s + 1,
					Stage: st.Name, Pool: g,
					Seed:    dealSeed(p.Seed^h.Sum64(), p.Deal, streamStages, r+1, gi+1, s+1),
					Seats:   seats,
					Clock:   st.Clock,
					Variant: variant(st.Variants, r+1),
				})
			}
		}
	}
	return out
}

// StagePlayoffMatches lists the matches of playoff n (1-based) of stage
// k, ties[g] being the groups of tied bots of pool g+1: each group plays
// alone, with as many seats as it has bots, in the stage's seat design
// for that many (as a single tournament's playoffs do). Ids are
// playoff-<stage>-<pool>-<n>-g<group>-s<seating>, which no stage's match
// has (no stage is named "playoff") and no other stage's playoff has;
// their round is the stage's Rounds+n, and seeds come from the playoffs'
// stream of the stage and pool, so a playoff never repeats a deal of the
// stage's rounds nor of another pool.
func (p *Plan) StagePlayoffMatches(k, n int, ties [][][]string) []Match {
	st := &p.Stages[k]
	r := st.Rounds + n
	var out []Match
	for g, groups := range ties {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", st.Name, g+1)
		for gi, members := range groups {
			for s, perm := range st.Seats.ForGroup(len(members)).Seatings(len(members)) {
				seats := make([]string, len(perm))
				for i, m := range perm {
					seats[i] = members[m]
				}
				out = append(out, Match{
					ID:    StagePlayoffID(st.Name, g+1, n, gi+1, s+1),
					Round: r, Group: gi + 1, Shift: s + 1,
					Stage: st.Name, Pool: g + 1,
					Seed:    dealSeed(p.Seed^h.Sum64(), p.Deal, streamPlayoffs, r, gi+1, s+1),
					Seats:   seats,
					Clock:   st.Clock,
					Variant: variant(st.Variants, r),
				})
			}
		}
	}
	return out
}

// StagePlayoffID is the id of seating s of tie g of pool pool's playoff
// n of stage name: playoff-<stage>-<pool>-<n>-g<tie>-s<seating>.
func StagePlayoffID(name string, pool, n, g, s int) string {
	return fmt.Sprintf("playoff-%s-%s-%d-g%02d-s%d", name, PoolName(pool), n, g, s)
}

// DescribeStage says in a sentence what stage k plays and who plays it.
func (p *Plan) DescribeStage(k int) string {
	st := &p.Stages[k]
	var who []string
	for _, pick := range st.Bots {
		switch {
		case pick.Bot != "":
			if len(who) > 0 && strings.HasPrefix(who[len(who)-1], "bots ") {
				who[len(who)-1] += ", " + pick.Bot
				continue
			}
			who = append(who, "bots "+pick.Bot)
		case pick.Admitted:
			who = append(who, "the bots stage "+pick.Stage+" admitted")
		case pick.From == pick.To:
			who = append(who, fmt.Sprintf("place %d of every group of stage %s", pick.From, pick.Stage))
		default:
			who = append(who, fmt.Sprintf("places %d-%d of every group of stage %s", pick.From, pick.To, pick.Stage))
		}
	}
	split := "at random"
	switch {
	case st.Split == "seeded" && (st.TopShort || !st.MayBeUneven()):
		split = "seeded in that order, snake-wise"
	case st.Split == "seeded" && st.MayBeUneven():
		split = "seeded in that order, snake-wise, by the rule of the arbiter that made the plan: short groups where the last row runs out, not the top seeds'"
	}
	seats := "the whole group in every match"
	if st.Players > 0 {
		seats = fmt.Sprintf("every combination of %d", st.Players)
	}
	if st.Gate != nil {
		return fmt.Sprintf("Stage %s (gate): %s, each against %s in %d round(s) (seats %s); admitted when it made no fault in them.",
			st.Name, strings.Join(who, "; "), strings.Join(st.Gate.Against, ", "), st.Rounds, st.Seats)
	}
	when := ""
	if k >= p.ListedStages() {
		when = " (matches made when the stages before it have finished)"
	}
	rank := st.Rating.Describe()
	switch {
	case st.Playoffs:
		rank = fmt.Sprintf("by mean place, ties broken by playoffs (up to %d, ids playoff-%s-*, to come when the stage's matches have finished)", MaxPlayoffs, st.Name)
	case st.Rating.Playoffs():
		rank = "by mean place (this plan's stages play no playoffs: ties by Elo, then name)"
	}
	return fmt.Sprintf("Stage %s: %s, in %d group(s) %s; %s, %d round(s), seats %s, ranked %s%s.",
		st.Name, strings.Join(who, "; "), st.Pools, split, seats, st.Rounds, st.Seats, rank, when)
}

// Coming are the rounds that the run groups from results (Later.Pairing)
// and that a plan holding the rounds made so far does not list yet,
// First to Last: their matches are not in the plan and so not in its
// count.
type Coming struct {
	First   int                `json:"first"`
	Last    int                `json:"last"`
	Pairing tournament.Pairing `json:"pairing"`
}

// RoundsToCome are p's rounds to come, nil when none is.
func (p *Plan) RoundsToCome() *Coming {
	if p.Later == nil || p.Later.Pairing == tournament.NoPairing || p.Later.From < 1 {
		return nil
	}
	made := p.Later.From - 1
	for _, m := range p.Matches {
		if m.Stage == "" && m.Round <= p.Rounds {
			made = max(made, m.Round)
		}
	}
	if made >= p.Rounds {
		return nil
	}
	return &Coming{made + 1, p.Rounds, p.Later.Pairing}
}

// String says c after a count of matches that leaves its rounds out:
// " (rounds 4-6 to come, grouped by rating)", " (round 6 to come, paired
// by score)", "" for nil.
func (c *Coming) String() string {
	if c == nil {
		return ""
	}
	how := "grouped by rating"
	if c.Pairing == tournament.ByScore {
		how = "paired by score"
	}
	if c.First == c.Last {
		return fmt.Sprintf(" (round %d to come, %s)", c.First, how)
	}
	return fmt.Sprintf(" (rounds %d-%d to come, %s)", c.First, c.Last, how)
}
