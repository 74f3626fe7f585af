package config

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/tournament"
)

// Tournament is a `tournament "name"` block.
type Tournament struct {
	Name string
	Game *Game
	// Bots is the field; Fill are bots that complete groups when the field
	// does not divide by Players.
	Bots []*Bot
	Fill []*Bot
	// Format is how bots are put together into matches (see
	// docs/formats.md).
	Format  tournament.Format
	Rounds  int
	Players int
	// Candidates are the bots a gauntlet tests against the rest of the field.
	Candidates []*Bot
	// RandomRounds is, for the groups format, how many rounds are grouped
	// at random before groups are made by rating; 0 means every round.
	RandomRounds int
	// Seats is the seat design of each group.
	Seats tournament.SeatDesign
	// Deal says which matches share a deal seed.
	Deal tournament.DealMode
	Seed uint64
	// Rating is the ranking reported first.
	Rating tournament.Rating
	// Stop is the sequential stopping rule, or nil.
	Stop *Stop
	// Order is the order of a round's matches: the configuration's, or
	// the game's own (drivers.Ordered), or by group.
	Order tournament.Order

	DeclRange hcl.Range
	// Ranges of the attributes, for diagnostics found later (e.g. by the plan).
	Ranges map[string]hcl.Range
	Limits *Limits // defaults for every bot; nil without a limits block
	// Stages are the stages of a tournament played in stages, in order
	// (nil: one stage, the tournament's own format); see docs/stages.md.
	Stages []*Stage
	// Grades label bands of the final ranking, narrowest first.
	Grades []Grade
	// short are the bot list attributes (bots, fill) that name a
	// bots_from block in error: a list short of bots for it is a
	// follow-on, not a mistake of its own.
	short map[string]bool
}

var tournamentSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "game", Required: true},
		{Name: "bots", Required: true},
		{Name: "fill"},
		{Name: "format"},
		{Name: "rounds"},
		{Name: "players"}, // required without stages
		{Name: "seats"},
		{Name: "deal"},
		{Name: "order"},
		{Name: "seed"},
		{Name: "rating"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "gauntlet"},
		{Type: "groups"},
		{Type: "swiss"},
		{Type: "stop"},
		{Type: "stage", LabelNames: []string{"name"}},
		{Type: "grades"},
		LimitsBlock,
	},
}

// shortLists are the attributes among attrs, bots and fill, that refer
// to a bots_from block in error (BotsFrom.failed).
func (l *loader) shortLists(attrs hcl.Attributes) map[string]bool {
	short := map[string]bool{}
	for _, name := range []string{"bots", "fill"} {
		a, ok := attrs[name]
		if !ok {
			continue
		}
		for _, tr := range a.Expr.Variables() {
			from, _, ok := attrStep(tr, 1)
			if !ok || tr.RootName() != "bots_from" {
				continue
			}
			for _, bf := range l.botsFrom {
				short[name] = short[name] || bf.Name == from && bf.failed
			}
		}
	}
	return short
}

func (l *loader) loadTournaments() hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*Tournament{}
	for _, b := range l.blocks["tournament"] {
		if want := l.opts.Tournament; want != "" && len(b.Labels) > 0 && b.Labels[0] != want {
			l.cfg.Unchecked = append(l.cfg.Unchecked, b.Labels[0])
			continue
		}
		t, d := l.decodeTournamentBlock(b)
		diags = append(diags, d...)
		if first, ok := seen[t.Name]; ok {
			diags = append(diags, duplicate("tournament", t.Name, first.DeclRange, t.DeclRange))
			continue
		}
		seen[t.Name] = t
		if !d.HasErrors() {
			l.cfg.Tournaments = append(l.cfg.Tournaments, t)
		}
	}
	return diags
}

func (l *loader) decodeTournamentBlock(b *hcl.Block) (t *Tournament, diags hcl.Diagnostics) {
	// Format, seats, deal and rating default to their zero values.
	t = &Tournament{Name: b.Labels[0], DeclRange: b.DefRange, Ranges: map[string]hcl.Range{}, Rounds: 1, Seed: 1}
	content, diags := b.Body.Content(tournamentSchema)
	var ld hcl.Diagnostics
	t.Limits, ld = l.limitsOf(content.Blocks, scopeTournament)
	diags = append(diags, ld...)
	vals := map[string]cty.Value{}
	for name, a := range content.Attributes {
		t.Ranges[name] = a.Expr.Range()
		v, d := l.value(a.Expr, scopeTournament)
		diags = append(diags, d...)
		if !d.HasErrors() {
			vals[name] = v
		}
	}
	if v, ok := vals["game"]; ok {
		t.Game = l.gameOf(v)
		if t.Game == nil {
			diags = append(diags, errDiag("Invalid game reference",
				"game must refer to a game block, like game.planowanie.itpw.", rangePtr(t.Ranges["game"])))
		}
	}
	t.short = l.shortLists(content.Attributes)
	var d hcl.Diagnostics
	t.Bots, d = l.botList(vals, "bots", t.Ranges)
	diags = append(diags, d...)
	t.Fill, d = l.botList(vals, "fill", t.Ranges)
	diags = append(diags, d...)
	diags = append(diags, intAttr(vals, "rounds", t.Ranges, 1, math.MaxInt32, &t.Rounds)...)
	diags = append(diags, intAttr(vals, "players", t.Ranges, 1, 1000, &t.Players)...)
	diags = append(diags, choiceAttr(vals, "format", t.Ranges, tournament.Formats, &t.Format)...)
	diags = append(diags, choiceAttr(vals, "seats", t.Ranges, tournament.SeatDesigns, &t.Seats)...)
	diags = append(diags, choiceAttr(vals, "deal", t.Ranges, tournament.DealModes, &t.Deal)...)
	diags = append(diags, choiceAttr(vals, "rating", t.Ranges, tournament.Ratings, &t.Rating)...)
	diags = append(diags, t.decodeOrder(vals)...)
	if v, ok := vals["seed"]; ok {
		var seed int64
		if err := gocty.FromCtyValue(toNumber(v), &seed); err != nil || seed < 0 {
			diags = append(diags, errDiag("Invalid seed",
				fmt.Sprintf("seed must be a whole number from 0 to %d, not %s: it is what makes the tournament reproducible.", int64(math.MaxInt64), describe(v)), rangePtr(t.Ranges["seed"])))
		} else {
			t.Seed = uint64(seed)
		}
	}
	seen := map[string]string{}
	for _, list := range []struct {
		attr string
		bots []*Bot
	}{{"bots", t.Bots}, {"fill", t.Fill}} {
		for _, bot := range list.bots {
			if where, ok := seen[bot.Name]; ok {
				diags = append(diags, errDiag("Bot listed twice",
					fmt.Sprintf("bot.%s is already in %s. A bot can take part only once; declare another bot block to field a second copy.", bot.Name, where),
					rangePtr(t.Ranges[list.attr])))
			}
			seen[bot.Name] = list.attr
		}
	}
	staged, d := l.decodeStagesAndGrades(t, content)
	if diags = append(diags, d...); staged {
		// Stages list their matches their own way: a game's default
		// order is not theirs (an order attribute is an error).
		t.Order = tournament.ByGroup
		return t, append(diags, l.checkBotsOf(t)...)
	}
	defer func() {
		diags = append(diags, l.checkBotsOf(t)...)
	}()
	if _, ok := content.Attributes["players"]; !ok {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument",
			Detail: `The argument "players" is required, but no definition was found.`, Subject: b.Body.MissingItemRange().Ptr()})
	}
	diags = append(diags, l.decodeFormatBlocks(t, content.Blocks)...)
	if t.Game != nil && t.Players > 0 && t.Game.Game != nil {
		diags = append(diags, t.Game.Game.CheckSeats(t.Players, t.Ranges["players"])...)
	}
	return t, diags
}

// checkHouseGames refuses a house bot of another game than t's: it would
// not understand the game's protocol, and crash every match it plays.
// Each such bot is reported once, where t first lists it.
func (l *loader) checkHouseGames(t *Tournament) hcl.Diagnostics {
	if t.Game == nil || l.opts.Driver == nil {
		return nil
	}
	type use struct {
		bot *Bot
		rng hcl.Range
	}
	var uses []use
	for _, attr := range []string{"bots", "fill"} {
		list := t.Bots
		if attr == "fill" {
			list = t.Fill
		}
		for _, b := range list {
			uses = append(uses, use{b, t.Ranges[attr]})
		}
	}
	for _, s := range t.Stages {
		for _, p := range s.Bots {
			if p.Bot != nil {
				uses = append(uses, use{p.Bot, p.Range})
			}
		}
		if s.Gate != nil {
			for _, b := range s.Gate.Against {
				uses = append(uses, use{b, s.Ranges["gate.against"]})
			}
		}
	}
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	for _, u := range uses {
		if u.bot == nil || u.bot.House == "" || seen[u.bot.Name] {
			continue
		}
		seen[u.bot.Name] = true
		driver, _, _ := strings.Cut(u.bot.House, "/")
		if driver == t.Game.Driver {
			continue
		}
		var own []string
		if drv, ok := l.opts.Driver(t.Game.Driver); ok {
			for _, hb := range drv.HouseBots() {
				own = append(own, t.Game.Driver+"/"+hb.Name)
			}
		}
		rng := u.rng
		if rng.Filename == "" {
			rng = t.DeclRange
		}
		diags = append(diags, errDiag("House bot of another game",
			fmt.Sprintf("bot.%s (declared at %s:%d) is %q, a %s bot, but the game of tournament %q is %s, whose house bots are %s. Use one of those, or a bot with a command.",
				u.bot.Name, u.bot.DeclRange.Filename, u.bot.DeclRange.Start.Line, u.bot.House, gameTitle(driver), t.Name, t.Game.Driver, listOrNone(own)),
			&rng))
	}
	return diags
}

// checkBotsOf checks the bots of tournament t against its game: house
// bots of another game, nicks its files could not tell apart, names it
// cannot use (checkBotNamesUsed), bots out of a sandbox it requires
// (checkSandboxDropped), Java bots.
func (l *loader) checkBotsOf(t *Tournament) hcl.Diagnostics {
	bots := allBots(t)
	diags := append(l.checkHouseGames(t), checkNicks(t, bots)...)
	diags = append(diags, checkBotNamesUsed(t, bots)...)
	diags = append(diags, checkSandboxDropped(t, bots)...)
	return append(diags, l.checkJava(t, bots)...)
}

// checkBotNamesUsed refuses a bot of tournament t whose name its game
// would use in its own files, where the name cannot serve
// (drivers.BotNameUser: Auction's prefix "log" or "state" taken from a
// bot's name), at the bot's block, once per bot.
func checkBotNamesUsed(t *Tournament, bots []*Bot) hcl.Diagnostics {
	if t.Game == nil {
		return nil
	}
	nu, ok := t.Game.Game.(drivers.BotNameUser)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	done := map[*Bot]bool{}
	for _, b := range bots {
		if b == nil || done[b] {
			continue
		}
		done[b] = true
		if why := nu.BotNameProblem(b.Name); why != "" {
			rng := b.DeclRange
			diags = append(diags, errDiag("Invalid file prefix", why, &rng))
		}
	}
	return diags
}

// allBots are every bot tournament t names: its bots, its fill, its
// stages' bots and gates' opponents, in that order (a bot may come more
// than once).
func allBots(t *Tournament) []*Bot {
	bots := append(slices.Clone(t.Bots), t.Fill...)
	for _, s := range t.Stages {
		for _, p := range s.Bots {
			if p.Bot != nil {
				bots = append(bots, p.Bot)
			}
		}
		if s.Gate != nil {
			bots = append(bots, s.Gate.Against...)
		}
	}
	return bots
}

// gameTitle is a driver's name as the name of its game: "Bricks".
func gameTitle(driver string) string {
	if driver == "" {
		return driver
	}
	return strings.ToUpper(driver[:1]) + driver[1:]
}

// decodeOrder sets the order of a round's matches: the order attribute,
// or else the game's own order, or by group.
func (t *Tournament) decodeOrder(vals map[string]cty.Value) hcl.Diagnostics {
	if _, ok := vals["order"]; ok {
		return choiceAttr(vals, "order", t.Ranges, tournament.Orders, &t.Order)
	}
	if t.Game == nil {
		return nil
	}
	o, ok := t.Game.Game.(drivers.Ordered)
	if !ok {
		return nil
	}
	if err := t.Order.UnmarshalText([]byte(o.DefaultOrder())); err != nil {
		panic(fmt.Sprintf("config: the %s driver's default order: %v", t.Game.Driver, err))
	}
	return nil
}

func rangePtr(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return &r
}

func (l *loader) gameOf(v cty.Value) *Game {
	if !v.Type().IsObjectType() || !v.Type().HasAttribute("game") || !v.Type().HasAttribute("driver") {
		return nil
	}
	driver, name := v.GetAttr("driver").AsString(), v.GetAttr("game").AsString()
	for _, g := range l.cfg.Games {
		if g.Driver == driver && g.Name == name {
			return g
		}
	}
	return nil
}

// botList decodes a list of bot references.
func (l *loader) botList(vals map[string]cty.Value, attr string, ranges map[string]hcl.Range) ([]*Bot, hcl.Diagnostics) {
	v, ok := vals[attr]
	if !ok || v.IsNull() {
		return nil, nil
	}
	rng := rangePtr(ranges[attr])
	if !(v.Type().IsTupleType() || v.Type().IsListType()) {
		return nil, hcl.Diagnostics{errDiag("Invalid bot list",
			fmt.Sprintf("%s must be a list of bots, like [bot.alice, bot.bob].", attr), rng)}
	}
	var bots []*Bot
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if !e.Type().IsObjectType() || !e.Type().HasAttribute("bot") {
			return nil, hcl.Diagnostics{errDiag("Invalid bot list",
				fmt.Sprintf("Every element of %s must be a bot reference like bot.alice; found %s.", attr, e.Type().FriendlyName()), rng)}
		}
		bots = append(bots, l.cfg.Bot(e.GetAttr("bot").AsString()))
	}
	return bots, nil
}

func intAttr(vals map[string]cty.Value, attr string, ranges map[string]hcl.Range, min, max int, dst *int) hcl.Diagnostics {
	v, ok := vals[attr]
	if !ok {
		return nil
	}
	var n int
	if err := gocty.FromCtyValue(toNumber(v), &n); err != nil || n < min || n > max {
		return hcl.Diagnostics{errDiag("Invalid "+attr,
			fmt.Sprintf("%s must be a whole number from %d to %d, not %s.", attr, min, max, describe(v)), rangePtr(ranges[attr]))}
	}
	*dst = n
	return nil
}

// choiceAttr decodes a string that names one of choices (strings, or
// values whose String is their name).
func choiceAttr[T any](vals map[string]cty.Value, attr string, ranges map[string]hcl.Range, choices []T, dst *T) hcl.Diagnostics {
	v, ok := vals[attr]
	if !ok {
		return nil
	}
	names := make([]string, len(choices))
	for i, c := range choices {
		names[i] = fmt.Sprint(c)
	}
	var s string
	i := -1
	if err := gocty.FromCtyValue(v, &s); err == nil {
		i = slices.Index(names, s)
	}
	if i < 0 {
		return hcl.Diagnostics{errDiag("Invalid "+attr,
			fmt.Sprintf("%s must be one of \"%s\"%s.", attr, strings.Join(names, `", "`), suggest(s, names)), rangePtr(ranges[attr]))}
	}
	*dst = choices[i]
	return nil
}
